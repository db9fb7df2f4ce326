"""Paired significance tests: could luck alone make a gap this big?

Every test compares two models scored on the same questions: ``a`` (model A) and
``b`` (model B), aligned by question, with per-question differences ``d = b - a``.
All p-values are two-sided and lie in [0, 1]; a p-value is exactly 1 when the data
hold no evidence at all (no discordant pairs, all differences zero). A statistic is
nan where it is undefined (e.g. ``paired-t`` with every difference zero).

Tests are registered in :data:`TESTS` (``name -> function``), which also drives
validation in :func:`paired_test`:

- 0/1 scores only: ``mcnemar-exact``, ``mcnemar-chi2``, ``mcnemar-midp``;
- any scores: ``sign``, ``sign-flip``, ``paired-t``, ``wilcoxon``.

``sign-flip`` is the only test that can need random draws; they all come from
:func:`evalbars.stats.resample.sign_flip_sums`, so the p-value depends only on the data,
``n_resamples`` and ``seed``. Every test's result depends only on the multiset of
pairs: shuffling the rows changes nothing, and swapping ``a`` and ``b`` keeps every
p-value (signed statistics change sign).
"""
from __future__ import annotations

import math
import operator
from typing import Callable

import numpy as np
from scipy import special

from ..core.errors import EvalbarsError
from .resample import sign_flip_sums
from ..core.types import TestResult
from .checks import pair, require_binary

__all__ = [
    "BINARY_TESTS",
    "CONTINUOUS_TESTS",
    "TESTS",
    "mcnemar_chi2",
    "mcnemar_exact",
    "mcnemar_midp",
    "paired_t",
    "paired_test",
    "sign_flip",
    "sign_test",
    "wilcoxon",
]

BINARY_TESTS: tuple[str, ...] = ("mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip",
                                 "paired-t")
"""Tests offered for 0/1 (correct/incorrect) scores."""

CONTINUOUS_TESTS: tuple[str, ...] = ("sign", "sign-flip", "paired-t", "wilcoxon")
"""Tests offered for continuous scores (they also accept 0/1 scores)."""

TIE_RTOL = 1e-9
"""Relative tolerance for ties in ``sign-flip``: a resampled sum counts as at least as
extreme as the observed one when ``|S| >= |T| - TIE_RTOL * sum|d|``, so sums that are
equal in exact arithmetic but differ by rounding are counted as ties."""

_WILCOXON_EXACT_MAX_N = 50
"""scipy 1.17 ``method="auto"``: the normal approximation is used above this n."""

_WILCOXON_PERMUTATION_MAX_N = 13
"""scipy 1.17 ``method="auto"``: with ties or zeros, exact sign-flip permutation up to this
n (2**13 patterns fit in scipy's default 9999 resamples, so scipy enumerates them)."""

SIGN_FLIP_EXACT_MAX = 20
"""``sign-flip`` and ``cluster-sign-flip`` enumerate all ``2**m`` sign patterns whenever
at most this many differences (cluster totals) are nonzero, whatever ``n_resamples``:
2**20 patterns, about a million, take well under a millisecond by meet in the middle."""

_ENUMERATION_CHUNK = 1 << 14
"""Half-sums of the sign-flip enumeration handled per vectorized step."""


# --- validation ---------------------------------------------------------------------


def _binary_pair(a: object, b: object, test: str) -> tuple[int, int]:
    """Validated 0/1 pair -> (a_only, b_only) discordant counts."""
    a_arr, b_arr = pair(a, b)
    require_binary(a_arr, b_arr, f"test {test!r}", " (for continuous scores use 'sign', "
                   "'sign-flip', 'paired-t' or 'wilcoxon')")
    a_only = int(np.count_nonzero((a_arr == 1) & (b_arr == 0)))
    b_only = int(np.count_nonzero((a_arr == 0) & (b_arr == 1)))
    return a_only, b_only


