"""Watching results come in: an always-valid confidence sequence for a paired gap, and a
sequential test, at every look.

A fixed-n interval or p-value is valid once, at a sample size chosen in advance; checking
it as results arrive and stopping at the first "significant" look inflates the false
alarms (``evalbars simulate peeking``). A confidence sequence covers the true gap at every
look at once, so one may look after every question and stop whenever it decides. The
price is width: at any given n it is wider than the fixed-n interval.

:func:`monitor` is ``evalbars.monitor``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core.arguments import check_confidence_level
from ..core.document import SCHEMA_VERSION, json_safe
from ..core.errors import EvalbarsError
from ..io.completion_order import completion_order
from ..io.inputs import pick_pair, read_scores, takes_load_options
from ..io.item_scores import ItemScores
from ..report.notebook import NotebookMixin
from ..report.text.monitor import statement
from ..stats.sequential import GUARANTEES, METHODS, fixed_n_half_width, gap_sequence
from .results import Settings
from .settings import provenance

DECISIONS = ("b-better", "a-better", "within-margin", "not-worse", "keep-going")
"""What a look can decide: B is better, A is better, the gap is within the margin, B is not
worse than A by more than the margin (the sequential gate's pass, see
:mod:`evalbars.analyses.gate`), or not yet (every other decision stops the monitor)."""

_MAX_LOG_E = 690.0
"""``exp`` of more overflows a float; an e-value that large is reported as 1e299."""


@dataclass(frozen=True, slots=True, repr=False)
class MonitorResult(NotebookMixin):
    """A paired gap watched as results came in: the sequence at every look and the decision.

    Attributes
    ----------
    a, b : str
        The models; the gap is B - A.
    method, guarantee : str
        The sequential method (:data:`evalbars.stats.sequential.METHODS`) and what it
        guarantees.
    confidence_level : float
        Level of the sequence; the test rejects at e-value ``1 / (1 - confidence_level)``.
    margin : float or None
        With a margin, a sequence inside ``(-margin, margin)`` stops as ``within-margin``.
    every, plan : int
        Units between looks, and the units at which the mixtures are tightest.
    unit : str
        ``"question"``, or ``"cluster"`` when clusters are the independent units.
    score_type : str
        ``"binary"`` or ``"continuous"``.
    bounds : (float, float) or None
        The range of the scores the betting sequence assumes.
    order : dict
        ``how`` (as printed), ``column`` (None: file order) and ``ties``.
    looks, ids : ndarray, tuple of str
        Units seen at each look, and the id of the last of them (a question or cluster).
    estimate, low, high, e_value : ndarray
        At each look: the gap so far, the ends of the sequence, the e-value against "no
        difference".
    decision : str
        One of :data:`DECISIONS`: the first look's that was not ``keep-going``, else
        ``keep-going``.
    stop : int or None
        Index into the looks of the stopping look (None: it never stopped).
    fixed_n_half_width : float
        Half the width of a fixed-n interval at the last look (the price is the ratio).
    n_items : int
        Questions read (with clusters, more than the units).
    """

    a: str
    b: str
    method: str
    guarantee: str
    confidence_level: float
    margin: float | None
    every: int
    plan: int
    unit: str
    score_type: str
    bounds: tuple[float, float] | None
    order: dict
    looks: np.ndarray = field(repr=False)
    ids: tuple[str, ...] = field(repr=False)
    estimate: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    e_value: np.ndarray = field(repr=False)
    decision: str = "keep-going"
    stop: int | None = None
    fixed_n_half_width: float = math.inf
    n_items: int = 0
    warnings: tuple[str, ...] = ()
    provenance: dict = field(default_factory=dict, repr=False)

    @property
    def stopped_at(self) -> int | None:
        """The number of units seen when the monitor stopped (None: it did not)."""
        return None if self.stop is None else int(self.looks[self.stop])

    def _look(self, k: int) -> dict:
        return {"n": int(self.looks[k]), "id": self.ids[k],
                "estimate": float(self.estimate[k]), "low": float(self.low[k]),
                "high": float(self.high[k]), "e_value": float(self.e_value[k])}

    def to_dict(self) -> dict:
        last = self._look(len(self.looks) - 1)
        half = (last["high"] - last["low"]) / 2.0
        doc = {
            "schema_version": SCHEMA_VERSION,
            "kind": "monitor",
            "a": self.a,
            "b": self.b,
            "score_type": self.score_type,
            "n_items": self.n_items,
            "unit": self.unit,
            "n_units": last["n"],
            "method": self.method,
            "guarantee": self.guarantee,
            "settings": {"confidence_level": self.confidence_level, "margin": self.margin,
                         "every": self.every, "plan": self.plan,
                         "bounds": None if self.bounds is None else list(self.bounds)},
            "order": dict(self.order),
            "decision": self.decision,
            "stopped": None if self.stop is None else {"look": self.stop + 1,
                                                       **self._look(self.stop)},
            "last": last,
            "price": {"sequence_half_width": half,
                      "fixed_n_half_width": self.fixed_n_half_width,
                      "ratio": half / self.fixed_n_half_width
                      if 0 < self.fixed_n_half_width < math.inf else None},
            "path": {"n": self.looks.tolist(), "id": list(self.ids),
                     "estimate": self.estimate.tolist(), "low": self.low.tolist(),
                     "high": self.high.tolist(), "e_value": self.e_value.tolist()},
            "warnings": list(self.warnings),
            "provenance": self.provenance,
        }
        doc = json_safe(doc)
        doc["statement"] = statement(doc)
        return doc


def e_values(log_e: np.ndarray) -> np.ndarray:
    """``exp(log_e)``, capped where it would overflow."""
    return np.exp(np.minimum(log_e, _MAX_LOG_E))


def _check_settings(every, margin, plan, method, confidence_level) -> None:
    for name, value in (("every", every), ("plan", plan)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise EvalbarsError(f"{name}= (--{name}) must be a positive integer, got "
                                f"{value!r}")
    if margin is not None and (isinstance(margin, bool) or not isinstance(margin, (int, float))
                               or not 0.0 < margin < math.inf):
        raise EvalbarsError(f"margin= (--margin) must be a positive number (0.01 = 1 point), got "
                            f"{margin!r}")
    if method != "auto" and method not in METHODS:
        raise EvalbarsError(f"unknown method {method!r}; choose from auto, "
                            f"{', '.join(METHODS)}")
    check_confidence_level(confidence_level)


def _bounds(scores: np.ndarray, bounds) -> tuple[float, float] | None:
    """The scores' range for the betting sequence: as given (checked), else [0, 1] when
    every score lies in it, else None."""
    low, high = float(scores.min()), float(scores.max())
    if bounds is None:
        return (0.0, 1.0) if 0.0 <= low and high <= 1.0 else None
    if len(bounds) != 2 or not bounds[0] < bounds[1]:
        raise EvalbarsError(f"bounds must be (low, high) with low < high, got {bounds!r}")
    if low < bounds[0] or high > bounds[1]:
        raise EvalbarsError(f"the scores range from {low:g} to {high:g}, outside bounds "
                            f"{tuple(bounds)!r}")
    return float(bounds[0]), float(bounds[1])


def _units(d: np.ndarray, ids: list[str], clusters: list[str] | None):
    """Per unit (question, or cluster in order of completion: its last question) the mean
    difference, and the unit's id."""
    if clusters is None:
        return d, ids, "question"
    last = {label: k for k, label in enumerate(clusters)}
    names = sorted(last, key=last.get)
    code = {label: j for j, label in enumerate(names)}
    which = np.fromiter((code[c] for c in clusters), np.int64, len(clusters))
    means = np.bincount(which, weights=d, minlength=len(names)) / np.bincount(which)
    return means, names, "cluster"


