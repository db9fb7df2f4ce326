"""Number formatting shared by the statement and the renderers (report step only)."""
from __future__ import annotations

import math


def decimals_for(score_type: str, width: float) -> int:
    """Decimals that show an interval of this width with about two significant digits."""
    if score_type == "binary":
        return 1
    if not math.isfinite(width) or width <= 0:
        return 3
    return min(6, max(1, 1 - math.floor(math.log10(width))))


def value(x: float | None, score_type: str, decimals: int, *, sign: bool = False) -> str:
    """A score (binary: percent without the % sign) or a gap, rounded for reading."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    shown = 100.0 * x if score_type == "binary" else x
    text = f"{shown:+.{decimals}f}" if sign else f"{shown:.{decimals}f}"
    return text.replace("-", "\u2212") if sign else text


def p_value(p: float | None) -> str:
    """A p-value as a careful paper writes it: 3 decimals, or '< 0.001'."""
    if p is None:
        return "n/a"
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"


def count(n: int) -> str:
    """An integer with thousands separators."""
    return f"{n:,}"
