"""The ablation figure: every score beside the full system's gain and each variant's drop."""
from __future__ import annotations

from ...core.errors import EvalbarsError
from ..files.svg import COLORS
from ..labels import axis_label
from .drawing import draw_intervals, new_figure, zero_line


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
    figure = new_figure(11.0, 1.5 + 0.42 * max(len(scores), len(gaps)))
    left, right = figure.subplots(1, 2)
    draw_intervals(left, scores, doc)
    draw_intervals(right, gaps, doc, sign=True,
                   colors=(COLORS[2],) + (COLORS[3],) * len(doc["variants"]))
    zero_line(right)
    left.set_title("Each model on its own", loc="left", fontsize=11)
    right.set_title("The gain, and what removing each part costs\n(the drops are not additive)",
                    loc="left", fontsize=11)
    left.set_xlabel(axis_label(doc, "score", scores[0]["method"]))
    right.set_xlabel(axis_label(doc, "gap", gaps[0]["method"]))
    return figure
