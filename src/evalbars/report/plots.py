"""Figures with matplotlib (an optional extra: ``pip install 'evalbars[plot]'``).

Every function takes a report document (``result.to_dict()`` or a saved JSON file) and
returns a :class:`matplotlib.figure.Figure`, built without pyplot (no global state, no
window): save it with :func:`save` or ``figure.savefig``; a notebook shows it as is.

- :func:`forest`: each model's score with its interval (``ci``, ``compare``,
  ``leaderboard``, ``passk`` documents);
- :func:`gap`: seed 000's figure, the two separate intervals beside the narrower paired
  interval of the gap, on one scale (``compare`` and ``gate``);
- :func:`leaderboard`: scores in rank order beside each model's rank interval;
- :func:`power`: power against the number of questions for a few gaps (``power``);
- :func:`plot`: the natural figure of any of those documents.

Scores of 0/1 data are drawn in percent and gaps in points; every axis states the
confidence level and the interval method. The intervals are drawn as lines whose
``gid`` is ``"interval:<label>"`` (the row's label: the model's name, or "<name>
pass@<k>") and whose x data are the interval's ends, so tests
(and you) can read the plotted numbers back. matplotlib is imported only when a figure
is drawn; :func:`power_curves` needs only numpy and scipy.
"""
from __future__ import annotations

import math
from pathlib import Path

from ..core.errors import EvalbarsError
from .estimates import estimates
from .labels import axis_label, digits, estimate_text, gap_label, level, percent_like
from .files.svg import COLORS

__all__ = ["forest", "gap", "leaderboard", "plot", "power", "power_curves", "save"]

FORMATS = (".png", ".svg", ".pdf")
"""File types :func:`save` writes, chosen by the file's suffix."""


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise EvalbarsError("plots need matplotlib, an optional extra: "
                            "pip install 'evalbars[plot]'") from None
    return Figure(figsize=(width, height), layout="constrained")


def _literal(text: str) -> str:
    r"""``text`` as matplotlib should show it: a ``$`` in a model name is a dollar sign,
    not the start of math (``\$`` is matplotlib's escape).

    >>> _literal("cost $1 vs $2")
    'cost \\$1 vs \\$2'
    """
    return text.replace("$", r"\$")


def _scale(doc: dict) -> float:
    return 100.0 if percent_like(doc) else 1.0


def _value_text(doc: dict, row: dict, sign: bool = False) -> str:
    return estimate_text(doc, row["estimate"], row["low"], row["high"], digits(doc), sign)


