"""The monitor's figure: the always-valid sequence of the gap against the questions seen."""
from __future__ import annotations

import math

from ...core.errors import EvalbarsError
from ..files.svg import COLORS
from .drawing import literal, new_figure


def _numbers(values) -> list[float]:
    """Document values as floats: None (an infinite end in JSON) becomes NaN, not drawn."""
    return [math.nan if v is None else float(v) for v in values]


def monitor(doc: dict, *, method: str | None = None):
    """The gap B - A and its always-valid sequence at every look, with where it stopped.

    The band is the sequence (its ends are lines with gids ``"sequence:low"`` and
    ``"sequence:high"``, whose data are the document's), the line through it the running
    gap (``"estimate"``); a dashed line marks zero, dotted lines the margin, and a
    vertical line the stopping look (``"stop"``). Gaps of 0/1 data are in points.

    Parameters
    ----------
    doc : dict
        A ``monitor`` document (:func:`evalbars.monitor`), or a sequential ``gate``
        document.
    method : str, optional
        Must be the document's method when given (a monitor has one sequence).

    Examples
    --------
    >>> import evalbars
    >>> doc = evalbars.monitor("examples/lesson_pair.csv", every=10).to_dict()
    >>> figure = monitor(doc)
    >>> [line.get_gid() for line in figure.axes[0].get_lines()][:3]
    ['sequence:low', 'sequence:high', 'estimate']
    """
    if doc.get("kind") == "gate" and doc.get("sequential"):
        doc = doc["monitor"]
    if doc.get("kind") != "monitor":
        raise EvalbarsError(f"the monitor plot needs a monitor document (or a sequential "
                            f"gate's); got kind {doc.get('kind')!r}")
    if method is not None and method != doc["method"]:
        raise EvalbarsError(f"the document's sequence is {doc['method']!r}; got method "
                            f"{method!r}")
    scale = 100.0 if doc["score_type"] == "binary" else 1.0
    path = doc["path"]
    n = path["n"]
    low, high, estimate = (
        [scale * v for v in _numbers(path[key])] for key in ("low", "high", "estimate"))
    figure = new_figure(8.0, 4.5)
    ax = figure.add_subplot()
    ax.fill_between(n, low, high, color=COLORS[0], alpha=0.2, lw=0, step="post")
    ax.step(n, low, where="post", color=COLORS[0], lw=1, gid="sequence:low")
    ax.step(n, high, where="post", color=COLORS[0], lw=1, gid="sequence:high")
    ax.step(n, estimate, where="post", color="#1d2330", lw=1.5, gid="estimate")
    ax.axhline(0.0, color="#1d2330", lw=1, ls="--", gid="zero")
    margin = doc["settings"]["margin"]
    if margin is not None:
        for sign in (-1.0, 1.0):
            ax.axhline(sign * scale * margin, color=COLORS[3], lw=1, ls=":", gid="margin")
    finite = [v for v in low + high if math.isfinite(v)]
    if finite:
        ax.set_ylim(max(min(finite), -scale), min(max(finite), scale))
    if doc["stopped"] is not None:
        ax.axvline(doc["stopped"]["n"], color=COLORS[3], lw=1.5, gid="stop")
        ax.annotate(f"stop: {doc['decision']}", (doc["stopped"]["n"], ax.get_ylim()[1]),
                    xytext=(4, -12), textcoords="offset points", fontsize=9)
    level = doc["settings"]["confidence_level"]
    ax.set_title(f"{literal(doc['b'])} \u2212 {literal(doc['a'])}: {level:.0%} always-valid "
                 f"sequence ({doc['method']})", loc="left", fontsize=11)
    ax.set_xlabel(f"{doc['unit']}s seen")
    ax.set_ylabel("gap, points" if doc["score_type"] == "binary" else "gap")
    return figure
