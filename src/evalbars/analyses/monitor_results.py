"""The record of a monitored comparison: the whole path of the sequence, look by look."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core.document import SCHEMA_VERSION, json_safe
from ..report.notebook import NotebookMixin
from ..report.text.monitor import statement

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
