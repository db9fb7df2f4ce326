"""The gap's bars in the separate-vs-paired figure: the paired interval, and the unpaired
one beside it for contrast, each named by its own method.

The contrast must treat the questions as the paired interval does. Without clusters it is
the document's ``unpaired-wald``. When the paired interval takes whole clusters as the
unit, it is the unpaired clustered interval ``unpaired-cluster-cr1``: mean(b) - mean(a)
± t_{G-1} sqrt(se_a² + se_b²), with each model's CR1 standard error. Both models'
``cluster-cr1`` intervals use the same G clusters and so the same t quantile, so their
half-widths add in quadrature to give exactly that interval.

Examples
--------
>>> doc = {"difference": {"estimate": 0.1, "intervals": [
...     {"method": "paired-bootstrap-percentile", "low": 0.05, "high": 0.15},
...     {"method": "unpaired-wald", "low": 0.0, "high": 0.2}]}, "models": []}
>>> [(bar["name"], bar["low"]) for bar in gap_bars(doc)]
[('paired (bootstrap)', 0.05), ('unpaired (Wald, for contrast)', 0.0)]
"""
from __future__ import annotations

import math

from ..core.errors import EvalbarsError
from .labels import method_name

__all__ = ["gap_bars"]


def _words(method: str) -> str:
    """A method's name without the 'paired' or 'unpaired' the bar's label already says."""
    words = method_name(method)
    for side in ("paired ", "unpaired "):
        if words.startswith(side):
            return words[len(side):]
    return words


def _clustered_contrast(doc: dict, estimate: float) -> dict | None:
    halves = []
    for model in doc["models"]:
        cr1 = next((i for i in model["intervals"] if i["method"] == "cluster-cr1"), None)
        if cr1 is None or None in (cr1["low"], cr1["high"]):
            return None
        halves.append((cr1["high"] - cr1["low"]) / 2)
    if len(halves) != 2:
        return None
    half = math.hypot(*halves)
    return {"method": "unpaired-cluster-cr1", "low": estimate - half, "high": estimate + half}


def gap_bars(doc: dict, method: str | None = None) -> list[dict]:
    """The paired interval of a ``compare`` document's gap (``method``, default the
    headline) and the unpaired interval that treats questions alike, for contrast.

    Each bar is ``{name, method, estimate, low, high}``; ``name`` says paired or
    unpaired and the method in words, as the figure labels the bar.
    """
    difference = doc["difference"]
    intervals = difference["intervals"]
    paired = intervals[0] if method is None else next(
        (i for i in intervals if i["method"] == method), None)
    if paired is None:
        have = sorted(i["method"] for i in intervals)
        raise EvalbarsError(f"method must be one of the document's intervals {have}; "
                            f"got {method!r}")
    estimate = difference["estimate"]
    bars = [{"name": f"paired ({_words(paired['method'])})", "method": paired["method"],
             "estimate": estimate, "low": paired["low"], "high": paired["high"]}]
    if paired["method"] == "unpaired-wald":
        bars[0]["name"] = f"unpaired ({_words('unpaired-wald')})"
        return bars
    if paired["method"].startswith("paired-cluster"):
        contrast = _clustered_contrast(doc, estimate)
    else:
        contrast = next((i for i in intervals if i["method"] == "unpaired-wald"), None)
    if contrast is not None:
        bars.append({"name": f"unpaired ({_words(contrast['method'])}, for contrast)",
                     "method": contrast["method"], "estimate": estimate,
                     "low": contrast["low"], "high": contrast["high"]})
    return bars
