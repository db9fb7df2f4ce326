"""Paired tests of the weighted gap over strata: sign-flip, exact stratified McNemar, MH.

The weighted gap of B over A is ``D = sum_s w_s mean_s(b - a) = sum_i c_i d_i`` with
``c_i = w_s / n_s`` for item i in stratum s. Under the null of no difference each item's
difference is equally likely to have either sign, within its stratum, so:

- :func:`stratified_sign_flip`: the sign-flip test of ``D = 0`` on the weighted
  differences ``c_i d_i`` (exact by enumeration, or Monte Carlo from an explicit seed);
- :func:`stratified_mcnemar_exact`: for 0/1 scores, conditional on each stratum's
  discordant total ``m_s``, the count ``u_s`` of items B alone got right is
  ``Binomial(m_s, 1/2)``, independently over strata, and ``D = sum_s c_s (2 u_s - m_s)``;
  its law is the convolution of those binomials, computed exactly;
- :func:`stratified_mantel_haenszel`: its large-sample form, the Cochran-Mantel-Haenszel
  chi-square ``D^2 / sum_s c_s^2 m_s`` (1 df). With micro weights every ``c_s`` is equal
  and it is McNemar's chi-square (no continuity correction) on the pooled counts.
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np
from scipy import special

from ..core.errors import EvalbarsError
from ..core.types import TestResult
from .checks import checked_resamples, checked_seed, pair, require_binary
from .permutation import TIE_RTOL, flip_units
from .resample import sign_flip_sums
from .strata import stratum_codes, stratum_units, stratum_weights
from .tails import check_alternative, normal_p

__all__ = ["EXACT_MAX_SUPPORT", "exact_fits", "stratified_mantel_haenszel", "stratified_mcnemar_exact",
           "stratified_sign_flip"]

EXACT_MAX_SUPPORT = 1 << 21
"""The exact stratified McNemar test refuses when the null law of the weighted gap could
take more distinct values than this (strata of many different weights and sizes); the
stratified sign-flip test (Monte Carlo) answers the same question then."""


def _item_weights(n: int, strata: object, weights: str | Mapping) -> tuple:
    codes, sizes, labels = stratum_codes(strata, n)
    per_stratum = stratum_weights(sizes, labels, weights) / sizes
    if isinstance(weights, str) and weights == "micro":  # exactly 1 / n, not rounded twice
        per_stratum = np.full(sizes.size, 1.0 / n)
    return codes, per_stratum


def stratified_sign_flip(a: object, b: object, strata: object, *,
                         weights: str | Mapping = "macro", n_resamples: int = 10_000,
                         seed: np.random.SeedSequence | None = None,
                         alternative: str = "two-sided",
                         clusters: object | None = None) -> TestResult:
    """Sign-flip test of the weighted gap ``D = sum_s w_s mean_s(b - a) = 0``.

    Each item's difference keeps its stratum's weight ``w_s / n_s`` and has its sign
    flipped by a fair coin, so the strata keep their sizes in every null draw. The three
    routes of :func:`evalbars.stats.permutation.flip_units`: binomial when every nonzero
    weighted difference has the same size, enumeration of all sign patterns when they
    are few, else Monte Carlo (``seed`` required; ``p = (k + 1) / (B + 1)``).
    ``statistic`` is ``D``. With ``clusters`` (nested inside strata) whole clusters are
    flipped (their totals of weighted differences), and the test is named
    ``stratified-cluster-sign-flip``. Validated against brute-force enumeration.

    >>> r = stratified_sign_flip([0, 0, 0.5, 1, 0.2, 0], [1, 0.5, 0.5, 0, 1, 1],
    ...                          ["x", "x", "x", "y", "y", "y"])
    >>> round(r.statistic, 4), r.p_value, r.exact
    (0.3833, 0.375, True)
    """
    a_arr, b_arr = pair(a, b)
    n_resamples = checked_resamples(n_resamples)
    seed = checked_seed(seed)
    alternative = check_alternative(alternative)
    codes, per_item = _item_weights(a_arr.size, strata, weights)
    c = per_item[codes]
    columns = np.column_stack([c * a_arr, c * b_arr])
    name, described = "stratified-sign-flip", "weighted differences"
    if clusters is not None:
        units_of, _ = stratum_units(codes, per_item.size, clusters)
        columns = np.column_stack([np.bincount(units_of, weights=col) for col in columns.T])
        name, described = "stratified-cluster-sign-flip", "cluster totals"
    units = columns[:, 1] - columns[:, 0]

    def null(stream: np.random.SeedSequence) -> np.ndarray:
        sums = sign_flip_sums(columns, n_resamples=n_resamples, seed=stream)
        return sums[:, 1] - sums[:, 0]

    return flip_units(name, math.fsum(units), units, null, n_resamples=n_resamples,
                      seed=seed, described=described, alternative=alternative)


def _discordant(a: object, b: object, strata: object, weights: str | Mapping,
                test: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(c_s, u_s, v_s) per stratum: weight per item, B-only and A-only counts."""
    a_arr, b_arr = pair(a, b)
    require_binary(a_arr, b_arr, f"test {test!r}", " (for continuous scores use "
                   "'stratified-sign-flip')")
    codes, per_item = _item_weights(a_arr.size, strata, weights)
    size = per_item.size
    u = np.bincount(codes, weights=(a_arr == 0) & (b_arr == 1), minlength=size)
    v = np.bincount(codes, weights=(a_arr == 1) & (b_arr == 0), minlength=size)
    return per_item, u.astype(np.int64), v.astype(np.int64)


