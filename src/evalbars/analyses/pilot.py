"""Planning inputs estimated from pilot results: disagreement, baseline, variances, ICC."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.document import json_safe
from ..core.errors import EvalbarsError
from ..io.inputs import pick_pair, read_scores, takes_load_options
from ..report import format as fmt
from ..stats.clustering import clustered_se
from ..stats.samples import variance_split


def icc(values, clusters) -> float:
    """One-way ANOVA estimate of the intraclass correlation of ``values`` within clusters.

    Parameters
    ----------
    values : array_like
        One score per question (for a paired design, the difference ``b - a``).
    clusters : array_like
        The cluster label of each question (document, topic, session).

    Notes
    -----
    With k clusters of sizes n_j (N in all), MSB and MSW the between- and within-cluster
    mean squares and ``m0 = (N - sum(n_j**2) / N) / (k - 1)``::

        ICC = (MSB - MSW) / (MSB + (m0 - 1) MSW)

    It can be negative (clusters less alike than random questions). Computed by
    :func:`evalbars.stats.clustering.clustered_se`, the estimator behind the ICC of clustered
    error bars; validated against ``scipy.stats.f_oneway``: ``ICC = (F - 1) / (F + m0 - 1)``.

    Examples
    --------
    >>> round(icc([1, 1, 0, 0, 1, 0], ["x", "x", "y", "y", "z", "z"]), 3)
    0.5
    """
    x = np.asarray(values, dtype=float)
    labels = np.asarray(clusters)
    if x.ndim != 1 or labels.shape != x.shape:
        raise EvalbarsError(f"values and clusters must be 1-D and of equal length; got shapes "
                            f"{x.shape} and {labels.shape}")
    k, total = np.unique(labels).size, x.size
    if k < 2 or total <= k:
        raise EvalbarsError(f"icc needs at least 2 clusters and a cluster with 2 or more "
                            f"questions; got {k} clusters of {total} questions")
    bad = np.flatnonzero(~np.isfinite(x))
    if bad.size:
        raise EvalbarsError(f"values must be finite numbers; got {x[bad[0]]} at index {bad[0]}")
    rho = clustered_se(x, labels).icc
    if math.isnan(rho):  # with 2+ clusters and a cluster of 2+, only when nothing varies
        raise EvalbarsError("icc is undefined: every value is the same")
    return rho


@dataclass(frozen=True, slots=True)
class Pilot:
    """Planning inputs estimated from a pilot results file (:func:`from_pilot`).

    ``baseline`` is model A's mean score; ``variance`` the mean of the two models'
    per-question variances (ddof=1); for a pair, ``disagreement`` (0/1 scores: share of
    questions the models differ on, with ``a_only``/``b_only`` counts) or ``variance_d``
    (continuous: variance of ``b - a``, ddof=1). With clusters, ``icc`` (of the
    per-question differences for a pair, of model A's scores for one model; it can be
    negative), ``cluster_size`` (questions per cluster, on average) and for a pair
    ``score_icc`` (the models' own ICCs weighted by their variances: what clusters do to
    an unpaired comparison); None otherwise.
    With several sampled answers per question, ``between_variance`` (question noise,
    from :func:`evalbars.stats.samples.variance_split`, averaged over the models) and
    ``answers`` (answers per question, on average); the scores are then per-question
    averages, so a pair is described by ``variance_d`` at the pilot's answers.
    """

    n_items: int
    score_type: str
    a: str
    b: str | None
    baseline: float
    variance: float
    disagreement: float | None
    variance_d: float | None
    a_only: int | None
    b_only: int | None
    source: dict
    icc: float | None = None
    cluster_size: float | None = None
    between_variance: float | None = None
    answers: float | None = None
    score_icc: float | None = None

    def _fill(self, design: str, given: dict) -> dict:
        """``given`` with the pilot's estimates for the design filled in."""
        paired = design == "paired" or (design == "clustered" and self.b is not None)
        binary = self.score_type == "binary"
        if paired and self.b is None:
            raise EvalbarsError(f"a paired design needs two models; the pilot has one, "
                                f"{self.a!r}")
        if design != "clustered" and self.icc is not None:
            raise EvalbarsError(self._unplanned_clusters(design, given))
        if design == "clustered" and self.b is None and not binary:
            raise EvalbarsError(self._one_model_clustered())
        if design == "clustered" and self.icc is None and given["icc"] is None \
                and given["design_effect"] is None:
            raise EvalbarsError("the clustered design needs the clustering, and the pilot was "
                                "read without clusters: read it with cluster= (--cluster COL) "
                                "to estimate icc and cluster_size, or give design_effect "
                                "(--design-effect), or icc with cluster_size (--icc, "
                                "--cluster-size)")
        if paired and binary and self.disagreement == 0:
            raise EvalbarsError(f"the pilot's models agree on all {self.n_items} questions, so it "
                                f"says nothing about the disagreement rate; give disagreement")
        key, value = ("disagreement", self.disagreement) if paired and binary \
            and self.disagreement is not None else \
            ("variance", self.variance_d) if paired else \
            ("baseline", self.baseline) if binary else ("variance", self.variance)
        filled = {key: value}
        if design == "clustered" and self.icc is not None:
            if given["design_effect"] is not None:
                raise EvalbarsError("design_effect was given and the clustered pilot estimates "
                                    "icc; give one (or load the pilot without clusters)")
            filled["icc"] = max(self.icc, 0.0)
            if given["cluster_size"] is None:  # a design choice: plan other sizes at will
                filled["cluster_size"] = self.cluster_size
        if self.between_variance is not None and given.get("samples") is not None:
            filled["between_variance"] = self.between_variance
        for name in filled:
            if given[name] is not None:
                raise EvalbarsError(f"{name} was given and is also estimated from the pilot; "
                                    f"give one")
        return {**given, **filled}

    def _one_model_clustered(self) -> str:
        """Why one model's continuous scores cannot plan the clustered design, and the fix."""
        text = (f"the clustered design plans continuous scores as pairs, from the variance of "
                f"per-question differences, and a one-model pilot ({self.a!r}) gives only the "
                f"variance of its own scores, {fmt.general(self.variance)}; give a pilot of "
                f"both models")
        if self.icc is None:
            return text + (", or plan design='unpaired' (--design unpaired) with that variance "
                           "times the design effect")
        effect = 1 + (self.cluster_size - 1) * max(self.icc, 0.0)
        plan = {"design": "unpaired", "variance": self.variance * effect}
        return (text + f", or plan with that variance times the design effect "
                f"{fmt.general(effect)} (ICC {fmt.general(self.icc)}, about "
                f"{self.cluster_size:g} questions per cluster): {_spelled(plan)}")

    def _unplanned_clusters(self, design: str, given: dict) -> str:
        """Why a clustered pilot cannot plan a design that ignores clusters, and the fix."""
        paired = design == "paired"
        rho = self.icc if paired or self.b is None else self.score_icc
        of = (f"of {_differences(self.b, self.a)}" if paired else
              f"of model {self.a!r}" if self.b is None else "of the models' own scores")
        m, planned = self.cluster_size, max(rho, 0.0)
        effect = 1 + (m - 1) * planned
        text = (f"the pilot's questions are clustered: ICC {fmt.general(rho)} {of}"
                f"{' (planned as 0)' if rho < 0 else ''}, about {m:g} questions per cluster, "
                f"design effect {fmt.general(effect)}; the {design} design would plan them as "
                f"independent questions. ")
        plan = {"design": "clustered"}
        if paired or (self.b is None and self.score_type == "binary"):
            fix = f"Plan for the clusters with {_spelled(plan)}"
        else:
            if self.score_type == "binary":
                plan.update(baseline=self.baseline, icc=planned, cluster_size=m)
                scale, how = 1.0, ""
            else:  # the clustered design plans variances as paired: inflate them here
                plan.update(design="unpaired", variance=self.variance * effect)
                scale, how = effect, ", with the pilot's variances times the design effect"
            if given["samples"] is not None and self.between_variance is not None:
                plan["between_variance"] = self.between_variance * scale
            fix = f"Plan for the clusters without the pilot{how}: {_spelled(plan)}"
        return (text + fix + ", or read the pilot without cluster= (--cluster) to plan for "
                "independent questions")

    def to_dict(self) -> dict:
        out = {"n_items": self.n_items, "score_type": self.score_type, "a": self.a, "b": self.b,
               "baseline": self.baseline, "variance": self.variance}
        for key in ("disagreement", "a_only", "b_only", "variance_d", "icc", "cluster_size",
                    "score_icc", "between_variance", "answers"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out["source"] = self.source
        return json_safe(out)


def _differences(b: str, a: str) -> str:
    """The paired differences named as the reports write the gap, with U+2212.

    >>> _differences("model_b", "model_a")
    "the differences 'model_b' \u2212 'model_a'"
    """
    return f"the differences {b!r} \u2212 {a!r}"


def _spelled(inputs: dict) -> str:
    """Planning inputs as Python keywords and as CLI flags.

    >>> _spelled({"design": "clustered", "icc": 0.11943})
    "design='clustered', icc=0.1194 (--design clustered --icc 0.1194)"
    """
    shown = {k: v if isinstance(v, str) else f"{v:.4g}" for k, v in inputs.items()}
    keywords = ", ".join(f"{k}={v!r}" if isinstance(inputs[k], str) else f"{k}={v}"
                         for k, v in shown.items())
    flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in shown.items())
    return f"{keywords} ({flags})"


