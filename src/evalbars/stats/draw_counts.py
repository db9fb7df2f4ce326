"""How often each unit is drawn in each bootstrap resample: numpy, or a compiled kernel.

Both ways give the same counts from the same generator, bit for bit. numpy's
``Generator.integers(0, n)`` (n < 2**32) takes one 32-bit word of the stream per draw
(PCG64 hands out the low, then the high half of each 64-bit output) and makes it an index
by Lemire's multiply-shift, taking the next word when the low half of the product falls
below ``(2**32 - n) % n``. The kernel (:mod:`evalbars.stats.counts_kernel`, compiled by
llvmlite, the optional extra ``evalbars[fast]``) repeats that arithmetic, PCG64's steps
included, and tallies each draw in a byte in place: no index array, no ``bincount``, the
GIL released, and half numpy's time per draw on one core.

The kernel is loaded (llvmlite imported and the kernel compiled, about 0.06 s once per
process) in a background thread from :data:`KERNEL_CELLS` draws, with llvmlite installed,
unless the environment sets ``EVALBARS_NO_KERNEL=1``; once loaded, it counts every plan of
the process (a notebook's later, smaller analyses too).
"""
from __future__ import annotations

import functools
import importlib.util
import os
import threading
import warnings
from typing import Callable

import numpy as np

KERNEL_CELLS = 20_000_000
"""Draws (resamples x units) from which the compiled kernel is loaded, if llvmlite is
present: numpy needs about 0.05 s for them, the kernel's loading about as long."""

_FLAT_ADD = 16384
"""Below this many units one ``np.add.at`` counts a whole chunk, in floats; from it, a
``bincount`` a resample, in bytes (10,000 units: 2.6 ns a draw against 3.0; 40,000:
3.7 against 3.1)."""

_ROW_DRAWS = 1 << 16
"""From this many units the indices are drawn one resample at a time, not per chunk."""

Counter = Callable[[int], "tuple[np.ndarray, dict[int, np.ndarray] | None]"]
"""``counter(rows)``: the next ``rows`` resamples' counts, as whole numbers in the first
``rows`` rows of an array (one column per unit), and the counts to add to some rows (the
kernel's past a byte), or None."""


ROW_PAD = 8
"""The rows (resamples) of a product are a multiple of this where the units allow."""


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
    """Whether the kernel can be used here: llvmlite installed, not switched off."""
    if os.environ.get("EVALBARS_NO_KERNEL", "") not in ("", "0"):
        return False
    return importlib.util.find_spec("llvmlite") is not None


_loaded: list[Callable] = []
_loading: list[threading.Thread] = []
_lock = threading.Lock()


def _load() -> None:
    try:
        from .counts_kernel import count_draws  # compiles the kernel
    except Exception as error:  # a broken llvmlite: numpy counts, the same numbers
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


def kernel_counter(rng: np.random.Generator, n_units: int, *, rows: int) -> Counter:
    """The counts of a block's resamples, at most ``rows`` at a time, by the kernel.

    ``rng`` has a PCG64 bit generator; ``2 <= n_units < 2**32``.

    >>> c = kernel_counter(np.random.default_rng(3), 5, rows=8) if load_kernel() else None
    >>> same = numpy_counts(np.random.default_rng(3), 2, 5, np.empty((8, 5)))[0]
    >>> bool(np.array_equal(c(2)[0][:2], same[:2])) if c else True
    True
    """
    count = load_kernel()
    tally = np.empty((rows, n_units), dtype=np.uint8)
    flagged = np.zeros(rows, dtype=np.bool_)
    extra: np.ndarray | None = None  # allocated only if a count passes 255

    def counts(asked: int) -> tuple[np.ndarray, dict[int, np.ndarray] | None]:
        nonlocal extra
        extra = count(rng, n_units, asked, tally, flagged, extra)
        wrapped = np.flatnonzero(flagged[:asked])
        return tally, ({int(r): extra[r] for r in wrapped} if wrapped.size else None)

    return counts


def numpy_counter(rng: np.random.Generator, n_units: int, *, rows: int) -> Counter:
    """The counts of a block's resamples, at most ``rows`` at a time, by numpy.

    >>> c = numpy_counter(np.random.default_rng(0), 3, rows=8)
    >>> counts, extra = c(2)
    >>> counts[:2].sum(axis=1).tolist(), extra
    ([3.0, 3.0], None)
    """
    out = np.empty((rows, n_units), dtype=float if n_units < _FLAT_ADD else np.uint8)
    return lambda asked: numpy_counts(rng, asked, n_units, out)


def counter(rng: np.random.Generator, n_units: int, *, rows: int) -> Counter:
    """The counts of a block's resamples, at most ``rows`` at a time: by the kernel where
    it is loaded, else by numpy (:func:`numpy_counter`); the same counts either way.

    The kernel needs a PCG64 generator (numpy's default) and 2 units or more.
    """
    if (2 <= n_units < 2**32 and type(rng.bit_generator) is np.random.PCG64
            and available() and ready_kernel()):
        return kernel_counter(rng, n_units, rows=rows)
    return numpy_counter(rng, n_units, rows=rows)
