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
intervals that hold for every candidate at once. With a split of the questions (``split=`` a column, or ``holdout=`` a
share drawn at random) it chooses on one part and confirms the single winner once on
the other: that held-out comparison is the number to report.

Every gain comes from one shared resample of the questions (whole clusters when clusters
are given), the leaderboard's (:mod:`evalbars.analyses.leaderboard`). Centring each candidate's
resampled gains on its observed gain gives a world in which no candidate has a true
effect while the N gains keep their joint variability on these data: their disagreement
with the baseline, their correlation through the shared baseline and with each other.
:func:`null_best`, :func:`adjusted_gain` and :func:`simultaneous_intervals` work on those
resampled gains.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..report import format as fmt
from . import measures as _parts
from ..stats import multiplicity
from .settings import checked_settings, provenance
from ..core.errors import EvalbarsError
from ..io.inputs import read_scores, takes_load_options
from ..core.progress import bootstrap_bar
from ..core.seeding import child_seed
from ..io.table import name_list
from ..core.types import Interval, TestResult
from ..io.ingest import ItemScores
from .leaderboard import PairComparison, _check_correction, _pair, _shared_means
from .results import Difference, ModelScore, Settings, _Report
from ..stats.significance import TIE_RTOL
from ..report.statement import _METHOD_WORDS, _TEST_WORDS, _unmeasured

WORLDS = 250
"""Bootstrap worlds of the second level of :func:`adjusted_gain` (the first resamples)."""
WORLD_RESAMPLES = 2000
"""Resampled deviations used inside each of those worlds (the first resamples)."""
_CELLS = 1 << 22
"""Largest (worlds x resamples x candidates) array built at once."""


@dataclass(frozen=True, slots=True)
class NullBest:
    """The best gain of N candidates with no true effect, over centred resamples.

    ``p_value`` is the share of resamples in which that null best reaches the observed
    best gain, as ``(k + 1) / (B + 1)``, with its Monte Carlo error.
    """

    mean: float
    p95: float
    p_value: float
    mc_error: float
    n_resamples: int

    def to_dict(self) -> dict:
        return {"method": "centred-bootstrap-max", "mean": self.mean, "p95": self.p95,
                "p_value": self.p_value, "mc_error": self.mc_error,
                "n_resamples": self.n_resamples}


@dataclass(frozen=True, slots=True)
class AdjustedGain:
    """The winner's gain less the estimated winner's curse ``bias``."""

    estimate: float
    bias: float
    mc_error: float

    def to_dict(self) -> dict:
        return {"estimate": self.estimate, "bias": self.bias,
                "method": "double-bootstrap-bias-correction", "mc_error": self.mc_error}


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


@dataclass(frozen=True, slots=True)
class SelectResult(_Report):
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

    def __str__(self) -> str:
        from ..report.text.select import render_text

        return render_text(self.to_dict())


# --- the statistics, on resampled gains ---------------------------------------------


def _deviations(gains, replicates) -> tuple[np.ndarray, np.ndarray]:
    gains = np.asarray(gains, dtype=float)
    replicates = np.asarray(replicates, dtype=float)
    if replicates.ndim != 2 or replicates.shape[1] != gains.size or gains.size == 0:
        raise EvalbarsError(f"replicates must be a (resamples, {gains.size}) array, one "
                            f"column per gain; got shape {replicates.shape}")
    return gains, replicates - gains


def null_best(gains, replicates) -> NullBest:
    """What the best of the candidates would show if none of them had a true effect.

    Parameters
    ----------
    gains : (N,) array
        Each candidate's observed gain over the baseline.
    replicates : (B, N) array
        The gains over B shared bootstrap resamples (one row per resample).

    Returns
    -------
    NullBest
        Mean and 95th percentile of the null best gain, and the selection-aware p-value.

    Notes
    -----
    With deviations ``D_bj = replicates_bj - gains_j`` every candidate's true gain is 0
    in the resampled world, and the best gain there is ``M_b = max_j D_bj``. The p-value
    is ``(#{b: M_b >= max_j gains_j} + 1) / (B + 1)`` (ties allowing for rounding), the
    bootstrap "reality check" for the best of many candidates against a benchmark
    (White, Econometrica 2000); ``mc_error = sqrt(p (1 - p) / B)``. It tests the null
    that no candidate beats the baseline, accounting for the choice of the best.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> r = null_best(np.zeros(20), rng.normal(0, 0.014, size=(4000, 20)))
    >>> round(r.mean, 3), r.p_value > 0.99
    (0.026, True)
    """
    gains, deviations = _deviations(gains, replicates)
    best = deviations.max(axis=1)
    observed = float(gains.max())
    reach = observed - TIE_RTOL * max(1.0, float(np.abs(replicates).max()))
    p = (np.count_nonzero(best >= reach) + 1) / (best.size + 1)
    return NullBest(float(best.mean()), float(np.quantile(best, 0.95)), float(p),
                    math.sqrt(p * (1.0 - p) / best.size), int(best.size))


