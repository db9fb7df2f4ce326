"""Argument checks and the wording of fractions, shared by the power modules."""
from __future__ import annotations

import math
import operator

import numpy as np

from ..core.errors import EvalbarsError


def checked_real(value: object, name: str, expectation: str, ok) -> float:
    """``value`` as a float satisfying ``ok``, or EvalbarsError naming all three."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or not ok(float(value)):
        raise EvalbarsError(f"{name} must be {expectation}; got {value!r}")
    return float(value)


def checked_count(value: object, name: str, expectation: str) -> int:
    try:
        count = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        count = None
    if count is None or count < 1:
        raise EvalbarsError(f"{name} must be {expectation}; got {value!r}")
    return count


def percent_text(x: float) -> str:
    return f"{100 * x:.1f}".removesuffix(".0") + "%"


def points_text(x: float, *, adjective: bool = False) -> str:
    """0.01 -> '1 point', 0.025 -> '2.5 points'; as an adjective '1-point'."""
    text = f"{100 * x:.2f}".rstrip("0").rstrip(".")
    if adjective:
        return f"{text}-point"
    return f"{text} point" + ("" if text == "1" else "s")
