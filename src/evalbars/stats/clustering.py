"""Clustered questions: error bars that treat each cluster, not each question, as a unit.

Many evals come in clumps: ten questions about each document, several queries from each
session, problems from one template. Questions of one clump rise and fall together, so
the clump is the independent unit and item-level error bars are too narrow. Here:

- :func:`clustered_se`, :func:`paired_clustered_se`: the cluster-robust standard error of
  a mean (or of the paired gap ``mean(b - a)``) beside the naive one, with the intraclass
  correlation, the design effect and the effective number of questions;
- :func:`cluster_interval`, :func:`paired_cluster_interval`: ``estimate ± t_{G-1} se``;
- :func:`cluster_bootstrap_means`: replicates that resample whole clusters, through
  :func:`evalbars.stats.resample.bootstrap_sums`; the caller turns them into intervals with
  :func:`evalbars.stats.bootstrap.percentile_interval` (method names in :data:`MEAN_METHODS`
  and :data:`PAIRED_METHODS`);
- :func:`cluster_sign_flip`: a paired permutation test that flips whole clusters;
- :func:`cluster_warnings`: plain-words warnings when clustered error bars are shaky.

Inputs are aligned arrays: scores (one per item) and ``clusters`` (one label per item:
str, int, or any hashable). Integer labels in a range of at most a few times n, such as
precomputed codes ``0..G-1``, are the fast path (no sort, no hashing): pass them when the
same clustering is used many times on a million items.

Speed and exactness. The standard errors take a few O(n) passes of ``np.bincount`` and
numpy's pairwise sums: no sort and no ``math.fsum`` over items. They depend only on the
multiset of (label, score) rows up to rounding: shuffling rows or renaming clusters moves
them (and the ICC) by a few units in the last place; tests allow 1e-12 relative. They
are bit for bit reproducible for a fixed row order, and also whenever the row order is
fixed by the scores alone (the API sorts rows by every model's scores), whatever the
order of rows with equal scores from different clusters (see :func:`_clustered`). The
cluster bootstrap and the cluster sign-flip test stay bit-identical under any row
shuffle or renaming: each cluster's total is computed independently of row order
(directly and exactly for integer scores such as 0/1 and their differences, in value
order otherwise), the engine sorts cluster rows before drawing, and the sign-flip
statistic is an exactly rounded mean (``math.fsum``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core.errors import EvalbarsError
from .resample import bootstrap_sums
from ..core.types import Interval, TestResult
from .bootstrap import _unit_sums
from .intervals import _level, _t
from .significance import _flip_signs, _n_resamples

__all__ = [
    "MEAN_METHODS",
    "PAIRED_METHODS",
    "ClusteredSE",
    "cluster_bootstrap_means",
    "cluster_interval",
    "cluster_sign_flip",
    "cluster_warnings",
    "clustered_se",
    "paired_cluster_interval",
    "paired_clustered_se",
]

MEAN_METHODS: tuple[str, ...] = ("cluster-cr1", "cluster-bootstrap-percentile")
"""Interval methods for one model's mean on clustered items."""

PAIRED_METHODS: tuple[str, ...] = ("paired-cluster-cr1", "paired-cluster-bootstrap")
"""Interval methods for the paired gap ``mean(b - a)`` on clustered items."""

MIN_CLUSTERS = 30
"""Below this many clusters, :func:`cluster_warnings` says the clustered SE is shaky."""

MAX_CLUSTER_SHARE = 0.25
"""A cluster holding more than this share of the items gets a warning."""


