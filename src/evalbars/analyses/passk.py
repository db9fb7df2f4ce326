"""pass@k (and pass^k) of each model with intervals over questions, and the paired gap.

Each question's pass@k is the unbiased estimate of :func:`evalbars.stats.pass_at_k.pass_at_k`
from its sampled answers, and with ``pass_hat_k=True`` its pass^k (all k tries pass) that of
:func:`evalbars.stats.pass_at_k.pass_hat_k`. Intervals resample problems (or whole clusters of
problems), each carrying all its answers, never individual answers (the question is the sampled unit:
Miller 2024, arXiv:2411.00640).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.errors import EvalbarsError
from ..core.records import Record
from ..core.seeding import child_seed
from ..io.inputs import pick_pair, read_scores, takes_load_options
from ..io.table import short
from ..report.notebook import NotebookMixin
from ..report.text.passk import statement
from ..stats.bootstrap import bootstrap_means, percentile_interval
from ..stats.pass_at_k import (
    SHORTCUT,
    SHORTCUT_HAT,
    pass_at_k_unchecked,
    pass_hat_k_unchecked,
    shortcut,
    shortcut_hat,
    whole_numbers,
)
from .caveats import passk_warnings
from .results import Settings
from .settings import checked_settings, provenance

DEFAULT_K = (1, 5, 10)
METHODS = {"questions": "bootstrap-percentile", "clusters": "cluster-bootstrap-percentile"}
"""Interval method by resampled unit."""

_LISTED = 5
"""Questions named in an error message before 'and N more'."""


@dataclass(frozen=True, slots=True)
class PassAtK(Record):
    """One model's pass@k (or pass^k) over questions, its interval, and the biased shortcut."""

    k: int
    estimate: float
    low: float
    high: float
    shortcut: float


@dataclass(frozen=True, slots=True)
class ModelPassK:
    """pass@k of one model for every k, with the answers per question (min, max), and
    pass^k when asked for (``pass_hat_k``, else None)."""

    name: str
    n_items: int
    answers_min: int
    answers_max: int
    pass_at_k: tuple[PassAtK, ...]
    pass_hat_k: tuple[PassAtK, ...] | None = None

    def at(self, k: int) -> PassAtK:
        """The :class:`PassAtK` for this ``k``."""
        for row in self.pass_at_k:
            if row.k == k:
                return row
        raise KeyError(f"no pass@{k}; have k = {[row.k for row in self.pass_at_k]}")

    def hat(self, k: int) -> PassAtK:
        """The pass^k :class:`PassAtK` for this ``k`` (the result needs ``pass_hat_k=True``)."""
        for row in self.pass_hat_k or ():
            if row.k == k:
                return row
        raise KeyError(f"no pass^{k}; have k = {[row.k for row in self.pass_hat_k or ()]}")

    def to_dict(self) -> dict:
        out = {"name": self.name, "n_items": self.n_items,
               "answers": {"min": self.answers_min, "max": self.answers_max},
               "pass_at_k": [row.to_dict() for row in self.pass_at_k]}
        if self.pass_hat_k is not None:
            out["pass_hat_k"] = [row.to_dict() for row in self.pass_hat_k]
        return out


@dataclass(frozen=True, slots=True)
class GapAtK(Record):
    """The paired gap pass@k(b) - pass@k(a) and its interval."""

    k: int
    estimate: float
    low: float
    high: float



@dataclass(frozen=True, slots=True, repr=False)
class PassKResult(NotebookMixin):
    """pass@k of each model and, for a pair, the paired gap (``evalbars passk``).

    ``resample`` is ``"questions"`` or ``"clusters"`` (with ``n_clusters``); ``a`` and
    ``b`` name the pair when ``difference`` is set; ``dropped`` counts, per model, the
    questions ``intersect=True`` dropped (None without it); ``difference_pass_hat_k`` is the
    pair's pass^k gap (with ``pass_hat_k=True``).
    """

    settings: Settings
    k: tuple[int, ...]
    resample: str
    n_clusters: int | None
    models: tuple[ModelPassK, ...]
    a: str | None
    b: str | None
    difference: tuple[GapAtK, ...] | None
    dropped: dict | None
    statement: str
    warnings: tuple[str, ...]
    provenance: dict
    difference_pass_hat_k: tuple[GapAtK, ...] | None = None

    def model(self, name: str) -> ModelPassK:
        """The :class:`ModelPassK` of the model called ``name``."""
        for model in self.models:
            if model.name == name:
                return model
        raise KeyError(f"no model {name!r}; have {[m.name for m in self.models]}")

    def to_dict(self) -> dict:
        settings = {**self.settings.to_dict(), "k": list(self.k),
                    "method": METHODS[self.resample],
                    "resample": self.resample, "shortcut": SHORTCUT}
        if self.n_clusters is not None:
            settings["n_clusters"] = self.n_clusters
        if self.models and self.models[0].pass_hat_k is not None:
            settings["shortcut_pass_hat_k"] = SHORTCUT_HAT
        out = {"schema_version": SCHEMA_VERSION, "kind": "passk", "settings": settings,
               "models": [model.to_dict() for model in self.models]}
        if self.dropped is not None:
            out["dropped"] = dict(self.dropped)
        if self.difference is not None:
            out.update(a=self.a, b=self.b, difference=[gap.to_dict() for gap in self.difference])
        if self.difference_pass_hat_k is not None:
            out["difference_pass_hat_k"] = [gap.to_dict() for gap in self.difference_pass_hat_k]
        out.update(statement=self.statement, warnings=list(self.warnings),
                   provenance=self.provenance)
        return json_safe(out)


