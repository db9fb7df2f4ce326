"""Numbers and labels as the reports word them (HTML, Markdown, LaTeX, plots, tables).

Each function reads what it needs from the report document itself: whether values are
shown in percent and points (0/1 scores, pass@k), how many decimals the intervals need,
the confidence level. So the HTML page, the LaTeX table and a matplotlib axis word the
same number the same way.

Examples
--------
>>> doc = {"kind": "ci", "score_type": "binary", "settings": {"confidence_level": 0.95},
...        "models": [{"intervals": [{"low": 0.692, "high": 0.769}]}]}
>>> interval_text(doc, 0.692, 0.769, digits(doc)), axis_label(doc, "score", "wilson")
('69.2 to 76.9', 'score, % (95% intervals, wilson)')
"""
from __future__ import annotations

import json
import math

from . import format as fmt

__all__ = ["METHOD_WORDS", "TEST_WORDS", "axis_label", "digits", "estimate_text", "fixed",
           "gap_label", "interval_text", "level", "method_name", "number_text", "percent_like",
           "role", "scalar", "share", "named_test"]

METHOD_WORDS = {
    "wilson": "Wilson", "wald": "Wald", "clt": "CLT", "clopper-pearson": "Clopper-Pearson",
    "agresti-coull": "Agresti-Coull", "jeffreys": "Jeffreys", "t": "t",
    "bootstrap-percentile": "bootstrap percentile", "bootstrap-bca": "bootstrap BCa",
    "cluster-cr1": "clustered CR1", "cluster-bootstrap-percentile": "cluster bootstrap",
    "paired-bootstrap-percentile": "paired bootstrap", "paired-wald": "paired Wald",
    "paired-t": "paired t", "newcombe": "Newcombe", "unpaired-wald": "unpaired Wald",
    "paired-cluster-cr1": "paired clustered CR1",
    "paired-cluster-bootstrap": "paired cluster bootstrap",
    "unpaired-cluster-cr1": "unpaired clustered CR1", "seeds-t": "t over seeds",
    "two-level-bootstrap": "two-level bootstrap",
}
"""Interval methods as a paper names them (the document keeps the identifiers)."""
TEST_WORDS = {
    "mcnemar-exact": "exact McNemar", "sign-flip": "sign-flip permutation",
    "cluster-sign-flip": "cluster sign-flip permutation",
}
"""Paired tests as a paper names them."""
_CORRECTION_WORDS = {
    "holm": "Holm", "bonferroni": "Bonferroni", "hochberg": "Hochberg", "hommel": "Hommel",
    "benjamini-hochberg": "Benjamini-Hochberg", "benjamini-yekutieli": "Benjamini-Yekutieli",
}


def method_name(identifier: object) -> str:
    """An interval method, test or multiple-comparison correction as a paper names it;
    an identifier without a name is shown as it is.

    >>> method_name("paired-bootstrap-percentile"), method_name("holm"), method_name("x-y")
    ('paired bootstrap', 'Holm', 'x-y')
    """
    text = str(identifier)
    return METHOD_WORDS.get(text) or TEST_WORDS.get(text) or _CORRECTION_WORDS.get(text, text)


def named_test(identifier: str) -> str:
    """A paired test as a paper names it; a test without a name is shown as it is.

    >>> named_test("mcnemar-exact"), named_test("paired-t")
    ('exact McNemar', 'paired-t')
    """
    return TEST_WORDS.get(identifier, identifier)


def role(what: str, name: str) -> str:
    """A model named by its role, without a doubled word when its name is the role.

    >>> role("baseline", "base"), role("baseline", "Baseline"), role("full system", "full")
    ('the baseline base', 'the baseline', 'the full system')
    """
    plain = " ".join(name.lower().replace("_", " ").replace("-", " ").split())
    return f"the {what}" if plain in (what, what.split()[0]) else f"the {what} {name}"