def _method(method: str, unit: str, d: np.ndarray, binary: bool, bounds) -> str:
    if method == "discordant" and unit == "cluster":
        raise EvalbarsError(
            "method 'discordant' needs independent questions; with clusters the independent "
            "units are the clusters, whose mean gaps are not 0/1: use method 'betting' (the "
            "default with clusters) or 'normal-mixture'")
    if method != "auto":
        return method
    if binary and unit == "question" and np.all(np.isin(d, (-1.0, 0.0, 1.0))):
        return "discordant"
    return "betting" if bounds is not None else "normal-mixture"


def _decisions(path, looks: np.ndarray, alpha: float, margin: float | None) -> np.ndarray:
    """The decision at each look (index into looks)."""
    k = looks - 1
    est, low, high = path.estimate[k], path.low[k], path.high[k]
    rejected = path.log_e[k] >= math.log(1.0 / alpha)
    out = np.full(looks.size, "keep-going", dtype=object)
    if margin is not None:
        out[(low > -margin) & (high < margin)] = "within-margin"
    out[rejected & (est > 0)] = "b-better"
    out[rejected & (est < 0)] = "a-better"
    return out


@takes_load_options
def monitor(data, *, a: str | None = None, b: str | None = None, order: str | None = None,
            margin: float | None = None, every: int = 1, method: str = "auto",
            confidence_level: float = 0.95, plan: int = 1000,
            bounds: tuple[float, float] | None = None, **load_options) -> MonitorResult:
    """Watch the paired gap B - A as results come in, with an always-valid sequence.

    Parameters
    ----------
    data : path, pandas.DataFrame or ItemScores
        One results table (wide or long), read like :func:`evalbars.compare`, in memory;
        the order in which results came in is read with it (see ``order``). Results
        already loaded from such a table carry it (``evalbars.load(..., order=COL)``).
    a, b : str, optional
        The models (the data's only two when left out).
    order : str, optional
        A column of sequence numbers, Unix times or ISO 8601 timestamps: a question is
        complete at its largest value among the two models' rows. Default: the order the
        loaded results carry, or file order.
    margin : float, optional
        Stop as "within the margin" once the sequence lies inside ``(-margin, margin)``.
    every : int
        Units between looks (the last look is always at the end).
    method : str
        ``auto``: ``discordant`` for one 0/1 outcome per question, ``betting`` for scores in
        [0, 1] (or ``bounds``) and for clusters, else ``normal-mixture``
        (:data:`evalbars.stats.sequential.METHODS`).
    confidence_level : float
        Level of the sequence; the test rejects "no difference" at e-value
        ``1 / (1 - confidence_level)``.
    plan : int
        Units at which the mixtures (``discordant``, ``normal-mixture``) are tightest;
        any value fixed in advance keeps the guarantee.
    bounds : (float, float), optional
        The range scores can take, for ``betting`` on scores outside [0, 1].
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load`. With ``cluster``, clusters are the
        units (entering at their last question) and the gap is the mean of the clusters'
        mean gaps.

    Returns
    -------
    MonitorResult
        The sequence, the e-value and the decision at every look, where it stopped, and
        the price against a fixed-n interval.

    Examples
    --------
    >>> import evalbars
    >>> m = evalbars.monitor("examples/lesson_pair.csv", every=50)
    >>> m.method, m.decision, m.stopped_at, len(m.looks)
    ('discordant', 'keep-going', None, 10)
    >>> round(float(m.low[-1]), 3), round(float(m.high[-1]), 3), round(float(m.e_value[-1]), 2)
    (-0.003, 0.055, 9.49)
    """
    _check_settings(every, margin, plan, method, confidence_level)
    wanted = [a, b] if a is not None and b is not None else None
    if load_options.get("engine", "auto") == "auto" and not isinstance(data, ItemScores):
        load_options["engine"] = "memory"  # the rows' order is read in memory, at any size
    scores = read_scores(data, None, wanted, named_by={"a": a, "b": b}, order=order,
                         **load_options)
    a, b = pick_pair(scores, a, b)
    seen = completion_order(scores, (a, b), order)
    pos = seen.positions
    columns = [scores.models.index(a), scores.models.index(b)]
    pair = scores.scores[:, columns]
    d = (pair[:, 1] - pair[:, 0])[pos]
    clusters = None if scores.clusters is None else [scores.clusters[i] for i in pos]
    d, ids, unit = _units(d, [scores.items[i] for i in pos], clusters)
    bounds = _bounds(pair, bounds)
    single = bool(np.all(scores.counts[:, columns] == 1))
    method = _method(method, unit, d, scores.score_type == "binary" and single, bounds)
    path = gap_sequence(d, method=method, confidence_level=confidence_level, plan=plan,
                        bounds=bounds)
    looks = np.append(np.arange(every, d.size, every), d.size)
    decisions = _decisions(path, looks, 1.0 - confidence_level, margin)
    decided = np.flatnonzero(decisions != "keep-going")
    stop = int(decided[0]) if decided.size else None
    k = looks - 1
    warnings = []
    if seen.column is None:
        warnings.append("no order column given: results are taken to have come in in file "
                        "order; give order= (--order COL) with a timestamp or sequence "
                        "number if the file was sorted or merged")
    if method == "normal-mixture":
        warnings.append("the normal-mixture sequence is asymptotic: its coverage is "
                        "approximate until the variance estimate settles")
    record = {**provenance(scores, Settings(float(confidence_level), 0, 0)), "seed": None}
    return MonitorResult(
        a=a, b=b, method=method, guarantee=GUARANTEES[method],
        confidence_level=float(confidence_level),
        margin=None if margin is None else float(margin), every=int(every), plan=int(plan),
        unit=unit, score_type=scores.score_type, bounds=bounds,
        order={"how": seen.how, "column": seen.column, "ties": seen.ties},
        looks=looks, ids=tuple(ids[i] for i in k), estimate=path.estimate[k],
        low=path.low[k], high=path.high[k], e_value=e_values(path.log_e[k]),
        decision="keep-going" if stop is None else str(decisions[stop]), stop=stop,
        fixed_n_half_width=fixed_n_half_width(d, confidence_level),
        n_items=len(scores.items), warnings=tuple(warnings), provenance=record)