def _check_k(k) -> tuple[int, ...]:
    values = np.atleast_1d(whole_numbers(k, "k (tries)", 1))
    if values.ndim != 1 or values.size == 0:
        raise EvalbarsError(f"k must be a positive integer or a list of them; got {k!r}")
    return tuple(sorted({int(v) for v in values}))


def _per_question(name: str, items: Sequence[str], counts: np.ndarray, passed: np.ndarray,
                  ks: tuple[int, ...], estimator=pass_at_k_unchecked) -> np.ndarray:
    """(n_items, len(ks)) pass@k (or ``estimator``) of every question; an error names
    questions with n < k."""
    few = np.flatnonzero(counts < ks[-1])
    if few.size:
        listed = ", ".join(f"{short(items[i])} ({counts[i]} answer{'' if counts[i] == 1 else 's'})"
                           for i in few[:_LISTED])
        more = f" and {few.size - _LISTED} more" if few.size > _LISTED else ""
        raise EvalbarsError(
            f"pass@{ks[-1]} needs at least {ks[-1]} answers per question, but model {name!r} "
            f"has fewer on {few.size} question(s): {listed}{more}; lower k or sample more "
            "answers")
    return np.column_stack([estimator(counts, passed, k) for k in ks])


def _replicates(x: np.ndarray, clusters, n_resamples: int, seed) -> np.ndarray:
    """Bootstrap means of the columns of x: over questions, or whole clusters."""
    if clusters is None:
        return bootstrap_means(x, n_resamples=n_resamples, seed=seed)
    from ..stats.cluster_resampling import cluster_bootstrap_means

    return cluster_bootstrap_means(x, clusters, n_resamples=n_resamples, seed=seed)


def _means(x: np.ndarray) -> np.ndarray:
    """Column means over rows in value order: bit-identical whatever the row order or ids."""
    return x[np.lexsort(x.T[::-1])].mean(axis=0)


def _ends(replicates: np.ndarray, level: float) -> list[tuple[float, float]]:
    out = []
    for column in replicates.T:
        interval = percentile_interval(column, method="percentile", confidence_level=level)
        out.append((interval.low, interval.high))
    return out


def _rows(name, x, counts, passed, ks, clusters, settings, plug_in) -> tuple[PassAtK, ...]:
    """Every k's estimate and interval; pass@k and pass^k share the model's resamples."""
    replicates = _replicates(x, clusters, settings.n_resamples,
                             child_seed(settings.seed, f"passk:{name}"))
    ends = _ends(replicates, settings.confidence_level)
    means = _means(x)
    return tuple(PassAtK(k, float(m), low, high, float(np.mean(plug_in(counts, passed, k))))
                 for k, m, (low, high) in zip(ks, means, ends))


def _model(name, x, hat, counts, passed, ks, clusters, settings) -> ModelPassK:
    rows = _rows(name, x, counts, passed, ks, clusters, settings, shortcut)
    hats = None if hat is None else \
        _rows(name, hat, counts, passed, ks, clusters, settings, shortcut_hat)
    return ModelPassK(name, int(x.shape[0]), int(counts.min()), int(counts.max()), rows, hats)


def _difference(a: str, b: str, x_a, x_b, ks, clusters, settings) -> tuple[GapAtK, ...]:
    """Paired: one resample of questions serves both models (the per-question gaps).

    Computed for the pair in name order and negated back when b sorts first, so swapping
    a and b gives exactly the negated gap and interval.
    """
    seed = child_seed(settings.seed, "passk-paired:" + "\x00".join(sorted((a, b))))
    d = x_b - x_a if a <= b else x_a - x_b
    ends = _ends(_replicates(d, clusters, settings.n_resamples, seed), settings.confidence_level)
    means = _means(d)
    if a <= b:
        return tuple(GapAtK(k, float(m), low, high) for k, m, (low, high) in zip(ks, means, ends))
    return tuple(GapAtK(k, 0.0 - float(m), 0.0 - high, 0.0 - low)  # 0.0 - x: never -0.0
                 for k, m, (low, high) in zip(ks, means, ends))


def _warnings(n_units: int, resample: str, ks: tuple[int, ...], exhausted: int,
              hat: bool) -> tuple[str, ...]:
    found = passk_warnings(n_units, resample, ks)
    if exhausted:
        uses = f"pass@{ks[-1]} and pass^{ks[-1]} use" if hat else f"pass@{ks[-1]} uses"
        found.append(f"{uses} every answer of {exhausted} question(s) (n = k): the "
                     "estimate is unbiased but as noisy as sampling exactly k answers; sample "
                     "several times k answers per question (Chen et al. used n = 200 for k up "
                     "to 100) for tighter intervals")
    return tuple(found)