@dataclass(frozen=True, slots=True)
class ClusteredSE:
    """Standard errors of a mean (or paired gap) over clustered items, and what they imply.

    ``se`` is CR1 (the statsmodels / Stata / R ``vcovCL(type="HC1")`` convention),
    ``se_cr0`` the uncorrected sandwich, ``se_naive`` ``sd/sqrt(n)``; ``icc`` is the
    one-way ANOVA intraclass correlation (nan when undefined), ``design_effect`` is
    ``(se / se_naive)**2`` and ``effective_n`` is ``n / design_effect``.
    """

    estimate: float
    n: int
    n_clusters: int
    se: float
    se_cr0: float
    se_naive: float
    icc: float
    design_effect: float
    design_effect_approx: float
    effective_n: float

    def to_dict(self) -> dict:
        """JSON-safe dict; non-finite numbers (an undefined ICC) become None."""
        names = ("n_clusters", "se", "se_cr0", "se_naive", "icc", "design_effect",
                 "design_effect_approx", "effective_n")
        out = {name: getattr(self, name) for name in names}
        return {k: None if isinstance(v, float) and not math.isfinite(v) else v
                for k, v in out.items()}


# --- validation and per-cluster sums -----------------------------------------------


def _scores(x: object, name: str, *, columns: bool = False) -> np.ndarray:
    """``x`` as an (n, m) float array of finite numbers (m = 1 unless ``columns``).

    A float array is used as is (a view, never written to), anything else converted."""
    arr = np.asarray(x)
    shape = "1-D or 2-D (items x columns)" if columns else "1-D"
    if arr.ndim not in ((1, 2) if columns else (1,)):
        raise EvalbarsError(f"{name} must be a {shape} array of per-item scores; "
                            f"got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise EvalbarsError(f"{name} must contain numbers (0/1 or real scores); "
                            f"got values of dtype {arr.dtype}")
    arr = arr.astype(float, copy=False)
    arr = arr[:, None] if arr.ndim == 1 else arr
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))
        raise EvalbarsError(f"{name} must contain only finite numbers; "
                            f"got {arr[tuple(bad[0])]} at item index {bad[0][0]}")
    return arr


_DENSE_RANGE = 4
"""Integer labels spanning at most this many times n (+ 1024) are coded by offset."""


