"""The Python entry points: :func:`ci` and :func:`compare`.

Each takes a path, a pandas DataFrame or a loaded :class:`~evalbars.io.item_scores.ItemScores`
and returns a result object whose ``to_dict()`` is the CLI's JSON document.
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

from ..core.errors import EvalbarsError
from ..core.progress import bootstrap_bar
from ..io.inputs import pair_names, pick_pair, read_scores, takes_load_options
from ..io.sequences import is_scores
from ..report.statement import ci_statement, compare_statement
from ..stats import equivalence, intervals
from . import measures
from .caveats import gap_warnings
from .results import CIResult, CompareResult, Settings
from .settings import checked_settings, provenance


@takes_load_options
def ci(
    data,
    data2=None,
    *,
    models: Sequence[str] | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    progress: bool = False,
    **load_options,
) -> CIResult:
    """Every model's mean score with every interval that fits its score type.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Per-item results or harness logs (layouts: :func:`evalbars.load`, docs/logs.md).
    models : list of str, optional
        Which models to report (default: all).
    confidence_level, n_resamples, seed
        Interval level, bootstrap resamples, and the seed (recorded in the result).
    progress : bool
        Show a progress bar on stderr for long runs (only when stderr is a terminal).
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    scorer, qrels
        How to read ``data``, see :func:`evalbars.load`. A ``cluster`` column adds
        clustered standard errors, cluster bootstrap intervals and the design effect; a
        ``sample`` column makes scores per-question averages and splits the variance into
        question noise and sampling noise.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.ci("examples/lesson_pair.csv", n_resamples=2000)
    >>> m = r.model("model_a")
    >>> round(m.mean, 3), [round(v, 3) for v in (m.interval("clt").low, m.interval("clt").high)]
    (0.732, [0.693, 0.771])
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    scores = read_scores(data, data2, models, **load_options)
    names = tuple(models) if models is not None else scores.models
    prepared = measures.prepare(scores, names)
    bar = bootstrap_bar(progress, len(names) * (2 if prepared.clusters is not None else 1),
                        settings.n_resamples)
    try:
        summaries = tuple(measures.model_score(prepared, name, settings, bar) for name in names)
    finally:
        if bar is not None:
            bar.close()
    result = CIResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=measures.score_warnings(prepared, summaries),
        provenance=provenance(scores, settings))
    return dataclasses.replace(result, statement=ci_statement(result.to_dict()))


def _equivalence(prepared: measures.Prepared, a_name: str, b_name: str, difference,
                 margin: float, settings: Settings) -> equivalence.Equivalence:
    """Non-inferiority and TOST: paired t, clustered (CR1 SE, G - 1 df) with clusters, or
    Newcombe's interval where it is the gap's headline (0/1, few discordant questions)."""
    alpha = float(f"{1.0 - settings.confidence_level:.12g}")  # 0.05, not 0.050000000000000044
    a, b = prepared.column(a_name), prepared.column(b_name)
    if difference.intervals[0].method == "newcombe":
        def newcombe(level: float) -> tuple[float, float]:
            found = intervals.paired_interval(a, b, method="newcombe", confidence_level=level)
            return found.low, found.high

        # No n_needed: the t formula behind it understates n with so few discordant pairs.
        return equivalence.interval_equivalence(
            newcombe, difference.estimate, margin=margin, alpha=alpha, method="newcombe")
    if difference.clustered is None:
        return equivalence.paired_equivalence(a, b, margin=margin, alpha=alpha)
    c = difference.clustered
    return equivalence.equivalence(c.estimate, c.se, c.n_clusters - 1, margin=margin,
                                   alpha=alpha, sd=c.se * c.n ** 0.5, n_items=c.n,
                                   method="cluster-cr1")


@takes_load_options
def compare(
    data,
    data2=None,
    *,
    a: str | None = None,
    b: str | None = None,
    models: Sequence[str] | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    margin: float | None = None,
    progress: bool = False,
    **load_options,
) -> CompareResult:
    """Paired comparison of model ``b`` against model ``a`` on the same items.

    Each model's score with its intervals, the gap ``mean(b - a)`` with paired
    intervals (and the unpaired one for contrast), item-level agreement, every paired
    test, and a result statement. See docs/json.md for every field.

    With ``margin`` M (in score units: 0.01 is 1 point for 0/1 scores), also the paired
    non-inferiority and TOST equivalence tests of the gap within M, each at level
    1 - confidence_level, decided from the (2 confidence_level - 1) interval (90% for
    the default 95%), and a statement that words the decision.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        As for :func:`ci`.
    a, b : str, optional
        The baseline and the compared model (default: the data's two models). With two
        inputs (``data``, ``data2``) they name them, as ``--models A B``; two inputs with
        no file name (DataFrames, lists of scores) are otherwise called ``a`` and ``b``.
    models : [a, b], optional
        The same as ``a=``, ``b=``.
    confidence_level, n_resamples, seed, progress
        As for :func:`ci`.
    margin : float, optional
        Test non-inferiority and equivalence of the gap within this margin.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    scorer, qrels
        How to read ``data``, see :func:`evalbars.load`.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.compare("examples/lesson_pair.csv", a="model_a", b="model_b")
    >>> round(r.difference.estimate, 3), r.agreement.b_only, r.agreement.a_only
    (0.026, 17, 4)
    >>> round(r.test("mcnemar-exact").p_value, 4)
    0.0072
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    a, b = pair_names(models, a, b)
    if data2 is None and is_scores(data):
        raise EvalbarsError(
            "one list of scores is one model; compare takes two, in the same question order: "
            "evalbars.compare(scores_a, scores_b) (evalbars.ci(scores) gives one model's "
            "error bars)")
    if a is not None and a == b:
        raise EvalbarsError(f"a and b must be different models, got {a!r} twice")
    wanted = [a, b] if a is not None and b is not None else None
    scores = read_scores(data, data2, wanted, **load_options)
    a_name, b_name = pick_pair(scores, a, b)
    prepared = measures.prepare(scores, tuple(sorted((a_name, b_name))))
    bar = bootstrap_bar(progress, 3 * (2 if prepared.clusters is not None else 1),
                        settings.n_resamples)
    try:
        summaries = tuple(measures.model_score(prepared, name, settings, bar)
                          for name in (a_name, b_name))
        difference = measures.difference(prepared, a_name, b_name, settings, bar)
    finally:
        if bar is not None:
            bar.close()
    agreement = measures.agreement(prepared, a_name, b_name)
    result = CompareResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=measures.score_warnings(prepared, summaries)
        + tuple(gap_warnings(difference, agreement)),
        provenance=provenance(scores, settings),
        difference=difference, agreement=agreement,
        tests=measures.tests(prepared, a_name, b_name, settings),
        equivalence=None if margin is None else _equivalence(prepared, a_name, b_name,
                                                             difference, margin, settings))
    return dataclasses.replace(result, statement=compare_statement(result.to_dict()))
