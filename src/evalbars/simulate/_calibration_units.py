"""Calibration when the question is not the whole story: clustered questions, and pass@k
over several sampled answers per question.

Clusters follow :mod:`evalbars.simulate.units`: a cluster's accuracy is
Beta-distributed with mean ``p`` and variance ``icc · p (1 - p)``, so two questions of one
cluster correlate by ``icc``. Intervals and tests come from :mod:`evalbars.stats.clustering`,
:mod:`evalbars.stats.cluster_resampling`, :mod:`evalbars.stats.intervals`,
:mod:`evalbars.stats.bootstrap`, :mod:`evalbars.stats.significance` and
:mod:`evalbars.stats.pass_at_k`, called on each simulated dataset.
"""
from __future__ import annotations

import numpy as np
from scipy import special

from ..core.types import Interval
from ..stats import bootstrap, cluster_resampling, clustering, intervals, significance
from ..stats.exact_coverage import covers
from ..stats.pass_at_k import pass_at_k, pass_hat_k
from ._calibration_mc import Estimate, Run, share
from .units import unit_counts

CLUSTERED_INTERVALS: tuple[str, ...] = ("cluster-cr1", "cluster-cr0",
                                        "cluster-bootstrap-percentile", "wilson", "t")
"""Clustered coverage: the clustered intervals, then two that ignore the clusters."""

CLUSTERED_TESTS: tuple[str, ...] = ("cluster-sign-flip", "mcnemar-exact")
"""Clustered type I error: the cluster sign-flip test, then McNemar's, which ignores them."""

ANSWERS = 10
"""Sampled answers per question in the pass@k cells."""

SPREAD = 1.0
"""pass@k: a question's pass rate is Beta(p · SPREAD, (1 - p) · SPREAD): U-shaped, most
problems (almost) always or (almost) never solved."""

PASSK_K: tuple[int, ...] = (1, 5, 10)
PASSK_METHODS: tuple[str, ...] = tuple(f"pass@{k}" for k in PASSK_K) + tuple(
    f"pass^{k}" for k in PASSK_K if k > 1)
"""pass@k and pass^k intervals (percentile bootstrap over questions, as ``evalbars passk``;
pass^1 is pass@1)."""


def _items(counts: np.ndarray, per_cluster: int) -> np.ndarray:
    """0/1 scores, cluster by cluster, from each cluster's count of right answers."""
    return (np.arange(per_cluster) < counts[:, None]).ravel().astype(float)


def _interval(method: str, x: np.ndarray, labels: np.ndarray, run: Run, j: int) -> Interval:
    """evalbars' interval ``method`` for 0/1 scores ``x`` in clusters ``labels``."""
    if method == "cluster-cr1":
        return clustering.cluster_interval(x, labels, confidence_level=run.level)
    if method == "cluster-cr0":
        found = clustering.clustered_se(x, labels)
        half = -special.ndtri(run.alpha / 2.0) * found.se_cr0
        return Interval(method, found.estimate - half, found.estimate + half,
                        run.level)
    if method == "cluster-bootstrap-percentile":
        replicates = cluster_resampling.cluster_bootstrap_means(
            x, labels, n_resamples=run.n_resamples, seed=run.resample_seed(j))[:, 0]
        return bootstrap.percentile_interval(replicates, method=method,
                                             confidence_level=run.level)
    if method == "wilson":
        return intervals.binomial_interval(int(x.sum()), x.size, method=method,
                                           confidence_level=run.level)
    return intervals.mean_interval(x, method=method, confidence_level=run.level)


