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
def count_draws(words, position, n_units, threshold, counts, tally, row, item):  # pragma: no cover
    """Count draws into ``counts[row:]`` from ``words[position:]``, as numpy would draw them.

    Each 32-bit word ``w`` gives ``m = w * n_units``; the draw is unit ``m >> 32``, unless
    the low half of ``m`` is below ``threshold`` (``(2**32 - n) % n``), when the next word
    is taken instead (Lemire's method, as numpy's ``Generator.integers``). Fills row by
    row, ``n_units`` draws each, starting at draw ``item`` of ``row``. A row's draws are
    tallied in the bytes of ``tally`` (an eighth of the memory of floats, so the tally
    stays in cache; each wrap past 255 adds 256 to the float count) and added to the row,
    which is cleared when its first draw is made. Returns ``(position, row, item)`` where
    it stopped: ``row == len(counts)`` when every row is full, else the words ran out.

    >>> c, tally = np.zeros((2, 3)), np.zeros(3, np.uint8)
    >>> words = np.random.default_rng(0).bit_generator.random_raw(8).view(np.uint32)
    >>> count_draws(words, 0, 3, np.uint64(1), c, tally, 0, 0)[1], c.sum(axis=1).tolist()
    (2, [3.0, 3.0])
    """
    rows = counts.shape[0]
    size = words.shape[0]
    bound = np.uint64(n_units)
    while row < rows:
        target = counts[row]
        if item == 0:
            target[:] = 0.0
            tally[:] = 0
        while item < n_units:
            if position >= size:
                return position, row, item
            m = np.uint64(words[position]) * bound
            position += 1
            if (m & _LOW) >= threshold:
                unit = m >> _SHIFT
                tally[unit] += 1  # stored modulo 256
                if tally[unit] == 0:
                    target[unit] += 256.0
                item += 1
        for i in range(n_units):
            target[i] += tally[i]
        row += 1
        item = 0
    return position, row, item
