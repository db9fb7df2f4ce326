"""Clustered questions: cluster-robust standard errors and intervals, ICC, design effect.

Many evals come in clumps: ten questions about each document, several queries from each
session, problems from one template. Questions of one clump rise and fall together, so
the clump is the independent unit and item-level error bars are too narrow: error bars
must treat each cluster, not each question, as a unit. Here:

- :func:`clustered_se`, :func:`paired_clustered_se`: the cluster-robust standard error of
  a mean (or of the paired gap ``mean(b - a)``) beside the naive one, with the intraclass
  correlation, the design effect and the effective number of questions;
- :func:`cluster_interval`, :func:`paired_cluster_interval`: ``estimate ± t_{G-1} se``;
- :func:`evalbars.stats.cluster_resampling.cluster_bootstrap_means`: replicates that
  resample whole clusters; the caller turns them into intervals with
  :func:`evalbars.stats.bootstrap.percentile_interval` (method names in :data:`MEAN_METHODS`
  and :data:`PAIRED_METHODS`);
- :func:`evalbars.stats.cluster_resampling.cluster_sign_flip`: a paired permutation test
  that flips whole clusters;
- :func:`cluster_warnings`: plain-words warnings when clustered error bars are shaky.

Inputs are aligned arrays: scores (one per item) and ``clusters`` (one label per item:
str, int, or any hashable). Integer labels in a range of at most a few times n, such as
precomputed codes ``0..G-1``, are the fast path (no sort, no hashing): pass them when the
same clustering is used many times on a million items. Both are checked, and the labels
coded, by :mod:`evalbars.stats.cluster_inputs`.

Speed and exactness. The standard errors take a few O(n) passes of ``np.bincount`` and
numpy's pairwise sums: no sort and no ``math.fsum`` over items. They depend only on the
multiset of (label, score) rows up to rounding: shuffling rows or renaming clusters moves
them (and the ICC) by a few units in the last place; tests allow 1e-12 relative. They
are bit for bit reproducible for a fixed row order, and also whenever the row order is
fixed by the scores alone (the API sorts rows by every model's scores), whatever the
order of rows with equal scores from different clusters (see :func:`_clustered`). The
cluster bootstrap and the cluster sign-flip test stay bit-identical under any row
shuffle or renaming (see :mod:`evalbars.stats.cluster_resampling`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.arguments import check_confidence_level
from ..core.records import Record, entry
from ..core.types import Interval
from .cluster_inputs import cluster_codes, paired_differences, score_matrix
from .intervals import t_critical

__all__ = [
    "MEAN_METHODS",
    "PAIRED_METHODS",
    "ClusteredSE",
    "cluster_interval",
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
class ClusteredSE(Record):
    """Standard errors of a mean (or paired gap) over clustered items, and what they imply.

    ``se`` is CR1 (the statsmodels / Stata / R ``vcovCL(type="HC1")`` convention),
    ``se_cr0`` the uncorrected sandwich, ``se_naive`` ``sd/sqrt(n)``; ``icc`` is the
    one-way ANOVA intraclass correlation (nan when undefined), ``design_effect`` is
    ``(se / se_naive)**2`` and ``effective_n`` is ``n / design_effect``.
    """

    estimate: float = entry(hidden=True)
    n: int = entry(hidden=True)
    n_clusters: int = entry(finite=True)
    se: float = entry(finite=True)
    se_cr0: float = entry(finite=True)
    se_naive: float = entry(finite=True)
    icc: float = entry(finite=True)  # nan when undefined: null in JSON
    design_effect: float = entry(finite=True)
    design_effect_approx: float = entry(finite=True)
    effective_n: float = entry(finite=True)


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

    - ``se_cr0 = sqrt(sum_c (S_c - n_c x̄)²) / n`` (Miller 2024, arXiv:2411.00640; Cameron
      & Miller 2015, "A Practitioner's Guide to Cluster-Robust Inference"): the residuals are
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
    unequal cluster sizes (``se``), the closed form above on examples/cookbook_topics.csv
    (CR0 0.04862 and 0.04522) and ``scipy.stats.f_oneway`` (``icc``). The sums
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
    x_arr = score_matrix(x, "x")
    codes, sizes, _ = cluster_codes(clusters, x_arr.shape[0])
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
    clusters' totals of ``d`` are the independent units. Validated on
    examples/cookbook_topics.csv: CR0 SE of the delta 0.03426 (tests/stats/test_clustering.py).

    Examples
    --------
    >>> a = [1, 0, 1, 1,  0, 0, 1, 0,  1, 1, 0, 0,  1, 0, 0, 1]
    >>> b = [1, 1, 1, 1,  0, 1, 1, 0,  1, 1, 1, 0,  1, 0, 0, 1]
    >>> r = paired_clustered_se(a, b, [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4)
    >>> r.estimate, round(r.se, 4), round(r.se_naive, 4)
    (0.1875, 0.0625, 0.1008)
    """
    d = paired_differences(a, b)
    codes, sizes, _ = cluster_codes(clusters, d.shape[0])
    return _clustered(d, codes, sizes)


def _t_interval(method: str, result: ClusteredSE, level: float) -> Interval:
    half = t_critical(level, result.n_clusters - 1) * result.se
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
    simulation (tests/stats/test_clustering.py): 50 documents x 10 questions, icc 0.2, about
    94% for a nominal 95%.

    Examples
    --------
    >>> x = [1, 1, 1,  0, 0, 1,  1, 1, 0,  1, 1, 1,  0, 0, 0,  1, 0, 1,  1, 1, 1,  0, 1, 1]
    >>> iv = cluster_interval(x, [i // 3 for i in range(24)])
    >>> iv.method, round(iv.low, 3), round(iv.high, 3)
    ('cluster-cr1', 0.369, 0.965)
    """
    level = check_confidence_level(confidence_level)
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
    level = check_confidence_level(confidence_level)
    return _t_interval("paired-cluster-cr1", paired_clustered_se(a, b, clusters), level)


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
    _, sizes, labels = cluster_codes(clusters, None)
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
