"""The resampling engine: every bootstrap and permutation in evalbars goes through here.

Ideas (see docs/design.md):

- Resample the independent unit. The caller passes one row per unit (an item, or a
  whole cluster) holding that unit's sums; a resample of units is then a vector of
  counts per unit, and any statistic built from sums is ``counts @ unit_sums``.
- Where many units are identical (0/1 outcomes), the caller passes each distinct
  pattern once with its multiplicity; the counts are then multinomial over patterns,
  which is the same distribution at a cost independent of the number of items.
- Units are put in a canonical order (sorted by value) before drawing, so the result
  depends only on the multiset of units: shuffling rows or renaming ids changes nothing.
- Randomness comes in fixed blocks of ``BLOCK`` resamples, each from its own child of
  the caller's SeedSequence, so results never depend on batching or threads.
- The blocks are the parallelism: while they run, BLAS is held to one thread
  (threadpoolctl). A multithreaded BLAS inside the block threads spins against them:
  1.3-1.7x slower on an idle 2-core machine, 10x with both cores busy
  (benchmarks/bench_blas_threads.py).
"""
from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np
from threadpoolctl import ThreadpoolController

BLOCK = 512
"""Resamples drawn from one random stream. Fixed: changing it changes every number."""

_MAX_CELLS = 1 << 20
"""Largest number of (resample, unit) index cells held at once within a block."""


def _block_generator(seed: np.random.SeedSequence, block: int) -> np.random.Generator:
    child = np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (block,))
    return np.random.default_rng(child)


def _workers(n_blocks: int, work_per_block: int) -> int:
    if n_blocks < 2 or work_per_block < 200_000:
        return 1
    return max(1, min(os.cpu_count() or 1, 4, n_blocks))


@functools.cache
def _blas() -> ThreadpoolController:
    """The process's BLAS thread pools, found once (about 10 ms; a limit then costs 12 us)."""
    return ThreadpoolController()


def _run_blocks(
    n_resamples: int,
    n_columns: int,
    seed: np.random.SeedSequence,
    draw: Callable[[np.random.Generator, int], np.ndarray],
    work_per_block: int,
    progress: Callable[[int], None] | None,
) -> np.ndarray:
    """Fill an (n_resamples, n_columns) array block by block, using threads where it pays."""
    out = np.empty((n_resamples, n_columns))
    starts = list(range(0, n_resamples, BLOCK))

    def fill(block: int) -> int:
        start = starts[block]
        size = min(BLOCK, n_resamples - start)
        out[start : start + size] = draw(_block_generator(seed, block), size)
        return size

    workers = _workers(len(starts), work_per_block)
    with _blas().limit(limits=1, user_api="blas"):
        if workers == 1:
            for block in range(len(starts)):
                done = fill(block)
                if progress is not None:
                    progress(done)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                for done in pool.map(fill, range(len(starts))):
                    if progress is not None:
                        progress(done)
    return out


def bootstrap_sums(
    unit_sums: np.ndarray,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence,
    multiplicity: np.ndarray | None = None,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Column sums over bootstrap resamples of units drawn with replacement.

    Parameters
    ----------
    unit_sums : (K, m) array
        One row per unit (or per distinct unit pattern), one column per quantity.
    n_resamples : int
        Number of bootstrap resamples B.
    seed : numpy.random.SeedSequence
        Parent stream; block ``i`` draws from child ``i``.
    multiplicity : (K,) int array, optional
        How many units share each row. The resample then draws ``multiplicity.sum()``
        units, multinomially over rows; otherwise it draws K units uniformly.

    Returns
    -------
    (n_resamples, m) array of resampled column sums.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.0], [1.0], [1.0], [1.0]])
    >>> s = bootstrap_sums(x, n_resamples=1000, seed=np.random.SeedSequence(0))
    >>> s.shape, float(s.min()) >= 0, float(s.max()) <= 4
    ((1000, 1), True, True)
    """
    unit_sums = np.asarray(unit_sums, dtype=float)
    if unit_sums.ndim == 1:
        unit_sums = unit_sums[:, None]
    n_rows, n_columns = unit_sums.shape
    order = np.lexsort(unit_sums.T[::-1])
    unit_sums = unit_sums[order]
    if multiplicity is not None:
        multiplicity = np.asarray(multiplicity)[order]

    if multiplicity is not None:
        counts_total = int(np.sum(multiplicity))
        pvals = np.asarray(multiplicity, dtype=float) / counts_total

        def draw(rng: np.random.Generator, size: int) -> np.ndarray:
            counts = rng.multinomial(counts_total, pvals, size=size)
            return counts @ unit_sums

        return _run_blocks(n_resamples, n_columns, seed, draw, BLOCK * n_rows, progress)

    rows_per_chunk = max(1, _MAX_CELLS // max(n_rows, 1))

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        result = np.empty((size, n_columns))
        for start in range(0, size, rows_per_chunk):
            stop = min(size, start + rows_per_chunk)
            idx = rng.integers(0, n_rows, size=(stop - start, n_rows), dtype=np.intp)
            if n_columns == 1:
                result[start:stop, 0] = np.take(unit_sums[:, 0], idx).sum(axis=1)
            else:  # one count vector per resample serves every column
                idx += np.arange(stop - start)[:, None] * n_rows
                counts = np.bincount(idx.ravel(), minlength=(stop - start) * n_rows)
                result[start:stop] = counts.reshape(stop - start, n_rows) @ unit_sums
        return result

    return _run_blocks(n_resamples, n_columns, seed, draw, BLOCK * n_rows, progress)


def sign_flip_sums(
    d: np.ndarray,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Sums of ``d`` with each entry's sign flipped by a fair coin, one per resample.

    Returns an (n_resamples,) array: ``sum_i s_i d_i`` with independent s_i = +-1.

    >>> import numpy as np
    >>> s = sign_flip_sums(np.array([1.0, 2.0]), n_resamples=600, seed=np.random.SeedSequence(1))
    >>> sorted(set(s.tolist()))
    [-3.0, -1.0, 1.0, 3.0]
    """
    d = np.sort(np.asarray(d, dtype=float))
    n = d.size
    total = float(d.sum())
    rows_per_chunk = max(1, _MAX_CELLS // max(n, 1))

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        result = np.empty((size, 1))
        for start in range(0, size, rows_per_chunk):
            stop = min(size, start + rows_per_chunk)
            # Whole 32-bit words: numpy's uint32 stream is the same however it is split
            # into calls, so the bits never depend on the chunking (uint8 draws would).
            words = rng.integers(0, 2**32 - 1, size=(stop - start, (n + 31) // 32),
                                 dtype=np.uint32, endpoint=True)
            packed = words.astype("<u4").view(np.uint8)
            bits = np.unpackbits(packed, axis=1, count=n)
            # s_i = 2 bit_i - 1, so sum s_i d_i = 2 (bits @ d) - sum d
            result[start:stop, 0] = 2.0 * (bits @ d) - total
        return result

    return _run_blocks(n_resamples, 1, seed, draw, BLOCK * n, progress)[:, 0]
