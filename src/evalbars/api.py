"""The Python entry points: :func:`ci` and :func:`compare`.

Each takes a path, a pandas DataFrame or a loaded :class:`~evalbars.ingest.ItemScores`
and returns a result object whose ``to_dict()`` is the CLI's JSON document.
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Callable, Sequence

import numpy as np

from . import __version__, _parts, _progress, clustering, equivalence
from ._errors import EvalbarsError
from ._seeding import check_seed
from .caveats import gap_warnings, interval_warnings
from .ingest import ItemScores, load
from .results import CIResult, CompareResult, Settings
from .statement import ci_statement, compare_statement


def _progress_bar(enabled: bool, stages: int, n_resamples: int) -> _progress.Progress | None:
    return _progress.Progress("bootstrap", stages * n_resamples) if enabled else None


def _settings(confidence_level: float, n_resamples: int, seed: int) -> Settings:
    if isinstance(confidence_level, bool) or not 0.0 < float(confidence_level) < 1.0:
        raise EvalbarsError(f"confidence_level must be between 0 and 1, got {confidence_level!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise EvalbarsError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    return Settings(float(confidence_level), int(n_resamples), check_seed(seed))


def _as_item_scores(data, data2, models, **load_options) -> ItemScores:
    if isinstance(data, ItemScores):
        if data2 is not None:
            raise EvalbarsError("data2 cannot be combined with already loaded ItemScores")
        if models is not None:
            unknown = [m for m in models if m not in data.models]
            if unknown:
                raise EvalbarsError(f"unknown model(s) {unknown}; the data has {list(data.models)}")
        return data
    return load(data, data2, models=models, **load_options)


def _provenance(scores: ItemScores, settings: Settings) -> dict:
    digest = hashlib.sha256()
    for array in (scores.scores, scores.counts, scores.sumsq):
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update("\x00".join(scores.items).encode("utf-8"))
    if scores.clusters is not None:
        digest.update(b"\x01" + "\x00".join(scores.clusters).encode("utf-8"))
    source = {key: value for key, value in scores.source.items() if key != "inputs"}
    return {
        "version": __version__,
        "seed": settings.seed,
        "inputs": scores.source.get("inputs", []),
        "source": {**source, "description": scores.describe()},
        "data_sha256": digest.hexdigest(),
    }


def ci(
    data,
    data2=None,
    *,
    models: Sequence[str] | None = None,
    item: str | None = None,
    model: str | None = None,
    score: str | None = None,
    score_type: str = "auto",
    intersect: bool = False,
    cluster: str | None = None,
    sample: str | None = None,
    input_format: str = "auto",
    metric: str | None = None,
    scorer: str | None = None,
    qrels: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    progress: bool = False,
) -> CIResult:
    """Every model's mean score with every interval that fits its score type.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Per-item results (see :func:`evalbars.ingest.load` for layouts).
    models : list of str, optional
        Which models to report (default: all).
    item, model, score, score_type, intersect
        Column choices and validation options of :func:`evalbars.ingest.load`.
    cluster : str, optional
        Column naming each item's cluster (document, topic, session): adds clustered
        standard errors, cluster bootstrap intervals and the design effect.
    sample : str, optional
        Column telling several sampled answers to one question apart (an epoch):
        scores become per-question averages, and the variance is split into question
        noise and sampling noise.
    input_format, metric, scorer, qrels
        Harness logs (lm-evaluation-harness, inspect_ai, promptfoo, OpenAI evals, HELM,
        TREC runs with qrels): see :func:`evalbars.ingest.load` and docs/logs.md.
    confidence_level, n_resamples, seed
        Interval level, bootstrap resamples, and the seed (recorded in the result).
    progress : bool
        Show a progress bar on stderr for long runs (only when stderr is a terminal).

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.ci("examples/lesson_pair.csv", n_resamples=2000)
    >>> m = r.model("model_a")
    >>> round(m.mean, 3), [round(v, 3) for v in (m.interval("clt").low, m.interval("clt").high)]
    (0.732, [0.693, 0.771])
    """
    settings = _settings(confidence_level, n_resamples, seed)
    scores = _as_item_scores(data, data2, models, item=item, model=model, score=score,
                             score_type=score_type, intersect=intersect, cluster=cluster,
                             sample=sample, input_format=input_format, metric=metric,
                             scorer=scorer, qrels=qrels)
    names = tuple(models) if models is not None else scores.models
    prepared = _parts.prepare(scores, names)
    bar = _progress_bar(progress, len(names) * (2 if prepared.clusters is not None else 1),
                        settings.n_resamples)
    try:
        summaries = tuple(_parts.model_score(prepared, name, settings, bar) for name in names)
    finally:
        if bar is not None:
            bar.close()
    result = CIResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=_warnings(prepared, summaries), provenance=_provenance(scores, settings))
    return dataclasses.replace(result, statement=ci_statement(result.to_dict()))


def _warnings(prepared: _parts.Prepared, summaries) -> tuple[str, ...]:
    """Methods known to under-cover here, and what to use instead."""
    found = [w for m in summaries
             for w in interval_warnings(m, "binary" if prepared.binary else "continuous")]
    if prepared.clusters is not None:
        found += clustering.cluster_warnings(prepared.cluster_names[prepared.clusters])
        for m in summaries:
            ratio = m.clustered.se / m.clustered.se_naive if m.clustered.se_naive > 0 else 1.0
            if ratio > 1.1:
                found.append(
                    f"model {m.name!r}: intervals that treat the {m.n:,} questions as "
                    f"independent are {ratio:.2f}x too narrow for these clusters; use the "
                    "clustered ones (cluster-cr1, cluster-bootstrap-percentile)")
    return tuple(found)


def _equivalence(prepared: _parts.Prepared, a_name: str, b_name: str, difference,
                 margin: float, settings: Settings) -> equivalence.Equivalence:
    """Non-inferiority and TOST: paired t, or clustered (CR1 SE, G - 1 df) with clusters."""
    alpha = 1.0 - settings.confidence_level
    a, b = prepared.column(a_name), prepared.column(b_name)
    if difference.clustered is None:
        return equivalence.paired_equivalence(a, b, margin=margin, alpha=alpha)
    c = difference.clustered
    return equivalence.equivalence(c.estimate, c.se, c.n_clusters - 1, margin=margin,
                                   alpha=alpha, sd=c.se * c.n ** 0.5, n_items=c.n)


def _pick_pair(scores: ItemScores, a: str | None, b: str | None) -> tuple[str, str]:
    if a is None and b is None:
        if len(scores.models) != 2:
            raise EvalbarsError(
                f"the data has {len(scores.models)} models {list(scores.models)}; "
                "choose two with a= and b= (--a/--b)")
        return scores.models[0], scores.models[1]
    if a is None or b is None:
        raise EvalbarsError("give both a= and b= (--a and --b), or neither when the data has "
                            "exactly two models")
    for name in (a, b):
        if name not in scores.models:
            raise EvalbarsError(f"unknown model {name!r}; the data has {list(scores.models)}")
    return a, b


def compare(
    data,
    data2=None,
    *,
    a: str | None = None,
    b: str | None = None,
    item: str | None = None,
    model: str | None = None,
    score: str | None = None,
    score_type: str = "auto",
    intersect: bool = False,
    cluster: str | None = None,
    sample: str | None = None,
    input_format: str = "auto",
    metric: str | None = None,
    scorer: str | None = None,
    qrels: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    margin: float | None = None,
    progress: bool = False,
) -> CompareResult:
    """Paired comparison of model ``b`` against model ``a`` on the same items.

    Each model's score with its intervals, the gap ``mean(b - a)`` with paired
    intervals (and the unpaired one for contrast), item-level agreement, every paired
    test, and a result statement. See docs/json.md for every field.

    With ``margin`` M (in score units: 0.01 is 1 point for 0/1 scores), also the paired
    non-inferiority and TOST equivalence tests of the gap within M, each at level
    1 - confidence_level, decided from the (2 confidence_level - 1) interval (90% for
    the default 95%), and a statement that words the decision.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.compare("examples/lesson_pair.csv", a="model_a", b="model_b")
    >>> round(r.difference.estimate, 3), r.agreement.b_only, r.agreement.a_only
    (0.026, 17, 4)
    >>> round(r.test("mcnemar-exact").p_value, 4)
    0.0072
    """
    settings = _settings(confidence_level, n_resamples, seed)
    if a is not None and a == b:
        raise EvalbarsError(f"a and b must be different models, got {a!r} twice")
    wanted = [a, b] if a is not None and b is not None else None
    scores = _as_item_scores(data, data2, wanted, item=item, model=model, score=score,
                             score_type=score_type, intersect=intersect, cluster=cluster,
                             sample=sample, input_format=input_format, metric=metric,
                             scorer=scorer, qrels=qrels)
    a_name, b_name = _pick_pair(scores, a, b)
    prepared = _parts.prepare(scores, tuple(sorted((a_name, b_name))))
    bar = _progress_bar(progress, 3 * (2 if prepared.clusters is not None else 1),
                        settings.n_resamples)
    try:
        summaries = tuple(_parts.model_score(prepared, name, settings, bar)
                          for name in (a_name, b_name))
        difference = _parts.difference(prepared, a_name, b_name, settings, bar)
    finally:
        if bar is not None:
            bar.close()
    agreement = _parts.agreement(prepared, a_name, b_name)
    result = CompareResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=_warnings(prepared, summaries) + tuple(gap_warnings(difference, agreement)),
        provenance=_provenance(scores, settings),
        difference=difference, agreement=agreement,
        tests=_parts.tests(prepared, a_name, b_name, settings),
        equivalence=None if margin is None else _equivalence(prepared, a_name, b_name,
                                                             difference, margin, settings))
    return dataclasses.replace(result, statement=compare_statement(result.to_dict()))