def _selected(worlds: np.ndarray, deviations: np.ndarray) -> np.ndarray:
    """For each world of true gains t (a row), the deviation of the candidate that wins
    each resample (``argmax_j t_j + D_bj``, ties to the first): a (worlds, B) array."""
    out = np.empty((worlds.shape[0], deviations.shape[0]))
    rows = np.arange(deviations.shape[0])
    step = max(1, _CELLS // deviations.size)
    for start in range(0, worlds.shape[0], step):
        chosen = np.argmax(worlds[start:start + step, None, :] + deviations[None], axis=2)
        out[start:start + step] = deviations[rows, chosen]
    return out


def adjusted_gain(gains, replicates) -> AdjustedGain:
    """The winner's gain corrected for having been chosen as the best.

    Parameters
    ----------
    gains : (N,) array
        Each candidate's observed gain; the winner is the largest (the first on ties).
    replicates : (B, N) array
        The gains over B shared bootstrap resamples.

    Returns
    -------
    AdjustedGain
        ``estimate = max(gains) - bias``, with the Monte Carlo error of the estimate.

    Notes
    -----
    The winner's curse when the true gains are ``t`` is ``beta(t) = E[D_w]``: the
    expected excess of the chosen candidate's observed gain over its true gain, with
    ``w = argmax_j (t_j + D_j)`` and ``D`` the resampled deviations ``replicates -
    gains``. Plugging in ``t = gains`` (Efron's bootstrap bias estimate) under-corrects
    when the true gains are close, because observed gains are more spread out than true
    ones, and over-corrects when one candidate is far ahead; one more level of the
    bootstrap corrects most of that: ``bias = 2 beta(gains) - mean_k beta(gains + D_k)``
    over the worlds ``k`` (the first :data:`WORLDS` resamples, each using the first
    :data:`WORLD_RESAMPLES` deviations). The deviations are reused in every world, a
    location-shift model of the gains.

    Subtracting the null best's mean instead would be exact when no candidate has an
    effect but takes about 2.3 points too much from a winner that is truly 5 points
    ahead of 19 null candidates (seed 000's settings); in simulation this estimate's bias
    stays within about 0.4 points in both cases, against 2.4 points for the raw gain
    when no candidate has an effect (tests/test_select.py; docs/select.md). The Monte
    Carlo error combines the two levels' standard errors.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> gains = rng.normal(0, 0.014, size=20)
    >>> r = adjusted_gain(gains, gains + rng.normal(0, 0.014, size=(2000, 20)))
    >>> bool(r.estimate < gains.max() - 0.01)
    True
    """
    gains, deviations = _deviations(gains, replicates)
    first = _selected(gains[None, :], deviations)[0]
    worlds = gains + deviations[:WORLDS]
    second = _selected(worlds, deviations[:WORLD_RESAMPLES]).mean(axis=1)
    bias = 2.0 * float(first.mean()) - float(second.mean())
    spread = (4.0 * first.var() / first.size
              + (second.var(ddof=1) / second.size if second.size > 1 else 0.0))
    return AdjustedGain(float(gains.max()) - bias, bias, math.sqrt(spread))


def simultaneous_intervals(gains, replicates, *,
                           confidence_level: float) -> tuple[Interval, ...]:
    """Intervals for every gain that hold all at once, so they hold for the winner too.

    Notes
    -----
    Single-step max-t over the shared resamples (Romano and Wolf, 2005): with ``s_j``
    the resampled standard deviation of gain j, the half-width is ``c s_j`` where c is
    the ``confidence_level`` quantile of ``max_j |D_bj| / s_j``. Candidates whose gain
    never varies (``s_j = 0``) get a zero-width interval and are left out of the max.

    Examples
    --------
    >>> import numpy as np
    >>> reps = np.random.default_rng(1).normal(0, 0.01, size=(4000, 10))
    >>> one = simultaneous_intervals(np.zeros(10), reps, confidence_level=0.95)[0]
    >>> 0.025 < one.high < 0.032  # wider than one interval's 1.96 sd = 0.0196
    True
    """
    gains, deviations = _deviations(gains, replicates)
    sd = deviations.std(axis=0)
    live = sd > 0
    c = 0.0
    if live.any():
        c = float(np.quantile(np.max(np.abs(deviations[:, live]) / sd[live], axis=1),
                              confidence_level))
    return tuple(Interval("simultaneous-bootstrap", float(g - c * s), float(g + c * s),
                          confidence_level) for g, s in zip(gains, sd))


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


def _read(data, data2, wanted, split, options) -> tuple[ItemScores, np.ndarray | None]:
    """The scores, and each item's split label when ``split`` names a column."""
    if split is None:
        return read_scores(data, data2, wanted, **options), None
    if isinstance(data, ItemScores):
        raise EvalbarsError("split= names a column of the input, but data is already loaded "
                            "ItemScores; pass the file or DataFrame")
    # Read as a cluster column: one label per item, checked; the split column is then
    # never taken for a model, and the second reading pins the models found.
    labelled = read_scores(data, data2, wanted, **{**options, "cluster": split})
    scores = read_scores(data, data2, list(labelled.models), **options)
    return scores, np.asarray(labelled.clusters)


def _subset(scores: ItemScores, keep: np.ndarray) -> ItemScores:
    return dataclasses.replace(
        scores, items=tuple(np.asarray(scores.items)[keep].tolist()),
        scores=scores.scores[keep], counts=scores.counts[keep], sumsq=scores.sumsq[keep],
        clusters=None if scores.clusters is None
        else tuple(np.asarray(scores.clusters)[keep].tolist()))


def _by_column(labels: np.ndarray, split: str, select_on, confirm_on):
    values = sorted(set(labels.tolist()))
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
    scorer, qrels
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
    (0.57, 0.0)
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    _check_correction(correction)
    _check_names(baseline, candidates)
    _check_split(split, select_on, confirm_on, holdout)
    wanted = None if candidates is None else [baseline, *candidates]
    scores, labels = _read(data, data2, wanted, split, load_options)
    if baseline not in scores.models:
        raise EvalbarsError(f"unknown baseline {baseline!r}; the models are "
                            f"{list(scores.models)}")
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
        chosen, held = _subset(scores, keep), _subset(scores, confirm)
    prepared = _parts.prepare(chosen, ordered)
    per_model = 1 if prepared.clusters is None else 2
    stages = per_model * (len(ordered) + (3 if held is not None else 0)) + 1
    bar = bootstrap_bar(progress, stages, settings.n_resamples)
    try:
        summaries = {name: _parts.model_score(_parts.prepare(chosen, (name,)), name, settings,
                                              bar) for name in ordered}
        replicates, method = _shared_means(prepared, settings, bar)
        pairs = [_pair(chosen, prepared, replicates, method, baseline, name, settings)
                 for name in sorted(names)]
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
        warnings=_parts.score_warnings(prepared, [summaries[name] for name in order])
        + _tie_warning(found),
        provenance=provenance(scores, settings), baseline=baseline, correction=correction,
        alpha=1.0 - settings.confidence_level, split=split_info, candidates=tuple(found),
        null_best=null_best(gains, resampled), adjusted_gain=adjusted_gain(gains, resampled),
        confirm=confirmation)
    return dataclasses.replace(result, statement=select_statement(result.to_dict()))


