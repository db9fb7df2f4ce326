"""Exact calibration for 0/1 data: coverage and rejection rates without Monte Carlo.

For one model, every interval that is a function of the number of right answers k is
exactly calibrated by summing over ``k ~ Binomial(n, p)``. For two models, every test
whose p-value depends only on the discordant counts (and n) is exactly calibrated by
summing over the discordant total ``m ~ Binomial(n, D)`` and, given m, B's wins
``k ~ Binomial(m, q)``. The intervals and p-values come from evalbars' own functions
(:mod:`evalbars.stats.intervals`, :mod:`evalbars.stats.significance`), called once per count.

Counts outside the central ``1 - 2 TAIL`` of their law are left out, so an "exact"
rate is exact to about 1e-12.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

from . import intervals, significance

TAIL = 1e-13
"""Probability left out in each tail of a binomial law when summing over it."""

TIE = 1e-9
"""An interval whose end is within this of the truth covers it: an end that equals the
truth in exact arithmetic (a bootstrap quantile on the lattice of attainable means, when
the truth lies on that lattice) must not be decided by rounding."""

EXACT_INTERVALS: tuple[str, ...] = intervals.BINOMIAL_METHODS + intervals.MEAN_METHODS
"""Single-score methods whose interval is a function of (k, n) for 0/1 data."""

DISCORDANT_TESTS = frozenset({"mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip",
                              "sign"})
"""Tests whose p-value ignores the questions both models got right or both got wrong, so
they are called with the m discordant questions only (the same p, at less cost)."""

EXACT_TESTS: tuple[str, ...] = ("mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip",
                                "paired-t")
"""The tests evalbars reports for 0/1 scores; all are exactly calibrated here."""


def support(n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """Counts k and their probabilities under Binomial(n, p), central 1 - 2 TAIL only."""
    low = int(stats.binom.ppf(TAIL, n, p))
    high = int(stats.binom.isf(TAIL, n, p))
    k = np.arange(max(low - 1, 0), min(high + 1, n) + 1)
    return k, stats.binom.pmf(k, n, p)


def covers(low: float, high: float, truth: float) -> bool:
    """Whether the closed interval from ``low`` to ``high`` holds ``truth`` (up to TIE)."""
    return bool(low - TIE <= truth <= high + TIE)


def interval_of(method: str, k: int, n: int, level: float) -> tuple[float, float]:
    """evalbars' interval for k right answers out of n (0/1 data)."""
    if method in intervals.BINOMIAL_METHODS:
        found = intervals.binomial_interval(k, n, method=method, confidence_level=level)
    else:
        x = np.zeros(n)
        x[:k] = 1.0
        found = intervals.mean_interval(x, method=method, confidence_level=level)
    return found.low, found.high


def binomial_coverage(method: str, n: int, p: float, *, confidence_level: float = 0.95) -> float:
    """Exact coverage of a single-score interval on 0/1 data: no simulation.

    Parameters
    ----------
    method : str
        One of :data:`EXACT_INTERVALS` (the binomial methods, ``clt`` and ``t``).
    n : int
        Questions.
    p : float
        True accuracy.
    confidence_level : float
        Nominal level of the interval.

    Returns
    -------
    float
        ``sum_k P(K = k) [low(k) <= p <= high(k)]`` with ``K ~ Binomial(n, p)``.

    Examples
    --------
    Wald at 20 questions and 95% accuracy covers 64%, Wilson 92%:

    >>> round(binomial_coverage("wald", 20, 0.95), 3)
    0.639
    >>> round(binomial_coverage("wilson", 20, 0.95), 3)
    0.925
    """
    k, weight = support(n, p)
    covered = [covers(*interval_of(method, int(j), n, confidence_level), p) for j in k]
    return float(np.sum(weight[np.array(covered)]))


def _arrays(test: str, k: int, m: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """0/1 scores with k questions B alone got right and m - k that A alone got right
    (plus n - m concordant ones unless the test ignores them)."""
    size = m if test in DISCORDANT_TESTS else n
    a, b = np.zeros(size), np.zeros(size)
    b[:k] = 1.0
    a[k:m] = 1.0
    return a, b


def p_value(test: str, k: int, m: int, n: int, n_resamples: int) -> float:
    """evalbars' p-value of ``test`` with k wins for B and m - k for A among n questions."""
    if m == 0:
        return 1.0
    a, b = _arrays(test, k, m, n)
    return significance.paired_test(a, b, name=test, n_resamples=n_resamples).p_value


def critical_counts(test: str, n: int, ms: np.ndarray, alpha: float,
                    n_resamples: int = 10_000) -> np.ndarray:
    """For each discordant total m, the largest k <= m/2 with p < alpha (-1 if none).

    The tests are two-sided and symmetric (k and m - k give the same p), and for
    k <= m/2 their p-value does not decrease with k, so the test rejects exactly when
    ``k <= c_m`` or ``k >= m - c_m``. ``c_m`` moves by at most a step or two between
    neighbouring m, so each is found from the previous one with a few calls.
    """
    out = np.empty(ms.size, dtype=np.int64)
    c = -1
    for i, m in enumerate(ms.tolist()):
        c = min(c, m // 2)
        while c + 1 <= m // 2 and p_value(test, c + 1, m, n, n_resamples) < alpha:
            c += 1
        while c >= 0 and p_value(test, c, m, n, n_resamples) >= alpha:
            c -= 1
        out[i] = c
    return out


def rejection_rate(test: str, n: int, cells: tuple[float, float, float, float], *,
                   alpha: float, n_resamples: int = 10_000) -> float:
    """Exact share of datasets in which a paired 0/1 test rejects at p < alpha.

    Parameters
    ----------
    test : str
        One of :data:`EXACT_TESTS`.
    n : int
        Questions.
    cells : tuple of 4 floats
        True probabilities of (both right, A only, B only, neither).
    alpha : float
        Rejection level.
    n_resamples : int
        Passed to the test (the 0/1 sign-flip test is exact and draws nothing).

    Returns
    -------
    float
        The type I error when A only and B only are equally likely, else the power.

    Notes
    -----
    ``m ~ Binomial(n, D)`` with ``D = P(A only) + P(B only)``, and given m, B's wins
    ``k ~ Binomial(m, q)`` with ``q = P(B only) / D``; the rate is
    ``sum_m P(m) P(k <= c_m or k >= m - c_m | m)`` with ``c_m`` from
    :func:`critical_counts`.

    Examples
    --------
    >>> cells = (0.6, 0.05, 0.05, 0.3)
    >>> round(rejection_rate("mcnemar-exact", 200, cells, alpha=0.05), 4)
    0.0294
    """
    disagreement = cells[1] + cells[2]
    if disagreement == 0:
        return 0.0
    q = cells[2] / disagreement
    ms, weight = support(n, disagreement)
    c = critical_counts(test, n, ms, alpha, n_resamples)
    low = np.where(c >= 0, stats.binom.cdf(c, ms, q), 0.0)
    high = np.where(c >= 0, stats.binom.sf(np.maximum(ms - c, c + 1) - 1, ms, q), 0.0)
    return float(math.fsum(weight * (low + high)))
