"""Benchmarks made of parts: weighted aggregates over strata and their standard errors.

Most benchmarks are groups (MMLU's 57 subjects, BBH's 27 tasks). The parts are strata:
their sizes are fixed by the benchmark's design, so the sampling variation of an
aggregate ``sum_s w_s mean_s`` comes from within each stratum only. Here:

- :func:`stratum_codes`: stratum labels (one per item) coded ``0..S-1`` in sorted order;
- :func:`stratum_weights`: ``"micro"`` (by size: the plain mean over items), ``"macro"``
  (equal per stratum) or given weights, one per stratum label;
- :func:`stratified_mean`, :func:`stratified_gap`: the aggregate (or the paired gap
  ``b - a``, paired within strata) with its stratified standard error
  ``sqrt(sum_s w_s^2 var_s / n_s)``;
- :func:`stratified_interval`: normal or Student t (Satterthwaite degrees of freedom);
- :func:`stratum_intervals`: each stratum's own interval (Wilson for 0/1 scores, t else).

The paired tests within strata live in :mod:`evalbars.stats.strata_tests`, the
stratified bootstrap in :mod:`evalbars.stats.strata_resampling`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..core.arguments import check_confidence_level
from ..core.errors import EvalbarsError
from ..core.records import Record, entry
from ..core.types import Interval
from .checks import pair, scores
from .intervals import binomial_interval, mean_interval, normal_critical, t_critical
from .tails import check_alternative, one_sided_ends, two_sided_level

__all__ = [
    "INTERVAL_METHODS",
    "WEIGHTINGS",
    "StratifiedMean",
    "stratified_gap",
    "stratified_interval",
    "stratified_mean",
    "stratum_codes",
    "stratum_intervals",
    "stratum_weights",
]

WEIGHTINGS: tuple[str, ...] = ("micro", "macro")
"""Named weightings: by stratum size (the mean over items), or equal per stratum."""

INTERVAL_METHODS: tuple[str, ...] = ("stratified-normal", "stratified-t")
"""Analytic interval methods for a stratified aggregate."""


def _codes(values: object, n: int, what: str) -> tuple[np.ndarray, np.ndarray, list]:
    values = list(values) if not isinstance(values, np.ndarray) else values.tolist()
    if len(values) != n:
        raise EvalbarsError(f"{what} must have one label per item ({n} items); "
                            f"got {len(values)} labels")
    missing = [i for i, v in enumerate(values)
               if v is None or (isinstance(v, float) and math.isnan(v))]
    if missing:
        raise EvalbarsError(f"{what} must label every item; {len(missing)} missing, "
                            f"first at item index {missing[0]}")
    try:
        labels = sorted(set(values))
    except TypeError:
        raise EvalbarsError(f"{what} labels must be all text or all numbers; got a mix "
                            "of types") from None
    index = {label: code for code, label in enumerate(labels)}
    codes = np.fromiter((index[v] for v in values), dtype=np.intp, count=n)
    return codes, np.bincount(codes, minlength=len(labels)), labels


def stratum_codes(strata: object, n: int) -> tuple[np.ndarray, np.ndarray, list]:
    """(code per item, items per stratum, sorted distinct labels) for ``n`` items.

    >>> codes, sizes, labels = stratum_codes(["math", "law", "math"], 3)
    >>> codes.tolist(), sizes.tolist(), labels
    ([1, 0, 1], [1, 2], ['law', 'math'])
    """
    return _codes(strata, n, "strata")


def stratum_weights(sizes: np.ndarray, labels: list,
                    weights: str | Mapping = "macro") -> np.ndarray:
    """One weight per stratum, summing to 1: micro, macro or ``{label: weight}``.

    Given weights must name every stratum and no other, be finite and non-negative with
    a positive total; they are scaled to sum to 1.

    >>> stratum_weights(np.array([10, 30]), ["a", "b"], "micro").tolist()
    [0.25, 0.75]
    >>> stratum_weights(np.array([10, 30]), ["a", "b"], "macro").tolist()
    [0.5, 0.5]
    >>> stratum_weights(np.array([10, 30]), ["a", "b"], {"a": 1, "b": 3}).tolist()
    [0.25, 0.75]
    """
    if isinstance(weights, str):
        if weights == "micro":
            return sizes / sizes.sum()
        if weights == "macro":
            return np.full(sizes.size, 1.0 / sizes.size)
        raise EvalbarsError(f"weights must be 'micro', 'macro' or a mapping of stratum "
                            f"to weight; got {weights!r}")
    if not isinstance(weights, Mapping):
        raise EvalbarsError(f"weights must be 'micro', 'macro' or a mapping of stratum "
                            f"to weight; got {type(weights).__name__}")
    absent = [label for label in labels if label not in weights]
    if absent:
        raise EvalbarsError(f"weights miss {len(absent)} of {len(labels)} strata: "
                            + ", ".join(repr(v) for v in absent[:5])
                            + (" ..." if len(absent) > 5 else ""))
    known = set(labels)
    extra = [label for label in weights if label not in known]
    if extra:
        raise EvalbarsError(f"weights name {len(extra)} strata not in the data: "
                            + ", ".join(repr(v) for v in extra[:5])
                            + (" ..." if len(extra) > 5 else ""))
    values = np.array([_weight(weights[label], label) for label in labels])
    if not values.sum() > 0:
        raise EvalbarsError("weights must have a positive total; got all zeros")
    return values / values.sum()


def _weight(value: object, label: object) -> float:
    try:
        w = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        w = math.nan
    if not (math.isfinite(w) and w >= 0):
        raise EvalbarsError(f"weight of stratum {label!r} must be a finite number >= 0; "
                            f"got {value!r}")
    return w


@dataclass(frozen=True, slots=True)
class StratifiedMean(Record):
    """A weighted aggregate over strata and its stratified standard error.

    ``estimate = sum_s w_s mean_s``; ``se = sqrt(sum_s w_s^2 var_s / n_s)`` with ``var_s``
    the sample variance (ddof=1) in stratum s, or with clusters ``n_s`` times the
    cluster-robust variance of the stratum's mean; ``df`` the Satterthwaite degrees of
    freedom. ``labels``, ``sizes``, ``weights``, ``means``, ``variances`` and ``units``
    (items, or clusters, per stratum) are per stratum, in the sorted order of the labels
    (kept out of repr and ``to_dict``).
    """

    estimate: float
    se: float
    df: float
    n: int
    n_strata: int
    weighting: str
    labels: list = entry(repr=False, hidden=True)
    sizes: np.ndarray = entry(repr=False, hidden=True)
    weights: np.ndarray = entry(repr=False, hidden=True)
    means: np.ndarray = entry(repr=False, hidden=True)
    variances: np.ndarray = entry(repr=False, hidden=True)
    units: np.ndarray = entry(repr=False, hidden=True)
    n_clusters: int | None = entry(None, omit=lambda mean: mean.n_clusters is None)


def _weighting_name(weights: object) -> str:
    return weights if isinstance(weights, str) else "given"


def stratum_units(codes: np.ndarray, n_strata: int, clusters: object | None) -> tuple:
    """(unit code per item, stratum of each unit): the items, or the clusters, which must
    nest inside the strata (a cluster in two strata is an error naming it).

    >>> units, of = stratum_units(np.array([0, 0, 1]), 2, ["d1", "d1", "d2"])
    >>> units.tolist(), of.tolist()
    ([0, 0, 1], [0, 1])
    """
    if clusters is None:
        return np.arange(codes.size), codes
    units, _, labels = _codes(clusters, codes.size, "clusters")
    stratum_of = np.zeros(len(labels), dtype=np.intp)
    stratum_of[units] = codes
    crossing = np.flatnonzero(stratum_of[units] != codes)
    if crossing.size:
        bad = units[crossing[0]]
        mine = np.flatnonzero(units == bad)
        other = mine[codes[mine] != codes[mine[0]]][0]
        raise EvalbarsError(f"clusters must nest inside strata; cluster {labels[bad]!r} "
                            f"holds items of two strata (item indices {int(mine[0])} and "
                            f"{int(other)})")
    return units, stratum_of


def _aggregate(x: np.ndarray, strata: object, weights: str | Mapping,
               clusters: object | None = None) -> StratifiedMean:
    codes, sizes, labels = stratum_codes(strata, x.size)
    units, stratum_of = stratum_units(codes, sizes.size, clusters)
    per_stratum = np.bincount(stratum_of, minlength=sizes.size)
    small = [labels[s] for s in np.flatnonzero(per_stratum < 2)]
    if small:
        what = "clusters" if clusters is not None else "items"
        raise EvalbarsError(
            f"a stratified standard error needs at least 2 {what} in every stratum; "
            f"{len(small)} of {len(labels)} hold a single one: "
            + ", ".join(repr(v) for v in small[:5]))
    w = stratum_weights(sizes, labels, weights)
    means = np.bincount(codes, weights=x, minlength=sizes.size) / sizes
    totals = np.bincount(units, weights=x - means[codes])  # sum_u (T_u - mean_s m_u)
    squares = np.bincount(stratum_of, weights=totals * totals, minlength=sizes.size)
    variances = per_stratum / (per_stratum - 1) * squares / sizes  # n_s var(mean_s)
    parts = w * w * variances / sizes
    var = float(parts.sum())
    denom = float(np.sum(parts * parts / (per_stratum - 1)))
    df = var * var / denom if denom > 0 else math.inf
    return StratifiedMean(float(np.dot(w, means)), math.sqrt(var), df, int(x.size),
                          int(sizes.size), _weighting_name(weights), labels, sizes, w,
                          means, variances, per_stratum,
                          None if clusters is None else int(stratum_of.size))


def stratified_mean(x: object, strata: object, *, weights: str | Mapping = "macro",
                    clusters: object | None = None) -> StratifiedMean:
    """The weighted aggregate of per-item scores over strata, with its stratified SE.

    Parameters
    ----------
    x : array_like
        1-D scores, one per item.
    strata : sequence
        One stratum label per item (text or numbers, no missing labels).
    weights : str or mapping
        ``"macro"`` (default: each stratum weighted equally), ``"micro"`` (by size) or a
        mapping of every stratum label to a weight (scaled to sum to 1).
    clusters : sequence, optional
        One cluster label per item; clusters nest inside strata and are then the
        independent units within each stratum.

    Notes
    -----
    ``estimate = sum_s w_s mean_s`` and ``se^2 = sum_s w_s^2 s_s^2 / n_s`` (stratified
    sampling with replacement, Cochran, *Sampling Techniques*, 5.7); ``df`` is the
    Satterthwaite ``se^4 / sum_s (w_s^2 s_s^2 / n_s)^2 / (n_s - 1)``. With clusters
    (``G_s`` in stratum s, totals ``T_g``, sizes ``m_g``), ``s_s^2 / n_s`` becomes the
    cluster-robust ``G_s / (G_s - 1) sum_g (T_g - mean_s m_g)^2 / n_s^2`` and the df use
    ``G_s - 1``: each stratum's mean is a ratio over its clusters, its size fixed by the
    benchmark. Validated against a direct loop over strata and R's ``survey``:
    ``svymean`` on ``svydesign(ids=~1, strata=~s, weights=~w)``, and with clusters
    ``svycontrast`` of ``svyby(~y, ~s, svydesign(ids=~g, strata=~s), svymean)``
    (tests/stats/test_strata.py).

    Examples
    --------
    >>> r = stratified_mean([1, 0, 1, 1, 0, 0, 1, 0], ["a"] * 4 + ["b"] * 4)
    >>> round(r.estimate, 4), round(r.se, 4), r.n_strata, r.weighting
    (0.5, 0.1768, 2, 'macro')
    """
    return _aggregate(scores(x, "x"), strata, weights, clusters)


def stratified_gap(a: object, b: object, strata: object, *,
                   weights: str | Mapping = "macro",
                   clusters: object | None = None) -> StratifiedMean:
    """The paired gap ``b - a`` on the aggregate, paired within strata.

    The stratified mean of the per-item differences: the same weights for both models,
    so the gap of the aggregates is the aggregate of the gaps.

    >>> r = stratified_gap([0, 0, 1, 1], [1, 0, 1, 1], ["a", "a", "b", "b"])
    >>> r.estimate, round(r.se, 4)
    (0.25, 0.25)
    """
    a_arr, b_arr = pair(a, b)
    return _aggregate(b_arr - a_arr, strata, weights, clusters)


def stratified_interval(result: StratifiedMean, *, method: str = "stratified-t",
                        confidence_level: float = 0.95,
                        alternative: str = "two-sided") -> Interval:
    """``estimate ± q se``: q normal, or Student t on the Satterthwaite df.

    >>> r = stratified_mean([1, 0, 1, 1, 0, 0, 1, 0], ["a"] * 4 + ["b"] * 4)
    >>> iv = stratified_interval(r, method="stratified-normal")
    >>> round(iv.low, 4), round(iv.high, 4)
    (0.1535, 0.8465)
    """
    if method not in INTERVAL_METHODS:
        valid = ", ".join(repr(m) for m in INTERVAL_METHODS)
        raise EvalbarsError(f"method for stratified_interval must be one of {valid}; "
                            f"got {method!r}")
    level = check_confidence_level(confidence_level)
    alternative = check_alternative(alternative)
    at = two_sided_level(level, alternative)
    q = normal_critical(at) if method == "stratified-normal" or math.isinf(result.df) else t_critical(at, result.df)
    low, high = one_sided_ends(result.estimate - q * result.se,
                               result.estimate + q * result.se, alternative)
    return Interval(method, low, high, level)


def stratum_intervals(x: object, strata: object, *, confidence_level: float = 0.95,
                      alternative: str = "two-sided") -> list[tuple[object, int, float, Interval]]:
    """Each stratum's (label, n, mean, interval): Wilson for 0/1 scores, Student t else.

    The choice is made once for the whole data set (all scores 0/1 or not), so every
    stratum gets the same method.

    >>> rows = stratum_intervals([1, 1, 1, 0, 1, 0], ["a", "a", "a", "b", "b", "b"])
    >>> [(label, n, round(m, 3), iv.method, round(iv.low, 3)) for label, n, m, iv in rows]
    [('a', 3, 1.0, 'wilson', 0.439), ('b', 3, 0.333, 'wilson', 0.061)]
    """
    arr = scores(x, "x")
    codes, sizes, labels = stratum_codes(strata, arr.size)
    binary = bool(np.isin(arr, (0.0, 1.0)).all())
    rows = []
    for s, label in enumerate(labels):
        part = arr[codes == s]
        if binary:
            iv = binomial_interval(int(part.sum()), part.size, method="wilson",
                                   confidence_level=confidence_level, alternative=alternative)
        else:
            iv = mean_interval(part, method="t", confidence_level=confidence_level,
                               alternative=alternative)
        rows.append((label, int(sizes[s]), float(part.mean()), iv))
    return rows
