"""McNemar's tests for 0/1 scores: exact, chi-square and mid-p, from the discordant pairs.

Each test reads only the discordant counts of two models scored 0/1 on the same
questions, aligned by question: ``a_only`` (A right, B wrong) and ``b_only`` (B right,
A wrong). Under the null each discordant pair is equally likely to go either way, so
``b_only ~ Binomial(a_only + b_only, 1/2)``. The tests are registered by name in
:data:`evalbars.stats.significance.TESTS`. The exact binomial p-value
(:func:`evalbars.stats.tails.binomial_p`) also serves the sign test and the sign-flip test.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from ..core.types import TestResult
from .checks import pair, require_binary
from .tails import binomial_p, check_alternative, normal_p

__all__ = ["mcnemar_chi2", "mcnemar_exact", "mcnemar_midp"]


# --- validation and binomial p-values -------------------------------------------------


def _binary_pair(a: object, b: object, test: str) -> tuple[int, int]:
    """Validated 0/1 pair -> (a_only, b_only) discordant counts."""
    a_arr, b_arr = pair(a, b)
    require_binary(a_arr, b_arr, f"test {test!r}", " (for continuous scores use 'sign', "
                   "'sign-flip', 'paired-t' or 'wilcoxon')")
    a_only = int(np.count_nonzero((a_arr == 1) & (b_arr == 0)))
    b_only = int(np.count_nonzero((a_arr == 0) & (b_arr == 1)))
    return a_only, b_only


def _half_binomial_pmf(k: int, m: int) -> float:
    """P(K = k) for K ~ Binomial(m, 1/2), through log-gamma (no huge coefficients)."""
    log_pmf = special.gammaln(m + 1) - special.gammaln(k + 1) - special.gammaln(m - k + 1)
    return float(math.exp(log_pmf - m * math.log(2.0)))


# --- McNemar family (0/1 scores) -----------------------------------------------------


def mcnemar_exact(a: object, b: object, *, alternative: str = "two-sided") -> TestResult:
    """McNemar's exact (conditional binomial) test for 0/1 scores.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length 0/1 scores of models A and B, aligned by question.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A) or ``"less"``
        (:mod:`evalbars.stats.tails`).

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

    ``p = 1`` when ``m = 0``. One-sided: ``P(X >= b_only)`` for ``"greater"``,
    ``P(X <= b_only)`` for ``"less"``. Validated against ``scipy.stats.binomtest(b_only,
    m, alternative=...)`` and statsmodels ``mcnemar(exact=True)``; R ``binom.test(17, 21)``
    gives 0.00720, and ``scipy.stats.binomtest(17, 21, alternative="greater")`` 0.0035987
    (half of it: the binomial law of p = 1/2 is symmetric).

    Examples
    --------
    >>> a = [1, 1, 0, 1, 0, 1, 1, 0]
    >>> b = [1, 0, 1, 1, 1, 1, 1, 1]
    >>> r = mcnemar_exact(a, b)
    >>> r.statistic, r.p_value
    (3.0, 0.625)
    """
    alternative = check_alternative(alternative)
    a_only, b_only = _binary_pair(a, b, "mcnemar-exact")
    return TestResult("mcnemar-exact", float(b_only),
                      binomial_p(b_only, a_only + b_only, alternative))


def mcnemar_chi2(a: object, b: object, *, alternative: str = "two-sided") -> TestResult:
    """McNemar's chi-square test with continuity correction, for 0/1 scores.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length 0/1 scores of models A and B, aligned by question.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A) or ``"less"``.

    Returns
    -------
    TestResult
        ``statistic`` is the corrected chi-square value (symmetric in A and B); nan
        when there are no discordant pairs (then ``p_value`` is 1). One-sided, it is
        the signed continuity-corrected z instead.

    Notes
    -----
    ::

        X2 = max(|b_only - a_only| - 1, 0)**2 / (b_only + a_only),   p = P(chi2_1 >= X2)

    Equal to statsmodels ``mcnemar(exact=False, correction=True)`` and to R
    ``mcnemar.test`` whenever ``b_only != a_only``. When ``b_only == a_only`` the
    correction would overshoot (statsmodels gives ``1/(b_only + a_only)``, so one
    discordant pair more on one side would *raise* p); here, as in R, ``X2 = 0`` and
    ``p = 1``. R ``mcnemar.test`` on 17 vs 4 discordant pairs gives 6.857, p = 0.0088.

    One-sided (``"greater"``; ``"less"`` mirrors it), the normal approximation to the
    binomial tail ``P(X >= b_only)`` with continuity correction,
    ``z = (b_only - a_only - 1) / sqrt(m)``, ``p = P(Z >= z)``: half the two-sided p when
    the data lean the asked way (``z^2 = X2``). Validated against
    ``scipy.stats.norm.sf`` of that z and near ``scipy.stats.binomtest``'s exact tail.

    Examples
    --------
    >>> a = [1] * 4 + [0] * 17 + [1] * 10
    >>> b = [0] * 4 + [1] * 17 + [1] * 10
    >>> r = mcnemar_chi2(a, b)
    >>> round(r.statistic, 3), round(r.p_value, 4)
    (6.857, 0.0088)
    """
    alternative = check_alternative(alternative)
    a_only, b_only = _binary_pair(a, b, "mcnemar-chi2")
    m = a_only + b_only
    if m == 0:
        return TestResult("mcnemar-chi2", math.nan, 1.0)
    if alternative != "two-sided":
        toward = b_only - a_only if alternative == "greater" else a_only - b_only
        z = (toward - 1) / math.sqrt(m)
        return TestResult("mcnemar-chi2", float(z if alternative == "greater" else -z),
                          normal_p(z, "greater"))
    statistic = max(abs(b_only - a_only) - 1, 0) ** 2 / m
    return TestResult("mcnemar-chi2", float(statistic), float(special.chdtrc(1, statistic)))


def mcnemar_midp(a: object, b: object, *, alternative: str = "two-sided") -> TestResult:
    """McNemar mid-p test (Fagerland, Lydersen & Laake 2013), for 0/1 scores.

    Parameters
    ----------
    a, b : array_like
        1-D, equal-length 0/1 scores of models A and B, aligned by question.
    alternative : str
        ``"two-sided"`` (default), ``"greater"`` (B better than A) or ``"less"``.

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
    its supplement "How to calculate the McNemar mid-p test"). One-sided, the exact tail
    minus half the point probability: ``P(X >= b_only) - P(X = b_only) / 2`` for
    ``"greater"``, ``P(X <= b_only) - P(X = b_only) / 2`` for ``"less"``. Validated against
    their example (1 vs 7 discordant pairs: mid-p 0.039, exact 0.070), against exact
    rational arithmetic, and one-sided against ``scipy.stats.binomtest`` minus half of
    ``scipy.stats.binom.pmf``.

    Examples
    --------
    Fagerland et al.'s example, 7 vs 1 discordant pairs (mid-p 10/256):

    >>> a = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]
    >>> b = [0, 0, 0, 0, 0, 0, 0, 1, 1, 0]
    >>> r = mcnemar_midp(a, b)
    >>> r.statistic, round(r.p_value, 4)
    (1.0, 0.0391)
    """
    alternative = check_alternative(alternative)
    a_only, b_only = _binary_pair(a, b, "mcnemar-midp")
    m = a_only + b_only
    if m == 0:
        return TestResult("mcnemar-midp", float(b_only), 1.0)
    if alternative != "two-sided":
        p = binomial_p(b_only, m, alternative) - 0.5 * _half_binomial_pmf(b_only, m)
        return TestResult("mcnemar-midp", float(b_only), float(min(max(p, 0.0), 1.0)))
    k = min(a_only, b_only)
    point = _half_binomial_pmf(k, m)
    if a_only == b_only:
        p = 1.0 - 0.5 * point
    else:
        p = 2.0 * float(special.bdtr(k, m, 0.5)) - point
    return TestResult("mcnemar-midp", float(b_only), float(min(max(p, 0.0), 1.0)))
