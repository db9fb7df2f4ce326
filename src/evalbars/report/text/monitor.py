"""Renderers for ``kind: "monitor"`` documents: the statement, the terminal report and
Markdown.

Pure functions of the document (``MonitorResult.to_dict()``): the decision and where it
was reached, the method and its guarantee, the price against a fixed-n interval, and a
table of the looks (all of them when few, else about twenty, always with the stop).
"""
from __future__ import annotations

from .. import format as fmt
from .blocks import md_table, table, wrapped

METHOD_WORDS = {
    "discordant": "a beta-binomial mixture e-process on the disagreements (B right and A "
                  "wrong against the reverse), like McNemar's test, with the betting "
                  "confidence sequence of Waudby-Smith & Ramdas (2023) for the gap",
    "betting": "the betting confidence sequence of Waudby-Smith & Ramdas (2023)",
    "normal-mixture": "the normal-mixture boundary of Howard et al. (2021) with the running "
                      "variance (an asymptotic confidence sequence)",
}

_DECIDED = {"b-better": "{b} is better than {a}", "a-better": "{a} is better than {b}",
            "within-margin": "the gap is within the margin of \u00b1{margin}{unit}",
            "not-worse": "{b} is not worse than {a} by more than {margin}{unit}",
            "keep-going": "no decision yet: keep going"}

_ROWS = 20


def _digits(doc: dict) -> tuple[int, str]:
    binary = doc["score_type"] == "binary"
    width = (doc["last"]["high"] or 0.0) - (doc["last"]["low"] or 0.0)
    return fmt.decimals_for(doc["score_type"], width), " points" if binary else ""


def _gap(doc: dict, look: dict) -> str:
    """'+5.0 points (95% always-valid CS +1.0 to +9.0, e-value 31)'."""
    digits, unit = _digits(doc)
    show = lambda x: fmt.value(x, doc["score_type"], digits, sign=True)  # noqa: E731
    e = "n/a" if look["e_value"] is None else f"{look['e_value']:.3g}"
    return (f"{show(look['estimate'])}{unit} ({fmt.level(doc['settings']['confidence_level'])} "
            f"always-valid CS {show(look['low'])} to {show(look['high'])}, e-value {e})")


def decision_text(doc: dict) -> str:
    """The decision as a sentence fragment: 'model_b is better than model_a'."""
    digits, unit = _digits(doc)
    margin = doc["settings"]["margin"]
    shown = "" if margin is None else fmt.value(margin, doc["score_type"], digits)
    return _DECIDED[doc["decision"]].format(a=doc["a"], b=doc["b"], margin=shown, unit=unit)


def statement(doc: dict) -> str:
    """What the monitor found, how, what it guarantees, and its price.

    Examples
    --------
    >>> look = {"n": 400, "id": "q0399", "estimate": 0.05, "low": 0.01, "high": 0.09,
    ...         "e_value": 31.0}
    >>> doc = {"a": "A", "b": "B", "score_type": "binary", "unit": "question",
    ...        "method": "betting", "guarantee": "exact", "decision": "b-better",
    ...        "settings": {"confidence_level": 0.95, "margin": None, "every": 1},
    ...        "order": {"how": "in file order"}, "stopped": {"look": 400, **look},
    ...        "last": look, "n_units": 400,
    ...        "price": {"ratio": 1.6, "fixed_n_half_width": 0.025}}
    >>> statement(doc)  # doctest: +NORMALIZE_WHITESPACE
    'B is better than A: stopped at question 400 (q0399), B \u2212 A = +5.0 points (95%
    always-valid CS +1.0 to +9.0, e-value 31). Results read in file order, looked at after
    every question. Method: the betting confidence sequence of Waudby-Smith & Ramdas (2023);
    guarantee: exact. Price: at 400 questions the sequence is 1.6 times as wide as a
    fixed-n 95% interval (\u00b12.5 points), the cost of being allowed to look at every step.'
    """
    unit = doc["unit"]
    where = doc["stopped"]
    if where is not None:
        head = (f"{decision_text(doc)}: stopped at {unit} {fmt.count(where['n'])} "
                f"({where['id']}), {doc['b']} \u2212 {doc['a']} = {_gap(doc, where)}.")
    else:
        last = doc["last"]
        head = (f"{decision_text(doc)} after {fmt.count(last['n'])} {unit}s: "
                f"{doc['b']} \u2212 {doc['a']} = {_gap(doc, last)}.")
    every = doc["settings"]["every"]
    looks = f"every {unit}" if every == 1 else f"every {fmt.count(every)} {unit}s"
    text = (f"{head} Results read {doc['order']['how']}, looked at after {looks}. "
            f"Method: {METHOD_WORDS[doc['method']]}; guarantee: {doc['guarantee']}.")
    price = doc["price"]
    if price["ratio"] is not None:
        digits, points = _digits(doc)
        half = fmt.value(price["fixed_n_half_width"], doc["score_type"], digits)
        text += (f" Price: at {fmt.count(doc['n_units'])} {unit}s the sequence is "
                 f"{price['ratio']:.2g} times as wide as a fixed-n "
                 f"{fmt.level(doc['settings']['confidence_level'])} interval "
                 f"(\u00b1{half}{points}), the cost of being allowed to look at every step.")
    return text


