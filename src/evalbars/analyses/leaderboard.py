"""The leaderboard: many models on the same questions, with honest places.

:func:`leaderboard` is ``evalbars.leaderboard``; :func:`groups` are its ties, and its
ranks come from :func:`evalbars.stats.ranks.rank_uncertainty`, for any resampled scores.

Every model's score gets the intervals :func:`evalbars.compare` gives it, and every pair,
or every model against a baseline, the paired gap and headline test compare gives it
(same plan, same numbers). The p-values are adjusted for the number of pairs read
together (:mod:`evalbars.stats.multiplicity`).

One resample plan of the questions (or of whole clusters, when clusters are given) serves
every model (:mod:`evalbars.analyses.draws`): the (items x models) score matrix is
resampled once, and every model's interval, every pairwise gap, every rank and the chance
of being best come from those same resamples. The gaps are therefore paired and
consistent with each other (the gap A - C is exactly (A - B) + (B - C) in every
resample), except for gaps whose differences repeat (0/1 scores), which are drawn from
their own values in O(resamples). One sign matrix serves every pair's sign-flip test.

Ranks: rank 1 is the highest mean; tied models share the smallest rank of the tie
("1224" ranking: one plus the number of models strictly higher). The same rule is used
for the observed ranks and for the ranks in every resample.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core.errors import EvalbarsError
from ..core.progress import bootstrap_bar
from ..core.types import Interval, TestResult
from ..io.inputs import read_scores, takes_load_options
from ..io.keywords import check_known
from ..report.text.leaderboard import leaderboard_statement
from ..report.text.strata import strata_stated
from ..stats import clustering, intervals, multiplicity
from ..stats.bootstrap import percentile_interval
from ..stats.ranks import rank_uncertainty
from . import measures
from .draws import Draws
from .results import ModelScore, ReportRecord, Settings, Strata, find_named
from .settings import checked_settings, provenance
from .strata import strata_section
from .strata_leaderboard import ranked_strata


@dataclass(frozen=True, slots=True)
class RankedModel:
    """A model's score with its intervals (as :func:`evalbars.compare` gives them) and place.

    ``rank`` is the observed rank (1 = best, ties share the smallest rank); ``rank_low``
    and ``rank_high`` bound the rank over bootstrap resamples at the confidence level;
    ``p_best`` is the share of resamples in which the model has the highest mean (a tie
    at the top shares the resample equally, so the ``p_best`` of all models sum to 1).
    """

    score: ModelScore
    rank: int
    rank_low: int
    rank_high: int
    p_best: float

    @property
    def name(self) -> str:
        """The model's name."""
        return self.score.name

    @property
    def mean(self) -> float:
        """The model's mean score."""
        return self.score.mean

    def interval(self, method: str) -> Interval:
        """The interval of the model's score computed by ``method`` (e.g. ``"wilson"``)."""
        return self.score.interval(method)

    def to_dict(self) -> dict:
        return {**self.score.to_dict(), "rank": self.rank, "rank_low": self.rank_low,
                "rank_high": self.rank_high, "p_best": self.p_best}


@dataclass(frozen=True, slots=True)
class PairComparison:
    """The paired gap ``mean(b) - mean(a)`` with its intervals and headline test.

    ``p_adjusted`` is the test's p-value adjusted over every pair of the leaderboard.
    """

    a: str
    b: str
    estimate: float
    intervals: tuple[Interval, ...]
    test: TestResult
    p_adjusted: float

    def interval(self, method: str) -> Interval:
        """The interval computed by ``method`` (e.g. ``"paired-wald"``)."""
        return find_named(self.intervals, method)

    def to_dict(self) -> dict:
        out = {"a": self.a, "b": self.b, "estimate": self.estimate,
               "intervals": [interval.to_dict() for interval in self.intervals],
               "test": self.test.name, "p_value": self.test.p_value}
        if self.test.mc_error is not None:
            out["mc_error"] = self.test.mc_error
        out["p_adjusted"] = self.p_adjusted
        return out