def _confirm(held: ItemScores, baseline: str, winner: str, settings: Settings,
             bar) -> Confirmation:
    """compare's difference and headline test of the winner, on the held-out questions."""
    prepared = _parts.prepare(held, tuple(sorted((baseline, winner))))
    models = tuple(_parts.model_score(_parts.prepare(held, (name,)), name, settings, bar)
                   for name in (baseline, winner))
    return Confirmation(winner, len(held.items), models,
                        _parts.difference(prepared, baseline, winner, settings, bar),
                        _parts.tests(prepared, baseline, winner, settings)[0])


def _tie_warning(found: list[Candidate]) -> tuple[str, ...]:
    tied = [c.name for c in found if c.gain == found[0].gain]
    if len(tied) < 2:
        return ()
    return (f"{len(tied)} candidates tie for the best gain ({name_list(tied)}); the winner "
            f"is {tied[0]!r}, the first by name",)


# --- the statement ---------------------------------------------------------------------


def _gain(doc: dict, x: float, digits: int) -> str:
    unit = " points" if doc["score_type"] == "binary" else ""
    return fmt.value(x, doc["score_type"], digits, sign=True) + unit


def _versus(doc: dict, x: float, digits: int, what: str) -> str:
    """'+2.4 points above it', or '1.0 points below it' for a loss."""
    if x < 0:
        return f"{_gain(doc, -x, digits).lstrip('+')} below {what}"
    return f"{_gain(doc, x, digits)} above {what}"


