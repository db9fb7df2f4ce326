"""Resampling whole clusters: the cluster bootstrap and the cluster sign-flip test.

- :func:`cluster_bootstrap_means`: replicates that resample whole clusters, through
  :func:`evalbars.stats.resample.bootstrap_sums`; the caller turns them into intervals with
  :func:`evalbars.stats.bootstrap.percentile_interval` (method names in
  :data:`evalbars.stats.clustering.MEAN_METHODS` and
  :data:`evalbars.stats.clustering.PAIRED_METHODS`);
- :func:`cluster_sign_flip`: a paired permutation test that flips whole clusters.

Inputs are checked and cluster labels coded by :mod:`evalbars.stats.cluster_inputs`, in
the order of the sorted labels: the clusters are the units of one resample plan (and one
sign matrix) in that canonical order, shared by every column. Both stay bit-identical
under any row shuffle: each cluster's total is computed independently of row order
(directly and exactly for integer scores such as 0/1 and their differences, in value
order otherwise; see :func:`cluster_sums`), and the sign-flip statistic is an exactly
rounded mean (``math.fsum``). Renaming clusters reorders the units, and so draws other
resamples.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..core.errors import EvalbarsError
from ..core.types import TestResult
from .checks import checked_resamples
from .cluster_inputs import cluster_codes, paired_differences, score_matrix
from .permutation import flip_units
from .resample import bootstrap_sums, sign_flip_sums

__all__ = ["cluster_bootstrap_means", "cluster_sign_flip", "cluster_sums"]


def cluster_sums(x: np.ndarray, codes: np.ndarray, g: int) -> np.ndarray:
    """Per-cluster column sums (G, m) that depend only on each cluster's multiset of rows.

    A column of integers (0/1 scores, their differences) is summed directly: every
    partial sum is an integer below 2**53, so exact in any order. Other columns are added
    in the order of their values (ties are equal values), so shuffled rows give the same
    bits. These rows feed the resampling engine, which sorts them: equal data in any row
    order then give identical replicates and p-values.

    >>> cluster_sums(np.array([[1.0], [2.0], [4.0]]), np.array([1, 0, 1]), 2)[:, 0].tolist()
    [2.0, 5.0]
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
    ``[S_c (one per column), n_c]`` in the order of the sorted labels: one plan of
    cluster counts per (clusters, seed), so a column's replicates do not depend on the
    other columns. Intervals:
    ``bootstrap.percentile_interval(replicates, method="cluster-bootstrap-percentile")``
    for a mean, ``method="paired-cluster-bootstrap"`` for a gap.

    Validated: the variance of the replicates matches the CR0 variance when G is large;
    same seed gives identical replicates; shuffled rows give bit-identical replicates
    (tests/stats/test_clustering.py).

    Examples
    --------
    >>> import numpy as np
    >>> x = [1, 1, 1, 1,  0, 0, 1, 0,  1, 1, 1, 0]
    >>> m = cluster_bootstrap_means(x, ["d1"] * 4 + ["d2"] * 4 + ["d3"] * 4,
    ...                             n_resamples=1000, seed=np.random.SeedSequence(0))
    >>> m.shape, sorted({round(float(v), 3) for v in m[:, 0]})[:3]
    ((1000, 1), [0.25, 0.417, 0.5])
    """
    x_arr = score_matrix(x, "x", columns=True)
    n_resamples = checked_resamples(n_resamples)
    seed = _seed_sequence(seed, required=True)
    codes, sizes, _ = cluster_codes(clusters, x_arr.shape[0])
    sums = cluster_sums(x_arr, codes, sizes.size)
    totals = bootstrap_sums(np.column_stack([sums, sizes]), n_resamples=n_resamples,
                            seed=seed, progress=progress)
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
    :func:`evalbars.stats.permutation.sign_flip` with the cluster totals as units, with
    its three routes (binomial when every nonzero ``|T_c|`` is equal; enumeration of
    all ``2**m`` patterns, by meet in the middle, when ``m <= 20`` or ``2**m <=
    n_resamples``; otherwise Monte Carlo through
    :func:`evalbars.stats.resample.sign_flip_sums`, one sign per cluster in the order of
    the sorted labels, the null sums read as ``S @ T_b - S @ T_a`` from the clusters'
    totals of each model, with ``p = (k + 1) / (B + 1)`` and
    ``mc_error = sqrt(p (1 - p) / B)``) and its tie tolerance ``TIE_RTOL``. With one
    item per cluster it is the item-level sign-flip test. The enumeration costs
    O(2**(m/2)) in time and memory after one O(n) pass for the cluster totals: 20
    clusters of 10,000 items take about a millisecond (benchmarks/bench_clustered.py).

    Validated: enumeration equals brute force over all sign patterns; on
    examples/cookbook_topics.csv (20 topics, 16 with a nonzero total) p = 1158 / 2**16 = 0.017670,
    as ``scipy.stats.permutation_test`` with ``n_resamples=inf`` on the topic totals;
    Monte Carlo lies within a few ``mc_error`` of the exact p (tests/stats/test_clustering.py).

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
    d = paired_differences(a, b)
    n_resamples = checked_resamples(n_resamples)
    seed = _seed_sequence(seed, required=False)
    codes, sizes, _ = cluster_codes(clusters, d.shape[0])
    totals = cluster_sums(d, codes, sizes.size)[:, 0]

    def null(stream: np.random.SeedSequence) -> np.ndarray:
        both = cluster_sums(np.column_stack([score_matrix(a, "a"), score_matrix(b, "b")]), codes,
                             sizes.size)
        sums = sign_flip_sums(both, n_resamples=n_resamples, seed=stream)
        return sums[:, 1] - sums[:, 0]

    return flip_units("cluster-sign-flip", math.fsum(d[:, 0]) / d.shape[0], totals, null,
                      n_resamples=n_resamples, seed=seed,
                      described="clusters with a nonzero total difference")
