"""Paired significance tests: could luck alone make a gap this big?

Every test compares two models scored on the same questions: ``a`` (model A) and
``b`` (model B), aligned by question, with per-question differences ``d = b - a``.
p-values are two-sided unless ``alternative`` is ``"greater"`` (B better than A) or
``"less"`` (:mod:`evalbars.stats.tails`), and lie in [0, 1]; a p-value is exactly 1 when
the data hold no evidence at all (no discordant pairs, all differences zero). A statistic is
nan where it is undefined (e.g. ``paired-t`` with every difference zero).

Tests are registered in :data:`TESTS` (``name -> function``), which also drives
validation in :func:`paired_test`:

- 0/1 scores only: ``mcnemar-exact``, ``mcnemar-chi2``, ``mcnemar-midp``
  (:mod:`evalbars.stats.mcnemar`);
- any scores: ``sign``, ``sign-flip`` (:mod:`evalbars.stats.permutation`), ``paired-t``,
  ``wilcoxon`` (:mod:`evalbars.stats.signed_rank`).

This module holds the registry, the dispatcher and the two closed-form tests on the
differences, :func:`sign_test` and :func:`paired_t`.

``sign-flip`` is the only test that can need random draws; they all come from
:func:`evalbars.stats.resample.sign_flip_sums`, so the p-value depends only on the data,
``n_resamples`` and ``seed``. Every test's result depends only on the multiset of
pairs: shuffling the rows changes nothing, and swapping ``a`` and ``b`` keeps every
p-value (signed statistics change sign).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..core.errors import EvalbarsError
from ..core.types import TestResult
from . import mcnemar, permutation, signed_rank
from .checks import checked_resamples, checked_seed, pair
from .permutation import fsum_mean
from .tails import binomial_p, check_alternative, student_p

__all__ = [
    "BINARY_TESTS",
    "CONTINUOUS_TESTS",
    "TESTS",
    "paired_t",
    "paired_test",
    "sign_test",
]

BINARY_TESTS: tuple[str, ...] = ("mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip",
                                 "paired-t")
"""Tests offered for 0/1 (correct/incorrect) scores."""

CONTINUOUS_TESTS: tuple[str, ...] = ("sign", "sign-flip", "paired-t", "wilcoxon")
"""Tests offered for continuous scores (they also accept 0/1 scores)."""


# --- tests for any scores -------------------------------------------------------------


def sign_test(a: object, b: object, *, alternative: str = "two-sided") -> TestResult:
    """Sign test on the per-question differences; ties are dropped.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A) or ``"less"``.

    Returns
    -------
    TestResult
        ``statistic`` is the number of questions with ``d > 0`` (B scored higher).

    Notes
    -----
    With ``m`` the number of nonzero differences and ``k`` the number of positive
    ones, ``k ~ Binomial(m, 1/2)`` under the null and
    ``p = min(1, 2 * P(X <= min(k, m - k)))``; ``p = 1`` when ``m = 0``; one-sided
    ``P(X >= k)`` (``"greater"``) or ``P(X <= k)`` (``"less"``). On 0/1 scores this is
    :func:`evalbars.stats.mcnemar.mcnemar_exact`. Validated against
    ``scipy.stats.binomtest(k, m, alternative=...)`` and statsmodels ``sign_test``.

    Examples
    --------
    >>> a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3]
    >>> b = [0.6, 0.7, 0.1, 1.0, 0.8, 0.2]
    >>> r = sign_test(a, b)
    >>> r.statistic, r.p_value
    (4.0, 0.375)
    """
    alternative = check_alternative(alternative)
    a_arr, b_arr = pair(a, b)
    d = b_arr - a_arr
    k = int(np.count_nonzero(d > 0))
    m = k + int(np.count_nonzero(d < 0))
    return TestResult("sign", float(k), binomial_p(k, m, alternative))


def paired_t(a: object, b: object, *, alternative: str = "two-sided") -> TestResult:
    """Paired t-test of ``mean(d) = 0``.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length scores of models A and B, aligned by question.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A) or ``"less"``.

    Returns
    -------
    TestResult
        ``statistic`` is t (signed: positive when B scores higher). It is nan with
        ``p_value`` 1 when undefined for lack of evidence (one question, or every
        difference zero), and +-inf with ``p_value`` 0 when every difference is the
        same nonzero value (1 when that value lies on the other side of a one-sided
        alternative).

    Notes
    -----
    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``sd`` the sample sd (ddof=1);
    ``p = 2 P(T_{n-1} >= |t|)``, one-sided ``P(T_{n-1} >= t)`` (``"greater"``) or
    ``P(T_{n-1} <= t)``. Sums are exactly rounded (``math.fsum``), so row order never
    changes a digit. Validated against ``scipy.stats.ttest_rel(b, a, alternative=...)``.

    Examples
    --------
    >>> a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3]
    >>> b = [0.6, 0.7, 0.1, 1.0, 0.8, 0.2]
    >>> r = paired_t(a, b)
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (1.9764, 0.1051)
    """
    alternative = check_alternative(alternative)
    a_arr, b_arr = pair(a, b)
    d = b_arr - a_arr
    n = d.size
    if n < 2 or not np.any(d):
        return TestResult("paired-t", math.nan, 1.0)
    mean = fsum_mean(d)
    var = math.fsum((d - mean) ** 2) / (n - 1)
    if var == 0.0:
        t = math.copysign(math.inf, mean)
        return TestResult("paired-t", t, student_p(t, n - 1, alternative))
    t = mean / math.sqrt(var / n)
    return TestResult("paired-t", t, student_p(t, n - 1, alternative))


# --- registry and dispatcher ----------------------------------------------------------

TESTS: dict[str, Callable[..., TestResult]] = {
    "mcnemar-exact": mcnemar.mcnemar_exact,
    "mcnemar-chi2": mcnemar.mcnemar_chi2,
    "mcnemar-midp": mcnemar.mcnemar_midp,
    "sign": sign_test,
    "sign-flip": permutation.sign_flip,
    "paired-t": paired_t,
    "wilcoxon": signed_rank.wilcoxon,
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
    alternative: str = "two-sided",
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
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A: the gap ``b - a`` above
        0) or ``"less"``; one of :data:`evalbars.stats.tails.ALTERNATIVES`.

    Returns
    -------
    TestResult
        p-value in [0, 1] for ``alternative``; see each test's function for its statistic.

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
    >>> paired_test(a, b, name="mcnemar-exact", alternative="greater").p_value
    0.3125
    """
    if not isinstance(name, str) or name not in TESTS:
        valid = ", ".join(repr(key) for key in TESTS)
        raise EvalbarsError(f"name must be one of {valid}; got {name!r}")
    n_resamples = checked_resamples(n_resamples)
    seed = checked_seed(seed)
    alternative = check_alternative(alternative)
    if name in _RESAMPLING_TESTS:
        return TESTS[name](a, b, n_resamples=n_resamples, seed=seed, alternative=alternative)
    return TESTS[name](a, b, alternative=alternative)