def _ends(doc: dict, interval: dict, digits: int) -> str:
    return (f"{fmt.value(interval['low'], doc['score_type'], digits, sign=True)} to "
            f"{fmt.value(interval['high'], doc['score_type'], digits, sign=True)}")


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _many(n: int, word: str) -> str:
    return f"{fmt.count(n)} {word}{'' if n == 1 else 's'}"


def select_statement(doc: dict) -> str:
    """The statement for a ``select`` document: the winner, the curse, the held-out result.

    A pure function of the document, so every renderer shows the same words.
    """
    level = doc["settings"]["confidence_level"]
    best, null = doc["candidates"][0], doc["null_best"]
    n_cand, baseline, winner = len(doc["candidates"]), doc["baseline"], doc["winner"]
    head = best["intervals"][0]
    digits = fmt.decimals_for(doc["score_type"], head["high"] - head["low"])
    split = doc["split"]
    where = f"this {fmt.count(doc['n_items'])}-question evaluation set"
    if split is not None:
        how = (f"split {split['column']!r} = {split['select_on']!r}"
               if split["method"] == "column"
               else f"a random {1 - split['holdout']:.0%} of the {split['unit']}, seed "
                    f"{doc['settings']['seed']}")
        where = f"{fmt.count(split['n_select'])} selection questions ({how})"
    null_of = (f"The best of {n_cand} candidates with no true effect" if n_cand > 1
               else "A candidate with no true effect")
    sentences = [
        f"On {where}, {_many(n_cand, 'candidate')} answered the same questions as the "
        f"baseline {baseline}. The best, {winner}, scores "
        f"{_versus(doc, best['estimate'], digits, 'it')} ({level:.0%} CI "
        f"{_ends(doc, head, digits)}, {_METHOD_WORDS.get(head['method'], head['method'])}, "
        "not adjusted for the choice).",
        f"{null_of} would beat the baseline by {_gain(doc, null['mean'], digits)} on average "
        f"on data like these (95th percentile {_gain(doc, null['p95'], digits)}); luck alone "
        f"gives a best gain at least this large with {_p(null['p_value'])} (one-sided and "
        f"selection-aware, from {fmt.count(null['n_resamples'])} shared bootstrap resamples "
        f"of the {_many(n_cand, 'gain')}).",
        f"Corrected for the choice, {winner}'s gain is estimated at "
        f"{_gain(doc, doc['adjusted_gain']['estimate'], digits)} (double bootstrap bias "
        f"correction); an interval that holds for {'all ' if n_cand > 1 else ''}"
        f"{_many(n_cand, 'candidate')} at once puts it at "
        f"{_ends(doc, best['intervals'][-1], digits)}.",
    ]
    correction = doc["correction"]
    alpha = correction["alpha"]
    adjusted = sum(c["p_adjusted"] < alpha for c in doc["candidates"])
    raw = sum(c["p_value"] < alpha for c in doc["candidates"])
    sentence = (f"{adjusted} of {_many(n_cand, 'candidate')} "
                f"{'differs' if adjusted == 1 else 'differ'} from the baseline after the "
                f"{correction['method'].title()} correction ({raw} on raw p-values)")
    if n_cand > 1:
        chance = multiplicity.familywise_error(n_cand, alpha=alpha)
        sentence += (f"; uncorrected, {n_cand} tests at the {alpha:.0%} level would raise at "
                     f"least one false alarm with probability {chance:.0%} if no candidate "
                     "differed (independent tests)")
    sentences.append(sentence + ".")
    confirm = doc["confirm"]
    if confirm is None:
        sentences.append(f"To report {winner}'s gain, confirm it once on questions not used "
                         "for choosing (a held-out split).")
    else:
        interval = confirm["intervals"][0]
        test = _TEST_WORDS.get(confirm["test"], confirm["test"])
        sentences.append(
            f"Confirmed once on the {fmt.count(confirm['n_items'])} held-out questions, "
            f"{winner} scores {_versus(doc, confirm['estimate'], digits, baseline)} "
            f"({level:.0%} CI {_ends(doc, interval, digits)}, "
            f"{_METHOD_WORDS.get(interval['method'], interval['method'])}; {test} "
            f"{_p(confirm['p_value'])}). This held-out comparison is the result; the "
            "numbers from the selection questions are biased upward by the choice.")
    sentences.append(_unmeasured(doc))
    return " ".join(sentences)