def shown_looks(doc: dict) -> list[int]:
    """Indices of the looks in the table: every one up to twenty, else twenty spread
    evenly, always with the stopping look and the last.

    >>> shown_looks({"path": {"n": list(range(1, 6))}, "stopped": None})
    [0, 1, 2, 3, 4]
    >>> len(shown_looks({"path": {"n": list(range(100))}, "stopped": {"look": 38}}))
    21
    """
    total = len(doc["path"]["n"])
    picked = set(range(total)) if total <= _ROWS else \
        {round(i * (total - 1) / (_ROWS - 1)) for i in range(_ROWS)}
    if doc["stopped"] is not None:
        picked.add(doc["stopped"]["look"] - 1)
    return sorted(picked)


def _rows(doc: dict) -> list[list[str]]:
    digits, _ = _digits(doc)
    path, stop = doc["path"], doc["stopped"]
    show = lambda x: fmt.value(x, doc["score_type"], digits, sign=True)  # noqa: E731
    rows = []
    for k in shown_looks(doc):
        mark = "stop" if stop is not None and k == stop["look"] - 1 else ""
        e = path["e_value"][k]
        rows.append([fmt.count(path["n"][k]), str(path["id"][k]), show(path["estimate"][k]),
                     f"{show(path['low'][k])} to {show(path['high'][k])}",
                     "n/a" if e is None else f"{e:.3g}", mark])
    return rows


def _header(doc: dict) -> list[str]:
    unit = "points" if doc["score_type"] == "binary" else "gap"
    return [f"{doc['unit']}s", "last id", f"B \u2212 A ({unit})", "sequence", "e-value", ""]


def render_text(doc: dict) -> str:
    """The terminal report."""
    width = 88
    lines = [f"Monitor: {doc['b']} \u2212 {doc['a']} as results came in", ""]
    description = doc["provenance"].get("source", {}).get("description")
    if description:
        lines.append(f"read: {description}")
    lines += ["", "Looks"] + table(_header(doc), _rows(doc))
    lines += ["", "Result"] + wrapped(doc["statement"], width)
    if doc["warnings"]:
        lines += ["", "Warnings"]
        for warning in doc["warnings"]:
            lines += wrapped(warning, width, "- ")
    lines += ["", f"no resampling (deterministic) \u00b7 evalbars {doc['provenance']['version']}"]
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """The Markdown report."""
    lines = [f"### Monitor: {doc['b']} \u2212 {doc['a']}", "", f"**{decision_text(doc)}.**",
             "", *md_table(_header(doc), _rows(doc)), "", doc["statement"]]
    if doc["warnings"]:
        lines += [""] + [f"> **Warning:** {w}" for w in doc["warnings"]]
    lines += ["", f"<sub>no resampling (deterministic) \u00b7 evalbars "
                  f"{doc['provenance']['version']}</sub>"]
    return "\n".join(lines) + "\n"
