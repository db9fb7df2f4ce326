"""How often each unit is drawn in each bootstrap resample: numpy, or a compiled kernel.

Both ways give the same counts from the same generator, bit for bit. numpy's
``Generator.integers(0, n)`` (n < 2**32) takes one 32-bit word of the stream per draw
(PCG64 hands out the low, then the high half of each 64-bit output) and makes it an index
by Lemire's multiply-shift, taking the next word when the low half of the product falls
below ``(2**32 - n) % n``. The kernel (:mod:`evalbars.stats.counts_kernel`, compiled by
numba, the optional extra ``evalbars[fast]``) reads the same words from ``random_raw``
(half the generator's time per draw), repeats that arithmetic and tallies each draw in a
byte in place: no index array, no ``bincount``, and the GIL released.

The kernel is loaded where the work pays for importing numba and loading the cached
kernel (about 0.4 s, once per process): from :data:`KERNEL_CELLS` draws, with numba
installed, unless the environment sets ``EVALBARS_NO_NUMBA=1``; once loaded, it counts
every plan of the process (a notebook's later, smaller analyses too). The first use on a
machine also compiles it (about 1 s).
"""
from __future__ import annotations

import functools
import importlib.util
import os
import sys
import threading
import warnings
from typing import Callable

import numpy as np

KERNEL_CELLS = 400_000_000
"""Draws (resamples x units) from which the compiled kernel is loaded, if numba is present."""

_FLAT_ADD = 16384
"""Below this many units one ``np.add.at`` counts a whole chunk, in floats; from it, a
``bincount`` a resample, in bytes (10,000 units: 2.6 ns a draw against 3.0; 40,000:
3.7 against 3.1)."""

_ROW_DRAWS = 1 << 16
"""From this many units the indices are drawn one resample at a time, not per chunk."""

_RAW_WORDS = 1 << 16
"""Most 64-bit words the kernel asks the generator for at once (512 kB, kept in cache)."""

Counter = Callable[[int], "tuple[np.ndarray, dict[int, np.ndarray] | None]"]
"""``counter(rows)``: the next ``rows`` resamples' counts, as whole numbers in the first
``rows`` rows of an array (one column per unit), and the counts to add to some rows (the
kernel's past a byte), or None."""


ROW_PAD = 8
"""The rows (resamples) of every product are padded with zeros to a multiple of this."""


def padded(n: int, multiple: int = ROW_PAD) -> int:
    """``n`` rounded up to a multiple of ``multiple``.

    >>> padded(13), padded(16), padded(5, 4)
    (16, 16, 8)
    """
    return -(-n // multiple) * multiple


def numpy_counts(rng: np.random.Generator, rows: int, n_units: int,
                 out: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray] | None]:
    """How often each of ``n_units`` units is drawn in ``rows`` resamples of ``n_units``.

    Written into the first ``rows`` rows of ``out`` (reused from chunk to chunk: a fresh
    array per chunk costs page faults) and returned with the counts to add to some rows,
    or None. Below :data:`_FLAT_ADD` units ``out`` holds floats and one ``np.add.at``
    counts the whole chunk (quicker than a ``bincount`` a row there); from it, bytes (an
    eighth of the memory) hold each row's counts modulo 256 and the rest,
    ``count - count % 256``, of a row with a count past 255 is returned beside them. The
    indices are drawn as int64, in one call or (from :data:`_ROW_DRAWS` units) one per
    resample: numpy's stream is the same however the resamples are split into calls, so
    the counts never depend on the chunking.

    >>> out = np.empty((8, 3))
    >>> counts, extra = numpy_counts(np.random.default_rng(0), 2, 3, out)
    >>> counts[:2].sum(axis=1).tolist(), extra
    ([3.0, 3.0], None)
    """
    if n_units < _FLAT_ADD:
        idx = rng.integers(0, n_units, size=(rows, n_units))
        idx += np.arange(rows)[:, None] * n_units
        counts = out[:rows]
        counts[:] = 0.0
        np.add.at(counts.reshape(-1), idx.reshape(-1), 1.0)
        return out, None
    extra: dict[int, np.ndarray] = {}

    def keep(row: int, found: np.ndarray) -> None:
        out[row] = found  # modulo 256
        if found.max() > 255:
            extra[row] = (found - out[row]).astype(float)

    if n_units >= _ROW_DRAWS:  # one resample's indices and counts stay in cache
        for r in range(rows):
            keep(r, np.bincount(rng.integers(0, n_units, size=n_units), minlength=n_units))
        return out, extra or None
    idx = rng.integers(0, n_units, size=(rows, n_units))
    for r in range(rows):  # one resample's counts stay in cache
        keep(r, np.bincount(idx[r], minlength=n_units))
    return out, extra or None


@functools.cache
def available() -> bool:
    """Whether the kernel can be used here: numba installed, not switched off."""
    if os.environ.get("EVALBARS_NO_NUMBA", "") not in ("", "0"):
        return False
    return sys.byteorder == "little" and importlib.util.find_spec("numba") is not None


_loaded: list[Callable] = []
_loading: list[threading.Thread] = []
_lock = threading.Lock()


