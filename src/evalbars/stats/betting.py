"""The betting confidence sequence for the mean of bounded observations (Waudby-Smith and
Ramdas 2023), at every time at once.

For observations in [0, 1] arriving one at a time, each candidate mean ``m`` is a bet:
the capital ``K_t(m) = prod_i (1 + lambda_i (x_i - m))`` is a nonnegative martingale when
``m`` is the true mean, so by Ville's inequality it exceeds ``1 / alpha`` at *any* time with
probability at most ``alpha``. The confidence sequence is the set of means whose capital is
still below ``1 / alpha``: it covers the true mean at every time simultaneously, however
the looks are chosen and whenever one stops.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.arguments import check_confidence_level
from ..core.errors import EvalbarsError

GRID_POINTS = 2001
"""Candidate means on [0, 1] (steps of 0.0005); an end is reported at the first candidate
outside the set, so the grid can only widen the sequence, never narrow it."""

TRUNCATION = 0.5
"""``c`` of the bets' truncation ``lambda <= c / m`` (and ``c / (1 - m)``): WSR's choice."""

_BLOCK = 256
"""Times per block of the (time, candidate) log-capital array: memory stays O(block x grid)."""


def _check(x, confidence_level: float) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise EvalbarsError(f"x must be a non-empty 1-D sequence, got shape {x.shape}")
    if not np.all((x >= 0.0) & (x <= 1.0)):
        bad = int(np.flatnonzero(~((x >= 0.0) & (x <= 1.0)))[0])
        raise EvalbarsError(f"the betting confidence sequence needs observations in [0, 1]; "
                            f"observation {bad} (0-based) is {float(x[bad]):g}")
    check_confidence_level(confidence_level)
    return x


def plug_in_bets(x: np.ndarray, alpha: float) -> np.ndarray:
    """The predictable plug-in bets of Waudby-Smith & Ramdas, at the hedged level ``alpha / 2``.

    ``lambda_t = sqrt(2 log(2 / alpha) / (sigma2_{t-1} t log(1 + t)))``, where the running
    variance ``sigma2_t = (1/4 + sum_{i<=t} (x_i - mu_i)^2) / (t + 1)`` uses the running mean
    ``mu_t = (1/2 + sum_{i<=t} x_i) / (t + 1)``: each bet uses only the observations before it.

    Examples
    --------
    >>> plug_in_bets(np.array([1.0, 0.0]), 0.05).round(4)
    array([6.525 , 4.6357])
    """
    t = np.arange(1, x.size + 1, dtype=np.float64)
    mu = (0.5 + np.cumsum(x)) / (t + 1.0)
    sigma2 = (0.25 + np.cumsum((x - mu) ** 2)) / (t + 1.0)
    before = np.concatenate([[0.25], sigma2[:-1]])
    return np.sqrt(2.0 * math.log(2.0 / alpha) / (before * t * np.log1p(t)))


def hedged_log_capital(x, m, *, confidence_level: float = 0.95) -> np.ndarray:
    """``log K_t(m)`` for every time t and candidate mean in ``m``: shape (n, len(m)).

    The hedged capital ``K_t = max(K_t^+ / 2, K_t^- / 2)`` bets on a mean above ``m``
    (``K^+``, bets ``min(lambda_t, c / m)``) and below it (``K^-``, bets
    ``min(lambda_t, c / (1 - m))``), with ``lambda_t`` from :func:`plug_in_bets` and
    ``c`` = :data:`TRUNCATION`. It is below ``1 / alpha`` exactly where the mean ``m`` is
    in the confidence sequence at time t.

    Examples
    --------
    >>> x = np.array([0.9, 0.8, 1.0, 0.7, 0.9, 1.0, 0.8, 0.9])
    >>> hedged_log_capital(x, [0.2, 0.85])[-1].round(3)
    array([ 7.182, -0.589])
    """
    x = _check(x, confidence_level)
    m = np.atleast_1d(np.asarray(m, dtype=np.float64))
    bets = plug_in_bets(x, 1.0 - confidence_level)
    plus, minus = _log_capital(x, m, bets, 0, x.size)
    return np.maximum(plus, minus) - math.log(2.0)


def _log_capital(x: np.ndarray, m: np.ndarray, all_bets: np.ndarray, start: int, stop: int,
                 carry: tuple[np.ndarray, np.ndarray] | None = None,
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``log K^+`` and ``log K^-`` at times ``start + 1`` to ``stop``, continuing ``carry``
    (the two at time ``start``); ``all_bets`` are :func:`plug_in_bets` of the whole ``x``."""
    bets = all_bets[start:stop, None]
    with np.errstate(divide="ignore"):
        up = np.minimum(bets, TRUNCATION / m)
        down = np.minimum(bets, TRUNCATION / (1.0 - m))
    gap = x[start:stop, None] - m
    plus = np.cumsum(np.log1p(up * gap), axis=0)
    minus = np.cumsum(np.log1p(-down * gap), axis=0)
    if carry is not None:
        plus += carry[0]
        minus += carry[1]
    return plus, minus


def betting_sequence(x, *, confidence_level: float = 0.95,
                     grid: int = GRID_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """The betting confidence sequence for the mean of ``x`` (in [0, 1]) at every time.

    Parameters
    ----------
    x : array_like
        Observations in [0, 1], in the order they arrived.
    confidence_level : float
        ``1 - alpha``: the sequence covers the mean at every time at once with at least
        this probability.
    grid : int
        Candidate means on [0, 1]; each end is rounded outwards to the grid.

    Returns
    -------
    low, high : ndarray
        The ends after 1, 2, ..., n observations (not intersected over time).

    Notes
    -----
    Waudby-Smith, I. and Ramdas, A. (2023), "Estimating means of bounded random variables
    by betting", JRSS B 86(1): the hedged capital process with predictable plug-in bets
    (:func:`hedged_log_capital`). The sequence at time t is the set of means whose capital
    is below ``1 / alpha``; its outermost candidates on the grid, widened by one step, are
    the ends reported (a hull, so never narrower than the set).
    Validated against a direct loop over the bets with exact root finding
    (``tests/stats/test_monitor_sequences.py``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> low, high = betting_sequence(rng.uniform(0.4, 0.8, size=400))
    >>> round(float(low[-1]), 4), round(float(high[-1]), 4)
    (0.594, 0.6305)
    >>> bool(np.all(low <= high)), bool(low[0] == 0.0 and high[0] == 1.0)
    (True, True)
    """
    x = _check(x, confidence_level)
    if isinstance(grid, bool) or not isinstance(grid, int) or grid < 3:
        raise EvalbarsError(f"grid must be an integer of at least 3, got {grid!r}")
    m = np.linspace(0.0, 1.0, grid)
    threshold = math.log(1.0 / (1.0 - confidence_level))
    low = np.empty(x.size)
    high = np.empty(x.size)
    carry = None
    bets = plug_in_bets(x, 1.0 - confidence_level)  # once: each block reads its own
    for start in range(0, x.size, _BLOCK):
        stop = min(start + _BLOCK, x.size)
        plus, minus = _log_capital(x, m, bets, start, stop, carry)
        carry = (plus[-1], minus[-1])
        inside = np.maximum(plus, minus) - math.log(2.0) < threshold
        first = np.argmax(inside, axis=1)
        last = grid - 1 - np.argmax(inside[:, ::-1], axis=1)
        low[start:stop] = m[np.maximum(first - 1, 0)]
        high[start:stop] = m[np.minimum(last + 1, grid - 1)]
    return low, high