def _n_resamples(value: object) -> int:
    if isinstance(value, bool):
        value = None  # True is not a count
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        count = 0
    if count < 1:
        raise EvalbarsError(f"n_resamples must be a positive integer; got {value!r}")
    return count


def _seed(seed: object) -> np.random.SeedSequence | None:
    if seed is not None and not isinstance(seed, np.random.SeedSequence):
        raise EvalbarsError(
            f"seed must be a numpy.random.SeedSequence or None; got {seed!r}"
        )
    return seed


# --- shared pieces ------------------------------------------------------------------


def _binom_two_sided(k: int, m: int) -> float:
    """Two-sided exact p of k ~ Binomial(m, 1/2): min(1, 2 F(min(k, m-k))); 1 when m = 0."""
    if m == 0:
        return 1.0
    return float(min(1.0, 2.0 * special.bdtr(min(k, m - k), m, 0.5)))


def _half_binomial_pmf(k: int, m: int) -> float:
    """P(K = k) for K ~ Binomial(m, 1/2), through log-gamma (no huge coefficients)."""
    log_pmf = special.gammaln(m + 1) - special.gammaln(k + 1) - special.gammaln(m - k + 1)
    return float(math.exp(log_pmf - m * math.log(2.0)))


def _average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of x, ties sharing their average rank (as scipy.stats.rankdata)."""
    order = np.argsort(x, kind="stable")
    values = x[order]
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    ends = np.r_[starts[1:], values.size]
    ranks = np.empty(x.size)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def _fsum_mean(x: np.ndarray) -> float:
    """Correctly rounded mean: independent of order, and exactly odd under x -> -x."""
    return math.fsum(x) / x.size


# --- McNemar family (0/1 scores) -----------------------------------------------------


def mcnemar_exact(a: object, b: object) -> TestResult:
    """McNemar's exact (conditional binomial) test for 0/1 scores.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length 0/1 scores of models A and B, aligned by question.

    Returns
    -------
    TestResult
        ``statistic`` is ``b_only``, the number of questions B got right and A got
        wrong (not ``min(a_only, b_only)`` as statsmodels reports).

    Notes
    -----
    With ``a_only`` / ``b_only`` the discordant counts and ``m = a_only + b_only``,
    under the null ``b_only ~ Binomial(m, 1/2)`` and::

        p = min(1, 2 * P(X <= min(a_only, b_only))),   X ~ Binomial(m, 1/2)

    ``p = 1`` when ``m = 0``. Validated against ``scipy.stats.binomtest`` and
    statsmodels ``mcnemar(exact=True)``; R ``binom.test(17, 21)`` gives 0.00720.

    Examples
    --------
    >>> a = [1, 1, 0, 1, 0, 1, 1, 0]
    >>> b = [1, 0, 1, 1, 1, 1, 1, 1]
    >>> r = mcnemar_exact(a, b)
    >>> r.statistic, r.p_value
    (3.0, 0.625)
    """
    a_only, b_only = _binary_pair(a, b, "mcnemar-exact")
    return TestResult("mcnemar-exact", float(b_only), _binom_two_sided(b_only, a_only + b_only))


def mcnemar_chi2(a: object, b: object) -> TestResult:
    """McNemar's chi-square test with continuity correction, for 0/1 scores.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length 0/1 scores of models A and B, aligned by question.

    Returns
    -------
    TestResult
        ``statistic`` is the corrected chi-square value (symmetric in A and B); nan
        when there are no discordant pairs (then ``p_value`` is 1).

    Notes
    -----
    ::

        X2 = max(|b_only - a_only| - 1, 0)**2 / (b_only + a_only),   p = P(chi2_1 >= X2)

    Equal to statsmodels ``mcnemar(exact=False, correction=True)`` and to R
    ``mcnemar.test`` whenever ``b_only != a_only``. When ``b_only == a_only`` the
    correction would overshoot (statsmodels gives ``1/(b_only + a_only)``, so one
    discordant pair more on one side would *raise* p); here, as in R, ``X2 = 0`` and
    ``p = 1``. R ``mcnemar.test`` on 17 vs 4 discordant pairs gives 6.857, p = 0.0088.

    Examples
    --------
    >>> a = [1] * 4 + [0] * 17 + [1] * 10
    >>> b = [0] * 4 + [1] * 17 + [1] * 10
    >>> r = mcnemar_chi2(a, b)
    >>> round(r.statistic, 3), round(r.p_value, 4)
    (6.857, 0.0088)
    """
    a_only, b_only = _binary_pair(a, b, "mcnemar-chi2")
    m = a_only + b_only
    if m == 0:
        return TestResult("mcnemar-chi2", math.nan, 1.0)
    statistic = max(abs(b_only - a_only) - 1, 0) ** 2 / m
    return TestResult("mcnemar-chi2", float(statistic), float(special.chdtrc(1, statistic)))


def mcnemar_midp(a: object, b: object) -> TestResult:
    """McNemar mid-p test (Fagerland, Lydersen & Laake 2013), for 0/1 scores.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length 0/1 scores of models A and B, aligned by question.

    Returns
    -------
    TestResult
        ``statistic`` is ``b_only``, as in :func:`mcnemar_exact`.

    Notes
    -----
    With ``X ~ Binomial(m, 1/2)``, ``m = a_only + b_only`` and ``k = min(a_only,
    b_only)``, the mid-p value is the exact conditional p minus the point probability
    of the observed count::

        p = 2 * P(X <= k) - P(X = k)          if a_only != b_only
        p = 1 - P(X = k) / 2                  if a_only == b_only  (m > 0)
        p = 1                                 if m == 0

    following Fagerland, Lydersen & Laake (2013, BMC Med Res Methodol 13:91, and
    its supplement "How to calculate the McNemar mid-p test"). Validated against
    their example (1 vs 7 discordant pairs: mid-p 0.039, exact 0.070) and against
    exact rational arithmetic.

    Examples
    --------
    Fagerland et al.'s example, 7 vs 1 discordant pairs (mid-p 10/256):

    >>> a = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]
    >>> b = [0, 0, 0, 0, 0, 0, 0, 1, 1, 0]
    >>> r = mcnemar_midp(a, b)
    >>> r.statistic, round(r.p_value, 4)
    (1.0, 0.0391)
    """
    a_only, b_only = _binary_pair(a, b, "mcnemar-midp")
    m = a_only + b_only
    if m == 0:
        return TestResult("mcnemar-midp", float(b_only), 1.0)
    k = min(a_only, b_only)
    point = _half_binomial_pmf(k, m)
    if a_only == b_only:
        p = 1.0 - 0.5 * point
    else:
        p = 2.0 * float(special.bdtr(k, m, 0.5)) - point
    return TestResult("mcnemar-midp", float(b_only), float(min(max(p, 0.0), 1.0)))


# --- tests for any scores -------------------------------------------------------------


def sign_test(a: object, b: object) -> TestResult:
    """Sign test on the per-question differences; ties are dropped.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.

    Returns
    -------
    TestResult
        ``statistic`` is the number of questions with ``d > 0`` (B scored higher).

    Notes
    -----
    With ``m`` the number of nonzero differences and ``k`` the number of positive
    ones, ``k ~ Binomial(m, 1/2)`` under the null and
    ``p = min(1, 2 * P(X <= min(k, m - k)))``; ``p = 1`` when ``m = 0``. On 0/1
    scores this is :func:`mcnemar_exact`. Validated against
    ``scipy.stats.binomtest(k, m)`` and statsmodels ``sign_test``.

    Examples
    --------
    >>> a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3]
    >>> b = [0.6, 0.7, 0.1, 1.0, 0.8, 0.2]
    >>> r = sign_test(a, b)
    >>> r.statistic, r.p_value
    (4.0, 0.375)
    """
    a_arr, b_arr = pair(a, b)
    d = b_arr - a_arr
    k = int(np.count_nonzero(d > 0))
    m = k + int(np.count_nonzero(d < 0))
    return TestResult("sign", float(k), _binom_two_sided(k, m))


def _signed_half_sums(values: np.ndarray) -> np.ndarray:
    """All 2**len(values) sums of +-values, sorted."""
    sums = np.zeros(1)
    for v in values:
        sums = np.concatenate((sums + v, sums - v))
    return np.sort(sums)


def _count_as_extreme(mags: np.ndarray, threshold: float) -> int:
    """Number of sign patterns s with ``|sum s_i mags_i| >= threshold``, by enumeration.

    Meet in the middle: every sum is ``h + l`` with ``h`` from the signed sums of the
    first half and ``l`` from those of the second; for each ``h`` the ``l`` that reach
    the threshold are counted with two binary searches. Memory is O(2**(m/2)).
    """
    if threshold <= 0.0:
        return 1 << mags.size
    half = mags.size // 2
    low = _signed_half_sums(mags[:half])
    high = _signed_half_sums(mags[half:])
    count = 0
    for start in range(0, high.size, _ENUMERATION_CHUNK):
        h = high[start:start + _ENUMERATION_CHUNK]
        count += int(np.sum(low.size - np.searchsorted(low, threshold - h, side="left")))
        count += int(np.sum(np.searchsorted(low, -threshold - h, side="right")))
    return count


def _enumerates(m: int, n_resamples: int) -> bool:
    """Whether a sign-flip test on ``m`` nonzero units enumerates all ``2**m`` patterns.

    Always up to :data:`SIGN_FLIP_EXACT_MAX` units, and beyond that while the patterns
    are no more than the Monte Carlo resamples they would replace.

    >>> _enumerates(20, 1), _enumerates(21, 2**21), _enumerates(21, 2**21 - 1)
    (True, True, False)
    """
    return m <= SIGN_FLIP_EXACT_MAX or (1 << m) <= n_resamples


def _flip_signs(
    name: str,
    statistic: float,
    units: np.ndarray,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence | None,
    described: str,
) -> TestResult:
    """The sign-flip test of ``sum(units) = 0``: the three routes of :func:`sign_flip`.

    ``units`` are the independent values whose signs are flipped (per-question
    differences, or per-cluster totals for ``cluster-sign-flip``); ``described`` says
    what they are in the error raised when Monte Carlo is needed without a seed.

    >>> r = _flip_signs("sign-flip", 1.0, np.array([1.0, 2.0, 3.0]), n_resamples=1,
    ...                 seed=None, described="nonzero differences")
    >>> r.p_value, r.exact
    (0.25, True)
    """
    mags = np.sort(np.abs(units[units != 0]))
    m = mags.size
    if m == 0:
        return TestResult(name, statistic, 1.0)
    if mags[0] == mags[-1]:
        k = int(np.count_nonzero(units > 0))
        return TestResult(name, statistic, _binom_two_sided(k, m))

    threshold = abs(math.fsum(units)) - TIE_RTOL * math.fsum(mags)
    if _enumerates(m, n_resamples):
        p = _count_as_extreme(mags, threshold) / float(1 << m)
        return TestResult(name, statistic, float(min(p, 1.0)))

    if seed is None:
        raise EvalbarsError(
            f"seed must be a numpy.random.SeedSequence for the Monte Carlo {name} test "
            f"({m} {described} give 2**{m} sign patterns, too many to enumerate: more "
            f"than 2**{SIGN_FLIP_EXACT_MAX} and more than n_resamples={n_resamples}); "
            f"got None"
        )
    sums = sign_flip_sums(mags, n_resamples=n_resamples, seed=seed)
    k = int(np.count_nonzero(np.abs(sums) >= threshold))
    p = (k + 1) / (n_resamples + 1)
    return TestResult(name, statistic, p, exact=False, n_resamples=n_resamples,
                      mc_error=math.sqrt(p * (1.0 - p) / n_resamples))


def sign_flip(
    a: object,
    b: object,
    *,
    n_resamples: int = 10_000,
    seed: np.random.SeedSequence | None = None,
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
       the positive count -- the same p as :func:`mcnemar_exact`. Exact.
    2. ``m <= SIGN_FLIP_EXACT_MAX`` or ``2**m <= n_resamples``: all ``2**m`` sign
       patterns are enumerated and ``p = count / 2**m``. Exact. Meet in the middle:
       the sorted ``2**(m/2)`` signed sums of each half, then binary searches, so
       memory is O(2**(m/2)) and ``m = 20`` (about 10**6 patterns) takes well under a
       millisecond.
    3. Otherwise Monte Carlo through ``sign_flip_sums``:
       ``p = (k + 1) / (B + 1)`` with ``k`` the resamples reaching ``|T|``, never 0;
       ``mc_error = sqrt(p (1 - p) / B)``.

    "Reaching" allows for rounding: ``|S| >= |T| - TIE_RTOL * sum|d|`` with
    ``TIE_RTOL = 1e-9``. The draws use the sorted ``|d_i|`` (the null law of ``S``
    is the same for ``d`` and ``|d|``), so the Monte Carlo p is identical after
    shuffling rows or swapping A and B.

    Validated: enumeration equals ``scipy.stats.permutation_test`` (one sample of
    differences, ``permutation_type="samples"``, statistic ``mean``, two-sided,
    ``n_resamples=inf``); route 1 equals brute-force enumeration; Monte Carlo lies
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
    n_resamples = _n_resamples(n_resamples)
    seed = _seed(seed)
    d = b_arr - a_arr
    return _flip_signs("sign-flip", _fsum_mean(d), d, n_resamples=n_resamples, seed=seed,
                       described="nonzero differences")


def paired_t(a: object, b: object) -> TestResult:
    """Paired t-test of ``mean(d) = 0``.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.

    Returns
    -------
    TestResult
        ``statistic`` is t (signed: positive when B scores higher). It is nan with
        ``p_value`` 1 when undefined for lack of evidence (one question, or every
        difference zero), and +-inf with ``p_value`` 0 when every difference is the
        same nonzero value.

    Notes
    -----
    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``sd`` the sample sd (ddof=1);
    ``p = 2 P(T_{n-1} >= |t|)``. Sums are exactly rounded (``math.fsum``), so row
    order never changes a digit. Validated against ``scipy.stats.ttest_rel(b, a)``.

    Examples
    --------
    >>> a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3]
    >>> b = [0.6, 0.7, 0.1, 1.0, 0.8, 0.2]
    >>> r = paired_t(a, b)
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (1.9764, 0.1051)
    """
    a_arr, b_arr = pair(a, b)
    d = b_arr - a_arr
    n = d.size
    if n < 2 or not np.any(d):
        return TestResult("paired-t", math.nan, 1.0)
    mean = _fsum_mean(d)
    var = math.fsum((d - mean) ** 2) / (n - 1)
    if var == 0.0:
        return TestResult("paired-t", math.copysign(math.inf, mean), 0.0)
    t = mean / math.sqrt(var / n)
    return TestResult("paired-t", t, float(min(1.0, 2.0 * special.stdtr(n - 1, -abs(t)))))


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


def wilcoxon(a: object, b: object) -> TestResult:
    """Wilcoxon signed-rank test on ``d = b - a``, zero differences dropped.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.

    Returns
    -------
    TestResult
        ``statistic`` is ``min(R+, R-)``, the smaller of the rank sums of the
        positive and negative differences (what scipy reports for two-sided tests;
        unchanged by swapping A and B). ``exact`` is False when the normal
        approximation was used. With every difference zero: statistic 0, p 1.

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

    Validated against ``scipy.stats.wilcoxon(d, zero_method="wilcox",
    correction=True, method="auto")`` on data taking each route. (scipy returns nan
    for all-zero ``d`` with n > 13; here p is 1.)

    Examples
    --------
    >>> a = [2, 5, 1, 9, 4, 3, 6, 5]
    >>> b = [6, 7, 6, 10, 10, 0, 14, 12]
    >>> r = wilcoxon(a, b)
    >>> r.statistic, r.p_value, r.exact
    (3.0, 0.0390625, True)
    """
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

    if route == "normal":
        tie_sizes = tie_sizes.astype(float)
        se = math.sqrt((m * (m + 1) * (2 * m + 1) - np.sum(tie_sizes**3 - tie_sizes) / 2) / 24)
        z = (r_plus - m * (m + 1) / 4) / se
        z -= np.sign(z) * 0.5 / se
        p = float(min(1.0, 2.0 * special.ndtr(-abs(z))))
        return TestResult("wilcoxon", min(r_plus, r_minus), p, exact=False)

    counts = _subset_sum_counts(np.rint(2 * ranks).astype(np.int64))  # null law of 2 R+
    observed = int(round(2 * r_plus))
    as_low = int(counts[: observed + 1].sum())
    as_high = int(counts[observed:].sum())
    p = min(1.0, 2 * min(as_low, as_high) / float(1 << m))
    return TestResult("wilcoxon", min(r_plus, r_minus), p)


# --- registry and dispatcher ----------------------------------------------------------

TESTS: dict[str, Callable[..., TestResult]] = {
    "mcnemar-exact": mcnemar_exact,
    "mcnemar-chi2": mcnemar_chi2,
    "mcnemar-midp": mcnemar_midp,
    "sign": sign_test,
    "sign-flip": sign_flip,
    "paired-t": paired_t,
    "wilcoxon": wilcoxon,
}
"""Every test by name; :func:`paired_test` accepts exactly these names."""

_RESAMPLING_TESTS = frozenset({"sign-flip"})
"""Tests that take ``n_resamples`` and ``seed``."""


def paired_test(
    a: object,
    b: object,
    *,
    name: str,
    n_resamples: int = 10_000,
    seed: np.random.SeedSequence | None = None,
) -> TestResult:
    """Run the paired test ``name`` on scores ``a`` (model A) and ``b`` (model B).

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores aligned by question (0/1 for the McNemar tests).
    name : str
        One of :data:`TESTS`: ``mcnemar-exact``, ``mcnemar-chi2``, ``mcnemar-midp``,
        ``sign``, ``sign-flip``, ``paired-t``, ``wilcoxon``.
    n_resamples : int
        Positive; used by ``sign-flip`` (Monte Carlo size and enumeration budget).
    seed : numpy.random.SeedSequence, optional
        Used by ``sign-flip`` when it needs Monte Carlo (required there).

    Returns
    -------
    TestResult
        Two-sided p-value in [0, 1]; see each test's function for its statistic.

    Examples
    --------
    >>> import numpy as np
    >>> a = [1, 1, 0, 1, 0, 1, 1, 0]
    >>> b = [1, 0, 1, 1, 1, 1, 1, 1]
    >>> paired_test(a, b, name="mcnemar-exact").p_value
    0.625
    >>> r = paired_test(a, b, name="sign-flip", seed=np.random.SeedSequence(0))
    >>> r.p_value, r.exact
    (0.625, True)
    """
    if not isinstance(name, str) or name not in TESTS:
        valid = ", ".join(repr(key) for key in TESTS)
        raise EvalbarsError(f"name must be one of {valid}; got {name!r}")
    n_resamples = _n_resamples(n_resamples)
    seed = _seed(seed)
    if name in _RESAMPLING_TESTS:
        return TESTS[name](a, b, n_resamples=n_resamples, seed=seed)
    return TESTS[name](a, b)
