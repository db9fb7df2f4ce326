"""The resampling engine: every bootstrap and permutation in evalbars goes through here.

Ideas (Efron & Tibshirani 1993, "An Introduction to the Bootstrap", for the bootstrap of
independent units and its counts; the rest is how this engine computes them):

- Resample the independent unit. The caller passes one row per unit (an item, or a
  whole cluster) holding that unit's sums; a resample of units is then a vector of
  counts per unit, and any statistic built from sums is ``counts @ unit_sums``, for
  every column (model) at once.
- The rows are the units in the caller's canonical order (the analyses sort items and
  clusters by id): the counts of resample ``r`` are a function of the seed and the
  number of units only, so they form one *plan* shared by every column, whatever else
  is loaded. Likewise :func:`sign_flip_sums` draws one sign matrix for every column.
- A column's sums do not depend on the other columns, nor on the BLAS kernel: each
  column is cut into slices whose weighted sums are exact in any order
  (:mod:`evalbars.stats.exact_products`; one slice for 0/1 scores), and their exact sums
  are added in one fixed order. The products run over fixed blocks of
  :data:`_BLOCK_UNITS` units, added in order (exact too).
- Counts are drawn by :mod:`evalbars.stats.draw_counts` (numpy, or a compiled kernel
  giving the same counts) and held as narrow integers until a block of them is turned
  into floats for BLAS, so the floats are read from cache. The products go through
  ``np.dot``, which releases the GIL: ``@`` (matmul) held it, and the block threads'
  products ran one at a time.
- Where many units are identical (0/1 outcomes), the caller may pass each distinct
  pattern once with its multiplicity; the counts are then multinomial over patterns,
  the same distribution at a cost independent of the number of items.
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

from .draw_counts import ROW_PAD, counter, start_loading
from .draw_counts import padded as _padded
from .exact_products import cut, join

BLOCK = 512
"""Resamples drawn from one random stream. Fixed: changing it changes every number."""

_MAX_CELLS = 1 << 16
"""Cells (resample, unit) a chunk holds at least where its units allow: 512 kB of floats,
which stay in a core's cache (a chunk of 2**20 cells made 10,000 items 1.5x slower)."""

_BLOCK_UNITS = 32768
"""The products run over blocks of this many units, each turned into floats just before
BLAS reads it, from counts held as narrow integers; the blocks' products are added in
order (100,000 items: 1.2 ns a draw, against 1.5 ns for one product over all units and
1.4 ns for blocks of 8,192). Fixed: changing it changes the last bits of every sum over
more units than this."""

_CAP_CELLS = 1 << 25
"""Cells a chunk holds at most (32 MB of counts in bytes) where it would take more rows."""

_REUSE_ROWS = 32
"""Rows a chunk takes where its cells allow: each block of the scores is read from memory
once per chunk (1,000,000 items: 32 rows took 0.95x the time of 8 to bootstrap, 0.76x
for the sign matrix), down to :data:`_REUSE_MIN_ROWS` where its counts would pass
:data:`_REUSE_BYTES`."""

_REUSE_BYTES = 1 << 21
"""A chunk's counts (in bytes) above which it takes fewer rows (100,000 items: 16 rows
took 0.9x the time of 32 to bootstrap, 0.75x for the sign matrix; 30,000 and 1,000,000
items the same either way)."""

_REUSE_MIN_ROWS = 16

_PAD = ROW_PAD
"""Resamples per product are a multiple of this where the units allow."""


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


