"""Monte Carlo calibration: simulated datasets scored by evalbars' own functions.

Each function takes one cell of the grid (its settings), the methods asked for and a
:class:`Run` (datasets, resamples, level, the cell's random stream), and returns
``{method: Estimate}``. Datasets are simulated whole (one 0/1 or continuous score per
question and model) and handed to the same functions the report calls
(:mod:`evalbars.stats.intervals`, :mod:`evalbars.stats.bootstrap`, :mod:`evalbars.stats.significance`).
Where 0/1 data allow it, rates are exact (:mod:`._calibration_exact`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from ..analyses.caveats import FEW_DISCORDANT
from ..analyses.measures import CONTINUOUS_TESTS
from ..stats import bootstrap, intervals, significance
from ..stats.exact_coverage import (
    EXACT_INTERVALS,
    EXACT_TESTS,
    binomial_coverage,
    covers,
    rejection_rate,
)
from ._pairs import PairSpec, disagreement_from_correlation, pair_spec

BUDGET = 5 * 10**8
"""Resampled values (questions x resamples x datasets) a Monte Carlo cell may cost; a
bootstrap or permutation on continuous scores runs on fewer datasets past it."""

MIN_DATASETS = 200
"""Fewest datasets a cell is ever reduced to."""

B_SHARE = 0.6
"""Coverage of the gap: B wins this share of the questions the two models disagree on."""

BOOTSTRAP_INTERVALS: tuple[str, ...] = ("bootstrap-percentile", "bootstrap-bca")

HEADLINE = "headline"
"""The gap-binary column of the report's headline interval of a 0/1 gap: ``newcombe``
when fewer than :data:`~evalbars.analyses.caveats.FEW_DISCORDANT` questions of the dataset are
discordant, else ``paired-bootstrap-percentile`` (the rule of
:func:`evalbars.analyses.measures.difference`)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A coverage or rejection rate, its Monte Carlo error, and the datasets behind it
    (None when computed exactly, without simulation)."""

    value: float
    mc_error: float
    datasets: int | None


def exact(value: float) -> Estimate:
    return Estimate(float(value), 0.0, None)


def share(hits: np.ndarray) -> Estimate:
    """The share of datasets where ``hits`` is true, with error sqrt(p (1 - p) / D)."""
    p = float(np.mean(hits))
    return Estimate(p, math.sqrt(p * (1.0 - p) / hits.size), int(hits.size))


@dataclass(frozen=True, slots=True)
class Run:
    """How one cell is simulated: ``datasets`` wanted, bootstrap and permutation
    ``n_resamples``, the interval level ``1 - alpha``, and the cell's stream ``seed``
    (its data come from child 0, dataset j's resamples from child (1, j))."""

    datasets: int
    n_resamples: int
    alpha: float
    seed: np.random.SeedSequence

    @property
    def level(self) -> float:
        return 1.0 - self.alpha

    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self._child(0))

    def resample_seed(self, j: int) -> np.random.SeedSequence:
        return self._child(1, j)

    def reduced(self, n: int) -> int:
        """Datasets for a method whose cost grows with ``n`` x resamples (see BUDGET)."""
        return min(self.datasets, max(MIN_DATASETS, BUDGET // (n * self.n_resamples)))

    def _child(self, *key: int) -> np.random.SeedSequence:
        return np.random.SeedSequence(self.seed.entropy,
                                      spawn_key=tuple(self.seed.spawn_key) + key)


def _covers(found, truth: float) -> bool:
    return covers(found.low, found.high, truth)


def beta_shape(p: float) -> tuple[float, float]:
    """Continuous scores: Beta(2p, 2(1 - p)), mean p and variance p (1 - p) / 3."""
    return 2.0 * p, 2.0 * (1.0 - p)


# --- one model's score ---------------------------------------------------------------


def _bootstrap_covers(run: Run, j: int, x: np.ndarray, truth: float,
                      methods: tuple[str, ...]) -> list[bool]:
    """Whether each bootstrap interval of dataset j (scores ``x``) covers ``truth``."""
    replicates = bootstrap.bootstrap_means(x, n_resamples=run.n_resamples,
                                           seed=run.resample_seed(j))[:, 0]
    found = []
    for method in methods:
        if method == "bootstrap-percentile":
            found.append(bootstrap.percentile_interval(replicates, method=method,
                                                       confidence_level=run.level))
        else:
            found.append(bootstrap.bca_interval(x, replicates, confidence_level=run.level))
    return [_covers(interval, truth) for interval in found]


def score_binary(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Coverage of one model's accuracy, 0/1 scores: n questions, true accuracy p.

    The analytic intervals are exact (a sum over the binomial count); the bootstraps are
    simulated on ``run.datasets`` datasets.
    """
    n, p = cell["n"], cell["p"]
    out = {m: exact(binomial_coverage(m, n, p, confidence_level=run.level))
           for m in methods if m in EXACT_INTERVALS}
    wanted = tuple(m for m in methods if m in BOOTSTRAP_INTERVALS)
    if wanted:
        hits = []
        for j, k in enumerate(run.rng().binomial(n, p, size=run.datasets).tolist()):
            x = np.zeros(n)
            x[:k] = 1.0
            hits.append(_bootstrap_covers(run, j, x, p, wanted))
        out.update({m: share(np.array(hits)[:, i]) for i, m in enumerate(wanted)})
    return out


def score_continuous(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Coverage of one model's mean score, continuous scores ~ Beta(2p, 2(1 - p)).

    ``clt`` and ``t`` use ``run.datasets`` datasets, the bootstraps the first
    ``run.reduced(n)`` of them.
    """
    n, p = cell["n"], cell["p"]
    analytic = tuple(m for m in methods if m in intervals.MEAN_METHODS)
    wanted = tuple(m for m in methods if m in BOOTSTRAP_INTERVALS)
    rng, resampled = run.rng(), run.reduced(n)
    hits, boot_hits = [], []
    for j in range(run.datasets):
        x = rng.beta(*beta_shape(p), size=n)
        hits.append([_covers(intervals.mean_interval(x, method=m, confidence_level=run.level),
                             p) for m in analytic])
        if wanted and j < resampled:
            boot_hits.append(_bootstrap_covers(run, j, x, p, wanted))
    out = {m: share(np.array(hits)[:, i]) for i, m in enumerate(analytic)}
    out.update({m: share(np.array(boot_hits)[:, i]) for i, m in enumerate(wanted)})
    return out


# --- two models on the same questions, 0/1 ----------------------------------------------


def gap_spec(p: float, r: float, b_share: float) -> PairSpec:
    """Cell probabilities: both models near accuracy p with per-question correlation r
    (at equal accuracy), B winning ``b_share`` of their disagreements."""
    disagreement = disagreement_from_correlation(p, 0.0, r)
    gap = (2.0 * b_share - 1.0) * disagreement
    return pair_spec(p - gap / 2.0, gap, disagreement, None)


def _pair_arrays(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """0/1 scores of A and B from the counts (both, A only, B only, neither)."""
    a = np.repeat([1.0, 1.0, 0.0, 0.0], counts)
    b = np.repeat([1.0, 0.0, 1.0, 0.0], counts)
    return a, b


def gap_binary(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Coverage of the gap B - A on 0/1 scores: accuracy p, correlation r, and B winning
    :data:`B_SHARE` of the disagreements.

    An analytic interval depends only on the four cell counts, so it is computed once
    per distinct count vector among the datasets. :data:`HEADLINE` is, dataset by
    dataset, newcombe's interval or the paired bootstrap's (the same resamples as the
    ``paired-bootstrap-percentile`` column), as the report chooses.
    """
    spec = gap_spec(cell["p"], cell["r"], B_SHARE)
    counts = run.rng().multinomial(cell["n"], spec.probabilities, size=run.datasets)
    headline = HEADLINE in methods
    few = counts[:, 1] + counts[:, 2] < FEW_DISCORDANT
    covered = {}
    analytic = [m for m in intervals.PAIRED_METHODS
                if m in methods or (headline and m == "newcombe")]
    if analytic:
        distinct, index = np.unique(counts, axis=0, return_inverse=True)
        index = index.reshape(-1)
        for method in analytic:
            found = np.array([_covers(intervals.paired_interval(
                *_pair_arrays(row), method=method, confidence_level=run.level), spec.gap)
                for row in distinct])
            covered[method] = found[index]
    if headline or "paired-bootstrap-percentile" in methods:
        # every dataset, or only those whose headline is the paired bootstrap
        resampled = ~few if "paired-bootstrap-percentile" not in methods else \
            np.ones(run.datasets, dtype=bool)
        hits = np.zeros(run.datasets, dtype=bool)
        for j in np.flatnonzero(resampled).tolist():
            a, b = _pair_arrays(counts[j])
            gaps = bootstrap.bootstrap_means(b - a, n_resamples=run.n_resamples,
                                             seed=run.resample_seed(j))[:, 0]
            hits[j] = _covers(bootstrap.percentile_interval(
                gaps, method="paired-bootstrap-percentile", confidence_level=run.level),
                spec.gap)
        covered["paired-bootstrap-percentile"] = hits
    if headline:
        covered[HEADLINE] = np.where(few, covered["newcombe"],
                                     covered["paired-bootstrap-percentile"])
    return {m: share(covered[m]) for m in methods if m in covered}


def null_cells(p: float, r: float) -> tuple[float, float, float, float]:
    """Two equally accurate models (accuracy p, per-question correlation r)."""
    return gap_spec(p, r, 0.5).probabilities


def tests_binary(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Exact rejection rates of the 0/1 tests: under the null (no ``gap`` in the cell)
    or against a real gap (power; ``correlation`` r at accuracy p for A)."""
    if "gap" in cell:
        cells = pair_spec(cell["p"], cell["gap"], None, cell["r"]).probabilities
    else:
        cells = null_cells(cell["p"], cell["r"])
    return {m: exact(rejection_rate(m, cell["n"], cells, alpha=run.alpha,
                                    n_resamples=run.n_resamples))
            for m in methods if m in EXACT_TESTS}


# --- two models, continuous scores ---------------------------------------------------


def continuous_pair(rng: np.random.Generator, n: int, p: float, r: float,
                    gap: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Scores of A ~ Beta(2p, 2(1-p)) and B ~ Beta(2(p+gap), 2(1-p-gap)) on n questions,
    joined by a Gaussian copula with correlation r (exchangeable when gap = 0)."""
    z = rng.standard_normal((2, n))
    z_b = r * z[0] + math.sqrt(1.0 - r * r) * z[1]
    a = special.betaincinv(*beta_shape(p), special.ndtr(z[0]))
    b = special.betaincinv(*beta_shape(p + gap), special.ndtr(z_b))
    return a, b


def tests_continuous(cell: dict, methods: tuple[str, ...], run: Run) -> dict[str, Estimate]:
    """Rejection rates of the continuous-score tests on ``run.reduced(n)`` simulated
    pairs: under the null, or against a real ``gap`` in the mean score (power)."""
    wanted = [m for m in methods if m in CONTINUOUS_TESTS]
    if not wanted:
        return {}
    n, rng = cell["n"], run.rng()
    hits = {m: [] for m in wanted}
    for j in range(run.reduced(n)):
        a, b = continuous_pair(rng, n, cell["p"], cell["r"], cell.get("gap", 0.0))
        for method in wanted:
            found = significance.paired_test(a, b, name=method, n_resamples=run.n_resamples,
                                             seed=run.resample_seed(j))
            hits[method].append(found.p_value < run.alpha)
    return {m: share(np.array(h)) for m, h in hits.items()}
