"""Inline SVG figures, written as text: intervals on a shared scale, and curves.

The HTML report draws its figures here rather than with matplotlib, so it opens anywhere
and is produced anywhere (matplotlib is optional) and shows exactly the numbers of its
tables. Every text drawn is HTML-escaped.

Examples
--------
>>> svg = interval_svg([("Scores", "score, %", [("<b>", 70.0, 65.0, 75.0, COLORS[0],
...                                              "70.0 (65.0 to 75.0)")], False)])
>>> svg.startswith("<svg") and "&lt;b&gt;" in svg and "<b>" not in svg
True
"""
from __future__ import annotations

import html
import math

__all__ = ["COLORS", "MARK", "finite", "interval_svg", "lines_svg", "nice_step"]

COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
          "#8c8c8c")
"""The palette of every figure, inline SVG and matplotlib alike."""
MARK = "#5b6474"
"""The colour of a marked n on power curves: a grey no curve uses."""
_W, _RIGHT, _ROW = 760, 190, 26
"""Figure width, room right of the intervals for their values, height of one row (px)."""


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12,
          fill: str = "#1d2330", weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}">{html.escape(text)}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#1d2330",
          width: float = 1.0, dash: str = "") -> str:
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
            f'stroke-width="{width}"{dashed}/>')


def nice_step(span: float, target: int = 6) -> float:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) giving about ``target`` ticks.

    >>> nice_step(13.0), nice_step(0.9)
    (2.5, 0.2)
    """
    raw = span / target if span > 0 else 1.0
    magnitude = 10.0 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * 0.999)


def finite(*values) -> bool:
    """True when every value is a finite number, so it can be drawn.

    >>> finite(1, 2.5), finite(1, None), finite(float("nan"))
    (True, False, False)
    """
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in values)


def interval_svg(panels: list[tuple[str, str, list[tuple], bool]]) -> str:
    """Horizontal intervals in stacked panels that share one scale (units per pixel).

    Each panel is ``(title, axis label, rows, zero line?)``; each row is ``(label,
    estimate, low, high, color, value text)`` in display units. Sharing the scale makes
    widths comparable across panels: a paired interval drawn under two separate ones
    is visibly narrower.
    """
    spans, boxes = [], []
    for _, _, rows, zero in panels:
        values = [v for row in rows for v in row[1:4] if finite(v)] + ([0.0] * zero)
        low, high = (min(values), max(values)) if values else (0.0, 1.0)
        boxes.append((low, high))
        spans.append(high - low)
    longest = max((len(row[0]) for _, _, rows, _ in panels for row in rows), default=10)
    left = min(max(7 * longest + 24, 110), 300)
    width = _W - left - _RIGHT
    span = max(max(spans, default=1.0), 1e-9) * 1.15
    per_unit, step = width / span, nice_step(span)
    out, y = [], 8.0
    for (title, axis, rows, zero), (low, high) in zip(panels, boxes):
        start = (low + high) / 2 - span / 2
        x_of = lambda v, s=start: left + (v - s) * per_unit  # noqa: E731
        out.append(_text(8, y + 14, title, size=13, weight="600"))
        top, y = y + 22, y + 22 + _ROW * len(rows)
        tick = math.ceil(start / step) * step
        while tick <= start + span + 1e-12:
            x = x_of(tick)
            out.append(_line(x, top, x, y, "#e6e8ee"))
            out.append(_text(x, y + 14, f"{tick:.10g}", "middle", 11, "#5b6474"))
            tick += step
        out.append(_line(left, y, left + width, y, "#8a93a3"))
        if zero and start <= 0 <= start + span:
            out.append(_line(x_of(0), top - 4, x_of(0), y, "#1d2330", 1.2, "4 3"))
        for index, (label, estimate, lo, hi, color, value) in enumerate(rows):
            mid = top + _ROW * index + _ROW / 2
            out.append(_text(left - 10, mid + 4, label, "end"))
            out.append(_text(left + width + 10, mid + 4, value, size=11, fill="#39404d"))
            if finite(lo, hi):
                out += [_line(x_of(lo), mid, x_of(hi), mid, color, 3),
                        _line(x_of(lo), mid - 6, x_of(lo), mid + 6, color, 2),
                        _line(x_of(hi), mid - 6, x_of(hi), mid + 6, color, 2)]
            if finite(estimate):
                out.append(f'<circle cx="{x_of(estimate):.1f}" cy="{mid:.1f}" r="4.5" '
                           f'fill="#fff" stroke="{color}" stroke-width="2"/>')
        out.append(_text(left + width / 2, y + 30, axis, "middle", 12, "#39404d"))
        y += 44
    return _canvas(y, out)


def _canvas(height: float, parts: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{height:.0f}" '
            f'viewBox="0 0 {_W} {height:.0f}" font-family="system-ui,sans-serif" role="img">'
            + "".join(parts) + "</svg>")


def lines_svg(series: list[tuple[str, list[float], list[float]]], *, x_label: str,
              y_label: str, target: float | None, mark: float | None) -> str:
    """Curves on a log x axis and a 0-100% y axis, with a target line and an x marker."""
    xs = [x for _, xv, _ in series for x in xv]
    if not xs:
        return _canvas(10, [])
    lo, hi = math.log10(min(xs)), math.log10(max(xs))
    hi = hi if hi > lo else lo + 1
    left, right, top, height = 70, _W - 200, 16, 260
    x_of = lambda x: left + (math.log10(x) - lo) / (hi - lo) * (right - left)  # noqa: E731
    y_of = lambda p: top + (1 - p) * height  # noqa: E731
    out = []
    for p in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        out += [_line(left, y_of(p), right, y_of(p), "#e6e8ee"),
                _text(left - 8, y_of(p) + 4, f"{p:.0%}", "end", 11, "#5b6474")]
    for exponent in range(math.floor(lo), math.ceil(hi) + 1):
        for m in (1, 2, 5):
            x = m * 10.0 ** exponent
            if lo - 1e-9 <= math.log10(x) <= hi + 1e-9:
                out += [_line(x_of(x), top, x_of(x), top + height, "#e6e8ee"),
                        _text(x_of(x), top + height + 15, f"{x:,.0f}", "middle", 11, "#5b6474")]
    if target is not None:
        out.append(_line(left, y_of(target), right, y_of(target), "#1d2330", 1, "4 3"))
    if mark is not None and mark > 0 and lo <= math.log10(mark) <= hi:
        out.append(_line(x_of(mark), top, x_of(mark), top + height, MARK, 1.2, "2 3"))
        out.append(_text(x_of(mark) + 4, top + height - 6, f"n = {mark:,.0f}", size=11,
                         fill=MARK))
    for index, (label, xv, yv) in enumerate(series):
        color = COLORS[index % len(COLORS)]
        points = " ".join(f"{x_of(x):.1f},{y_of(p):.1f}" for x, p in zip(xv, yv))
        out.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2.2"/>')
        out += [_line(right + 16, top + 14 + 20 * index, right + 40, top + 14 + 20 * index,
                      color, 3), _text(right + 46, top + 18 + 20 * index, label, size=12)]
    out += [_line(left, top + height, right, top + height, "#8a93a3"),
            _text((left + right) / 2, top + height + 36, x_label, "middle", 12, "#39404d"),
            f'<text x="16" y="{top + height / 2:.1f}" font-size="12" fill="#39404d" '
            f'text-anchor="middle" transform="rotate(-90 16 {top + height / 2:.1f})">'
            f"{html.escape(y_label)}</text>"]
    return _canvas(top + height + 48, out)