def run_blocks(
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


def _rows_per_chunk(n_units: int, n_columns: int) -> int:
    """Resamples per product: enough cells to amortise the call, and twice the product's
    ``n_columns`` (its slices), over which BLAS packs the scores once per product (20
    columns over 10,000 items: 32 rows took 0.7x the time of 8), as far as
    :data:`_CAP_CELLS` allows.

    >>> _rows_per_chunk(100, 2), _rows_per_chunk(10_000, 2), _rows_per_chunk(10_000, 20)
    (648, 32, 40)
    >>> _rows_per_chunk(100_000, 2), _rows_per_chunk(1_000_000, 20)
    (16, 32)
    >>> _rows_per_chunk(10_000_000, 2)
    8
    """
    cap = max(_PAD, _CAP_CELLS // max(n_units, 1) // _PAD * _PAD)
    reuse = min(_REUSE_ROWS, max(_REUSE_MIN_ROWS, _REUSE_BYTES // max(n_units, 1) // _PAD * _PAD))
    return max(_PAD, _MAX_CELLS // max(n_units, 1) // _PAD * _PAD,
               min(cap, max(reuse, _padded(2 * n_columns))))


def _blocked_product(piece: Callable[[int, int], np.ndarray], rows: int, n: int,
                     columns: np.ndarray, block: np.ndarray,
                     extra: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """``counts[:rows] @ columns`` in floats, over blocks of :data:`_BLOCK_UNITS` units.

    ``piece(low, high)`` gives the whole-number counts (any integer dtype) of units
    ``low`` to ``high - 1`` for the ``rows`` resamples; ``extra`` whole numbers to add to
    some rows (the kernel's counts past a byte); ``block`` is a float buffer of at least
    ``(rows, min(n, _BLOCK_UNITS))``.

    >>> c = np.array([[1, 0, 2], [0, 3, 0]], dtype=np.uint8)
    >>> piece = lambda low, high: c[:, low:high]
    >>> _blocked_product(piece, 2, 3, np.eye(3, 4), np.empty((2, 3))).tolist()
    [[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 0.0, 0.0]]
    """
    total = np.zeros((rows, columns.shape[1]))
    for low in range(0, n, _BLOCK_UNITS):
        high = min(n, low + _BLOCK_UNITS)
        floats = block[:rows, : high - low]
        floats[:] = piece(low, high)
        for row, more in (extra or {}).items():
            floats[row] += more[low:high]
        total += np.dot(floats, columns[low:high])  # releases the GIL; matmul holds it
    return total


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
        One row per unit, in the caller's canonical order (or one row per distinct unit
        pattern, with ``multiplicity``), one column per quantity.
    n_resamples : int
        Number of bootstrap resamples B.
    seed : numpy.random.SeedSequence
        Parent stream; block ``i`` draws from child ``i``.
    multiplicity : (K,) int array, optional
        How many units share each row. The resample then draws ``multiplicity.sum()``
        units, multinomially over the rows (taken in sorted order); otherwise it draws K
        units uniformly, and the counts of resample ``r`` depend only on the seed and K:
        column ``j`` of the result is the same whatever the other columns are.

    Returns
    -------
    (n_resamples, m) array of resampled column sums.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [1.0, 2.0]])
    >>> s = bootstrap_sums(x, n_resamples=1000, seed=np.random.SeedSequence(0))
    >>> s.shape, float(s[:, 0].min()) >= 0, float(s[:, 0].max()) <= 4
    ((1000, 2), True, True)
    >>> alone = bootstrap_sums(x[:, :1], n_resamples=1000, seed=np.random.SeedSequence(0))
    >>> bool(np.array_equal(alone[:, 0], s[:, 0]))
    True
    """
    unit_sums = np.asarray(unit_sums, dtype=float)
    if unit_sums.ndim == 1:
        unit_sums = unit_sums[:, None]
    n_rows, n_columns = unit_sums.shape

    if multiplicity is not None:
        order = np.lexsort(unit_sums.T[::-1])
        patterns = unit_sums[order]
        counts_total = int(np.sum(multiplicity))
        pvals = np.asarray(multiplicity, dtype=float)[order] / counts_total

        slices = cut(patterns, counts_total)

        def draw_patterns(rng: np.random.Generator, size: int) -> np.ndarray:
            counts = rng.multinomial(counts_total, pvals, size=size).astype(float)
            return join(np.dot(counts, slices.pieces), slices)

        return run_blocks(n_resamples, n_columns, seed, draw_patterns, BLOCK * n_rows,
                           progress)

    # Sums of the values minus each column's smallest, plus n times it: constant data give
    # the same number in every resample (not n sums rounded each its own way).
    shift = unit_sums.min(axis=0) if n_rows else np.zeros(n_columns)
    slices = cut(unit_sums - shift, n_rows)  # a resample's counts add up to n_rows
    rows_per_chunk = _rows_per_chunk(n_rows, slices.pieces.shape[1])

    start_loading(n_resamples * n_rows)  # a big plan's kernel; it then counts every plan

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        result = np.empty((size, n_columns))
        rows = min(size, rows_per_chunk)
        block = np.empty((rows, min(n_rows, _BLOCK_UNITS)))
        counts = counter(rng, n_rows, rows=rows)
        for start in range(0, size, rows_per_chunk):
            stop = min(size, start + rows_per_chunk)
            drawn, extra = counts(stop - start)
            product = _blocked_product(lambda low, high: drawn[: stop - start, low:high],
                                       stop - start, n_rows, slices.pieces, block, extra)
            result[start:stop] = join(product, slices) + n_rows * shift
        return result

    return run_blocks(n_resamples, n_columns, seed, draw, BLOCK * n_rows, progress)


def sign_flip_sums(
    d: np.ndarray,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Sums of each column of ``d`` with row ``i``'s sign flipped by a fair coin.

    One sign matrix S (B x n, drawn from the seed and n only) serves every column:
    the result is ``S @ d``, an (n_resamples,) array for 1-D ``d``, else
    (n_resamples, m). Rows are units in the caller's canonical order.

    >>> import numpy as np
    >>> s = sign_flip_sums(np.array([1.0, 2.0]), n_resamples=600, seed=np.random.SeedSequence(1))
    >>> sorted(set(s.tolist()))
    [-3.0, -1.0, 1.0, 3.0]
    """
    values = np.asarray(d, dtype=float)
    columns = values[:, None] if values.ndim == 1 else values
    n, n_columns = columns.shape
    # Cut for weights up to 2n: a piece's 2 (bits @ piece) - its total is then exact too.
    slices = cut(columns, 2 * n)
    totals = slices.pieces.sum(axis=0)  # exact, in any order
    rows_per_chunk = _rows_per_chunk(n, slices.pieces.shape[1])

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        result = np.empty((size, n_columns))
        block = np.empty((min(size, rows_per_chunk), min(n, _BLOCK_UNITS)))
        for start in range(0, size, rows_per_chunk):
            stop = min(size, start + rows_per_chunk)
            # Whole 32-bit words: numpy's uint32 stream is the same however it is split
            # into calls, so the bits never depend on the chunking (uint8 draws would).
            words = rng.integers(0, 2**32 - 1, size=(stop - start, (n + 31) // 32),
                                 dtype=np.uint32, endpoint=True)
            octets = words.astype("<u4").view(np.uint8)

            def bits(low: int, high: int) -> np.ndarray:  # unpacked a block at a time
                return np.unpackbits(octets[:, low // 8 : (high + 7) // 8], axis=1,
                                     count=high - low)

            # s_i = 2 bit_i - 1, so sum s_i d_i = 2 (bits @ d) - sum d
            product = _blocked_product(bits, stop - start, n, slices.pieces, block)
            result[start:stop] = join(2.0 * product - totals, slices)
        return result

    out = run_blocks(n_resamples, n_columns, seed, draw, BLOCK * n, progress)
    return out[:, 0] if values.ndim == 1 else out
