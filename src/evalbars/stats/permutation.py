"""The paired permutation (sign-flip) test: exact by enumeration, else Monte Carlo.

Under the null of no difference between two models, each independent unit (one
question's difference ``d = b - a``, or one cluster's total for
:func:`evalbars.stats.cluster_resampling.cluster_sign_flip`) is equally likely to have
either sign. :func:`flip_units` computes the p-value of ``sum(units) = 0`` by the
binomial law when every nonzero unit has the same size, by enumerating all sign patterns
(meet in the middle) when there are few enough of them (:data:`SIGN_FLIP_EXACT_MAX`),
and otherwise from random signs: the null sums ``S @ d`` of one sign matrix S drawn by
:func:`evalbars.stats.resample.sign_flip_sums` for the whole data set, which the caller
supplies (an analysis computes ``S @ x`` once for every model and reads each pair's null
as the difference of two columns), so the p-value depends only on the data, the units'
order, ``n_resamples`` and ``seed``.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..core.errors import EvalbarsError
from ..core.types import TestResult
from .checks import checked_resamples, checked_seed, pair
from .resample import sign_flip_sums
from .tails import binomial_p, check_alternative

__all__ = ["flip_units", "fsum_mean", "sign_flip"]

TIE_RTOL = 1e-9
"""Relative tolerance for ties in ``sign-flip``: a resampled sum counts as at least as
extreme as the observed one when ``|S| >= |T| - TIE_RTOL * sum|d|``, so sums that are
equal in exact arithmetic but differ by rounding are counted as ties."""

SIGN_FLIP_EXACT_MAX = 20
"""``sign-flip`` and ``cluster-sign-flip`` enumerate all ``2**m`` sign patterns whenever
at most this many differences (cluster totals) are nonzero, whatever ``n_resamples``:
2**20 patterns, about a million, take well under a millisecond by meet in the middle."""

_SUM_SLACK = 1e-6
"""Relative bound on the error of ``np.sum`` of positive values (pairwise summation errs
by under ``n * 2**-52``: below 1e-6 up to 10**9 values)."""

_ENUMERATION_CHUNK = 1 << 14
"""Half-sums of the sign-flip enumeration handled per vectorized step."""


def fsum_mean(x: np.ndarray) -> float:
    """Correctly rounded mean: independent of order, and exactly odd under x -> -x.

    >>> x = np.array([1e16, 1.0, -1e16])
    >>> fsum_mean(x), float(np.mean(x)), fsum_mean(-x)
    (0.3333333333333333, 0.0, -0.3333333333333333)
    """
    return math.fsum(x) / x.size


def _signed_half_sums(values: np.ndarray) -> np.ndarray:
    """All 2**len(values) sums of +-values, sorted."""
    sums = np.zeros(1)
    for v in values:
        sums = np.concatenate((sums + v, sums - v))
    return np.sort(sums)


def _count_reaching(mags: np.ndarray, threshold: float, two_sided: bool) -> int:
    """Number of sign patterns s with ``sum s_i mags_i >= threshold`` (with ``two_sided``:
    ``|sum s_i mags_i| >= threshold``), by enumeration.

    Meet in the middle: every sum is ``h + l`` with ``h`` from the signed sums of the
    first half and ``l`` from those of the second; for each ``h`` the ``l`` that reach
    the threshold are counted with a binary search (two, for the lower tail too).
    Memory is O(2**(m/2)).

    >>> mags = np.array([1.0, 2.0, 3.0])
    >>> _count_reaching(mags, 4.0, True), _count_reaching(mags, 4.0, False)
    (4, 2)
    """
    if two_sided and threshold <= 0.0:
        return 1 << mags.size
    half = mags.size // 2
    low = _signed_half_sums(mags[:half])
    high = _signed_half_sums(mags[half:])
    count = 0
    for start in range(0, high.size, _ENUMERATION_CHUNK):
        h = high[start:start + _ENUMERATION_CHUNK]
        count += int(np.sum(low.size - np.searchsorted(low, threshold - h, side="left")))
        if two_sided:
            count += int(np.sum(np.searchsorted(low, -threshold - h, side="right")))
    return count


def _edge(total: float, tolerance: float, alternative: str) -> float:
    """The value a null sum must reach: ``|T| - tol`` two-sided; one-sided, "greater"
    counts ``S >= T - tol`` and "less" ``S <= T + tol``, that is ``-S >= -T - tol``.

    >>> _edge(-3.0, 0.5, "two-sided"), _edge(-3.0, 0.5, "greater"), _edge(-3.0, 0.5, "less")
    (2.5, -3.5, 2.5)
    """
    if alternative == "two-sided":
        return abs(total) - tolerance
    return (total if alternative == "greater" else -total) - tolerance


def _count_null(signed: np.ndarray, total: float, mags: np.ndarray, alternative: str) -> int:
    """How many null sums (``|S|``, ``S`` or ``-S`` as the alternative asks) reach the edge.

    The tolerance is ``TIE_RTOL * math.fsum(mags)``; the exactly rounded sum (slow) is
    taken only when a null sum lies between the edges of two tolerances that bracket it,
    from the quick ``np.sum`` widened by :data:`_SUM_SLACK`: the count is the same.

    >>> _count_null(np.array([1.0, 2.0, 3.0 - 1e-12, 4.0]), 3.0, np.ones(3), "greater")
    2
    """
    def count(tolerance: float) -> int:
        return int(np.count_nonzero(signed >= _edge(total, tolerance, alternative)))

    quick = float(np.sum(mags))
    wide = count(TIE_RTOL * (quick * (1 + _SUM_SLACK)))
    narrow = count(TIE_RTOL * (quick * (1 - _SUM_SLACK)))
    return wide if wide == narrow else count(TIE_RTOL * math.fsum(mags))


def _enumerates(m: int, n_resamples: int) -> bool:
    """Whether a sign-flip test on ``m`` nonzero units enumerates all ``2**m`` patterns.

    Always up to :data:`SIGN_FLIP_EXACT_MAX` units, and beyond that while the patterns
    are no more than the Monte Carlo resamples they would replace.

    >>> _enumerates(20, 1), _enumerates(21, 2**21), _enumerates(21, 2**21 - 1)
    (True, True, False)
    """
    return m <= SIGN_FLIP_EXACT_MAX or (1 << m) <= n_resamples


def flip_units(
    name: str,
    statistic: float,
    units: np.ndarray,
    null: Callable[[np.random.SeedSequence], np.ndarray],
    *,
    n_resamples: int,
    seed: np.random.SeedSequence | None,
    described: str,
    alternative: str = "two-sided",
    total: float | None = None,
) -> TestResult:
    """The sign-flip test of ``sum(units) = 0``: the three routes of :func:`sign_flip`.

    ``units`` are the independent values whose signs are flipped (per-question
    differences, or per-cluster totals for ``cluster-sign-flip``); ``null(seed)`` returns
    the B Monte Carlo null sums ``S @ units`` of the data set's sign matrix, and is called
    only when neither exact route applies; ``described`` says what the units are in the
    error raised when Monte Carlo is needed without a seed; ``alternative`` is
    ``"two-sided"``, ``"greater"`` (``sum(units) > 0``) or ``"less"``; ``total`` is
    ``math.fsum(units)`` when the caller has it already.

    >>> r = flip_units("sign-flip", 1.0, np.array([1.0, 2.0, 3.0]), None, n_resamples=1,
    ...                seed=None, described="nonzero differences")
    >>> r.p_value, r.exact
    (0.25, True)
    """
    mags = np.abs(units[units != 0])  # sorted only to be enumerated
    m = mags.size
    if m == 0:
        return TestResult(name, statistic, 1.0)
    if mags.min() == mags.max():
        k = int(np.count_nonzero(units > 0))
        return TestResult(name, statistic, binomial_p(k, m, alternative))

    total = math.fsum(units) if total is None else total
    two_sided = alternative == "two-sided"
    if _enumerates(m, n_resamples):
        edge = _edge(total, TIE_RTOL * math.fsum(mags), alternative)
        count = _count_reaching(np.sort(mags), edge, two_sided)
        return TestResult(name, statistic, float(min(count / float(1 << m), 1.0)))

    if seed is None:
        raise EvalbarsError(
            f"seed must be a numpy.random.SeedSequence for the Monte Carlo {name} test "
            f"({m} {described} give 2**{m} sign patterns, too many to enumerate: more "
            f"than 2**{SIGN_FLIP_EXACT_MAX} and more than n_resamples={n_resamples}); "
            f"got None"
        )
    sums = null(seed)
    k = _count_null(np.abs(sums) if two_sided else sums if alternative == "greater" else -sums,
                    total, mags, alternative)
    p = (k + 1) / (n_resamples + 1)
    return TestResult(name, statistic, p, exact=False, n_resamples=n_resamples,
                      mc_error=math.sqrt(p * (1.0 - p) / n_resamples))


def paired_null(a: np.ndarray, b: np.ndarray, *, n_resamples: int,
                seed: np.random.SeedSequence) -> np.ndarray:
    """``S @ (b - a)`` as ``S @ b - S @ a``, one sign matrix for both columns (rows as given).

    The same numbers as an analysis reading the pair from ``S @ x`` for all its models.

    >>> s = paired_null(np.zeros(3), np.array([1.0, 2.0, 4.0]), n_resamples=8,
    ...                 seed=np.random.SeedSequence(0))
    >>> sorted(set(np.abs(s).tolist())) <= [1.0, 3.0, 5.0, 7.0]
    True
    """
    sums = sign_flip_sums(np.column_stack([a, b]), n_resamples=n_resamples, seed=seed)
    return sums[:, 1] - sums[:, 0]


def sign_flip(
    a: object,
    b: object,
    *,
    n_resamples: int = 10_000,
    seed: np.random.SeedSequence | None = None,
    alternative: str = "two-sided",
) -> TestResult:
    """Paired permutation (sign-flip) test of ``mean(d) = 0``.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.
    n_resamples : int
        Monte Carlo resamples B, and an enumeration budget: the test is exact whenever
        ``m <= SIGN_FLIP_EXACT_MAX`` (20) or ``2**m <= n_resamples`` (``m`` nonzero
        differences).
    seed : numpy.random.SeedSequence, optional
        Required only when the Monte Carlo path is taken.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A: ``P(S >= T)``) or
        ``"less"`` (``P(S <= T)``), each route counting only that tail.

    Returns
    -------
    TestResult
        ``statistic`` is ``mean(d)`` (signed: positive when B scores higher). Exact:
        ``exact=True``, ``n_resamples`` and ``mc_error`` None. Monte Carlo:
        ``exact=False`` with ``n_resamples`` and ``mc_error`` set.

    Notes
    -----
    Under the null each ``d_i`` is equally likely to have either sign. With
    ``T = sum(d)`` and ``S = sum(s_i d_i)`` for random signs ``s_i``, the p-value is
    ``P(|S| >= |T|)``; zero differences contribute nothing and are dropped. Three
    routes, tried in order:

    1. Every nonzero ``|d_i|`` equal (0/1 data, any n): ``S`` is ``c (2X - m)`` with
       ``X ~ Binomial(m, 1/2)``, so ``p = min(1, 2 P(X <= min(k, m - k)))``, ``k``
       the positive count -- the same p as
       :func:`evalbars.stats.mcnemar.mcnemar_exact`. Exact.
    2. ``m <= SIGN_FLIP_EXACT_MAX`` or ``2**m <= n_resamples``: all ``2**m`` sign
       patterns are enumerated and ``p = count / 2**m``. Exact. Meet in the middle:
       the sorted ``2**(m/2)`` signed sums of each half, then binary searches, so
       memory is O(2**(m/2)) and ``m = 20`` (about 10**6 patterns) takes well under a
       millisecond.
    3. Otherwise Monte Carlo through ``sign_flip_sums``:
       ``p = (k + 1) / (B + 1)`` with ``k`` the resamples reaching ``|T|``, never 0;
       ``mc_error = sqrt(p (1 - p) / B)``.

    "Reaching" allows for rounding: ``|S| >= |T| - TIE_RTOL * sum|d|`` with
    ``TIE_RTOL = 1e-9``. The random signs are one sign matrix for the rows in the
    order given (:func:`paired_null`), the one an analysis shares between all its pairs
    with the rows in canonical (item id) order; swapping A and B negates every null sum
    exactly and so keeps the p-value.

    Validated: enumeration equals ``scipy.stats.permutation_test`` (one sample of
    differences, ``permutation_type="samples"``, statistic ``mean``, each
    ``alternative``, ``n_resamples=inf``); route 1 equals brute-force enumeration; Monte Carlo lies
    within a few ``mc_error`` of the exact p.

    Examples
    --------
    >>> import numpy as np
    >>> a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3, 0.6, 0.5]
    >>> b = [0.6, 0.7, 0.1, 1.0, 0.8, 0.2, 0.9, 0.7]
    >>> r = sign_flip(a, b)
    >>> round(r.statistic, 4), r.p_value, r.exact
    (0.1875, 0.046875, True)
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.random(30), rng.random(30)
    >>> r = sign_flip(a, b, n_resamples=50, seed=np.random.SeedSequence(0))
    >>> r.exact, r.n_resamples, 0 < r.p_value <= 1
    (False, 50, True)
    """
    a_arr, b_arr = pair(a, b)
    n_resamples = checked_resamples(n_resamples)
    seed = checked_seed(seed)
    alternative = check_alternative(alternative)
    d = b_arr - a_arr

    def null(stream: np.random.SeedSequence) -> np.ndarray:
        return paired_null(a_arr, b_arr, n_resamples=n_resamples, seed=stream)

    total = math.fsum(d)
    return flip_units("sign-flip", total / d.size, d, null, n_resamples=n_resamples,
                      seed=seed, described="nonzero differences", alternative=alternative,
                      total=total)