def _binomial_half(m: int) -> np.ndarray:
    k = np.arange(m + 1)
    log_pmf = special.gammaln(m + 1) - special.gammaln(k + 1) - special.gammaln(m - k + 1)
    return np.exp(log_pmf - m * math.log(2.0))


def _groups(c: np.ndarray, m: np.ndarray) -> dict[float, int]:
    """Discordant totals pooled over strata of equal weight (a sum of binomials of one p
    is binomial). Weights equal to 12 significant digits are one weight: micro weights
    ``(n_s / n) / n_s`` differ from ``1 / n`` only by rounding.

    >>> _groups(np.array([(30 / 90) / 30, (60 / 90) / 60]), np.array([2, 3]))
    {0.0111111111111: 5}
    """
    groups: dict[float, int] = {}
    for weight, count in zip(c[m > 0].tolist(), m[m > 0].tolist()):
        key = float(f"{weight:.12g}")
        groups[key] = groups.get(key, 0) + int(count)
    return groups


def _support_bound(groups: dict[float, int]) -> int:
    """An upper bound on the number of distinct values of the null law (capped)."""
    size = 1
    for count in groups.values():
        size = min(size * (count + 1), EXACT_MAX_SUPPORT + 1)
    return size


def exact_fits(a: object, b: object, strata: object, *,
               weights: str | Mapping = "macro") -> bool:
    """Whether :func:`stratified_mcnemar_exact` can run: its null law has at most
    :data:`EXACT_MAX_SUPPORT` values (bounded by the product of ``M_g + 1`` over the
    pooled discordant totals of each distinct weight).

    >>> exact_fits([0, 1, 0, 1], [1, 0, 1, 1], ["x", "x", "y", "y"])
    True
    """
    c, u, v = _discordant(a, b, strata, weights, "stratified-mcnemar-exact")
    return _support_bound(_groups(c, u + v)) <= EXACT_MAX_SUPPORT