@dataclass(frozen=True, slots=True, repr=False)
class LeaderboardResult(ReportRecord):
    """Models in leaderboard order (highest mean first), their pairs and their groups.

    ``groups``: with all pairs, the runs of consecutive places the data cannot separate
    (see :func:`groups`); with a ``baseline``, one group: the baseline and the models not
    separated from it. A pair is separated when its adjusted p-value is below ``alpha``
    = 1 - confidence level. ``strata``: with ``stratum=``, the section of
    :mod:`evalbars.analyses.strata_leaderboard` (None without).
    """

    baseline: str | None
    correction: str
    alpha: float
    pairs: tuple[PairComparison, ...]
    groups: tuple[tuple[str, ...], ...]
    strata: Strata | None = None  # with stratum=: the aggregates and the pairs within strata

    def pair(self, a: str, b: str) -> PairComparison:
        """The comparison of models ``a`` and ``b``, in whichever direction it was made."""
        for pair in self.pairs:
            if {pair.a, pair.b} == {a, b}:
                return pair
        raise KeyError(f"no pair of {a!r} and {b!r}")

    def to_dict(self) -> dict:
        out = self._common("leaderboard")
        out["baseline"] = self.baseline
        out["correction"] = {
            "method": self.correction, "alpha": self.alpha, "n_tests": len(self.pairs),
            "family": "all pairs" if self.baseline is None else "each model against the baseline"}
        out["pairs"] = [pair.to_dict() for pair in self.pairs]
        out["groups"] = [list(group) for group in self.groups]
        if self.strata is not None:
            out["strata"] = self.strata.to_dict()
        return self._finish(out)


def groups(order: Sequence[str], separated: set[frozenset[str]]) -> tuple[tuple[str, ...], ...]:
    """The maximal runs of consecutive places in which no two models are separated.

    Parameters
    ----------
    order : sequence of str
        Models in leaderboard order (place 1 first).
    separated : set of frozenset
        The pairs the data separate (adjusted p-value below alpha). A pair that was not
        tested (baseline mode) is not separated.

    Returns
    -------
    tuple of tuple of str
        Each group is a run of places; a model may belong to two overlapping groups
        (A ~ B and B ~ C, but A and C separated, gives (A, B) and (B, C)), and a model
        separated from both neighbours is a group of its own.

    Examples
    --------
    >>> groups(["A", "B", "C", "D"], {frozenset("AC"), frozenset("AD"), frozenset("BD")})
    (('A', 'B'), ('B', 'C'), ('C', 'D'))
    """
    found: list[tuple[str, ...]] = []
    last_end = -1
    for start in range(len(order)):
        end = start
        while end + 1 < len(order) and not any(
                frozenset((order[k], order[end + 1])) in separated for k in range(start, end + 1)):
            end += 1
        if end > last_end:
            found.append(tuple(order[start:end + 1]))
            last_end = end
    return tuple(found)


def check_correction(correction: str) -> None:
    if not isinstance(correction, str) or correction not in multiplicity.METHODS:
        valid = ", ".join(repr(name) for name in multiplicity.METHODS)
        raise EvalbarsError(f"correction must be one of {valid}; got {correction!r}")


def _check_models(names: Sequence[str], baseline: str | None) -> None:
    if len(set(names)) < 2:
        raise EvalbarsError(f"a leaderboard needs at least two models; got {list(names)}")
    check_known({"baseline": baseline}, names)


def shared_means(found: Draws) -> np.ndarray:
    """Means of every model over the one plan: of items, or of whole clusters."""
    return found.means() if found.data.clusters is None else found.cluster_means()


def compare_pair(found: Draws, a: str, b: str, settings: Settings) -> PairComparison:
    """One pair as compare gives it: the bootstrap gap, the analytic interval, the test."""
    level, prepared = settings.confidence_level, found.data
    x_a, x_b = prepared.column(a), prepared.column(b)
    if prepared.clusters is None:
        gaps, method = found.gap(a, b), "paired-bootstrap-percentile"
        analytic = intervals.paired_interval(x_a, x_b, method="paired-wald",
                                             confidence_level=level)
    else:
        gaps, method = found.cluster_gap(a, b), "paired-cluster-bootstrap"
        analytic = clustering.paired_cluster_interval(x_a, x_b, prepared.clusters,
                                                      confidence_level=level)
    return PairComparison(
        a, b, float(np.mean(x_b - x_a)),
        (percentile_interval(gaps, method=method, confidence_level=level), analytic),
        measures.headline_test(prepared, a, b, found), float("nan"))