def _labels(clusters: object, n: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(code per item, items per cluster, distinct labels); codes follow the sorted labels.

    At least two clusters and no missing labels. Codes are ``0..G-1`` in the order of the
    sorted distinct labels (first appearance when labels of mixed types do not sort), so
    they depend only on the set of labels, never on the row order. Three routes, fastest
    first: integer labels in a range of at most a few times n (precomputed codes
    ``0..G-1`` among them) by offset and counting, O(n) with no sort; labels that are
    Python objects or strings through a dict, O(n) hashing, and a sort of the G distinct
    labels; anything else (floats, bools, sparse integers) through ``np.unique``.
    """
    arr = np.asarray(clusters)
    if arr.dtype.kind == "U" and not isinstance(clusters, np.ndarray) and any(
            not isinstance(v, str) for v in clusters):  # numpy would turn 1 into "1"
        arr = np.fromiter(clusters, dtype=object)
    if arr.ndim != 1:
        raise EvalbarsError(f"clusters must be a 1-D array of labels, one per item; "
                            f"got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise EvalbarsError(f"clusters must have one label per item ({n} items); "
                            f"got {arr.size} labels")
    found = _integer_codes(arr)
    if found is None and arr.dtype.kind in "OUS":
        found = _hashed_codes(arr)
    if found is None:
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            _missing(arr.tolist(), np.isnan(arr))
        uniques, codes, sizes = np.unique(arr, return_inverse=True, return_counts=True)
        found = codes.reshape(-1).astype(np.intp, copy=False), sizes, uniques
    codes, sizes, uniques = found
    if sizes.size < 2:
        raise EvalbarsError(
            f"clusters must hold at least 2 distinct labels (a clustered standard error "
            f"needs at least 2 clusters); got {sizes.size}"
            + (f" ({uniques[:1].tolist()[0]!r})" if sizes.size else ""))
    return codes, sizes, uniques


def _integer_codes(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Codes by offset from the smallest label, for integers in a dense enough range."""
    if arr.dtype.kind not in "iu" or arr.size == 0:
        return None
    low, high = int(arr.min()), int(arr.max())
    if high - low > _DENSE_RANGE * arr.size + 1024 or high > np.iinfo(np.int64).max:
        return None
    if arr.dtype.kind == "u":
        offsets = (arr - arr.dtype.type(low)).astype(np.intp)  # arr >= low: no wrap-around
    else:
        offsets = arr.astype(np.intp, copy=False)
        offsets = offsets - low if low else offsets
    counts = np.bincount(offsets)
    used = counts > 0
    if used.all():  # already codes 0..G-1 (after the offset)
        return offsets, counts, np.arange(low, high + 1)
    present = np.flatnonzero(used)
    remap = np.cumsum(used, dtype=np.intp) - 1
    return remap[offsets], counts[present], present + low


def _hashed_codes(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Codes of hashable labels through a dict (first appearance), then relabelled in the
    sorted order of the distinct labels when they sort."""
    values = arr.tolist()
    try:
        index = dict.fromkeys(values)
    except TypeError:  # unhashable labels: leave them to np.unique
        return None
    keys = list(index)
    if arr.dtype.kind == "O":
        missing = [k for k in keys if k is None or (isinstance(k, float) and math.isnan(k))]
        if missing:
            _missing(values, None)
    try:
        keys = sorted(keys)
    except TypeError:  # labels of mixed types that do not sort together
        pass
    for code, key in enumerate(keys):
        index[key] = code
    codes = np.fromiter(map(index.__getitem__, values), dtype=np.intp, count=len(values))
    return codes, np.bincount(codes, minlength=len(keys)), np.fromiter(keys, dtype=object,
                                                                      count=len(keys))


def _missing(values: list, missing: np.ndarray | None) -> None:
    """Raise the error naming the first missing label (None or nan)."""
    if missing is None:
        missing = np.array([v is None or (isinstance(v, float) and math.isnan(v))
                            for v in values], dtype=bool)
    at = int(np.flatnonzero(missing)[0])
    raise EvalbarsError(f"clusters must not contain missing labels; "
                        f"got {values[at]!r} at index {at}")


def _cluster_sums(x: np.ndarray, codes: np.ndarray, g: int) -> np.ndarray:
    """Per-cluster column sums (G, m) that depend only on each cluster's multiset of rows.

    A column of integers (0/1 scores, their differences) is summed directly: every
    partial sum is an integer below 2**53, so exact in any order. Other columns are added
    in the order of their values (ties are equal values), so shuffled rows give the same
    bits. These rows feed the resampling engine, which sorts them: equal data in any row
    order then give identical replicates and p-values.
    """
    out = np.empty((g, x.shape[1]))
    for j in range(x.shape[1]):
        column = x[:, j]
        if np.abs(column).sum() < 2.0**53 and np.array_equal(column, np.trunc(column)):
            out[:, j] = np.bincount(codes, weights=column, minlength=g)
        else:
            order = np.argsort(column)
            out[:, j] = np.bincount(codes[order], weights=column[order], minlength=g)
    return out


def _clustered(x: np.ndarray, codes: np.ndarray, sizes: np.ndarray) -> ClusteredSE:
    """Every quantity of :class:`ClusteredSE` for scores ``x`` (n, 1).

    Sums are arranged so that the result depends only on the sequence of scores and on
    each cluster's subsequence, never on how clusters interleave: totals over all items
    are numpy's pairwise sums of the scores, each cluster's sums come from one bincount
    over the whole array (its items added in row order), totals over clusters are taken
    in code (sorted label) order. Rows in an order fixed by their scores (the API sorts
    them) thus give bit-identical results, however rows with equal scores but different
    clusters are ordered.
    """
    column = x[:, 0]
    n, g = column.size, sizes.size
    # Residuals r = y - ȳ of y = x - min(x): the same in exact arithmetic, exactly zero
    # for constant scores, and without the cancellation of large offsets.
    residuals = column - column.min()
    residuals -= residuals.sum() / n
    between = np.bincount(codes, weights=residuals, minlength=g)  # B_c = S_c - n_c x̄
    cr0 = math.sqrt(np.sum(between * between)) / n
    se = cr0 * math.sqrt(g / (g - 1))  # CR1; the (n - 1) / (n - K) factor is 1 for K = 1

    # One-way ANOVA from per-cluster sums of squared residuals Q_c: the total sum of
    # squares is sum_c Q_c, between clusters sum_c B_c² / n_c, within cluster c
    # Q_c - B_c² / n_c. That difference loses digits only when cluster c's mean lies far
    # from x̄ compared with its spread, and then it is tiny next to the between part: its
    # absolute error, a few ulps of Q_c, moves the ICC by ~1e-16 (exactly constant
    # clusters may give an ICC of 1 - 1e-16). Clipped at 0 against rounding.
    np.square(residuals, out=residuals)
    squares = np.bincount(codes, weights=residuals, minlength=g)  # Q_c
    between_squares = between * between / sizes  # n_c (x̄_c - x̄)²
    within = float(np.sum(np.maximum(squares - between_squares, 0.0)))
    ssb = float(np.sum(between_squares))
    se_naive = math.sqrt(float(np.sum(squares)) / (n - 1) / n)
    msb = ssb / (g - 1)
    msw = within / (n - g) if n > g else math.nan
    n0 = (n - float(np.sum(sizes.astype(float) ** 2)) / n) / (g - 1)
    denominator = msb + (n0 - 1.0) * msw
    icc = (msb - msw) / denominator if denominator > 0 else math.nan

    design_effect = (se / se_naive) ** 2 if se_naive > 0 else math.nan
    if design_effect > 0:
        effective_n = n / design_effect
    else:  # no spread at all (nan), or no spread between clusters (inf)
        effective_n = math.inf if design_effect == 0 else math.nan
    return ClusteredSE(float(column.sum()) / n, n, g, se, cr0, se_naive, icc, design_effect,
                       1.0 + (n / g - 1.0) * icc, effective_n)


def _pair(a: object, b: object) -> np.ndarray:
    """``b - a`` as an (n, 1) array, for equal-length validated scores."""
    a_arr, b_arr = _scores(a, "a"), _scores(b, "b")
    if a_arr.shape[0] != b_arr.shape[0]:
        raise EvalbarsError(f"a and b must have the same length (one score per item, "
                            f"aligned); got {a_arr.shape[0]} and {b_arr.shape[0]}")
    return b_arr - a_arr


# --- standard errors and intervals -----------------------------------------------------


def clustered_se(x: object, clusters: object) -> ClusteredSE:
    """Cluster-robust standard error of the mean of ``x``, with ICC and design effect.

    Parameters
    ----------
    x : array_like
        1-D, finite per-item scores (0/1 or continuous).
    clusters : array_like
        One label per item (document, topic, session); at least 2 distinct labels.
        Integer labels in a dense range, such as precomputed codes ``0..G-1``, take the
        fastest route: O(n), no sort and no hashing.

    Returns
    -------
    ClusteredSE

    Notes
    -----
    With ``n`` items in ``G`` clusters, cluster ``c`` holding ``n_c`` items with sum
    ``S_c`` and mean ``x̄_c``, and ``x̄`` the overall mean:

    - ``se_cr0 = sqrt(sum_c (S_c - n_c x̄)²) / n``, seed 000's formula: the residuals are
      summed inside each cluster first. One item per cluster gives ``sd/sqrt(n)`` with
      ddof 0.
    - ``se = sqrt(G/(G-1) · (n-1)/(n-K)) · se_cr0`` with ``K = 1`` (intercept only), so
      ``se = sqrt(G/(G-1)) · se_cr0``: CR1, the small-sample factor of statsmodels
      ``cov_type="cluster"``, Stata ``vce(cluster)`` and R ``sandwich::vcovCL(type="HC1")``.
    - ``icc = (MSB - MSW) / (MSB + (n0 - 1) MSW)``, the one-way ANOVA estimator with
      ``MSB = sum_c n_c (x̄_c - x̄)² / (G-1)``, ``MSW = sum_c sum_i (x_i - x̄_c)² / (n-G)``
      and, for unequal cluster sizes, ``n0 = (n - sum_c n_c² / n) / (G-1)`` (``n0 = m``
      when every cluster has ``m`` items; Snedecor & Cochran; Donner 1986). It is not
      clipped: negative means items of one cluster are less alike than random ones. It
      is nan when every cluster holds one item or every score is equal.
    - ``design_effect = (se / se_naive)²`` (measured) and ``design_effect_approx =
      1 + (m̄ - 1) icc`` with ``m̄ = n / G`` (Kish's approximation: 2.8 for m = 10 and
      icc = 0.2); ``effective_n = n / design_effect``, what the clustered items are
      worth as independent ones.

    Validated against statsmodels ``OLS(x, ones).fit(cov_type="cluster")`` on data with
    unequal cluster sizes (``se``), the closed form above on the cookbook data (CR0
    0.04862 and 0.04522, EXPECTED.md) and ``scipy.stats.f_oneway`` (``icc``). The sums
    ``S_c - n_c x̄`` are taken over residuals, as statsmodels does; the ICC's sums of
    squares come from per-cluster sums of squared residuals (:func:`_clustered` bounds
    the rounding). Two ``np.bincount`` passes and no sort: on 1,000,000 items in 10,000
    clusters with integer labels about 10x faster than statsmodels
    (benchmarks/bench_clustered.py).

    Examples
    --------
    Eight documents of three questions; questions of one document tend to agree:

    >>> x = [1, 1, 1,  0, 0, 1,  1, 1, 0,  1, 1, 1,  0, 0, 0,  1, 0, 1,  1, 1, 1,  0, 1, 1]
    >>> docs = [i // 3 for i in range(24)]
    >>> r = clustered_se(x, docs)
    >>> r.n_clusters, round(r.se, 4), round(r.se_naive, 4), round(r.icc, 3)
    (8, 0.126, 0.0983, 0.3)
    >>> round(r.design_effect, 2), round(r.design_effect_approx, 2), round(r.effective_n, 1)
    (1.64, 1.6, 14.6)
    """
    x_arr = _scores(x, "x")
    codes, sizes, _ = _labels(clusters, x_arr.shape[0])
    return _clustered(x_arr, codes, sizes)


def paired_clustered_se(a: object, b: object, clusters: object) -> ClusteredSE:
    """Cluster-robust standard error of the paired gap ``mean(b - a)``.

    Parameters
    ----------
    a, b : array_like
        1-D, finite, equal-length scores of models A and B, aligned by item.
    clusters : array_like
        One label per item; at least 2 distinct labels.

    Returns
    -------
    ClusteredSE
        Of the per-item differences ``d = b - a``; ``estimate`` is ``mean(d)``.

    Notes
    -----
    :func:`clustered_se` applied to ``d``: both models answered the same clusters, so the
    clusters' totals of ``d`` are the independent units. Validated on the cookbook data:
    CR0 SE of the delta 0.03426 (EXPECTED.md).

    Examples
    --------
    >>> a = [1, 0, 1, 1,  0, 0, 1, 0,  1, 1, 0, 0,  1, 0, 0, 1]
    >>> b = [1, 1, 1, 1,  0, 1, 1, 0,  1, 1, 1, 0,  1, 0, 0, 1]
    >>> r = paired_clustered_se(a, b, [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4)
    >>> r.estimate, round(r.se, 4), round(r.se_naive, 4)
    (0.1875, 0.0625, 0.1008)
    """
    d = _pair(a, b)
    codes, sizes, _ = _labels(clusters, d.shape[0])
    return _clustered(d, codes, sizes)


def _t_interval(method: str, result: ClusteredSE, level: float) -> Interval:
    half = _t(level, result.n_clusters - 1) * result.se
    return Interval(method, result.estimate - half, result.estimate + half, level)


def cluster_interval(x: object, clusters: object, *,
                     confidence_level: float = 0.95) -> Interval:
    """Confidence interval for the mean of clustered items: ``mean ± t_{G-1} · se``.

    Parameters
    ----------
    x : array_like
        1-D, finite per-item scores.
    clusters : array_like
        One label per item; at least 2 distinct labels.
    confidence_level : float
        Strictly between 0 and 1.

    Returns
    -------
    Interval
        Method ``"cluster-cr1"``; ends not clipped to [0, 1].

    Notes
    -----
    ``se`` is the CR1 standard error of :func:`clustered_se`; ``t_{G-1}`` is the Student
    quantile with G - 1 degrees of freedom (G clusters), as Stata uses after
    ``vce(cluster)``. Validated against statsmodels ``OLS(x, ones).fit(cov_type=
    "cluster", use_t=True).conf_int()``, which uses the same G - 1 (without ``use_t`` it
    takes the normal quantile, too narrow when G is small). Coverage checked by
    simulation (tests/test_clustering.py): 50 documents x 10 questions, icc 0.2, about
    94% for a nominal 95%.

    Examples
    --------
    >>> x = [1, 1, 1,  0, 0, 1,  1, 1, 0,  1, 1, 1,  0, 0, 0,  1, 0, 1,  1, 1, 1,  0, 1, 1]
    >>> iv = cluster_interval(x, [i // 3 for i in range(24)])
    >>> iv.method, round(iv.low, 3), round(iv.high, 3)
    ('cluster-cr1', 0.369, 0.965)
    """
    level = _level(confidence_level)
    return _t_interval("cluster-cr1", clustered_se(x, clusters), level)


def paired_cluster_interval(a: object, b: object, clusters: object, *,
                            confidence_level: float = 0.95) -> Interval:
    """Confidence interval for the paired gap ``mean(b - a)`` on clustered items.

    Parameters
    ----------
    a, b : array_like
        1-D, finite, equal-length scores of models A and B, aligned by item.
    clusters : array_like
        One label per item; at least 2 distinct labels.
    confidence_level : float
        Strictly between 0 and 1.

    Returns
    -------
    Interval
        Method ``"paired-cluster-cr1"``: ``mean(d) ± t_{G-1} · se`` with ``se`` from
        :func:`paired_clustered_se`.

    Examples
    --------
    >>> a = [1, 0, 1, 1,  0, 0, 1, 0,  1, 1, 0, 0,  1, 0, 0, 1]
    >>> b = [1, 1, 1, 1,  0, 1, 1, 0,  1, 1, 1, 0,  1, 0, 0, 1]
    >>> iv = paired_cluster_interval(a, b, [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4)
    >>> round(iv.low, 3), round(iv.high, 3)
    (-0.011, 0.386)
    """
    level = _level(confidence_level)
    return _t_interval("paired-cluster-cr1", paired_clustered_se(a, b, clusters), level)


# --- resampling ----------------------------------------------------------------------


def _seed_sequence(seed: object, required: bool) -> np.random.SeedSequence | None:
    if isinstance(seed, np.random.SeedSequence) or (seed is None and not required):
        return seed
    kind = "a numpy.random.SeedSequence" if required else "a numpy.random.SeedSequence or None"
    raise EvalbarsError(f"seed must be {kind}; got {seed!r}")


def cluster_bootstrap_means(
    x: object,
    clusters: object,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Means of each column of ``x`` over bootstrap resamples of whole clusters.

    Parameters
    ----------
    x : array_like
        Per-item scores, shape (n,) or (n, m) for m models on the same items.
    clusters : array_like
        One label per item; at least 2 distinct labels.
    n_resamples : int
        Number of bootstrap resamples B.
    seed : numpy.random.SeedSequence
        Stream to draw from (see :func:`evalbars.core.seeding.child_seed`).
    progress : callable, optional
        Called with the number of resamples finished, block by block.

    Returns
    -------
    numpy.ndarray
        Shape (B, m). One resample of clusters serves every column, so the differences
        of two columns are paired cluster-bootstrap replicates of the gap.

    Notes
    -----
    A resample draws G clusters with replacement and carries all their items. With
    ``k_c`` the number of times cluster ``c`` is drawn, the resampled mean is the ratio
    ``sum_c k_c S_c / sum_c k_c n_c``: both sums come from one call of
    :func:`evalbars.stats.resample.bootstrap_sums` on the per-cluster rows
    ``[S_c (one per column), n_c]`` (identical rows grouped and drawn multinomially when
    that is cheaper, which is the same distribution). Intervals:
    ``bootstrap.percentile_interval(replicates, method="cluster-bootstrap-percentile")``
    for a mean, ``method="paired-cluster-bootstrap"`` for a gap.

    Validated: the variance of the replicates matches the CR0 variance when G is large;
    same seed gives identical replicates; shuffled rows and renamed clusters give
    bit-identical replicates (tests/test_clustering.py).

    Examples
    --------
    >>> import numpy as np
    >>> x = [1, 1, 1, 1,  0, 0, 1, 0,  1, 1, 1, 0]
    >>> m = cluster_bootstrap_means(x, ["d1"] * 4 + ["d2"] * 4 + ["d3"] * 4,
    ...                             n_resamples=1000, seed=np.random.SeedSequence(0))
    >>> m.shape, sorted({round(float(v), 3) for v in m[:, 0]})[:3]
    ((1000, 1), [0.25, 0.417, 0.5])
    """
    x_arr = _scores(x, "x", columns=True)
    n_resamples = _n_resamples(n_resamples)
    seed = _seed_sequence(seed, required=True)
    codes, sizes, _ = _labels(clusters, x_arr.shape[0])
    sums = _cluster_sums(x_arr, codes, sizes.size)
    rows, multiplicity = _unit_sums(np.column_stack([sums, sizes]))
    totals = bootstrap_sums(rows, n_resamples=n_resamples, seed=seed,
                            multiplicity=multiplicity, progress=progress)
    return totals[:, :-1] / totals[:, -1:]


def cluster_sign_flip(
    a: object,
    b: object,
    clusters: object,
    *,
    n_resamples: int = 10_000,
    seed: np.random.SeedSequence | None = None,
) -> TestResult:
    """Paired permutation test of ``mean(b - a) = 0`` that flips whole clusters.

    Parameters
    ----------
    a, b : array_like
        1-D, finite, equal-length scores of models A and B, aligned by item.
    clusters : array_like
        One label per item; at least 2 distinct labels.
    n_resamples : int
        Monte Carlo resamples B, and an enumeration budget: exact whenever
        ``m <= SIGN_FLIP_EXACT_MAX`` (20) or ``2**m <= n_resamples``, ``m`` the
        clusters whose total difference is nonzero.
    seed : numpy.random.SeedSequence, optional
        Required only when the Monte Carlo path is taken (more than 20 such clusters).

    Returns
    -------
    TestResult
        Name ``"cluster-sign-flip"``; ``statistic`` is ``mean(d)``, ``d = b - a``
        (positive when B scores higher). Exact: ``exact=True``, ``n_resamples`` and
        ``mc_error`` None (absent from the JSON). Monte Carlo: ``exact=False`` with
        ``n_resamples`` and ``mc_error`` set.

    Notes
    -----
    Under the null the two models are exchangeable within each cluster, so each
    cluster's total difference ``T_c = sum_{i in c} d_i`` is equally likely to have
    either sign, independently across clusters. With random signs ``s_c`` the p-value
    is ``P(|sum_c s_c T_c| >= |sum_c T_c|)``, computed by the same code as
    :func:`evalbars.stats.significance.sign_flip` with the cluster totals as units, with
    its three routes (binomial when every nonzero ``|T_c|`` is equal; enumeration of
    all ``2**m`` patterns, by meet in the middle, when ``m <= 20`` or ``2**m <=
    n_resamples``; otherwise Monte Carlo through
    :func:`evalbars.stats.resample.sign_flip_sums` with ``p = (k + 1) / (B + 1)`` and
    ``mc_error = sqrt(p (1 - p) / B)``) and its tie tolerance ``TIE_RTOL``. With one
    item per cluster it is the item-level sign-flip test. The enumeration costs
    O(2**(m/2)) in time and memory after one O(n) pass for the cluster totals: 20
    clusters of 10,000 items take about a millisecond (benchmarks/bench_clustered.py).

    Validated: enumeration equals brute force over all sign patterns; on seed 002's
    cookbook data (20 topics, 16 with a nonzero total) p = 1158 / 2**16 = 0.017670,
    as ``scipy.stats.permutation_test`` with ``n_resamples=inf`` on the topic totals;
    Monte Carlo lies within a few ``mc_error`` of the exact p (tests/test_clustering.py).

    Examples
    --------
    B gains in all four clusters where the models differ, yet with four clusters the
    smallest possible p-value is 2 / 2**4:

    >>> a = [0, 1, 0, 1,  0, 0, 1, 0,  1, 0, 0, 0,  1, 0, 1, 1,  0, 1, 0, 0]
    >>> b = [1, 1, 1, 1,  0, 1, 1, 0,  1, 1, 1, 1,  1, 0, 1, 1,  1, 1, 0, 1]
    >>> r = cluster_sign_flip(a, b, [i // 4 for i in range(20)])
    >>> r.name, r.statistic, r.p_value, r.exact
    ('cluster-sign-flip', 0.4, 0.125, True)
    """
    d = _pair(a, b)
    n_resamples = _n_resamples(n_resamples)
    seed = _seed_sequence(seed, required=False)
    codes, sizes, _ = _labels(clusters, d.shape[0])
    totals = _cluster_sums(d, codes, sizes.size)[:, 0]
    return _flip_signs("cluster-sign-flip", math.fsum(d[:, 0]) / d.shape[0], totals,
                       n_resamples=n_resamples, seed=seed,
                       described="clusters with a nonzero total difference")


# --- warnings ------------------------------------------------------------------------


def cluster_warnings(clusters: object) -> list[str]:
    """Plain-words warnings about a clustering that makes clustered error bars shaky.

    Parameters
    ----------
    clusters : array_like
        One label per item; at least 2 distinct labels.

    Returns
    -------
    list of str
        Empty when nothing is worth saying. One warning when there are fewer than
        :data:`MIN_CLUSTERS` clusters (the clustered SE is itself estimated from G
        cluster totals, so with few clusters it is noisy, and CR1 intervals tend to be
        too narrow), and one per cluster holding more than :data:`MAX_CLUSTER_SHARE` of
        the items (the result then leans on that cluster).

    Examples
    --------
    >>> for line in cluster_warnings(["news"] * 6 + ["wiki", "blog", "forum", "code"]):
    ...     print(line)
    the clustered interval is itself uncertain with only 5 clusters; 30 or more make it dependable
    cluster 'news' holds 60% of the items (6 of 10): the result leans heavily on it
    """
    _, sizes, labels = _labels(clusters, None)
    n, g = int(sizes.sum()), sizes.size
    out = []
    if g < MIN_CLUSTERS:
        out.append(f"the clustered interval is itself uncertain with only {g} clusters; "
                   f"{MIN_CLUSTERS} or more make it dependable")
    for c in np.flatnonzero(sizes > MAX_CLUSTER_SHARE * n):
        label = labels[c:c + 1].tolist()[0]  # a Python value, whatever the label array
        out.append(f"cluster {str(label)!r} holds {sizes[c] / n:.0%} of the items "
                   f"({sizes[c]} of {n}): the result leans heavily on it")
    return out
