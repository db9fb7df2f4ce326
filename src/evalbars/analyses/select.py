"""Choosing the best of many candidates, honestly: the winner's curse and the held-out check.

Score N candidates (prompts, checkpoints, decoding settings) and a baseline on the same
questions and pick the one with the highest gain: that gain overstates the winner's true
gain, because the highest of N noisy numbers is the one whose luck ran hottest. In seed
000's simulation ("Many tries and the winner's curse") 20 candidates with no true effect,
each disagreeing with the baseline on 10% of 500 questions, still give a best gain of
about 2.5 points on average, and of at least 1 point in 97% of runs.

:func:`select` (``evalbars.select``) reports the winner's gain beside what the best of N
candidates with no true effect would show on these data, the chance of that (a
selection-aware p-value), a selection-adjusted estimate of the winner's gain and
intervals that hold for every candidate at once. With a split of the questions
(``split=`` a column, or ``holdout=`` a share drawn at random) it chooses on one part and
confirms the single winner once on the other: that held-out comparison is the number to
report.

Every gain comes from one shared resample of the questions (whole clusters when clusters
are given), the leaderboard's (:mod:`evalbars.analyses.leaderboard`). The winner's curse is
measured on those resampled gains by :mod:`evalbars.stats.winners_curse`; the questions
are split by a column or a seeded holdout (``_by_column``, ``_by_holdout``); the
statement is
:func:`evalbars.report.text.select.select_statement`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core.errors import EvalbarsError
from ..core.progress import bootstrap_bar
from ..core.seeding import child_seed
from ..core.types import Interval, TestResult
from ..io.ingest import ItemScores
from ..io.inputs import read_scores, takes_load_options
from ..io.keywords import check_known
from ..io.table import name_list
from ..report.text.select import select_statement
from ..stats import multiplicity
from ..stats.winners_curse import (
    AdjustedGain,
    NullBest,
    adjusted_gain,
    null_best,
    simultaneous_intervals,
)
from . import measures
from .leaderboard import PairComparison, check_correction, compare_pair, shared_means
from .results import Difference, ModelScore, ReportRecord, Settings
from .settings import checked_settings, provenance


@dataclass(frozen=True, slots=True)
class Candidate:
    """One candidate against the baseline: ``pair.b`` is the candidate, ``pair.a`` the
    baseline, ``pair.estimate`` the gain; ``disagreement`` is the share of questions on
    which the two scores differ."""

    pair: PairComparison
    disagreement: float

    @property
    def name(self) -> str:
        """The candidate's name."""
        return self.pair.b

    @property
    def gain(self) -> float:
        """mean(candidate - baseline) on the selection questions."""
        return self.pair.estimate

    def interval(self, method: str) -> Interval:
        """The interval of the gain computed by ``method``."""
        return self.pair.interval(method)

    def to_dict(self) -> dict:
        pair = self.pair.to_dict()
        del pair["a"], pair["b"]
        return {"name": self.name, **pair, "disagreement": self.disagreement}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The winner against the baseline, once, on the questions held out from the choice."""

    winner: str
    n_items: int
    models: tuple[ModelScore, ...]
    difference: Difference
    test: TestResult

    def to_dict(self) -> dict:
        out = {"winner": self.winner, "n_items": self.n_items,
               "models": [model.to_dict() for model in self.models],
               "estimate": self.difference.estimate,
               "intervals": [interval.to_dict() for interval in self.difference.intervals],
               "test": self.test.name, "p_value": self.test.p_value}
        if self.test.mc_error is not None:
            out["mc_error"] = self.test.mc_error
        return out


@dataclass(frozen=True, slots=True, repr=False)
class SelectResult(ReportRecord):
    """The best of N candidates against a baseline, with the winner's curse accounted for.

    ``models`` and ``candidates`` describe the selection questions (all of them without
    a split); ``candidates`` are in order of gain, highest first, and ``winner`` is the
    first. ``confirm`` is the held-out comparison (None without a split).
    """

    baseline: str
    correction: str
    alpha: float
    split: dict | None
    candidates: tuple[Candidate, ...]
    null_best: NullBest
    adjusted_gain: AdjustedGain
    confirm: Confirmation | None

    @property
    def winner(self) -> str:
        """The candidate with the highest gain on the selection questions."""
        return self.candidates[0].name

    def candidate(self, name: str) -> Candidate:
        """The :class:`Candidate` called ``name``."""
        for candidate in self.candidates:
            if candidate.name == name:
                return candidate
        raise KeyError(f"no candidate {name!r}; have {[c.name for c in self.candidates]}")

    def to_dict(self) -> dict:
        out = self._common("select")
        out["baseline"] = self.baseline
        out["split"] = None if self.split is None else dict(self.split)
        out["correction"] = {"method": self.correction, "alpha": self.alpha,
                             "n_tests": len(self.candidates),
                             "family": "each candidate against the baseline"}
        out["candidates"] = [candidate.to_dict() for candidate in self.candidates]
        out["winner"] = self.winner
        out["null_best"] = self.null_best.to_dict()
        out["adjusted_gain"] = self.adjusted_gain.to_dict()
        out["confirm"] = None if self.confirm is None else self.confirm.to_dict()
        return self._finish(out)


# --- reading and splitting -----------------------------------------------------------


def _check_names(baseline, candidates) -> None:
    if not isinstance(baseline, str) or not baseline:
        raise EvalbarsError(f"select needs the baseline's name: baseline= (--baseline); got "
                            f"{baseline!r}")
    if candidates is None:
        return
    seen = set()
    for name in candidates:
        if name == baseline:
            raise EvalbarsError(f"candidates must not include the baseline {baseline!r}")
        if name in seen:
            raise EvalbarsError(f"candidates must be different models; {name!r} is listed "
                                "twice")
        seen.add(name)


# --- the command -----------------------------------------------------------------------


@takes_load_options
def select(
    data,
    data2=None,
    *,
    baseline: str,
    candidates: Sequence[str] | None = None,
    correction: str = "holm",
    split: str | None = None,
    select_on=None,
    confirm_on=None,
    holdout: float | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    progress: bool = False,
    **load_options,
) -> SelectResult:
    """The best of N candidates against a baseline, with the winner's curse accounted for.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Per-item results or harness logs, as for :func:`evalbars.ci`.
    baseline : str
        The model every candidate is compared with.
    candidates : list of str, optional
        The candidates (default: every other model).
    correction : str
        Adjustment of the candidates' p-values, one of
        :data:`evalbars.stats.multiplicity.METHODS` (default ``"holm"``).
    split, select_on, confirm_on : optional
        Choose on the questions whose ``split`` column holds ``select_on`` and confirm
        the winner on those holding ``confirm_on``.
    holdout : float, optional
        Or hold out this share of the questions (whole clusters, with clusters), drawn
        with the seed (stream ``select:holdout``), and choose on the rest.
    confidence_level, n_resamples, seed, progress
        As in :func:`evalbars.leaderboard`.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`.

    Returns
    -------
    SelectResult
        ``to_dict()`` is the ``select`` report document (docs/select.md).

    Notes
    -----
    On the selection questions: each candidate's gain over the baseline with the
    leaderboard's intervals (``paired-bootstrap-percentile`` from the shared resample,
    ``paired-wald``) plus ``simultaneous-bootstrap`` (:func:`simultaneous_intervals`),
    compare's headline test and p-values adjusted over the candidates; the null best
    (:func:`null_best`) and the adjusted gain of the winner (:func:`adjusted_gain`),
    both from the shared resample. The winner is the highest gain (the first by name on
    ties). On the held-out questions: compare's paired difference and headline test of
    the winner against the baseline.

    Examples
    --------
    Seed 000's twenty prompts with no true effect (examples/prompts.csv): the best gains
    2.4 points on the dev questions, as much as the best of 20 null prompts would, and
    nothing on the test questions.

    >>> import evalbars
    >>> r = evalbars.select("examples/prompts.csv", baseline="baseline", split="split",
    ...                     select_on="dev", confirm_on="test", n_resamples=2000)
    >>> r.winner, round(r.candidates[0].gain, 3), round(r.null_best.mean, 3)
    ('prompt09', 0.024, 0.025)
    >>> round(r.null_best.p_value, 2), round(r.confirm.difference.estimate, 3)
    (0.56, 0.0)
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    check_correction(correction)
    _check_names(baseline, candidates)
    _check_split(split, select_on, confirm_on, holdout)
    wanted = None if candidates is None else [baseline, *candidates]
    named_by = {"baseline": baseline, "candidates": candidates}
    scores = read_scores(data, data2, wanted, named_by=named_by, split=split, **load_options)
    labels = None if split is None else \
        np.asarray(scores.label("split", split).per_item(), dtype=object)
    check_known({"baseline": baseline}, scores.models)
    names = tuple(candidates) if candidates is not None else tuple(
        name for name in scores.models if name != baseline)
    if not names:
        raise EvalbarsError(f"select needs at least one candidate besides the baseline "
                            f"{baseline!r}; the data has {list(scores.models)}")
    ordered = tuple(sorted((baseline, *names)))
    chosen, held, split_info = scores, None, None
    if labels is not None or holdout is not None:
        keep, confirm, split_info = (_by_column(labels, split, select_on, confirm_on)
                                     if labels is not None
                                     else _by_holdout(scores, ordered, holdout, settings.seed))
        chosen, held = scores.subset(keep), scores.subset(confirm)
    prepared = measures.prepare(chosen, ordered)
    plans = 1 if prepared.clusters is None else 2
    bar = bootstrap_bar(progress, plans * (2 if held is not None else 1), settings.n_resamples)
    try:
        drawn = measures.draws(prepared, settings, bar)
        summaries = {name: measures.model_score(prepared, name, settings, drawn)
                     for name in ordered}
        replicates = shared_means(drawn)
        pairs = [compare_pair(drawn, baseline, name, settings) for name in sorted(names)]
        confirmation = None
        if held is not None:
            gains = [pair.estimate for pair in pairs]
            winner = sorted(names)[int(np.argmax(gains))]
            confirmation = _confirm(held, baseline, winner, settings, bar)
    finally:
        if bar is not None:
            bar.close()
    column = {name: j for j, name in enumerate(prepared.names)}
    resampled = (replicates[:, [column[pair.b] for pair in pairs]]
                 - replicates[:, [column[baseline]]])
    gains = np.array([pair.estimate for pair in pairs])
    adjusted = multiplicity.adjust([pair.test.p_value for pair in pairs], method=correction)
    together = simultaneous_intervals(gains, resampled,
                                      confidence_level=settings.confidence_level)
    base = prepared.column(baseline)
    found = sorted(
        (Candidate(dataclasses.replace(pair, intervals=pair.intervals + (both,),
                                       p_adjusted=float(p)),
                   float(np.mean(prepared.column(pair.b) != base)))
         for pair, p, both in zip(pairs, adjusted, together)),
        key=lambda c: (-c.gain, c.name))
    order = [baseline] + [c.name for c in found]
    result = SelectResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=tuple(summaries[name] for name in order), statement="",
        dropped=scores.dropped,
        warnings=measures.score_warnings(prepared, [summaries[name] for name in order])
        + _tie_warning(found),
        provenance=provenance(scores, settings), baseline=baseline, correction=correction,
        alpha=settings.alpha,
        split=split_info, candidates=tuple(found),
        null_best=null_best(gains, resampled), adjusted_gain=adjusted_gain(gains, resampled),
        confirm=confirmation)
    return dataclasses.replace(result, statement=select_statement(result.to_dict()))


def _confirm(held: ItemScores, baseline: str, winner: str, settings: Settings,
             bar) -> Confirmation:
    """compare's difference and headline test of the winner, on the held-out questions."""
    prepared = measures.prepare(held, tuple(sorted((baseline, winner))))
    drawn = measures.draws(prepared, settings, bar)
    models = tuple(measures.model_score(prepared, name, settings, drawn)
                   for name in (baseline, winner))
    return Confirmation(winner, len(held.items), models,
                        measures.difference(prepared, baseline, winner, settings, drawn),
                        measures.headline_test(prepared, baseline, winner, drawn))


def _tie_warning(found: list[Candidate]) -> tuple[str, ...]:
    tied = [c.name for c in found if c.gain == found[0].gain]
    if len(tied) < 2:
        return ()
    return (f"{len(tied)} candidates tie for the best gain ({name_list(tied)}); the winner "
            f"is {tied[0]!r}, the first by name",)


def _check_split(split, select_on, confirm_on, holdout) -> None:
    if holdout is not None and split is not None:
        raise EvalbarsError("give holdout= (--holdout) or split= (--split), not both")
    if split is None and (select_on is not None or confirm_on is not None):
        raise EvalbarsError("select_on= and confirm_on= (--select-on, --confirm-on) need "
                            "split= (--split COL), the column that holds those values")
    if split is not None and (select_on is None or confirm_on is None):
        raise EvalbarsError(f"split={split!r} needs select_on= and confirm_on= (--select-on, "
                            "--confirm-on): the split values to choose on and to confirm on")
    if split is not None and str(select_on) == str(confirm_on):
        raise EvalbarsError(f"select_on and confirm_on must differ (choosing and confirming "
                            f"on the same questions is the winner's curse); got "
                            f"{str(select_on)!r} twice")
    if holdout is not None and (isinstance(holdout, bool) or not isinstance(
            holdout, (int, float, np.integer, np.floating)) or not 0.0 < holdout < 1.0):
        raise EvalbarsError(f"holdout must be the share of questions held out for the "
                            f"confirmation, between 0 and 1 (0.5 = half); got {holdout!r}")


def _by_column(labels: np.ndarray, split: str, select_on, confirm_on):
    values = sorted({label for label in labels.tolist() if label is not None})
    masks = []
    for param, value in (("select_on", select_on), ("confirm_on", confirm_on)):
        mask = labels == str(value)
        if np.count_nonzero(mask) < 2:
            raise EvalbarsError(
                f"{param}={str(value)!r} matches {np.count_nonzero(mask)} question(s) of the "
                f"split column {split!r} (at least 2 are needed); its values: "
                f"{name_list(values)}")
        masks.append(mask)
    info = {"method": "column", "column": split, "select_on": str(select_on),
            "confirm_on": str(confirm_on), "n_select": int(masks[0].sum()),
            "n_confirm": int(masks[1].sum()),
            "n_unused": int(labels.size - masks[0].sum() - masks[1].sum())}
    return masks[0], masks[1], info


def _by_holdout(scores: ItemScores, names: tuple[str, ...], holdout: float, seed: int):
    """A seeded random split of questions (of whole clusters, when clusters are given).

    Questions are put in the canonical order of their scores first, so the split, like
    every statistic, depends only on the multiset of rows, not on their order or ids.
    """
    if scores.clusters is None:
        x = scores.scores[:, [scores.models.index(name) for name in names]]
        units, unit = np.lexsort(x.T[::-1]), "items"
        position = np.empty(units.size, np.int64)
        position[units] = np.arange(units.size)
    else:
        labels, position = np.unique(np.asarray(scores.clusters), return_inverse=True)
        units, unit = np.arange(labels.size), "clusters"
    held = round(holdout * units.size)
    if min(held, units.size - held) < 2:
        raise EvalbarsError(
            f"holdout={holdout!r} holds out {held} of the {units.size} {unit} and leaves "
            f"{units.size - held} for choosing; each side needs at least 2")
    rng = np.random.default_rng(child_seed(seed, "select:holdout"))
    confirm_units = np.zeros(units.size, bool)
    confirm_units[rng.permutation(units.size)[:held]] = True
    confirm = confirm_units[position.reshape(-1)]
    info = {"method": "holdout", "holdout": float(holdout), "unit": unit,
            "n_select": int((~confirm).sum()), "n_confirm": int(confirm.sum())}
    return ~confirm, confirm, info
