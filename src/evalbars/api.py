"""The Python entry points: :func:`ci` and :func:`compare`.

Each takes a path, a pandas DataFrame or a loaded :class:`~evalbars.ingest.ItemScores`
and returns a result object whose ``to_dict()`` is the CLI's JSON document.
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Callable, Sequence

import numpy as np

from . import __version__, _progress, bootstrap, equivalence, intervals, significance
from ._errors import EvalbarsError
from ._seeding import check_seed, child_seed
from ._types import Interval, TestResult
from .ingest import ItemScores, load
from .results import Agreement, CIResult, CompareResult, Difference, ModelScore, Settings
from .statement import ci_statement, compare_statement
from .caveats import interval_warnings

BINARY_MODEL_METHODS = ("wilson", "wald", "clt", "clopper-pearson", "agresti-coull", "jeffreys",
                        "t", "bootstrap-percentile", "bootstrap-bca")
CONTINUOUS_MODEL_METHODS = ("t", "clt", "bootstrap-percentile", "bootstrap-bca")
BINARY_DIFFERENCE_METHODS = ("paired-bootstrap-percentile", "paired-wald", "paired-t",
                             "newcombe", "unpaired-wald")
CONTINUOUS_DIFFERENCE_METHODS = ("paired-bootstrap-percentile", "paired-wald", "paired-t",
                                 "unpaired-wald")
BINARY_TESTS = ("mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip", "paired-t")
CONTINUOUS_TESTS = ("sign-flip", "sign", "paired-t", "wilcoxon")
"""Methods and tests computed, in report order; the first of each is the headline."""

Progress = Callable[[int], None]


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
    digest = hashlib.sha256(np.ascontiguousarray(scores.scores).tobytes())
    digest.update("\x00".join(scores.items).encode("utf-8"))
    source = {key: value for key, value in scores.source.items() if key != "inputs"}
    return {
        "version": __version__,
        "seed": settings.seed,
        "inputs": scores.source.get("inputs", []),
        "source": {**source, "description": scores.describe()},
        "data_sha256": digest.hexdigest(),
    }


def _canonical(columns: list[np.ndarray]) -> list[np.ndarray]:
    """The columns with items in a canonical order (sorted by their values).

    Statistics depend only on the multiset of item rows; computing them in one fixed
    order makes every float bit-identical whatever the row order or the item ids.
    """
    matrix = np.column_stack(columns)
    matrix = matrix[np.lexsort(matrix.T[::-1])]
    return [matrix[:, j].copy() for j in range(matrix.shape[1])]


def _model_score(
    name: str, x: np.ndarray, score_type: str, settings: Settings, progress: Progress | None
) -> ModelScore:
    """Every interval for one model; its bootstrap stream is keyed by the model's name."""
    level = settings.confidence_level
    methods = BINARY_MODEL_METHODS if score_type == "binary" else CONTINUOUS_MODEL_METHODS
    replicates = bootstrap.bootstrap_means(
        x, n_resamples=settings.n_resamples, seed=child_seed(settings.seed, f"model:{name}"),
        progress=progress)[:, 0]
    computed = []
    for method in methods:
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
    return ModelScore(name, int(x.size), float(x.mean()), tuple(computed))


def _difference(a_name: str, b_name: str, a: np.ndarray, b: np.ndarray, score_type: str,
                settings: Settings, progress: Progress | None) -> Difference:
    """The paired gap mean(b - a); the bootstrap stream depends on the pair, not its order."""
    level = settings.confidence_level
    # Resample the per-item differences, in a form that does not depend on which model
    # is called a: the stream is keyed by the sorted pair, and d is taken as
    # (later name) - (earlier name), then negated back if needed.
    sign = 1.0 if a_name <= b_name else -1.0
    gaps = sign * bootstrap.bootstrap_means(
        sign * (b - a), n_resamples=settings.n_resamples,
        seed=child_seed(settings.seed, "paired:" + "\x00".join(sorted((a_name, b_name)))),
        progress=progress)[:, 0]
    methods = BINARY_DIFFERENCE_METHODS if score_type == "binary" \
        else CONTINUOUS_DIFFERENCE_METHODS
    computed: list[Interval] = []
    for method in methods:
        if method == "paired-bootstrap-percentile":
            computed.append(bootstrap.percentile_interval(
                gaps, method=method, confidence_level=level))
        else:
            computed.append(intervals.paired_interval(a, b, method=method,
                                                      confidence_level=level))
    by_name = {interval.method: interval for interval in computed}
    paired_width = by_name["paired-wald"].high - by_name["paired-wald"].low
    unpaired_width = by_name["unpaired-wald"].high - by_name["unpaired-wald"].low
    ratio = unpaired_width / paired_width if paired_width > 0 else float("inf")
    d = b - a
    sd = float(np.std(d, ddof=1)) if d.size > 1 else float("nan")
    return Difference(a_name, b_name, float(np.mean(d)), tuple(computed), sd, float(ratio))


def _agreement(a: np.ndarray, b: np.ndarray, score_type: str) -> Agreement:
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = float(np.corrcoef(a, b)[0, 1]) if a.size > 1 else float("nan")
    if score_type == "binary":
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


def _tests(a_name: str, b_name: str, a: np.ndarray, b: np.ndarray, score_type: str,
           settings: Settings) -> tuple[TestResult, ...]:
    names = BINARY_TESTS if score_type == "binary" else CONTINUOUS_TESTS
    seed = child_seed(settings.seed, "sign-flip:" + "\x00".join(sorted((a_name, b_name))))
    return tuple(
        significance.paired_test(a, b, name=name, n_resamples=settings.n_resamples, seed=seed)
        for name in names)


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
                             score_type=score_type, intersect=intersect)
    names = tuple(models) if models is not None else scores.models
    bar = _progress_bar(progress, len(names), settings.n_resamples)
    try:
        summaries = tuple(
            _model_score(name, _canonical([scores.column(name)])[0], scores.score_type,
                         settings, bar)
            for name in names)
    finally:
        if bar is not None:
            bar.close()
    result = CIResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=tuple(w for m in summaries for w in interval_warnings(m, scores.score_type)),
        provenance=_provenance(scores, settings))
    return dataclasses.replace(result, statement=ci_statement(result.to_dict()))


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
                             score_type=score_type, intersect=intersect)
    a_name, b_name = _pick_pair(scores, a, b)
    if a_name <= b_name:
        x_a, x_b = _canonical([scores.column(a_name), scores.column(b_name)])
    else:
        x_b, x_a = _canonical([scores.column(b_name), scores.column(a_name)])
    bar = _progress_bar(progress, 3, settings.n_resamples)
    try:
        summaries = tuple(
            _model_score(name, x, scores.score_type, settings, bar)
            for name, x in ((a_name, x_a), (b_name, x_b)))
        difference = _difference(a_name, b_name, x_a, x_b, scores.score_type, settings, bar)
    finally:
        if bar is not None:
            bar.close()
    agreement = _agreement(x_a, x_b, scores.score_type)
    tests = _tests(a_name, b_name, x_a, x_b, scores.score_type, settings)
    result = CompareResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        models=summaries, statement="", dropped=scores.dropped,
        warnings=tuple(w for m in summaries for w in interval_warnings(m, scores.score_type)),
        provenance=_provenance(scores, settings),
        difference=difference, agreement=agreement, tests=tests,
        equivalence=None if margin is None else equivalence.paired_equivalence(
            x_a, x_b, margin=margin, alpha=1.0 - settings.confidence_level))
    return dataclasses.replace(result, statement=compare_statement(result.to_dict()))
