"""The forest plot of strata: each stratum's score with its interval, and the aggregate."""
from __future__ import annotations

from ...core.errors import EvalbarsError
from ..files.svg import COLORS
from ..labels import axis_label
from .drawing import draw_intervals, new_figure


def strata_forest(doc: dict):
    """Each stratum's score with its interval, model by model, under the weighted
    aggregate (its headline stratified interval): a ``ci``, ``compare``, ``leaderboard``
    or ``gate`` document made with ``stratum=`` (``--stratum COL``); a leaderboard's in
    the order of the aggregates, a gate's from its comparison.

    Rows are labelled ``"<stratum> · <model>"`` (the aggregate: ``"<weighting> average ·
    <model>"``), and each interval is a line whose ``gid`` is ``"interval:<label>"``.

    Examples
    --------
    >>> import evalbars
    >>> doc = evalbars.ci("examples/strata_subjects.csv", models=["model_b"],
    ...                   stratum="subject", n_resamples=200).to_dict()
    >>> figure = strata_forest(doc)
    >>> [line.get_gid() for line in figure.axes[0].get_lines()][:3]
    ['interval:micro average · model_b', 'estimate:micro average · model_b', 'interval:algebra · model_b']
    """
    if doc.get("kind") == "gate" and isinstance(doc.get("comparison"), dict):
        doc = doc["comparison"]
    strata = doc.get("strata")
    if not strata:
        raise EvalbarsError("a forest plot of strata needs a ci or compare document made "
                            "with stratum= (--stratum COL), or a leaderboard or gate document "
                            "made with it")
    names = [m["name"] for m in strata["models"]]
    rows, colors = [], []
    for k, model in enumerate(strata["models"]):
        head = model["intervals"][0]
        rows.append({"label": f"{strata['weighting']} average · {model['name']}",
                     "name": model["name"], "estimate": model["estimate"],
                     "low": head["low"], "high": head["high"]})
        colors.append(COLORS[k % len(COLORS)])
    for row in strata["strata"]:
        for k, model in enumerate(row["models"]):
            rows.append({"label": f"{row['label']} · {names[k]}", "name": names[k],
                         "estimate": model["mean"], "low": model["interval"]["low"],
                         "high": model["interval"]["high"]})
            colors.append(COLORS[k % len(COLORS)])
    figure = new_figure(7.5, 1.3 + 0.32 * len(rows))
    ax = figure.add_subplot()
    draw_intervals(ax, rows, doc, colors=colors)
    method = strata["strata"][0]["models"][0]["interval"]["method"]
    ax.set_xlabel(axis_label(doc, "score", f"{method} per stratum, "
                                           f"{strata['models'][0]['intervals'][0]['method']} "
                                           f"for the average"))
    return figure
