"""Figures of scores and gaps: the forest of intervals, the separate-vs-paired gap figure,
and the leaderboard beside its rank intervals."""
from __future__ import annotations

from ...core.errors import EvalbarsError
from ..contrast import gap_bars
from ..estimates import estimates
from ..files.svg import COLORS
from ..labels import axis_label, level
from .drawing import chosen_rows, draw_intervals, literal, new_figure, scale_of


def forest(doc: dict, *, method: str | None = None):
    """Each model's score with its interval, one row per model (per k for pass@k).

    Parameters
    ----------
    doc : dict
        A ``ci``, ``compare``, ``gate``, ``leaderboard``, ``bradley-terry`` or ``passk``
        document.
    method : str, optional
        The interval to draw (default: the document's default, its first).

    Examples
    --------
    >>> import evalbars
    >>> doc = evalbars.ci("examples/lesson_pair.csv", n_resamples=500).to_dict()
    >>> figure = forest(doc)
    >>> [line.get_gid() for line in figure.axes[0].get_lines()][:2]
    ['interval:model_a', 'estimate:model_a']
    """
    if doc.get("kind") == "gate":
        doc = doc["comparison"]
    rows = [row for row in chosen_rows(estimates(doc), method)
            if not row["quantity"].endswith("difference")]
    if not rows:
        raise EvalbarsError(f"a forest plot needs a document with scores and intervals; "
                            f"got kind {doc.get('kind')!r}")
    for row in rows:
        row["label"] = f"{row['name']} {row['quantity']}" if doc.get("kind") == "passk" \
            else row["name"]
    figure = new_figure(7.5, 1.3 + 0.42 * len(rows))
    ax = figure.add_subplot()
    draw_intervals(ax, rows, doc)
    what = "pass@k" if doc.get("kind") == "passk" else rows[0]["quantity"]
    ax.set_xlabel(axis_label(doc, what, rows[0]["method"]))
    return figure


def gap(doc: dict, *, method: str | None = None):
    """Seed 000's figure: the two separate intervals beside the paired interval of the gap.

    Both panels use the same number of points per inch, so the paired interval's width
    compares directly with the separate ones; the unpaired interval of the gap is drawn
    too, for contrast (clustered when the paired one is: see
    :mod:`evalbars.report.contrast`), each bar named by its method, and a dashed line
    marks zero.

    Parameters
    ----------
    doc : dict
        A ``compare`` (or ``gate``) document.
    method : str, optional
        The paired interval to draw (default: the document's default).
    """
    if doc.get("kind") == "gate":
        doc = doc["comparison"]
    if doc.get("kind") != "compare":
        raise EvalbarsError(f"the gap plot needs a compare document; got kind "
                            f"{doc.get('kind')!r}")
    scores = [row for row in estimates(doc) if row["quantity"] == "score" and row["default"]]
    gaps = gap_bars(doc, method)
    scale = scale_of(doc)

    def extent(panel: list[dict], zero: bool) -> tuple[float, float]:
        values = [scale * row[key] for row in panel for key in ("low", "high", "estimate")
                  if row[key] is not None] + [0.0] * zero
        return min(values), max(values)

    boxes = [extent(scores, False), extent(gaps, True)]
    span = max(high - low for low, high in boxes) * 1.15 or 1.0
    figure = new_figure(9.0, 1.6 + 0.45 * len(scores))
    left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1]})
    draw_intervals(left, scores, doc)
    draw_intervals(right, gaps, doc, sign=True, colors=(COLORS[2], "#8c8c8c"))
    right.axvline(0.0, color="#1d2330", lw=1, ls="--")
    for ax, (low, high) in zip((left, right), boxes):
        middle = (low + high) / 2
        ax.set_xlim(middle - span / 2, middle + span / 2)
    difference = doc["difference"]
    left.set_title("Each model on its own", loc="left", fontsize=11)
    b, a = literal(difference["b"]), literal(difference["a"])
    right.set_title(f"The gap {b} \u2212 {a}", loc="left", fontsize=11)
    left.set_xlabel(axis_label(doc, "score", scores[0]["method"]))
    right.set_xlabel(axis_label(doc, "gap"))
    return figure


def leaderboard(doc: dict, *, method: str | None = None):
    """Scores in rank order (left) beside each model's rank interval (right).

    Parameters
    ----------
    doc : dict
        A ``leaderboard`` document (models with ``rank``, ``rank_low``, ``rank_high``).
    method : str, optional
        The score interval to draw (default: the document's default).
    """
    rows = [row for row in chosen_rows(estimates(doc), method) if row["quantity"] == "score"]
    if doc.get("kind") != "leaderboard" or not rows or "rank" not in rows[0]:
        raise EvalbarsError(f"the leaderboard plot needs a leaderboard document; got kind "
                            f"{doc.get('kind')!r}")
    rows.sort(key=lambda row: (row["rank"], -row["estimate"]))
    figure = new_figure(9.0, 1.3 + 0.42 * len(rows))
    scores, ranks = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    draw_intervals(scores, rows, doc)
    scores.set_xlabel(axis_label(doc, "score", rows[0]["method"]))
    for y, row in enumerate(rows):
        ranks.plot([row["rank_low"], row["rank_high"]], [y, y], color=COLORS[0], lw=3,
                   marker="|", markersize=14, mew=2, gid=f"rank:{row['name']}")
        ranks.plot([row["rank"]], [y], "o", color=COLORS[0], mfc="white", mew=2, ms=7)
    ranks.set_xlim(0.5, len(rows) + 0.5)
    ranks.set_xticks(range(1, len(rows) + 1))
    ranks.grid(axis="x", color="#e6e8ee")
    ranks.set_xlabel(f"rank ({level(doc)} rank interval; 1 = best)")
    return figure
