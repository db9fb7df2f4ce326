"""What every figure shares: a pyplot-free matplotlib figure, intervals drawn as labelled
lines, the choice of interval method, and saving to PNG, SVG or PDF."""
from __future__ import annotations

import math
from pathlib import Path

from ...core.errors import EvalbarsError
from ..files.svg import COLORS
from ..labels import digits, estimate_text, percent_like

FORMATS = (".png", ".svg", ".pdf")
"""File types :func:`save` writes, chosen by the file's suffix."""


def new_figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise EvalbarsError("plots need matplotlib, an optional extra: "
                            "pip install 'evalbars[plot]'") from None
    return Figure(figsize=(width, height), layout="constrained")


def literal(text: str) -> str:
    r"""``text`` as matplotlib should show it: a ``$`` in a model name is a dollar sign,
    not the start of math (``\$`` is matplotlib's escape).

    >>> literal("cost $1 vs $2")
    'cost \\$1 vs \\$2'
    """
    return text.replace("$", r"\$")


def scale_of(doc: dict) -> float:
    return 100.0 if percent_like(doc) else 1.0


def value_text(doc: dict, row: dict, sign: bool = False) -> str:
    return estimate_text(doc, row["estimate"], row["low"], row["high"], digits(doc), sign)


def draw_intervals(ax, rows: list[dict], doc: dict, *, sign: bool = False, colors=None) -> None:
    """One horizontal interval per row, top to bottom, labelled on both sides."""
    scale = scale_of(doc)
    for y, row in enumerate(rows):
        color = (colors or COLORS)[y % len(colors or COLORS)]
        ends = [row["low"], row["high"]]
        label = row.get("label", row["name"])
        if all(isinstance(v, (int, float)) and math.isfinite(v) for v in ends):
            ax.plot([scale * ends[0], scale * ends[1]], [y, y], color=color, lw=3,
                    marker="|", markersize=14, mew=2, gid=f"interval:{label}")
        if row["estimate"] is not None:
            ax.plot([scale * row["estimate"]], [y], "o", color=color, mfc="white", mew=2,
                    ms=7, gid=f"estimate:{label}")
    ax.set_yticks(range(len(rows)), [literal(row.get("label", row["name"])) for row in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    right = ax.twinx()
    right.set_ylim(ax.get_ylim())
    right.set_yticks(range(len(rows)), [value_text(doc, row, sign) for row in rows])
    right.tick_params(length=0, labelsize=9)
    ax.grid(axis="x", color="#e6e8ee")
    ax.set_axisbelow(True)


def zero_line(ax) -> None:
    """A dashed line at zero, inside the frame: the x limits are widened so that zero sits
    at least 5% of the width away from either edge (never hidden in the frame's border)."""
    low, high = ax.get_xlim()
    low, high = min(low, 0.0), max(high, 0.0)
    pad = 0.05 * (high - low or 1.0)
    ax.set_xlim(min(low, -pad), max(high, pad))
    ax.axvline(0.0, color="#1d2330", lw=1, ls="--", gid="zero")


def chosen_rows(rows: list[dict], method: str | None) -> list[dict]:
    if method is None:
        return [row for row in rows if row["default"]]
    chosen = [row for row in rows if row["method"] == method]
    if not chosen:
        have = sorted({str(row["method"]) for row in rows})
        raise EvalbarsError(f"method must be one of the document's intervals {have}; "
                            f"got {method!r}")
    return chosen


def save(figure, path) -> Path:
    """Write ``figure`` to ``path`` as PNG, SVG or PDF (from the suffix); return the path."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise EvalbarsError(f"the figure file must end in one of {', '.join(FORMATS)}; "
                            f"got {str(path)!r}")
    figure.savefig(path, dpi=150)
    return path