@takes_load_options
def from_pilot(data, data2=None, *, a: str | None = None, b: str | None = None,
               **load_options) -> Pilot:
    """Estimate the planning inputs (disagreement, baseline, variances, ICC) from pilot results.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Pilot results or harness logs, as for :func:`evalbars.ci`.
    a, b : str, optional
        The baseline and the compared model; default the data's models when it has one
        or two.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`. Clusters (a ``cluster`` column,
        or loaded ItemScores with clusters) estimate ``icc`` and ``cluster_size`` for the
        clustered design; several sampled answers per question (``sample``) estimate the
        variance split (``between_variance``), which plans designs with ``samples`` K.

    Returns
    -------
    Pilot
        Pass it to :func:`solve` or :func:`grid` as ``pilot=``. The pilot's own gap is
        not used: plan for the gap you care about, not the one a small pilot happened
        to show.

    Notes
    -----
    0/1 pairs: ``disagreement = (a_only + b_only) / n``; continuous pairs:
    ``variance_d = var(b - a)``; ``baseline = mean(a)`` and ``variance`` the mean of the
    models' ``var(x)`` (variances with ddof=1). With clusters, ``icc`` is :func:`icc`
    (one-way ANOVA) of the per-question differences ``b - a`` for a pair (the paired
    comparison is what the clustering inflates) and of ``a`` for one model, and
    ``cluster_size = n / number of clusters``; for a pair, ``score_icc`` is the two
    models' ICCs weighted by their variances, so that ``1 + (m - 1) score_icc`` is the
    design effect of an unpaired comparison. For the clustered design the pilot then
    supplies ``icc`` (a negative estimate is planned as 0; the pilot keeps the estimate)
    and, unless given, ``cluster_size``. A clustered pilot refuses the paired and unpaired
    designs, which would plan its questions as independent, with the design effect it
    implies and the inputs that plan for it.

    Examples
    --------
    >>> p = from_pilot("examples/lesson_pair.csv")
    >>> p.n_items, p.disagreement, p.a_only, p.b_only, p.baseline
    (500, 0.042, 4, 17, 0.732)
    >>> p = from_pilot("examples/cookbook_topics.csv", cluster="topic_id")
    >>> round(p.icc, 4), p.cluster_size
    (-0.032, 10.0)
    """
    wanted = [a, b] if a is not None and b is not None else None
    scores = read_scores(data, data2, wanted, named_by={"a": a, "b": b}, **load_options)
    if len(scores.items) < 2:
        raise EvalbarsError(f"a pilot needs at least 2 questions; got {len(scores.items)}")
    if len(scores.models) == 1 and b is None:
        a = a or scores.models[0]
        x, y = scores.column(a), None
    else:
        a, b = pick_pair(scores, a, b)
        x, y = scores.column(a), scores.column(b)
    both = [x] if y is None else [x, y]
    variance = float(np.mean([np.var(s, ddof=1) for s in both]))
    disagreement = a_only = b_only = variance_d = between = answers = None
    sampled = bool(scores.counts.max() > 1)
    if sampled:
        columns = [scores.models.index(name) for name in ((a,) if y is None else (a, b))]
        splits = [variance_split(scores.scores[:, j], scores.counts[:, j], scores.sumsq[:, j],
                                 binary=scores.score_type == "binary") for j in columns]
        between = float(np.mean([split.between_variance for split in splits]))
        answers = float(np.mean(scores.counts[:, columns]))
    if y is not None and scores.score_type == "binary" and not sampled:
        a_only, b_only = int(np.sum(x > y)), int(np.sum(y > x))
        disagreement = (a_only + b_only) / x.size
    elif y is not None:
        variance_d = float(np.var(y - x, ddof=1))
    rho = size = score_rho = None
    if scores.clusters is not None:
        what = f"{a!r}" if y is None else _differences(b, a)
        try:
            rho = icc(x if y is None else y - x, scores.clusters)
        except EvalbarsError as exc:
            raise EvalbarsError(f"cannot estimate the pilot's ICC of {what}: {exc}") from None
        size = len(scores.items) / len(set(scores.clusters))
        if y is not None:  # the differences vary, so at least one model does
            weights = [float(np.var(s)) for s in both]
            score_rho = sum(w * icc(s, scores.clusters) for w, s in zip(weights, both) if w > 0)
            score_rho /= sum(weights)
    return Pilot(len(scores.items), scores.score_type, a, b, float(np.mean(x)), variance,
                 disagreement, variance_d, a_only, b_only, scores.source, rho, size, between,
                 answers, score_rho)