@takes_load_options
def passk(
    data,
    data2=None,
    *,
    k=DEFAULT_K,
    models: Sequence[str] | None = None,
    a: str | None = None,
    b: str | None = None,
    pass_hat_k: bool = False,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    **load_options,
) -> PassKResult:
    """pass@k of each model with bootstrap intervals, and the paired gap of a pair.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Sampled answers, one row per answer (``sample`` names the column telling them
        apart), or harness logs. Answers must be 0/1 (fail/pass).
    k : int or sequence of int
        Tries; every question needs at least ``max(k)`` answers.
    models : sequence of str, optional
        Models to report (default: all). Not with ``a``/``b``.
    a, b : str, optional
        A pair: both are reported, with the paired gap ``b - a`` for each k. With neither
        given and exactly two models, the gap is of the second against the first.
    pass_hat_k : bool
        Also report pass^k, the chance that all k tries pass (tau-bench's reliability
        metric), beside pass@k: per question ``C(c, k) / C(n, k)``, with the same
        intervals (the same resamples) and the paired gap.
    confidence_level, n_resamples, seed
        Interval level, bootstrap resamples, and the seed (recorded). Model m draws from
        the stream ``passk:m``, the pair from ``passk-paired:`` plus both names sorted.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`.

    Returns
    -------
    PassKResult

    Notes
    -----
    Each question's pass@k is :func:`~evalbars.stats.pass_at_k.pass_at_k` of its answers; the model's pass@k is the
    mean over questions. Intervals are percentile bootstrap intervals over questions
    (:func:`evalbars.stats.bootstrap.bootstrap_means`), or over whole clusters when a cluster
    column is given; the gap resamples the per-question differences, so one resample of
    questions serves both models. pass^k uses the resamples of pass@k.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.passk("examples/passk_samples.csv", sample="sample", k=(1, 5),
    ...                    n_resamples=2000)
    >>> [round(row.estimate, 3) for row in r.model("large").pass_at_k]
    [0.35, 0.735]
    >>> r.a, r.b, [round(gap.estimate, 3) for gap in r.difference]
    ('small', 'large', [0.106, 0.157])
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    ks = _check_k(k)
    if not isinstance(pass_hat_k, bool):
        raise EvalbarsError(f"pass_hat_k must be True or False; got {pass_hat_k!r}")
    if models is not None and (a is not None or b is not None):
        raise EvalbarsError("give models= (--models) or a pair a=/b= (--a/--b), not both")
    if a is not None and a == b:
        raise EvalbarsError(f"a and b must be different models, got {a!r} twice")
    wanted = [a, b] if a is not None and b is not None else models
    named_by = {"models": models} if models is not None else {"a": a, "b": b}
    scores = read_scores(data, data2, wanted, named_by=named_by, **load_options)
    if scores.score_type != "binary":
        raise EvalbarsError(f"pass@k needs 0/1 answers (1 = passes); the scores were read as "
                            f"{scores.score_type} (values other than 0 and 1)")
    names = pick_pair(scores, a, b) if a is not None or b is not None \
        else tuple(models or scores.models)
    pair = names if len(names) == 2 else None
    clusters = scores.clusters
    per_model, hats, results, exhausted = {}, {}, [], 0
    for name in names:
        j = scores.models.index(name)
        counts = np.asarray(scores.counts[:, j], dtype=np.int64)
        passed = np.rint(scores.scores[:, j] * counts).astype(np.int64)
        per_model[name] = _per_question(name, scores.items, counts, passed, ks)
        hats[name] = _per_question(name, scores.items, counts, passed, ks,
                                   pass_hat_k_unchecked) if pass_hat_k else None
        exhausted = max(exhausted, int(np.count_nonzero(counts == ks[-1])))
        results.append(_model(name, per_model[name], hats[name], counts, passed, ks, clusters,
                              settings))
    difference = difference_hat = None
    if pair is not None:
        difference = _difference(pair[0], pair[1], per_model[pair[0]], per_model[pair[1]], ks,
                                 clusters, settings)
        if pass_hat_k:
            difference_hat = _difference(pair[0], pair[1], hats[pair[0]], hats[pair[1]], ks,
                                         clusters, settings)
    n_clusters = None if clusters is None else len(set(clusters))
    resample = "questions" if clusters is None else "clusters"
    result = PassKResult(
        settings=settings, k=ks, resample=resample, n_clusters=n_clusters,
        models=tuple(results), a=pair[0] if pair else None, b=pair[1] if pair else None,
        difference=difference, dropped=scores.dropped, statement="",
        warnings=_warnings(len(scores.items) if clusters is None else n_clusters, resample,
                           ks, exhausted, pass_hat_k),
        provenance=provenance(scores, settings), difference_pass_hat_k=difference_hat)
    return dataclasses.replace(result, statement=statement(result.to_dict()))
