"""The Wilcoxon signed-rank test, taking the routes of scipy's ``method="auto"``.

The nonzero paired differences ``d = b - a`` get average ranks of ``|d|``, and the test
asks whether the ranks of the positive ones sum to more (or less) than luck allows. Its
exact null law is counted by dynamic programming over the ranks; whether the exact, the
permutation or the normal route is taken follows scipy 1.17, so the p-values agree with
``scipy.stats.wilcoxon``. Registered as ``wilcoxon`` in
:data:`evalbars.stats.significance.TESTS`.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.types import TestResult
from .checks import pair
from .tails import check_alternative, normal_p

__all__ = ["wilcoxon"]

_WILCOXON_EXACT_MAX_N = 50
"""scipy 1.17 ``method="auto"``: the normal approximation is used above this n."""

_WILCOXON_PERMUTATION_MAX_N = 13
"""scipy 1.17 ``method="auto"``: with ties or zeros, exact sign-flip permutation up to this
n (2**13 patterns fit in scipy's default 9999 resamples, so scipy enumerates them)."""


def _average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of x, ties sharing their average rank (as scipy.stats.rankdata)."""
    order = np.argsort(x, kind="stable")
    values = x[order]
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    ends = np.r_[starts[1:], values.size]
    ranks = np.empty(x.size)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def _subset_sum_counts(weights: np.ndarray) -> np.ndarray:
    """counts[s] = number of subsets of the positive integer ``weights`` summing to s."""
    counts = np.zeros(int(weights.sum()) + 1, dtype=np.int64)
    counts[0] = 1
    for w in weights.tolist():
        counts[w:] = counts[w:] + counts[:-w]
    return counts


def _wilcoxon_route(n: int, m: int, has_ties: bool) -> str:
    """Which p-value route scipy 1.17's ``method="auto"`` takes (n counts zeros too)."""
    if m == 0:
        return "none"
    if n > _WILCOXON_EXACT_MAX_N:
        return "normal"
    if not has_ties and m == n:
        return "exact"
    if n <= _WILCOXON_PERMUTATION_MAX_N:
        return "permutation"
    return "normal"


def wilcoxon(a: object, b: object, *, alternative: str = "two-sided") -> TestResult:
    """Wilcoxon signed-rank test on ``d = b - a``, zero differences dropped.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A: ``R+`` large) or
        ``"less"``.

    Returns
    -------
    TestResult
        ``statistic`` is ``min(R+, R-)``, the smaller of the rank sums of the
        positive and negative differences (what scipy reports for two-sided tests;
        unchanged by swapping A and B); ``R+`` for a one-sided test, as scipy. ``exact`` is
        False when the normal approximation was used. With every difference zero: statistic 0, p 1.

    Notes
    -----
    Zero differences are dropped (Wilcoxon's "wilcox" method); the ``m`` nonzero
    ``|d_i|`` get average ranks, ``R+`` sums the ranks of positive ``d_i``. The
    route follows scipy 1.17's ``method="auto"``, with ``n`` counting zeros:

    - ``n <= 50``, no ties, no zeros: exact null law of ``R+`` (all ``2**n`` sign
      patterns, counted by dynamic programming), ``p = min(1, 2 min(P(R+ <= r),
      P(R+ >= r)))``;
    - ``n <= 13`` with ties or zeros: the same formula over the ``2**m`` sign
      patterns of the tied ranks (scipy's exhaustive permutation test);
    - otherwise normal approximation with continuity correction,
      ``z = (R+ - m(m+1)/4 - sign(.) / 2) / se``,
      ``se**2 = (m(m+1)(2m+1) - sum(t**3 - t) / 2) / 24`` over tie groups of size
      ``t``, ``p = 2 P(Z >= |z|)``.

    One-sided, the tail on the asked side: ``P(R+ >= r)`` for ``"greater"``, ``P(R+ <=
    r)`` for ``"less"``; the normal route corrects by 1/2 toward the null in the asked
    direction (``z = (R+ - m(m+1)/4 - 1/2) / se``, ``p = P(Z >= z)`` for ``"greater"``).

    Validated against ``scipy.stats.wilcoxon(d, zero_method="wilcox",
    correction=True, method="auto", alternative=...)`` on data taking each route. (scipy returns nan
    for all-zero ``d`` with n > 13; here p is 1.)

    Examples
    --------
    >>> a = [2, 5, 1, 9, 4, 3, 6, 5]
    >>> b = [6, 7, 6, 10, 10, 0, 14, 12]
    >>> r = wilcoxon(a, b)
    >>> r.statistic, r.p_value, r.exact
    (3.0, 0.0390625, True)
    """
    alternative = check_alternative(alternative)
    a_arr, b_arr = pair(a, b)
    d = b_arr - a_arr
    nonzero = d[d != 0]
    n, m = d.size, nonzero.size
    if m == 0:
        return TestResult("wilcoxon", 0.0, 1.0)
    mags = np.abs(nonzero)
    ranks = _average_ranks(mags)  # multiples of 1/2, summed exactly
    r_plus = float(np.sum(ranks[nonzero > 0]))
    r_minus = m * (m + 1) / 2 - r_plus
    _, tie_sizes = np.unique(mags, return_counts=True)
    route = _wilcoxon_route(n, m, bool(np.any(tie_sizes > 1)))
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus

    if route == "normal":
        tie_sizes = tie_sizes.astype(float)
        se = math.sqrt((m * (m + 1) * (2 * m + 1) - np.sum(tie_sizes**3 - tie_sizes) / 2) / 24)
        z = (r_plus - m * (m + 1) / 4) / se
        toward = {"greater": 1.0, "less": -1.0}.get(alternative, np.sign(z))
        z -= toward * 0.5 / se
        return TestResult("wilcoxon", statistic, normal_p(float(z), alternative), exact=False)

    counts = _subset_sum_counts(np.rint(2 * ranks).astype(np.int64))  # null law of 2 R+
    observed = int(round(2 * r_plus))
    as_low = int(counts[: observed + 1].sum()) / float(1 << m)
    as_high = int(counts[observed:].sum()) / float(1 << m)
    p = {"greater": as_high, "less": as_low}.get(alternative, min(1.0, 2 * min(as_low, as_high)))
    return TestResult("wilcoxon", statistic, float(p))
