"""Power against n for a few gaps, computed from a ``power`` document: the curves that the
power figure (:mod:`evalbars.report.plots`) and the HTML report's inline figure draw."""
from __future__ import annotations

import math

from ..core.errors import EvalbarsError
from ..stats.power import INPUTS, check_gap, check_power, make_plan, n_for


def power_curves(doc: dict, *, gaps=None, n_points: int = 40) -> list[tuple]:
    """Power against n for a few gaps, from a ``power`` document's design and inputs.

    Parameters
    ----------
    doc : dict
        A ``power`` document (:func:`evalbars.analyses.power.solve` or
        :func:`~evalbars.analyses.power.grid`).
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

    try:
        plan = make_plan(doc["design"], doc["method"], doc["alpha"],
                     {key: doc["inputs"].get(key) for key in INPUTS},
                     doc.get("alternative", "two-sided"))
    except EvalbarsError:
        return []
    if gaps is None:
        gaps = [row["gap"] for row in doc["grid"]] if doc.get("grid") else \
            [doc["gap"] / 2, doc["gap"], 2 * doc["gap"]]
    needed = {}
    for g in gaps:
        try:
            needed[g] = n_for(plan, check_gap(plan, g), check_power(plan, 0.95))[0]
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
                points.append((n, plan.power(n, check_gap(plan, g))))
            except EvalbarsError:
                continue
        curves.append((g, [n for n, _ in points], [p for _, p in points]))
    return curves
