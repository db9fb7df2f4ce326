"""The Python entry points: :func:`ci` and :func:`compare`.

Each takes a path, a pandas DataFrame or a loaded :class:`~evalbars.io.item_scores.ItemScores`
and returns a result object whose ``to_dict()`` is the CLI's JSON document.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Sequence

from ..core.errors import EvalbarsError
from ..core.progress import bootstrap_bar
from ..core.types import Interval
from ..io.inputs import pair_names, pick_pair, read_scores, takes_load_options
from ..io.sequences import is_scores
from ..report.statement import ci_statement, compare_statement
from ..report.text.strata import strata_stated
from ..stats import intervals
from ..stats.tails import check_alternative, one_sided_ends, two_sided_level
from . import measures
from .caveats import gap_warnings
from .results import CIResult, CompareResult, Settings
from .settings import checked_settings, provenance

if TYPE_CHECKING:
    from ..stats.equivalence import Equivalence


@takes_load_options
def ci(
    data,
    data2=None,
    *,
    models: Sequence[str] | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    alternative: str = "two-sided",
    stratum: str | None = None,
    weights: object = "micro",
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
    alternative : {"two-sided", "greater", "less"}
        One-sided bounds instead of intervals: ``"greater"`` gives each score's lower
        bound ("at least", ``high`` +inf), ``"less"`` its upper bound, each the end of the
        ``2 confidence_level - 1`` two-sided interval; recorded as ``settings.alternative``.
    stratum : str, optional
        The column (log field) of each item's stratum (subject, task): adds the
        ``strata`` section, the weighted aggregate with its stratified standard error,
        intervals and stratified bootstrap, and each stratum's score (docs/strata.md).
    weights : "micro", "macro", path or mapping
        How the strata are weighted: by size (default), equally, or from a CSV file of
        ``stratum,weight`` rows (or a ``{stratum: weight}`` mapping).
    progress : bool
        Show a progress bar on stderr for long runs (only when stderr is a terminal).
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
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
    >>> r = evalbars.ci("examples/lesson_pair.csv", alternative="greater", n_resamples=2000)
    >>> round(r.model("model_a").interval("wilson").low, 3)
    0.698
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    alternative = check_alternative(alternative)
    level = two_sided_level(settings.confidence_level, alternative)
    settings = dataclasses.replace(settings, alternative=alternative)
    scores = read_scores(data, data2, models, stratum=stratum, **load_options)
    names = tuple(models) if models is not None else scores.models
    prepared = measures.prepare(scores, names)
    strata = _strata(scores, prepared, stratum, weights, settings, alternative=alternative)
    bar = bootstrap_bar(progress, 2 if prepared.clusters is not None else 1,
                        settings.n_resamples)
    try:
        found = measures.draws(prepared, settings, bar)
        summaries = tuple(measures.model_score(
            prepared, name, dataclasses.replace(settings, confidence_level=level), found)
            for name in names)
    finally:
        if bar is not None:
            bar.close()
    warnings = measures.score_warnings(prepared, summaries)
    if alternative != "two-sided":
        summaries = tuple(_one_sided(s, settings.confidence_level, alternative)
                          for s in summaries)
    result = CIResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=warnings + (() if strata is None else strata.warnings),
        provenance=provenance(scores, settings), strata=strata)
    return dataclasses.replace(result, statement=strata_stated(ci_statement, result.to_dict()))


def _strata(scores, prepared: measures.Prepared, stratum: str | None, weights: object,
            settings: Settings, **options):
    """The strata section (:func:`evalbars.analyses.strata.strata_section`), None without a
    stratum or weights; the strata modules are imported only when these ask for them."""
    if stratum is None and isinstance(weights, str) and weights == "micro":
        return None
    from .strata import strata_section

    return strata_section(scores, prepared, stratum, weights, settings, **options)


def _equivalence(prepared: measures.Prepared, a_name: str, b_name: str, difference,
                 margin: float, settings: Settings) -> Equivalence:
    """Non-inferiority and TOST: paired t, clustered (CR1 SE, G - 1 df) with clusters, or
    Newcombe's interval where it is the gap's headline (0/1, few discordant questions)."""
    from ..stats import equivalence  # with a margin only

    alpha = settings.alpha
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


def _one_sided(measured, level: float, alternative: str):
    """A gap's (or score's) intervals, computed at level ``2 L - 1``, as one-sided bounds
    at ``L``."""
    bounds = tuple(Interval(i.method, *one_sided_ends(i.low, i.high, alternative), level)
                   for i in measured.intervals)
    return dataclasses.replace(measured, intervals=bounds)


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
    alternative: str = "two-sided",
    stratum: str | None = None,
    weights: object = "micro",
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
    alternative : {"two-sided", "greater", "less"}
        The question: does B differ from A (default), is B better (``"greater"``: the gap
        ``b - a`` above 0), or worse (``"less"``)? One-sided, every test gives the p-value
        of that side and the gap's intervals are one-sided bounds at ``confidence_level``
        (for ``"greater"``: the gap is at least ``low``; ``high`` is +inf, null in JSON),
        each the end of the ``2 confidence_level - 1`` two-sided interval; the models' own
        intervals stay two-sided. Recorded as ``settings.alternative``. Not with ``margin``:
        non-inferiority is already one-sided.
    stratum, weights
        As for :func:`ci`; adds the gap paired within strata and the stratified tests.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.compare("examples/lesson_pair.csv", a="model_a", b="model_b")
    >>> round(r.difference.estimate, 3), r.agreement.b_only, r.agreement.a_only
    (0.026, 17, 4)
    >>> round(r.test("mcnemar-exact").p_value, 4)
    0.0072
    >>> one = evalbars.compare("examples/lesson_pair.csv", alternative="greater")
    >>> round(one.test("mcnemar-exact").p_value, 4), one.difference.intervals[0].high
    (0.0036, inf)
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    alternative = check_alternative(alternative)
    if alternative != "two-sided" and margin is not None:
        raise EvalbarsError(
            f"margin (--margin) and alternative={alternative!r} (--alternative) do not go "
            "together: the non-inferiority test of a margin is already one-sided; give one")
    level = two_sided_level(settings.confidence_level, alternative)
    settings = dataclasses.replace(settings, alternative=alternative)
    a, b = pair_names(models, a, b)
    if data2 is None and is_scores(data):
        raise EvalbarsError(
            "one list of scores is one model; compare takes two, in the same question order: "
            "evalbars.compare(scores_a, scores_b) (evalbars.ci(scores) gives one model's "
            "error bars)")
    if a is not None and a == b:
        raise EvalbarsError(f"a and b must be different models, got {a!r} twice")
    wanted = [a, b] if a is not None and b is not None else None
    named_by = {"a": a, "b": b} if models is None else {"models": models}
    scores = read_scores(data, data2, wanted, named_by=named_by, stratum=stratum,
                         **load_options)
    a_name, b_name = pick_pair(scores, a, b)
    prepared = measures.prepare(scores, tuple(sorted((a_name, b_name))))
    strata = _strata(scores, prepared, stratum, weights, settings, pair=(a_name, b_name),
                     alternative=alternative)
    bar = bootstrap_bar(progress, 2 if prepared.clusters is not None else 1,
                        settings.n_resamples)
    try:
        found = measures.draws(prepared, settings, bar)
        # The tests first: their sign matrix runs (numpy, the GIL released) while a big
        # plan's counting kernel loads in the background; the order changes no number.
        tests = measures.paired_tests(prepared, a_name, b_name, found, alternative)
        summaries = tuple(measures.model_score(prepared, name, settings, found)
                          for name in (a_name, b_name))
        difference = measures.difference(prepared, a_name, b_name,
                                         dataclasses.replace(settings, confidence_level=level),
                                         found)
    finally:
        if bar is not None:
            bar.close()
    if alternative != "two-sided":
        difference = _one_sided(difference, settings.confidence_level, alternative)
    agreement = measures.agreement(prepared, a_name, b_name)
    result = CompareResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=measures.score_warnings(prepared, summaries)
        + tuple(gap_warnings(difference, agreement))
        + (() if strata is None else strata.warnings),
        provenance=provenance(scores, settings),
        difference=difference, agreement=agreement,
        tests=tests,
        equivalence=None if margin is None else _equivalence(prepared, a_name, b_name,
                                                             difference, margin, settings),
        strata=strata)
    return dataclasses.replace(result, statement=strata_stated(compare_statement,
                                                               result.to_dict()))