@takes_load_options
def leaderboard(
    data,
    data2=None,
    *,
    models: Sequence[str] | None = None,
    baseline: str | None = None,
    correction: str = "holm",
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    stratum: str | None = None,
    weights: object = "micro",
    progress: bool = False,
    **load_options,
) -> LeaderboardResult:
    """Rank models scored on the same questions, saying which places the data can tell apart.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Per-item results or harness logs, as for :func:`evalbars.ci`.
    models : list of str, optional
        Which models to rank (default: all).
    baseline : str, optional
        Compare each model against this one only, instead of every pair.
    correction : str
        Multiple-comparison adjustment over the pairs, one of
        :data:`evalbars.stats.multiplicity.METHODS` (default ``"holm"``).
    confidence_level, n_resamples, seed
        Interval level (alpha = 1 - level for the groups), bootstrap resamples and the
        seed (recorded in the result).
    stratum, weights
        As for :func:`evalbars.ci`: adds the ``strata`` section, each model's weighted
        aggregate as ci gives it and each pair's gap paired within strata with its
        stratified tests as compare gives them, the headline p-values adjusted over the
        pairs with ``correction`` (docs/strata.md).
    progress : bool
        Show a progress bar on stderr (only when stderr is a terminal).
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`.

    Returns
    -------
    LeaderboardResult
        ``to_dict()`` is the ``leaderboard`` report document (docs/leaderboard.md).

    Notes
    -----
    - Model scores: exactly the intervals :func:`evalbars.compare` gives (the same
      plan, :mod:`evalbars.analyses.draws`), so adding a model never changes them.
    - Pairs: all pairs (``a`` is the lower place, so the estimate ``mean(b - a)`` is at
      least 0) or each model against ``baseline`` (``a`` is the baseline). The first
      interval is compare's bootstrap interval of the gap, from the same plan:
      ``paired-bootstrap-percentile``, or ``paired-cluster-bootstrap`` when clusters are
      given (whole clusters are resampled). The second is ``paired-wald``
      (``paired-cluster-cr1`` with clusters), equal to compare's, as is the estimate.
      The test is compare's headline test for the pair (``mcnemar-exact`` for single
      0/1 answers, ``sign-flip`` otherwise, ``cluster-sign-flip`` with clusters), its
      Monte Carlo null read from the one sign matrix, so its p-value equals compare's
      exactly.
    - Groups: a pair is separated when its adjusted p-value is below alpha; see
      :func:`groups`. Ranks and ``p_best``: see
      :func:`evalbars.stats.ranks.rank_uncertainty`.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.leaderboard("examples/lesson_pair.csv", n_resamples=2000)
    >>> [(m.name, m.rank, m.rank_low, m.rank_high) for m in r.models]
    [('model_b', 1, 1, 1), ('model_a', 2, 2, 2)]
    >>> pair = r.pair("model_a", "model_b")
    >>> round(pair.estimate, 3), pair.test.name, round(pair.p_adjusted, 4)
    (0.026, 'mcnemar-exact', 0.0072)
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    check_correction(correction)
    scores = read_scores(data, data2, models, stratum=stratum, **load_options)
    names = tuple(models) if models is not None else scores.models
    _check_models(names, baseline)
    # Columns in name order, so nothing depends on the order of the input's columns.
    prepared = measures.prepare(scores, tuple(sorted(set(names))))
    strata = strata_section(scores, prepared, stratum, weights, settings, build=ranked_strata,
                            baseline=baseline, correction=correction)
    plans = 1 if prepared.clusters is None else 2  # of items and of clusters
    bar = bootstrap_bar(progress, plans, settings.n_resamples)
    try:
        found = measures.draws(prepared, settings, bar)
        summaries = {name: measures.model_score(prepared, name, settings, found)
                     for name in prepared.names}
        replicates = shared_means(found)
    finally:
        if bar is not None:
            bar.close()
    estimates = np.array([summaries[name].mean for name in prepared.names])
    rank, low, high, best = rank_uncertainty(replicates, estimates,
                                             confidence_level=settings.confidence_level)
    order = sorted(prepared.names, key=lambda name: (-summaries[name].mean, name))
    if baseline is None:
        family = [(order[j], order[i]) for i in range(len(order)) for j in range(i + 1, len(order))]
    else:
        family = [(baseline, name) for name in order if name != baseline]
    pairs = [compare_pair(found, a, b, settings) for a, b in family]
    adjusted = multiplicity.adjust([pair.test.p_value for pair in pairs], method=correction)
    pairs = [dataclasses.replace(pair, p_adjusted=float(p)) for pair, p in zip(pairs, adjusted)]

    alpha = settings.alpha
    separated = {frozenset((pair.a, pair.b)) for pair in pairs if pair.p_adjusted < alpha}
    if baseline is None:
        found = groups(order, separated)
    else:  # only pairs with the baseline were tested: say nothing about the others
        found = (tuple(name for name in order
                       if name == baseline or frozenset((baseline, name)) not in separated),)
    where = {name: j for j, name in enumerate(prepared.names)}
    ranked = tuple(RankedModel(summaries[name], int(rank[where[name]]), int(low[where[name]]),
                               int(high[where[name]]), float(best[where[name]]))
                   for name in order)
    result = LeaderboardResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=ranked, statement="", dropped=scores.dropped,
        warnings=measures.score_warnings(prepared, [summaries[name] for name in order])
        + (() if strata is None else strata.warnings),
        provenance=provenance(scores, settings), baseline=baseline, correction=correction,
        alpha=alpha, pairs=tuple(pairs), groups=found, strata=strata)
    return dataclasses.replace(result, statement=strata_stated(leaderboard_statement,
                                                               result.to_dict()))
