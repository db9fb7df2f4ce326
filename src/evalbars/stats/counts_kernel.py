"""The compiled counting kernel (numba): numpy's bounded draws, counted where they fall.

Imported only by :mod:`evalbars.stats.draw_counts`, and only where numba is installed.
Compiled on first use and cached beside this file (or in numba's user cache), so later
processes only load it. It releases the GIL, so the resample blocks' threads run it on
every core at once.
"""
from __future__ import annotations

import numba
import numpy as np

_LOW = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


@numba.njit(nogil=True, cache=True, boundscheck=False)
def count_draws(words, position, n_units, threshold, tally, extra, flagged, rows, row,
                item):  # pragma: no cover
    """Count draws into rows ``row`` to ``rows - 1`` of ``tally`` from ``words[position:]``.

    Each 32-bit word ``w`` gives ``m = w * n_units``; the draw is unit ``m >> 32``, unless
    the low half of ``m`` is below ``threshold`` (``(2**32 - n) % n``), when the next word
    is taken instead (Lemire's method, as numpy's ``Generator.integers``). Fills row by
    row, ``n_units`` draws each, starting at draw ``item`` of ``row``; a row is cleared
    when its first draw is made. ``tally`` holds bytes (an eighth of floats, so it stays
    in cache): each wrap past 255 adds 256 to the row's ``extra`` floats and sets
    ``flagged[row]``. Returns ``(position, row, item)`` where it stopped: ``row == rows``
    when every row is full, else the words ran out.

    >>> tally, extra = np.zeros((2, 3), np.uint8), np.zeros((2, 3))
    >>> flagged = np.zeros(2, np.bool_)
    >>> words = np.random.default_rng(0).bit_generator.random_raw(8).view(np.uint32)
    >>> done = count_draws(words, 0, 3, np.uint64(1), tally, extra, flagged, 2, 0, 0)
    >>> done[1], tally.sum(axis=1).tolist(), bool(flagged.any())
    (2, [3, 3], False)
    """
    size = words.shape[0]
    bound = np.uint64(n_units)
    while row < rows:
        counts = tally[row]
        if item == 0:
            counts[:] = 0
            if flagged[row]:
                extra[row, :] = 0.0
                flagged[row] = False
        while item < n_units:
            if position >= size:
                return position, row, item
            m = np.uint64(words[position]) * bound
            position += 1
            if (m & _LOW) >= threshold:
                unit = m >> _SHIFT
                counts[unit] += 1  # stored modulo 256
                if counts[unit] == 0:
                    extra[row, unit] += 256.0
                    flagged[row] = True
                item += 1
        row += 1
        item = 0
    return position, row, item