def _draw(ax, rows: list[dict], doc: dict, *, sign: bool = False, colors=None) -> None:
    """One horizontal interval per row, top to bottom, labelled on both sides."""
    scale = _scale(doc)
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
    ax.set_yticks(range(len(rows)), [_literal(row.get("label", row["name"])) for row in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    right = ax.twinx()
    right.set_ylim(ax.get_ylim())
    right.set_yticks(range(len(rows)), [_value_text(doc, row, sign) for row in rows])
    right.tick_params(length=0, labelsize=9)
    ax.grid(axis="x", color="#e6e8ee")
    ax.set_axisbelow(True)


def _default(rows: list[dict], method: str | None) -> list[dict]:
    if method is None:
        return [row for row in rows if row["default"]]
    chosen = [row for row in rows if row["method"] == method]
    if not chosen:
        have = sorted({str(row["method"]) for row in rows})
        raise EvalbarsError(f"method must be one of the document's intervals {have}; "
                            f"got {method!r}")
    return chosen


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
    rows = [row for row in _default(estimates(doc), method)
            if not row["quantity"].endswith("difference")]
    if not rows:
        raise EvalbarsError(f"a forest plot needs a document with scores and intervals; "
                            f"got kind {doc.get('kind')!r}")
    for row in rows:
        row["label"] = f"{row['name']} {row['quantity']}" if doc.get("kind") == "passk" \
            else row["name"]
    figure = _figure(7.5, 1.3 + 0.42 * len(rows))
    ax = figure.add_subplot()
    _draw(ax, rows, doc)
    what = "pass@k" if doc.get("kind") == "passk" else rows[0]["quantity"]
    ax.set_xlabel(axis_label(doc, what, rows[0]["method"]))
    return figure


def gap(doc: dict, *, method: str | None = None):
    """Seed 000's figure: the two separate intervals beside the paired interval of the gap.

    Both panels use the same number of points per inch, so the paired interval's width
    compares directly with the separate ones; the unpaired interval of the gap is drawn
    too, for contrast, and a dashed line marks zero.

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
    rows = estimates(doc)
    scores = [row for row in rows if row["quantity"] == "score" and row["default"]]
    gaps = _default([row for row in rows if row["quantity"] == "difference"], method)
    gaps += [dict(row, name="unpaired (for contrast)") for row in rows
             if row["method"] == "unpaired-wald" and gaps[0]["method"] != "unpaired-wald"]
    gaps[0] = dict(gaps[0], name="paired")
    scale = _scale(doc)

    def extent(panel: list[dict], zero: bool) -> tuple[float, float]:
        values = [scale * row[key] for row in panel for key in ("low", "high", "estimate")
                  if row[key] is not None] + [0.0] * zero
        return min(values), max(values)

    boxes = [extent(scores, False), extent(gaps, True)]
    span = max(high - low for low, high in boxes) * 1.15 or 1.0
    figure = _figure(9.0, 1.6 + 0.45 * len(scores))
    left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1]})
    _draw(left, scores, doc)
    _draw(right, gaps, doc, sign=True, colors=(COLORS[2], "#8c8c8c"))
    right.axvline(0.0, color="#1d2330", lw=1, ls="--")
    for ax, (low, high) in zip((left, right), boxes):
        middle = (low + high) / 2
        ax.set_xlim(middle - span / 2, middle + span / 2)
    difference = doc["difference"]
    left.set_title("Each model on its own", loc="left", fontsize=11)
    b, a = _literal(difference["b"]), _literal(difference["a"])
    right.set_title(f"The gap {b} \u2212 {a}", loc="left", fontsize=11)
    left.set_xlabel(axis_label(doc, "score", scores[0]["method"]))
    right.set_xlabel(axis_label(doc, "gap", gaps[0]["method"]))
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
    rows = [row for row in _default(estimates(doc), method) if row["quantity"] == "score"]
    if doc.get("kind") != "leaderboard" or not rows or "rank" not in rows[0]:
        raise EvalbarsError(f"the leaderboard plot needs a leaderboard document; got kind "
                            f"{doc.get('kind')!r}")
    rows.sort(key=lambda row: (row["rank"], -row["estimate"]))
    figure = _figure(9.0, 1.3 + 0.42 * len(rows))
    scores, ranks = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    _draw(scores, rows, doc)
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


def power_curves(doc: dict, *, gaps=None, n_points: int = 40) -> list[tuple]:
    """Power against n for a few gaps, from a ``power`` document's design and inputs.

    Parameters
    ----------
    doc : dict
        A ``power`` document (:func:`evalbars.analyses.power.solve` or :func:`~evalbars.analyses.power.grid`).
    gaps : sequence of float, optional
        Gaps to draw (fractions). Default: the grid's gaps, else half, one and two times
        the document's gap. Gaps the design cannot have are left out.
    n_points : int
        Values of n per curve, evenly spaced on a log scale.

    Returns
    -------
    list of (gap, ns, powers)

    Examples
    --------
    >>> from evalbars import power
    >>> doc = power.solve(gap=0.02, power=0.8, disagreement=0.1).to_dict()
    >>> [(g, len(ns)) for g, ns, _ in power_curves(doc, gaps=[0.02], n_points=5)]
    [(0.02, 5)]
    """
    import numpy as np

    from ..analyses import power as planning

    inputs = {key: value for key, value in doc["inputs"].items() if key in planning.INPUTS}
    common = dict(design=doc["design"], method=doc["method"], alpha=doc["alpha"], **inputs)
    if gaps is None:
        gaps = [row["gap"] for row in doc["grid"]] if doc.get("grid") else \
            [doc["gap"] / 2, doc["gap"], 2 * doc["gap"]]
    needed = {}
    for g in gaps:
        try:
            needed[g] = planning.solve(gap=g, power=0.95, **common).n
        except EvalbarsError:
            continue
    if not needed:
        return []
    low = max(2, min(min(needed.values()) // 20, doc.get("n") or math.inf))
    high = max(max(needed.values()), doc.get("n") or 0) * 1.5
    ns = sorted({int(round(n)) for n in np.geomspace(low, high, n_points)})
    curves = []
    for g in needed:
        points = []
        for n in ns:
            try:
                points.append((n, planning.solve(n=n, gap=g, **common).power))
            except EvalbarsError:
                continue
        curves.append((g, [n for n, _ in points], [p for _, p in points]))
    return curves


def power(doc: dict, *, gaps=None):
    """Power against the number of questions, one curve per gap (log scale).

    Parameters
    ----------
    doc : dict
        A ``power`` document; its n is marked and its target power drawn dashed.
    gaps : sequence of float, optional
        See :func:`power_curves`.
    """
    if doc.get("kind") != "power":
        raise EvalbarsError(f"the power plot needs a power document; got kind "
                            f"{doc.get('kind')!r}")
    figure = _figure(7.5, 4.2)
    ax = figure.add_subplot()
    for index, (g, ns, powers) in enumerate(power_curves(doc, gaps=gaps)):
        ax.plot(ns, powers, color=COLORS[index % len(COLORS)], lw=2, label=gap_label(doc, g),
                gid=f"power:{g!r}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.axhline(doc["power"], color="#1d2330", lw=1, ls="--")
    if doc.get("n"):
        ax.axvline(doc["n"], color=COLORS[3], lw=1, ls=":")
    ax.yaxis.set_major_formatter(lambda p, _: f"{p:.0%}")
    ax.xaxis.set_major_formatter(lambda n, _: f"{n:,.0f}")
    ax.grid(color="#e6e8ee")
    per = " per model" if doc["design"] == "unpaired" else ""
    ax.set_xlabel(f"questions{per} (log scale)")
    ax.set_ylabel(f"power (alpha {doc['alpha']:g}, two-sided)")
    ax.set_title(f"{doc['design']} design, {doc['method']} test", loc="left", fontsize=11)
    ax.legend(frameon=False)
    return figure


_NATURAL = {"ci": forest, "compare": gap, "gate": gap, "leaderboard": leaderboard,
            "passk": forest, "bradley-terry": forest, "power": power}


def plot(doc: dict, **options):
    """The natural figure of a document: forest, gap, leaderboard or power.

    ``options`` go to that function (``method=`` for intervals, ``gaps=`` for power).
    """
    kind = doc.get("kind")
    if kind not in _NATURAL:
        raise EvalbarsError(f"no plot for documents of kind {kind!r}; plots exist for "
                            f"{sorted(_NATURAL)}")
    return _NATURAL[kind](doc, **options)


def save(figure, path) -> Path:
    """Write ``figure`` to ``path`` as PNG, SVG or PDF (from the suffix); return the path."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise EvalbarsError(f"the figure file must end in one of {', '.join(FORMATS)}; "
                            f"got {str(path)!r}")
    figure.savefig(path, dpi=150)
    return path


def ablation(doc: dict, *, method: str | None = None):
    """The ablation figure: every score (left) beside the gain and each variant's drop (right).

    Left, each model's score with its default interval (the full system, the baseline,
    then the variants, as in the document). Right, on a scale of points, the full
    system's gain over the baseline and each variant's drop from the full system, with
    their paired intervals and a dashed line at zero.

    Parameters
    ----------
    doc : dict
        An ``ablation`` document (:func:`evalbars.ablation`).
    method : str, optional
        The paired interval to draw on the right (default: the document's first,
        ``paired-bootstrap-percentile``).

    Examples
    --------
    >>> import evalbars, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> frame = pd.DataFrame({"qid": range(300), "base": rng.random(300) < 0.5,
    ...                       "full": rng.random(300) < 0.7, "no_x": rng.random(300) < 0.6})
    >>> doc = evalbars.ablation(frame.astype({"base": int, "full": int, "no_x": int}),
    ...                         full="full", baseline="base", n_resamples=500).to_dict()
    >>> figure = ablation(doc)
    >>> [line.get_gid() for line in figure.axes[1].get_lines()][:4:2]
    ['interval:gain: full − base', 'interval:drop: full − no_x']
    """
    if doc.get("kind") != "ablation":
        raise EvalbarsError(f"the ablation plot needs an ablation document; got kind "
                            f"{doc.get('kind')!r}")

    def row(label: str, estimate: float, intervals: list[dict], chosen: str | None) -> dict:
        for interval in intervals:
            if chosen is None or interval["method"] == chosen:
                return {"name": label, "estimate": estimate, "low": interval["low"],
                        "high": interval["high"], "method": interval["method"]}
        raise EvalbarsError(f"method must be one of the document's intervals "
                            f"{sorted(i['method'] for i in intervals)}; got {chosen!r}")

    scores = [row(m["name"], m["mean"], m["intervals"], None) for m in doc["models"]]
    gaps = [row(f"gain: {doc['full']} \u2212 {doc['baseline']}", doc["gain"]["estimate"],
                doc["gain"]["intervals"], method)]
    gaps += [row(f"drop: {doc['full']} \u2212 {v['name']}", v["drop"]["estimate"],
                 v["drop"]["intervals"], method) for v in doc["variants"]]
    figure = _figure(11.0, 1.5 + 0.42 * max(len(scores), len(gaps)))
    left, right = figure.subplots(1, 2)
    _draw(left, scores, doc)
    _draw(right, gaps, doc, sign=True, colors=(COLORS[2],) + (COLORS[3],) * len(doc["variants"]))
    right.axvline(0.0, color="#1d2330", lw=1, ls="--")
    left.set_title("Each model on its own", loc="left", fontsize=11)
    right.set_title("The gain, and what removing each part costs (not additive)", loc="left",
                    fontsize=11)
    left.set_xlabel(axis_label(doc, "score", scores[0]["method"]))
    right.set_xlabel(axis_label(doc, "gap", gaps[0]["method"]))
    return figure


__all__.append("ablation")
_NATURAL["ablation"] = ablation


def seeds(doc: dict, *, method: str | None = None):
    """Training runs: each run's score with its interval, grouped by recipe, and the recipes.

    Left, one row per run (its interval over questions), each recipe's runs in one color,
    followed by the recipe's mean over runs with its interval over seeds and questions.
    Right, when the document compares two recipes, the difference of their means with
    both intervals and a dashed line at zero.

    Parameters
    ----------
    doc : dict
        A ``seeds`` document (:func:`evalbars.seeds`).
    method : str, optional
        The interval of the recipe means: ``"seeds-t"`` (default) or
        ``"two-level-bootstrap"``.

    Examples
    --------
    >>> import evalbars
    >>> doc = evalbars.seeds("examples/seeds.csv", run="seed", n_resamples=500).to_dict()
    >>> figure = seeds(doc)
    >>> [line.get_gid() for line in figure.axes[0].get_lines()][:2]
    ['interval:baseline run 0', 'estimate:baseline run 0']
    """
    if doc.get("kind") != "seeds":
        raise EvalbarsError(f"the seeds plot needs a seeds document; got kind "
                            f"{doc.get('kind')!r}")
    methods = [i["method"] for i in doc["models"][0]["intervals"]]
    if method is not None and method not in methods:
        raise EvalbarsError(f"method must be one of the document's intervals {methods}; "
                            f"got {method!r}")
    chosen = methods.index(method) if method is not None else 0
    rows, colors = [], []
    for k, recipe in enumerate(doc["models"]):
        for run in recipe["runs"]:
            rows.append({"name": f"{recipe['name']} run {run['run']}", "estimate": run["mean"],
                         "low": run["interval"]["low"], "high": run["interval"]["high"]})
        interval = recipe["intervals"][chosen]
        rows.append({"name": f"{recipe['name']} (mean of {recipe['n_runs']} runs)",
                     "estimate": recipe["mean"], "low": interval["low"],
                     "high": interval["high"]})
        colors += [COLORS[k % len(COLORS)]] * (recipe["n_runs"] + 1)
    difference = doc.get("difference")
    figure = _figure(11.0 if difference else 7.5, 1.3 + 0.36 * len(rows))
    if difference:
        left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        gaps = [{"name": i["method"], "estimate": difference["estimate"], "low": i["low"],
                 "high": i["high"]} for i in difference["intervals"]]
        _draw(right, gaps, doc, sign=True, colors=(COLORS[2], "#8c8c8c"))
        right.axvline(0.0, color="#1d2330", lw=1, ls="--")
        b, a = _literal(difference["b"]), _literal(difference["a"])
        right.set_title(f"{b} \u2212 {a} (runs as the unit)", loc="left", fontsize=11)
        right.set_xlabel(axis_label(doc, "gap"))
    else:
        left = figure.add_subplot()
    _draw(left, rows, doc, colors=colors)
    left.set_title("Each run over questions; each recipe over seeds and questions", loc="left",
                   fontsize=11)
    run_method = doc["models"][0]["runs"][0]["interval"]["method"]
    left.set_xlabel(axis_label(doc, "score", f"runs {run_method}, means {methods[chosen]}"))
    return figure


__all__.append("seeds")
_NATURAL["seeds"] = seeds
