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


def general(x: float, digits: int = 4) -> str:
    """A number to ``digits`` significant digits, a negative one with the minus sign
    (U+2212) the reports write: an ICC, a variance, a mean in prose.

    >>> general(-0.0320348), general(0.11943)
    ('\u22120.03203', '0.1194')
    """
    return f"{x:.{digits}g}".replace("-", "\u2212")


def ends(interval: dict, score_type: str, decimals: int, *, sign: bool = False) -> str:
    """An interval's two ends as 'low to high', each rounded as :func:`value`.

    A one-sided bound (``alternative`` greater or less: one end open, null in JSON) reads
    'at least x' or 'at most x'.

    >>> ends({"low": 0.692, "high": 0.769}, "binary", 1)
    '69.2 to 76.9'
    >>> ends({"low": 0.01, "high": None}, "binary", 1, sign=True)
    'at least +1.0'
    """
    low, high = (interval[key] if interval[key] is None or math.isfinite(interval[key])
                 else None for key in ("low", "high"))
    if (low is None) != (high is None):
        side = "at least" if high is None else "at most"
        return f"{side} {value(low if high is None else high, score_type, decimals, sign=sign)}"
    return (f"{value(interval['low'], score_type, decimals, sign=sign)} to "
            f"{value(interval['high'], score_type, decimals, sign=sign)}")


def p_value(p: float | None) -> str:
    """A p-value as a careful paper writes it: 3 decimals, or '< 0.001'."""
    if p is None:
        return "n/a"
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"


def p_cell(p: float | None) -> str:
    """A p-value for a table cell: 4 significant digits, or 'n/a'.

    >>> p_cell(0.0071973), p_cell(None)
    ('0.007197', 'n/a')
    """
    return "n/a" if p is None else f"{p:.4g}"


def rank_range(row: dict) -> str:
    """A rank interval as '2' or '1\u20133' (an en dash).

    >>> rank_range({"rank_low": 1, "rank_high": 3})
    '1\u20133'
    """
    low, high = row["rank_low"], row["rank_high"]
    return str(low) if low == high else f"{low}\u2013{high}"


def count(n: int) -> str:
    """An integer with thousands separators."""
    return f"{n:,}"


def level(p: float) -> str:
    """A confidence (or significance) level as a percentage with the digits it needs to be
    true: never '100%' for 0.999999.

    >>> level(0.95), level(0.975), level(0.999999), level(0.05), level(0.001)
    ('95%', '97.5%', '99.9999%', '5%', '0.1%')
    """
    shown = 100.0 * p
    for decimals in range(7):
        text = f"{shown:.{decimals}f}"
        if abs(float(text) - shown) < 1e-9:
            return text + "%"
    return f"{shown:.10g}%"