def _null_law(c: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Support and probabilities of ``sum_s c_s (2 U_s - m_s)``, ``U_s ~ Bin(m_s, 1/2)``.

    Strata of equal weight are pooled first; values closer than a billionth of the
    smallest weight are merged as ties.

    >>> values, probs = _null_law(np.array([1.0, 2.0]), np.array([1, 1]))
    >>> values.tolist(), probs.tolist()
    ([-3.0, -1.0, 1.0, 3.0], [0.25, 0.25, 0.25, 0.25])
    """
    groups = _groups(c, m)
    if _support_bound(groups) > EXACT_MAX_SUPPORT:
        raise EvalbarsError(
            f"the exact stratified McNemar test would need more than "
            f"{EXACT_MAX_SUPPORT} null values ({len(groups)} strata weights); use "
            f"'stratified-sign-flip' (Monte Carlo) or 'stratified-mantel-haenszel'")
    values, probs = np.zeros(1), np.ones(1)
    tie = 1e-9 * min(groups, default=1.0)
    for weight, count in sorted(groups.items()):
        step = weight * (2.0 * np.arange(count + 1) - count)
        values = (values[:, None] + step[None, :]).ravel()
        probs = (probs[:, None] * _binomial_half(count)[None, :]).ravel()
        order = np.argsort(values, kind="stable")
        values, probs = values[order], probs[order]
        starts = np.concatenate(([True], np.diff(values) > tie))
        ids = np.cumsum(starts) - 1
        probs = np.bincount(ids, weights=probs)
        values = values[starts]
    return values, probs


def stratified_mcnemar_exact(a: object, b: object, strata: object, *,
                             weights: str | Mapping = "macro",
                             alternative: str = "two-sided") -> TestResult:
    """Exact stratified McNemar test of the weighted gap, for 0/1 scores.

    Notes
    -----
    Conditional on the discordant totals ``m_s = u_s + v_s`` of each stratum (``u_s``:
    B right and A wrong, ``v_s``: the reverse), ``u_s ~ Binomial(m_s, 1/2)``
    independently, and the weighted gap is ``D = sum_s c_s (u_s - v_s)``,
    ``c_s = w_s / n_s``. Its null law is the convolution of the binomials
    (:func:`_null_law`); two-sided ``p = P(|D| >= |d|)``, ``"greater"``
    ``P(D >= d)``, ``"less"`` ``P(D <= d)``, ties within ``TIE_RTOL * sum c_s m_s``.
    Micro weights give McNemar's exact test on the pooled counts. Validated against
    brute-force enumeration of every sign pattern.

    >>> a = [1, 0, 0, 0, 1, 0, 0, 1]
    >>> b = [0, 1, 1, 1, 1, 1, 1, 0]
    >>> r = stratified_mcnemar_exact(a, b, ["x"] * 4 + ["y"] * 4)
    >>> r.statistic, round(r.p_value, 6)
    (0.375, 0.453125)
    """
    alternative = check_alternative(alternative)
    c, u, v = _discordant(a, b, strata, weights, "stratified-mcnemar-exact")
    m = u + v
    observed = float(np.dot(c, u - v))
    if not m.any():
        return TestResult("stratified-mcnemar-exact", observed, 1.0)
    values, probs = _null_law(c, m)
    tolerance = TIE_RTOL * float(np.dot(c, m))
    if alternative == "greater":
        p = probs[values >= observed - tolerance].sum()
    elif alternative == "less":
        p = probs[values <= observed + tolerance].sum()
    else:
        p = probs[np.abs(values) >= abs(observed) - tolerance].sum()
    return TestResult("stratified-mcnemar-exact", observed, float(min(1.0, p)))


def stratified_mantel_haenszel(a: object, b: object, strata: object, *,
                               weights: str | Mapping = "macro",
                               alternative: str = "two-sided") -> TestResult:
    """Cochran-Mantel-Haenszel chi-square of the weighted gap, for 0/1 scores.

    ``z = sum_s c_s (u_s - v_s) / sqrt(sum_s c_s^2 m_s)``, the normal approximation to
    :func:`stratified_mcnemar_exact`; two-sided the statistic is ``z^2`` on 1 df,
    one-sided it is z. With micro weights it equals statsmodels'
    ``StratifiedTable(...).test_null_odds(correction=False)`` on one 2x2 table per item
    (model by right/wrong), which is McNemar's uncorrected chi-square.

    >>> a = [1] * 4 + [0] * 17 + [1] * 10
    >>> b = [0] * 4 + [1] * 17 + [1] * 10
    >>> r = stratified_mantel_haenszel(a, b, ["x"] * 31, weights="micro")
    >>> round(r.statistic, 4), round(r.p_value, 5)
    (8.0476, 0.00456)
    """
    alternative = check_alternative(alternative)
    c, u, v = _discordant(a, b, strata, weights, "stratified-mantel-haenszel")
    var = float(np.dot(c * c, u + v))
    if var == 0.0:
        return TestResult("stratified-mantel-haenszel", math.nan, 1.0)
    z = float(np.dot(c, u - v)) / math.sqrt(var)
    if alternative != "two-sided":
        return TestResult("stratified-mantel-haenszel", z, normal_p(z, alternative))
    return TestResult("stratified-mantel-haenszel", z * z, float(special.chdtrc(1, z * z)))