def _load() -> None:
    try:
        from .counts_kernel import count_draws

        # The first call loads the compiled code from numba's cache (or compiles it).
        count_draws(np.zeros(2, np.uint32), 0, 2, np.uint64(0), np.zeros((1, 2), np.uint8),
                    np.zeros((1, 2)), np.zeros(1, np.bool_), 1, 0, 0)
    except Exception as error:  # a broken numba: numpy counts, the same numbers
        warnings.warn(f"evalbars: the compiled counting kernel could not be loaded ({error}); "
                      "numpy counts the resamples (the same numbers, more slowly)",
                      RuntimeWarning, stacklevel=1)
        return
    _loaded.append(count_draws)


def _loader() -> threading.Thread:
    with _lock:
        if not _loading:
            _loading.append(threading.Thread(target=_load, name="evalbars-kernel", daemon=True))
            _loading[0].start()
        return _loading[0]


def start_loading(draws: int) -> None:
    """Begin loading the kernel in a background thread, once, if ``draws`` call for it.

    Resample blocks that start before it is ready count with numpy (the same counts), so
    the import overlaps the first blocks instead of delaying them.
    """
    if draws >= KERNEL_CELLS and available():
        _loader()


def load_kernel() -> Callable | None:
    """The kernel, loaded now (waiting for a background load), or None if unavailable."""
    if not available():
        return None
    _loader().join()
    return ready_kernel()


def ready_kernel() -> Callable | None:
    """The kernel if it is loaded already, else None."""
    return _loaded[0] if _loaded else None


class KernelCounter:
    """Counts of one block's resamples from the kernel, words carried from chunk to chunk.

    ``rng`` is the block's PCG64 generator, holding no half-used word; ``rows`` the most
    resamples asked for at once and ``total_rows`` all the block will ask for: the words
    are drawn as they are needed, at most :data:`_RAW_WORDS` at a time, so a block draws
    scarcely more than it uses.

    >>> counter = KernelCounter(np.random.default_rng(3), 5, rows=8, total_rows=2)
    >>> same = numpy_counts(np.random.default_rng(3), 2, 5, np.empty((8, 5)))[0]
    >>> bool(np.array_equal(counter(2)[0][:2], same[:2])) if available() else True
    True
    """

    def __init__(self, rng: np.random.Generator, n_units: int, *, rows: int,
                 total_rows: int) -> None:
        self.rng, self.n_units = rng, n_units
        self.threshold = np.uint64((2**32 - n_units) % n_units)
        self.left = total_rows * n_units  # draws this block still has to make
        self.words = np.empty(0, dtype=np.uint32)
        self.position = 0
        self.tally = np.empty((rows, n_units), dtype=np.uint8)
        self.extra = np.zeros((rows, n_units))  # zero pages until a count passes 255
        self.flagged = np.zeros(rows, dtype=np.bool_)
        self.count = load_kernel()

    def __call__(self, rows: int) -> tuple[np.ndarray, dict[int, np.ndarray] | None]:
        row = item = 0
        while True:
            self.position, row, item = self.count(
                self.words, self.position, self.n_units, self.threshold, self.tally,
                self.extra, self.flagged, rows, row, item)
            if row == rows:
                break
            self._refill(still_needed=self.left - row * self.n_units - item)
        self.left -= rows * self.n_units
        wrapped = np.flatnonzero(self.flagged[:rows])
        return self.tally, ({int(r): self.extra[r] for r in wrapped} if wrapped.size else None)

    def _refill(self, still_needed: int) -> None:
        rest = self.words[self.position:]
        wanted = max(8, min(_RAW_WORDS, (still_needed - rest.size + 1) // 2 + 8))
        fresh = self.rng.bit_generator.random_raw(wanted).view(np.uint32)
        self.words = np.concatenate([rest, fresh]) if rest.size else fresh
        self.position = 0


def numpy_counter(rng: np.random.Generator, n_units: int, *, rows: int) -> Counter:
    """The counts of a block's resamples, at most ``rows`` at a time, by numpy.

    >>> c = numpy_counter(np.random.default_rng(0), 3, rows=8)
    >>> counts, extra = c(2)
    >>> counts[:2].sum(axis=1).tolist(), extra
    ([3.0, 3.0], None)
    """
    out = np.empty((rows, n_units), dtype=float if n_units < _FLAT_ADD else np.uint8)
    return lambda asked: numpy_counts(rng, asked, n_units, out)


def counter(rng: np.random.Generator, n_units: int, *, rows: int, total_rows: int) -> Counter:
    """The counts of a block's resamples, at most ``rows`` at a time: by the kernel where
    it is loaded, else by numpy (:func:`numpy_counter`); the same counts either way.

    The kernel needs a PCG64 generator holding no half-used word (as a fresh one: it reads
    whole 64-bit words from the stream) and 2 units or more.
    """
    if (2 <= n_units < 2**31 and type(rng.bit_generator) is np.random.PCG64
            and not rng.bit_generator.state["has_uint32"] and available() and ready_kernel()):
        return KernelCounter(rng, n_units, rows=rows, total_rows=total_rows)
    return numpy_counter(rng, n_units, rows=rows)
