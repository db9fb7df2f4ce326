"""The report's figure: which picture each kind of document gets, drawn as inline SVG.

A comparison gets the separate-vs-paired picture (the two separate intervals above the
paired and unpaired intervals of the gap, on one scale), a leaderboard its scores in rank order, a
power plan its power curves, and any other document with intervals each estimate with its
interval. Values are drawn in percent and points for 0/1 scores and pass@k.

Examples
--------
>>> doc = {"kind": "ci", "score_type": "binary", "settings": {"confidence_level": 0.95},
...        "models": [{"name": "m", "mean": 0.7, "intervals": [
...            {"method": "wilson", "low": 0.6, "high": 0.8}]}]}
>>> svg, caption = figure_for(doc)
>>> svg.startswith("<svg"), caption
(True, 'Each estimate with its interval.')
"""
from __future__ import annotations

from ..contrast import gap_bars
from ..estimates import estimates
from ..labels import axis_label, digits, estimate_text, gap_label, percent_like
from .svg import COLORS, finite, interval_svg, lines_svg

__all__ = ["figure_for"]


def _row(doc: dict, label: str, estimate, low, high, color: str, d: int,
         sign: bool = False) -> tuple:
    """One row of :func:`evalbars.report.files.svg.interval_svg`, in display units."""
    scale = 100.0 if percent_like(doc) else 1.0
    shown = [v * scale if finite(v) else None for v in (estimate, low, high)]
    return (label, *shown, color, estimate_text(doc, estimate, low, high, d, sign))


def figure_for(doc: dict) -> tuple[str, str] | None:
    """The report's figure as ``(svg, caption)``, or None for a kind without one."""
    kind = doc.get("kind")
    if kind == "gate":
        return figure_for(doc.get("comparison") or {})
    d = digits(doc)
    if kind == "power":
        from ..power_curves import power_curves

        curves = power_curves(doc)
        label = "questions per model" if doc.get("design") == "unpaired" else "questions"
        series = [(gap_label(doc, gap), ns, powers) for gap, ns, powers in curves]
        return (lines_svg(series, x_label=f"{label} (log scale)", y_label="power",
                          target=doc.get("power"), mark=doc.get("n")),
                f"Power against the number of questions ({doc.get('design')}, "
                f"{doc.get('method')}, alpha {doc.get('alpha')}); dashed: the target power.")
    rows = [row for row in estimates(doc) if row["default"]]
    if not rows:
        return None
    if kind == "compare":
        scores = [r for r in rows if r["quantity"] == "score"]
        difference = doc["difference"]
        gap_rows = [_row(doc, bar["name"], bar["estimate"], bar["low"], bar["high"], color,
                         d, True) for bar, color in zip(gap_bars(doc), (COLORS[2], "#8c8c8c"))]
        panels = [("Each model on its own", axis_label(doc, "score", scores[0]["method"]),
                   [_row(doc, r["name"], r["estimate"], r["low"], r["high"], COLORS[i], d)
                    for i, r in enumerate(scores)], False),
                  (f"The gap {difference['b']} \u2212 {difference['a']}",
                   axis_label(doc, "gap"), gap_rows, True)]
        return (interval_svg(panels),
                "Top: each model's own interval. Bottom: the interval of the gap, paired on "
                "the same questions, and the unpaired one for contrast; dashed: zero. Both "
                "panels share one scale, so the widths compare directly: overlapping bars "
                "do not mean no difference.")
    if kind == "leaderboard":
        rows = sorted([r for r in rows if r["quantity"] == "score"], key=lambda r: r["rank"])
        panel = [_row(doc, f"{r['rank']}. {r['name']}", r["estimate"], r["low"], r["high"],
                      COLORS[0], d) for r in rows]
        panel = [p[:5] + (f"{p[5]}, rank {r['rank_low']}" + (
            f"\u2013{r['rank_high']}" if r["rank_high"] != r["rank_low"] else ""),)
                 for p, r in zip(panel, rows)]
        return (interval_svg([("Leaderboard", axis_label(doc, "score", rows[0]["method"]),
                               panel, False)]),
                "Models by rank, each score with its interval and its rank interval.")
    groups: dict[str, list] = {}
    for row in rows:
        if not row["quantity"].endswith("difference"):
            groups.setdefault(row["quantity"], []).append(row)
    panels = [(quantity if kind == "passk" else f"{quantity.capitalize()}s",
               axis_label(doc, quantity, group[0]["method"]),
               [_row(doc, r["name"], r["estimate"], r["low"], r["high"],
                     COLORS[i % len(COLORS)], d) for i, r in enumerate(group)], False)
              for quantity, group in groups.items()]
    return (interval_svg(panels), "Each estimate with its interval.") if panels else None
