"""The training-runs figure: each run's interval grouped by recipe, and the recipes' gap."""
from __future__ import annotations

from ...core.errors import EvalbarsError
from ..files.svg import COLORS
from ..labels import axis_label, method_name
from .drawing import draw_intervals, literal, new_figure, zero_line


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
    figure = new_figure(11.0 if difference else 7.5, 1.3 + 0.36 * len(rows))
    if difference:
        left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        gaps = [{"name": method_name(i["method"]), "estimate": difference["estimate"],
                 "low": i["low"], "high": i["high"]} for i in difference["intervals"]]
        draw_intervals(right, gaps, doc, sign=True, colors=(COLORS[2], "#8c8c8c"))
        zero_line(right)
        b, a = literal(difference["b"]), literal(difference["a"])
        right.set_title(f"{b} \u2212 {a} (runs as the unit)", loc="left", fontsize=11)
        right.set_xlabel(axis_label(doc, "gap"))
    else:
        left = figure.add_subplot()
    draw_intervals(left, rows, doc, colors=colors)
    left.set_title("Each run over questions; each recipe over seeds and questions", loc="left",
                   fontsize=11)
    run_method = doc["models"][0]["runs"][0]["interval"]["method"]
    left.set_xlabel(axis_label(doc, "score", f"runs {run_method}, means {methods[chosen]}"))
    return figure