def scalar(value: object) -> str:
    """Any JSON value as short text: 4 significant digits, thousands separators.

    >>> scalar(None), scalar(True), scalar(12345), scalar(0.123456), scalar([1, "x"])
    ('n/a', 'yes', '12,345', '0.1235', '1, x')
    """
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return fmt.count(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(scalar(v) for v in value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def fixed(x: object, decimals: int) -> str:
    """A number with fixed decimals (thousands separated), or 'n/a'.

    >>> fixed(-1234.5, 1), fixed(None, 2)
    ('\u22121,234.5', 'n/a')
    """
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "n/a"
    return f"{x:,.{decimals}f}".replace("-", "\u2212")


def share(p: object) -> str:
    """A probability as a percentage; '<1%' and '>99%' rather than a rounded 0 or 100.

    >>> share(0.001), share(0.42), share(1.0), share(None)
    ('<1%', '42%', '100%', 'n/a')
    """
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        return scalar(p)
    if 0 < p < 0.005 or 0.995 < p < 1:
        return "<1%" if p < 0.5 else ">99%"
    return f"{p:.0%}"


def percent_like(doc: dict) -> bool:
    """Shown in percent and points: 0/1 scores, and pass@k."""
    return doc.get("score_type") == "binary" or doc.get("kind") == "passk"


def number_text(doc: dict, x: float | None, digits: int, sign: bool = False) -> str:
    """A score or gap of ``doc`` rounded for reading (percent without the % sign for 0/1
    scores and pass@k).

    >>> number_text({"score_type": "binary"}, 0.026, 1, sign=True)
    '+2.6'
    """
    return fmt.value(x, "binary" if percent_like(doc) else "continuous", digits, sign=sign)


def interval_text(doc: dict, low, high, digits: int, sign: bool = False) -> str:
    """An interval's two ends as 'low to high', rounded as :func:`number_text`; a one-sided
    bound (one end open: None) as 'at least low' or 'at most high', as in the text report.

    >>> interval_text({"score_type": "binary"}, 0.012, None, 1, sign=True)
    'at least +1.2'
    """
    score_type = "binary" if percent_like(doc) else "continuous"
    return fmt.ends({"low": low, "high": high}, score_type, digits, sign=sign)


def estimate_text(doc: dict, estimate, low, high, digits: int, sign: bool = False) -> str:
    """An estimate with its interval, as '73.2 (69.2 to 76.9)'.

    >>> estimate_text({"score_type": "binary"}, 0.732, 0.692, 0.769, 1)
    '73.2 (69.2 to 76.9)'
    """
    return (f"{number_text(doc, estimate, digits, sign)} "
            f"({interval_text(doc, low, high, digits, sign)})")


def digits(doc: dict) -> int:
    """Decimals that show the narrowest default interval with two significant digits."""
    widths = [m["intervals"][0]["high"] - m["intervals"][0]["low"]
              for m in doc.get("models", []) if isinstance(m, dict) and m.get("intervals")
              and None not in (m["intervals"][0].get("low"), m["intervals"][0].get("high"))]
    score_type = "binary" if percent_like(doc) else "continuous"
    return fmt.decimals_for(score_type, min(widths) if widths else float("nan"))


def level(doc: dict) -> str:
    """The confidence level as '95%' (or '' when the document has none)."""
    value = (doc.get("settings") or {}).get("confidence_level")
    return fmt.level(value) if isinstance(value, (int, float)) else ""


def gap_label(doc: dict, gap: float) -> str:
    """'gap 1 point', 'gap 2.5 points', or 'gap 0.05' for scores that are not 0/1.

    >>> gap_label({"inputs": {}}, 0.025), gap_label({"inputs": {"variance": 1.0}}, 0.05)
    ('gap 2.5 points', 'gap 0.05')
    """
    if "variance" in (doc.get("inputs") or {}):
        return f"gap {gap:g}"
    points = f"{100 * gap:.2f}".rstrip("0").rstrip(".")
    return f"gap {points} point" + ("" if points == "1" else "s")


def axis_label(doc: dict, what: str = "score", method: str | None = None) -> str:
    """'score, % (95% intervals, wilson)': the unit and the level, for an axis."""
    unit = (", points" if what == "gap" else ", %") if percent_like(doc) else ""
    how = f", {method}" if method else ""
    return f"{what}{unit} ({level(doc)} intervals{how})"
