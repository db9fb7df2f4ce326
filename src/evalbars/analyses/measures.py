"""The parts of a score report, each computed from prepared, canonically ordered data.

``prepare`` puts the chosen models' per-item scores (with answer counts and cluster
labels) in one canonical order, the items sorted by id; the builders compute each
model's score with its intervals, the paired difference, item-level agreement and the
paired tests, choosing the methods that fit the data: 0/1 scores, per-question averages
of several sampled answers, and clustered questions. Every resampled number comes from
the analysis' :class:`~evalbars.analyses.draws.Draws` (one plan, one sign matrix).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core.errors import EvalbarsError
from ..core.types import Interval, TestResult
from ..io.ingest import ItemScores
from ..io.table import short
from ..stats import bootstrap, clustering, intervals, significance
from .caveats import FEW_DISCORDANT, interval_warnings
from .draws import Draws
from .results import Agreement, Difference, ModelScore, Settings

BINARY_MODEL_METHODS = ("wilson", "wald", "clt", "clopper-pearson", "agresti-coull", "jeffreys",
                        "t", "bootstrap-percentile", "bootstrap-bca")
CONTINUOUS_MODEL_METHODS = ("t", "clt", "bootstrap-percentile", "bootstrap-bca")
BINARY_DIFFERENCE_METHODS = ("paired-bootstrap-percentile", "paired-wald", "paired-t",
                             "newcombe", "unpaired-wald")
CONTINUOUS_DIFFERENCE_METHODS = ("paired-bootstrap-percentile", "paired-wald", "paired-t",
                                 "unpaired-wald")
BINARY_TESTS = ("mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip", "paired-t")
CONTINUOUS_TESTS = ("sign-flip", "sign", "paired-t", "wilcoxon")
"""Methods and tests in report order; the first is the headline. With clusters the
clustered methods (``cluster-cr1``, ``paired-cluster-cr1``, ``cluster-sign-flip``) come
first, followed by the cluster bootstraps and then these, which treat items as
independent and are kept for contrast. A 0/1 gap with fewer than
:data:`~evalbars.analyses.caveats.FEW_DISCORDANT` discordant questions has ``newcombe`` first: the
others under-cover there (docs/calibration.md)."""

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Prepared:
    """The chosen models' per-item data in a canonical order (items sorted by id).

    The order is the resample plan's (:mod:`evalbars.analyses.draws`): computing every
    statistic in it makes every float bit-identical whatever the row order, and the same
    for a model whichever other models are chosen.
    """

    names: tuple[str, ...]
    x: np.ndarray           # (n, m) per-item mean score
    counts: np.ndarray      # (n, m) answers per item
    sumsq: np.ndarray       # (n, m) sum of squared answers per item
    clusters: np.ndarray | None  # (n,) integer cluster codes
    answer_type: str        # "binary" when every answer is 0 or 1
    cluster_names: np.ndarray | None = None  # the label of each code

    @property
    def binary(self) -> bool:
        """True when each item has exactly one 0/1 answer per model (binomial methods fit)."""
        return self.answer_type == "binary" and not self.sampled

    @property
    def sampled(self) -> bool:
        """True when some item has several answers."""
        return bool(self.counts.max() > 1)

    def column(self, name: str) -> np.ndarray:
        return self.x[:, self.names.index(name)]


def prepare(scores: ItemScores, names: tuple[str, ...]) -> Prepared:
    """The data of the models ``names`` (in that column order), items sorted by id.

    Refuses data of fewer than 2 questions: one question shows no spread, so no error bar
    can be measured (the intervals would be undefined or of zero width).
    """
    if len(scores.items) < 2:
        raise EvalbarsError(f"an error bar needs at least 2 questions; the data have "
                            f"{len(scores.items)} ({', '.join(map(short, scores.items))})")
    index = [scores.models.index(name) for name in names]
    x, counts, sumsq = scores.scores[:, index], scores.counts[:, index], scores.sumsq[:, index]
    clusters = names_of_codes = None
    if scores.clusters is not None:  # factorized once; clustering is blind to label names
        names_of_codes, clusters = np.unique(np.asarray(scores.clusters), return_inverse=True)
        clusters = clusters.reshape(-1)
    order = sorted(range(len(scores.items)), key=scores.items.__getitem__)
    return Prepared(tuple(names), x[order], counts[order], sumsq[order],
                    None if clusters is None else clusters[order], scores.score_type,
                    names_of_codes)


def draws(data: Prepared, settings: Settings, progress: Progress | None) -> Draws:
    """The resamples every builder below reads for ``data``, each drawn on first use."""
    return Draws(data, seed=settings.seed, n_resamples=settings.n_resamples, progress=progress)


def model_score(data: Prepared, name: str, settings: Settings, found: Draws) -> ModelScore:
    """Every interval for one model, its bootstrap replicates from ``found``."""
    j = data.names.index(name)
    x = data.x[:, j]
    level = settings.confidence_level
    computed: list[Interval] = []
    clustered = None
    if data.clusters is not None:
        clustered = clustering.clustered_se(x, data.clusters)
        computed.append(clustering.cluster_interval(x, data.clusters, confidence_level=level))
        computed.append(bootstrap.percentile_interval(
            found.cluster_model(name), method="cluster-bootstrap-percentile",
            confidence_level=level))
    replicates = found.model(name)
    for method in BINARY_MODEL_METHODS if data.binary else CONTINUOUS_MODEL_METHODS:
        if method in intervals.BINOMIAL_METHODS:
            computed.append(intervals.binomial_interval(
                int(x.sum()), x.size, method=method, confidence_level=level))
        elif method in intervals.MEAN_METHODS:
            computed.append(intervals.mean_interval(x, method=method, confidence_level=level))
        elif method == "bootstrap-percentile":
            computed.append(bootstrap.percentile_interval(
                replicates, method=method, confidence_level=level))
        else:
            computed.append(bootstrap.bca_interval(x, replicates, confidence_level=level))
    split = None
    if data.counts[:, j].max() > 1:  # several answers per question (stats.samples only then)
        from ..stats import samples

        split = samples.variance_split(x, data.counts[:, j], data.sumsq[:, j],
                                       binary=data.answer_type == "binary")
    return ModelScore(name, int(x.size), float(x.mean()), tuple(computed),
                      n_answers=int(data.counts[:, j].sum()), clustered=clustered,
                      samples=split)


def score_warnings(data: Prepared, summaries) -> tuple[str, ...]:
    """Methods known to under-cover for these model scores, and what to use instead."""
    def unit_interval(name: str) -> bool:
        x = data.column(name)
        return bool(x.min() >= 0.0 and x.max() <= 1.0)

    found = [w for m in summaries
             for w in interval_warnings(m, "binary" if data.binary else "continuous",
                                        unit_interval=unit_interval(m.name))]
    if data.clusters is not None:
        found += clustering.cluster_warnings(data.cluster_names[data.clusters])
        for m in summaries:
            ratio = m.clustered.se / m.clustered.se_naive if m.clustered.se_naive > 0 else 1.0
            if ratio > 1.1:
                found.append(
                    f"model {m.name!r}: intervals that treat the {m.n:,} questions as "
                    f"independent are {ratio:.2f}x too narrow for these clusters; use the "
                    "clustered ones (cluster-cr1, cluster-bootstrap-percentile)")
    return tuple(found)


def difference(data: Prepared, a_name: str, b_name: str, settings: Settings,
               found: Draws) -> Difference:
    """The paired gap mean(b - a) with its intervals; swapping a and b negates each one."""
    a, b = data.column(a_name), data.column(b_name)
    level = settings.confidence_level
    computed: list[Interval] = []
    clustered = None
    if data.clusters is not None:
        clustered = clustering.paired_clustered_se(a, b, data.clusters)
        computed.append(clustering.paired_cluster_interval(a, b, data.clusters,
                                                           confidence_level=level))
        computed.append(bootstrap.percentile_interval(
            found.cluster_gap(a_name, b_name), method="paired-cluster-bootstrap",
            confidence_level=level))
    gaps = found.gap(a_name, b_name)
    for method in BINARY_DIFFERENCE_METHODS if data.binary else CONTINUOUS_DIFFERENCE_METHODS:
        if method == "paired-bootstrap-percentile":
            computed.append(bootstrap.percentile_interval(
                gaps, method=method, confidence_level=level))
        else:
            computed.append(intervals.paired_interval(a, b, method=method,
                                                      confidence_level=level))
    if data.binary and clustered is None and np.count_nonzero(a != b) < FEW_DISCORDANT:
        computed.sort(key=lambda interval: interval.method != "newcombe")  # the headline
    ratio = _pairing_ratio(computed) if clustered is None else \
        _clustered_pairing_ratio(a, b, data.clusters, clustered)
    d = b - a
    sd = float(np.std(d, ddof=1)) if d.size > 1 else float("nan")
    return Difference(a_name, b_name, float(np.mean(d)), tuple(computed), sd, float(ratio),
                      clustered=clustered)


def _pairing_ratio(computed: list[Interval]) -> float:
    """How many times wider ``unpaired-wald`` is than ``paired-wald``."""
    by_name = {interval.method: interval for interval in computed}
    paired_width = by_name["paired-wald"].high - by_name["paired-wald"].low
    unpaired_width = by_name["unpaired-wald"].high - by_name["unpaired-wald"].low
    return unpaired_width / paired_width if paired_width > 0 else float("inf")


def _clustered_pairing_ratio(a: np.ndarray, b: np.ndarray, clusters: np.ndarray,
                             paired: "clustering.ClusteredSE") -> float:
    """How many times wider the unpaired clustered interval is than ``paired-cluster-cr1``.

    The unpaired one, ``mean(b) - mean(a) ± t_{G-1} sqrt(se_a² + se_b²)`` with each
    model's CR1 standard error (the figure's contrast, :mod:`evalbars.report.contrast`),
    takes the same t quantile as the paired one, so the widths' ratio is the SEs'.

    >>> a = np.array([1.0, 1, 0, 0, 1, 0]); b = np.array([1.0, 1, 1, 0, 1, 0])
    >>> groups = np.array([0, 0, 1, 1, 2, 2])
    >>> round(_clustered_pairing_ratio(a, b, groups, clustering.paired_clustered_se(
    ...     a, b, groups)), 3)
    2.0
    """
    unpaired = float(np.hypot(clustering.clustered_se(a, clusters).se,
                              clustering.clustered_se(b, clusters).se))
    return unpaired / paired.se if paired.se > 0 else float("inf")


def agreement(data: Prepared, a_name: str, b_name: str) -> Agreement:
    """Item-level agreement: the 2x2 counts for single 0/1 answers, else wins/losses/ties."""
    a, b = data.column(a_name), data.column(b_name)
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = float(np.corrcoef(a, b)[0, 1]) if a.size > 1 else float("nan")
    if data.binary:
        a_right, b_right = a == 1, b == 1
        return Agreement(
            correlation,
            both=int(np.count_nonzero(a_right & b_right)),
            a_only=int(np.count_nonzero(a_right & ~b_right)),
            b_only=int(np.count_nonzero(~a_right & b_right)),
            neither=int(np.count_nonzero(~a_right & ~b_right)),
        )
    d = b - a
    return Agreement(correlation, wins=int(np.count_nonzero(d > 0)),
                     losses=int(np.count_nonzero(d < 0)), ties=int(np.count_nonzero(d == 0)))


def _test(data: Prepared, a_name: str, b_name: str, name: str, found: Draws,
          alternative: str = "two-sided") -> TestResult:
    if name == "cluster-sign-flip":
        return found.cluster_sign_flip(a_name, b_name, alternative)
    if name == "sign-flip":
        return found.sign_flip(a_name, b_name, alternative)
    return significance.paired_test(data.column(a_name), data.column(b_name), name=name,
                                    alternative=alternative)


def chosen_tests(data: Prepared) -> tuple[str, ...]:
    """The paired tests that fit the data, in report order; the first is the headline."""
    clustered = ("cluster-sign-flip",) if data.clusters is not None else ()
    return clustered + (BINARY_TESTS if data.binary else CONTINUOUS_TESTS)


def paired_tests(data: Prepared, a_name: str, b_name: str, found: Draws,
                 alternative: str = "two-sided") -> tuple[TestResult, ...]:
    """Every paired test that fits the data (for ``alternative``); the first is the headline.

    The sign-flip tests read their Monte Carlo null from the sign matrix of ``found``.
    """
    return tuple(_test(data, a_name, b_name, name, found, alternative)
                 for name in chosen_tests(data))


def headline_test(data: Prepared, a_name: str, b_name: str, found: Draws) -> TestResult:
    """The first of :func:`paired_tests`, computed alone."""
    return _test(data, a_name, b_name, chosen_tests(data)[0], found)
