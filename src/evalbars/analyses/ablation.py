"""Ablations: which parts of a system its gain over the baseline comes from.

Score the full system, a baseline and a few variants of the full system, each with one
part removed, on the same questions. :func:`ablation` (``evalbars.ablation``) gives the
full system's gain over the baseline, each variant's drop from the full system and its
gain over the baseline, all paired on the same questions, with p-values adjusted over
every comparison of the table, and the share of the full system's gain each drop
amounts to.

The shares are not additive in general: two parts that do the same job each cost little
when removed alone, and parts that need each other each cost the whole gain, so the
shares can add up to less or more than 100%. A share says what removing that one part
costs, not how the gain splits among the parts.

Every gap comes from one shared resample of the questions (whole clusters with
clusters), the leaderboard's (:mod:`evalbars.analyses.leaderboard`), so the gaps are paired and
consistent with each other; a share's interval is read from the same resamples.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core.errors import EvalbarsError
from ..core.progress import bootstrap_bar
from ..core.records import Record, entry
from ..io.inputs import read_scores, takes_load_options
from ..io.keywords import check_known
from ..report import format as fmt
from ..report.labels import method_name, named_test, role
from ..report.statement import unmeasured_noise
from ..stats import multiplicity
from ..stats.bootstrap import percentile_interval
from . import measures
from .leaderboard import PairComparison, check_correction, compare_pair, shared_means
from .results import ModelScore, ReportRecord
from .settings import checked_settings, provenance


@dataclass(frozen=True, slots=True)
class Share(Record):
    """A variant's drop as a share of the full system's gain: ``drop / gain``.

    ``low`` and ``high`` are percentiles of the ratio over the shared resamples, None
    when the gain's interval includes zero (a share of what may be no gain is not
    defined).
    """

    estimate: float
    low: float | None
    high: float | None
    method: str = entry("bootstrap-percentile", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant of the full system: its score, its drop from the full system
    (``drop.estimate = mean(full - variant)``), its gain over the baseline
    (``vs_baseline.estimate = mean(variant - baseline)``) and its share of the gain."""

    score: ModelScore
    drop: PairComparison
    vs_baseline: PairComparison
    share: Share

    @property
    def name(self) -> str:
        """The variant's name."""
        return self.score.name

    def to_dict(self) -> dict:
        return {"name": self.name, "mean": self.score.mean,
                "interval": self.score.intervals[0].to_dict(), "drop": self.drop.to_dict(),
                "vs_baseline": self.vs_baseline.to_dict(), "share": self.share.to_dict()}


@dataclass(frozen=True, slots=True, repr=False)
class AblationResult(ReportRecord):
    """The full system against the baseline, and each variant against both.

    ``models`` holds every score (full system, baseline, then the variants);
    ``variants`` are in order of drop, largest first; ``gain`` is the full system
    against the baseline (``a`` the baseline). Every p-value is adjusted over the
    ``1 + 2 x variants`` comparisons of the table.
    """

    full: str
    baseline: str
    correction: str
    alpha: float
    gain: PairComparison
    variants: tuple[Variant, ...]

    def variant(self, name: str) -> Variant:
        """The :class:`Variant` called ``name``."""
        for variant in self.variants:
            if variant.name == name:
                return variant
        raise KeyError(f"no variant {name!r}; have {[v.name for v in self.variants]}")

    def to_dict(self) -> dict:
        out = self._common("ablation")
        out["full"], out["baseline"] = self.full, self.baseline
        out["correction"] = {"method": self.correction, "alpha": self.alpha,
                             "n_tests": 1 + 2 * len(self.variants),
                             "family": "every comparison in the table"}
        out["gain"] = self.gain.to_dict()
        out["variants"] = [variant.to_dict() for variant in self.variants]
        out["shares_total"] = float(sum(v.share.estimate for v in self.variants))
        return self._finish(out)


def _check_names(full, baseline, variants) -> None:
    for part, param, name in (("full system", "full", full), ("baseline", "baseline", baseline)):
        if not isinstance(name, str) or not name:
            raise EvalbarsError(f"ablation needs the {part}'s name: {param}= (--{param}); got "
                                f"{name!r}")
    if full == baseline:
        raise EvalbarsError(f"full and baseline must be different models; got {full!r} twice")
    seen = set()
    for name in variants or ():
        if name in (full, baseline):
            raise EvalbarsError(f"variants must not include the full system {full!r} or the "
                                f"baseline {baseline!r}; got {name!r}")
        if name in seen:
            raise EvalbarsError(f"variants must be different models; {name!r} is listed twice")
        seen.add(name)


