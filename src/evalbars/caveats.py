"""Warnings about methods known to under-cover for the data at hand.

They name the better method; the calibration study (docs) gives the figures.
"""
from __future__ import annotations

from .results import ModelScore

SMALL_N = 30
"""Below this many items normal-approximation intervals are known to under-cover."""


def interval_warnings(model: ModelScore, score_type: str) -> list[str]:
    """Plain-words warnings about this model's intervals (empty when all is well).

    >>> from evalbars._types import Interval
    >>> m = ModelScore("m", 20, 0.95, (Interval("wald", 0.854, 1.046, 0.95),))
    >>> interval_warnings(m, "binary")[0][:60]
    "model 'm': the wald interval (0.854 to 1.046) leaves [0, 1]:"
    """
    found = []
    name = f"model {model.name!r}"
    if score_type == "binary":
        for interval in model.intervals:
            if interval.method in ("wald", "clt") and (interval.low < 0 or interval.high > 1):
                found.append(
                    f"{name}: the {interval.method} interval ({interval.low:.3f} to "
                    f"{interval.high:.3f}) leaves [0, 1]: its normal approximation has broken "
                    "down here; use the wilson interval")
        successes = round(model.mean * model.n)
        if model.n < SMALL_N or min(successes, model.n - successes) < 5:
            found.append(
                f"{name}: with n = {model.n} and {successes} right, wald, clt and bootstrap "
                "intervals cover well below their nominal level; use wilson (or "
                "clopper-pearson for a guaranteed level)")
    elif model.n < SMALL_N:
        found.append(
            f"{name}: with n = {model.n}, clt and bootstrap intervals are too narrow; "
            "use the t interval")
    return found