def clustered(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Coverage of one model's accuracy on clustered questions: ``clusters`` clusters of
    ``per_cluster`` questions, accuracy p, intraclass correlation ``icc``."""
    wanted = [m for m in methods if m in CLUSTERED_INTERVALS]
    if not wanted:
        return {}
    g, m, p = cell["clusters"], cell["per_cluster"], cell["p"]
    labels = np.repeat(np.arange(g), m)
    counts = unit_counts(run.rng(), run.datasets, g, m, p, cell["icc"])
    hits = np.zeros((run.datasets, len(wanted)), dtype=bool)
    for j, row in enumerate(counts):
        x = _items(row, m)
        for i, method in enumerate(wanted):
            found = _interval(method, x, labels, run, j)
            hits[j, i] = covers(found.low, found.high, p)
    return {method: share(hits[:, i]) for i, method in enumerate(wanted)}


def null_clustered(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Type I error on clustered questions: each model's accuracy on a cluster is its own
    draw (mean p, intraclass correlation ``icc``), so the two are equally good on average
    while each is better on some clusters."""
    wanted = [m for m in methods if m in CLUSTERED_TESTS]
    if not wanted:
        return {}
    g, m, p = cell["clusters"], cell["per_cluster"], cell["p"]
    labels = np.repeat(np.arange(g), m)
    counts = unit_counts(run.rng(), 2 * run.datasets, g, m, p, cell["icc"])
    hits = np.zeros((run.datasets, len(wanted)), dtype=bool)
    for j in range(run.datasets):
        a, b = _items(counts[2 * j], m), _items(counts[2 * j + 1], m)
        for i, method in enumerate(wanted):
            if method == "cluster-sign-flip":
                found = cluster_resampling.cluster_sign_flip(
                    a, b, labels, n_resamples=run.n_resamples, seed=run.resample_seed(j))
            else:
                found = significance.paired_test(a, b, name=method)
            hits[j, i] = found.p_value < run.alpha
    return {method: share(hits[:, i]) for i, method in enumerate(wanted)}


def true_pass_at_k(p: float, k: int) -> float:
    """pass@k of the population: ``1 - E[(1 - theta)^k]`` for theta ~ Beta(a, b), which is
    ``1 - prod_{j<k} (b + j) / (a + b + j)``."""
    a, b = p * SPREAD, (1.0 - p) * SPREAD
    return 1.0 - float(np.prod([(b + j) / (a + b + j) for j in range(k)]))


def true_pass_hat_k(p: float, k: int) -> float:
    """pass^k of the population: ``E[theta^k]`` for theta ~ Beta(a, b), which is
    ``prod_{j<k} (a + j) / (a + b + j)``."""
    a, b = p * SPREAD, (1.0 - p) * SPREAD
    return float(np.prod([(a + j) / (a + b + j) for j in range(k)]))


def passk_coverage(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Coverage of the pass@k and pass^k intervals of ``evalbars passk``: n questions with
    :data:`ANSWERS` sampled answers each, mean pass rate p. pass^k's columns come after
    pass@k's in one bootstrap of the same datasets."""
    wanted = [method for method in PASSK_METHODS if method in methods]
    if not wanted:
        return {}
    at = [m for m in wanted if "@" in m]
    wanted = at + [m for m in wanted if "^" in m]
    ks = np.array([int(method[5:]) for method in wanted])
    hat = np.array(["^" in method for method in wanted])
    truth = np.array([true_pass_hat_k(cell["p"], k) if h else true_pass_at_k(cell["p"], k)
                      for k, h in zip(ks, hat)])
    n, rng = cell["n"], run.rng()
    hits = np.zeros((run.datasets, len(wanted)), dtype=bool)
    for j in range(run.datasets):
        theta = rng.beta(cell["p"] * SPREAD, (1.0 - cell["p"]) * SPREAD, size=n)
        passed = rng.binomial(ANSWERS, theta)
        x = np.where(hat[None, :], pass_hat_k(ANSWERS, passed[:, None], ks[None, :]),
                     pass_at_k(ANSWERS, passed[:, None], ks[None, :]))
        replicates = bootstrap.bootstrap_means(x, n_resamples=run.n_resamples,
                                               seed=run.resample_seed(j))
        for i in range(len(wanted)):
            found = bootstrap.percentile_interval(replicates[:, i], method=wanted[i],
                                                  confidence_level=run.level)
            hits[j, i] = covers(found.low, found.high, truth[i])
    return {method: share(hits[:, i]) for i, method in enumerate(wanted)}