def _share(drop: PairComparison, gain: PairComparison, drops: np.ndarray, gains: np.ndarray,
           confidence_level: float) -> Share:
    """drop / gain, with percentiles over the resamples in which the gain keeps its sign."""
    if gain.estimate == 0:
        return Share(float("nan"), None, None)
    estimate = drop.estimate / gain.estimate
    if gain.intervals[0].low <= 0 <= gain.intervals[0].high:
        return Share(estimate, None, None)
    same = np.sign(gains) == np.sign(gain.estimate)
    ends = percentile_interval(drops[same] / gains[same], method="bootstrap-percentile",
                               confidence_level=confidence_level)
    return Share(estimate, ends.low, ends.high)


@takes_load_options
def ablation(
    data,
    data2=None,
    *,
    full: str,
    baseline: str,
    variants: Sequence[str] | None = None,
    correction: str = "holm",
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    progress: bool = False,
    **load_options,
) -> AblationResult:
    """Ablation table: each variant (the full system with one part removed) against the
    full system and against the baseline, paired, with p-values adjusted over the table.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Per-item results or harness logs, as for :func:`evalbars.ci`.
    full : str
        The full system.
    baseline : str
        What the full system improves on.
    variants : list of str, optional
        The variants (default: every other model).
    correction : str
        Adjustment over the ``1 + 2 x variants`` comparisons, one of
        :data:`evalbars.stats.multiplicity.METHODS` (default ``"holm"``).
    confidence_level, n_resamples, seed, progress
        As in :func:`evalbars.leaderboard`.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`.

    Returns
    -------
    AblationResult
        ``to_dict()`` is the ``ablation`` report document (docs/ablation.md).

    Notes
    -----
    Every comparison is a leaderboard pair (:func:`evalbars.leaderboard`):
    ``paired-bootstrap-percentile`` from the one resample plan
    (:mod:`evalbars.analyses.draws`), ``paired-wald`` and compare's headline test, so
    each equals :func:`evalbars.compare` on that pair exactly. A variant's share is
    ``drop / gain`` with ``drop = mean(full - variant)`` and
    ``gain = mean(full - baseline)``; its interval is the percentile interval of the
    same ratio over the shared resamples in which the gain keeps its sign (fewer than
    ``(1 - level) / 2`` of them lose it when the gain's interval excludes zero).

    Examples
    --------
    >>> import evalbars, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> ease = rng.random(800)
    >>> frame = pd.DataFrame({name: (np.where(rng.random(800) < 0.8, ease, rng.random(800))
    ...                              < p).astype(int) for name, p in
    ...                       [("base", 0.55), ("full", 0.70), ("no_a", 0.60), ("no_b", 0.69)]})
    >>> r = evalbars.ablation(frame.rename_axis("qid").reset_index(), full="full",
    ...                       baseline="base", n_resamples=2000)
    >>> [(v.name, round(v.drop.estimate, 3), round(v.share.estimate, 2)) for v in r.variants]
    [('no_a', 0.12, 0.74), ('no_b', 0.036, 0.22)]
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    check_correction(correction)
    _check_names(full, baseline, variants)
    wanted = None if variants is None else [full, baseline, *variants]
    scores = read_scores(data, data2, wanted, named_by={"full": full, "baseline": baseline,
                                                         "variants": variants},
                         **load_options)
    check_known({"full": full, "baseline": baseline}, scores.models)
    names = tuple(variants) if variants is not None else tuple(
        name for name in scores.models if name not in (full, baseline))
    if not names:
        raise EvalbarsError(f"ablation needs at least one variant besides the full system "
                            f"{full!r} and the baseline {baseline!r}; the data has "
                            f"{list(scores.models)}")
    ordered = tuple(sorted((full, baseline, *names)))
    prepared = measures.prepare(scores, ordered)
    plans = 1 if prepared.clusters is None else 2
    bar = bootstrap_bar(progress, plans, settings.n_resamples)
    try:
        drawn = measures.draws(prepared, settings, bar)
        summaries = {name: measures.model_score(prepared, name, settings, drawn)
                     for name in ordered}
        replicates = shared_means(drawn)
    finally:
        if bar is not None:
            bar.close()
    column = {name: replicates[:, j] for j, name in enumerate(prepared.names)}

    def pair(a: str, b: str) -> PairComparison:
        return compare_pair(drawn, a, b, settings)

    gain = pair(baseline, full)
    drops = [pair(name, full) for name in names]
    over = [pair(baseline, name) for name in names]
    adjusted = multiplicity.adjust([p.test.p_value for p in [gain, *drops, *over]],
                                   method=correction)
    gain, *rest = [dataclasses.replace(p, p_adjusted=float(q))
                   for p, q in zip([gain, *drops, *over], adjusted)]
    drops, over = rest[:len(names)], rest[len(names):]
    found = []
    for name, drop, versus in zip(names, drops, over):
        share = _share(drop, gain, column[full] - column[name], column[full] - column[baseline],
                       settings.confidence_level)
        found.append(Variant(summaries[name], drop, versus, share))
    found.sort(key=lambda v: (-v.drop.estimate, v.name))
    order = [full, baseline] + [v.name for v in found]
    warnings = measures.score_warnings(prepared, [summaries[name] for name in order])
    if found[0].share.low is None and gain.estimate != 0:
        head = gain.intervals[0]
        warnings += (f"the full system's gain over the baseline cannot be told from zero "
                     f"({head.method} interval {head.low:+.4g} to {head.high:+.4g}), so "
                     "intervals for the shares of it are not given",)
    result = AblationResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=tuple(summaries[name] for name in order), statement="", dropped=scores.dropped,
        warnings=warnings, provenance=provenance(scores, settings), full=full,
        baseline=baseline, correction=correction,
        alpha=settings.alpha,
        gain=gain, variants=tuple(found))
    return dataclasses.replace(result, statement=ablation_statement(result.to_dict()))


# --- the statement ---------------------------------------------------------------------


def _points(doc: dict, x: float, digits: int) -> str:
    unit = " points" if doc["score_type"] == "binary" else ""
    return fmt.value(x, doc["score_type"], digits, sign=True) + unit


def _ends(doc: dict, interval: dict, digits: int) -> str:
    return (f"{fmt.value(interval['low'], doc['score_type'], digits, sign=True)} to "
            f"{fmt.value(interval['high'], doc['score_type'], digits, sign=True)}")


def _percent(x: float) -> str:
    return f"{x:.0%}".replace("-", "\u2212")


def _adjusted(doc: dict, p: float) -> str:
    name = doc["correction"]["method"].title()
    return f"{name} p < 0.001" if p < 0.001 else f"{name} p = {p:.3f}"


def _variant_phrase(doc: dict, variant: dict, digits: int) -> str:
    drop = variant["drop"]
    size = fmt.value(abs(drop["estimate"]), doc["score_type"], digits)
    unit = " points" if doc["score_type"] == "binary" else ""
    side = "lower" if drop["estimate"] >= 0 else "higher"
    what = (f"{variant['name']} scores {size}{unit} {side} than {doc['full']} (drop {_ends(doc, drop['intervals'][0], digits)}, "
            f"{_adjusted(doc, drop['p_adjusted'])}")
    what += ("; the data cannot tell it from no change)"
             if drop["p_adjusted"] >= doc["correction"]["alpha"] else ")")
    share = variant["share"]
    if share["estimate"] is not None:
        what += f", {_percent(share['estimate'])} of the gain"
        if share["low"] is not None:
            what += f" ({_percent(share['low'])} to {_percent(share['high'])})"
    return what


def ablation_statement(doc: dict) -> str:
    """The statement for an ``ablation`` document: the gain, where it comes from, and why
    the shares do not add up. A pure function of the document."""
    level = doc["settings"]["confidence_level"]
    gain, full, baseline = doc["gain"], doc["full"], doc["baseline"]
    head = gain["intervals"][0]
    digits = fmt.decimals_for(doc["score_type"], head["high"] - head["low"])
    scores = {m["name"]: m for m in doc["models"]}
    unit = "%" if doc["score_type"] == "binary" else ""
    test = named_test(gain["test"])
    n_variants, n_tests = len(doc["variants"]), doc["correction"]["n_tests"]
    sentences = [
        f"On this {fmt.count(doc['n_items'])}-question evaluation set, "
        f"{role('full system', full)} scores "
        f"{fmt.value(scores[full]['mean'], doc['score_type'], digits)}{unit} "
        f"and {role('baseline', baseline)} "
        f"{fmt.value(scores[baseline]['mean'], doc['score_type'], digits)}{unit}: a gain of "
        f"{_points(doc, gain['estimate'], digits)} ({fmt.level(level)} CI "
        f"{_ends(doc, head, digits)}, "
        f"{method_name(head['method'])}; {test} p "
        f"{fmt.p_value(gain['p_value'])}, {_adjusted(doc, gain['p_adjusted'])}).",
        f"Removing one part at a time ({n_variants} variant{'s' if n_variants > 1 else ''} "
        f"of {full}, each against {full} on the same questions; p-values "
        f"{doc['correction']['method'].title()}-adjusted over the {n_tests} comparisons of "
        "the table): " + "; ".join(_variant_phrase(doc, v, digits) for v in doc["variants"])
        + ".",
    ]
    if n_variants > 1 and doc["shares_total"] is not None:
        sentences.append(
            f"The shares add up to {_percent(doc['shares_total'])}. They are not additive in "
            "general: parts that do the same job each cost little when removed alone, and "
            "parts that need each other each cost much of the gain, so a share says what "
            "removing that one part costs, not how the gain splits among the parts.")
    sentences.append(unmeasured_noise(doc))
    return " ".join(sentences)
