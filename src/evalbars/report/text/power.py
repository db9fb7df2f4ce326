"""Renderers for ``kind: "power"`` documents: the terminal report and Markdown.

Pure functions of the document (``PowerResult.to_dict()``); rounding happens only here.
"""
from __future__ import annotations

from .. import format as fmt
from .blocks import md_table, table

_PERCENT = ("disagreement", "baseline", "power")


def _pct(x: float, decimals: int = 1) -> str:
    return f"{100 * x:.{decimals}f}%"


def _gap(doc: dict, gap: float) -> str:
    if "variance" in doc["inputs"]:
        return f"{gap:.4g}"
    points = f"{100 * gap:.2f}".rstrip("0").rstrip(".")
    return f"{points} point" + ("" if points == "1" else "s")


def _value(doc: dict, key: str, value) -> str:
    if key in _PERCENT:
        return _pct(value)
    if key == "gap":
        return _gap(doc, value)
    if key == "n":
        return fmt.count(value)
    return f"{value:g}"


def input_rows(doc: dict) -> list[list[str]]:
    """The design, the method and each input, as (name, value) rows."""
    rows = [["design", doc["design"]], ["method", doc["method"]]]
    if doc.get("alternative", "two-sided") != "two-sided":
        rows.append(["alternative", f"{doc['alternative']} (one-sided)"])
    return rows + [[key.replace("_", " "), _value(doc, key, value)]
                   for key, value in doc["inputs"].items()]


def result_rows(doc: dict) -> list[list[str]]:
    """The solution (n, gap or power, the one solved for marked) and what it achieves."""
    unit = " per model" if doc["design"] == "unpaired" or "baseline" in doc["inputs"] else ""
    n = f"{fmt.count(doc['n'])} questions{unit}"
    if "n_unrounded" in doc:
        n += f" ({doc['n_unrounded']:,.2f} rounded up)"
    mark = {key: " (solved)" if doc["solved_for"] == key else "" for key in ("n", "gap", "power")}
    rows = [["n" + mark["n"], n], ["gap" + mark["gap"], _gap(doc, doc["gap"])],
            ["power" + mark["power"], _pct(doc["power"])],
            [f"achieved power ({doc['method']})", _pct(doc["achieved_power"])]]
    if "exact_mcnemar_power" in doc:
        rows.append(["exact McNemar power", _pct(doc["exact_mcnemar_power"])])
    if "design_effect" in doc:
        rows.append(["design effect", f"{doc['design_effect']:.3g}"])
        rows.append(["effective n", f"{doc['effective_n']:,.0f} independent questions"])
    if "n_clusters" in doc:
        rows.append(["clusters", fmt.count(doc["n_clusters"])])
    return rows


def grid_table(doc: dict) -> tuple[list[str], list[list[str]], list[str]]:
    """Header, rows and notes of the grid table."""
    exact = any("exact_mcnemar_power" in row for row in doc["grid"])
    clusters = any("n_clusters" in row for row in doc["grid"])
    header = ["gap", "n", "achieved power"] + ["exact McNemar"] * exact + ["clusters"] * clusters
    rows, notes = [], []
    for row in doc["grid"]:
        if row["n"] is None:
            rows.append([_gap(doc, row["gap"]), "impossible"] + [""] * (len(header) - 2))
            notes.append(f"{_gap(doc, row['gap'])}: {row['note']}")
            continue
        cells = [_gap(doc, row["gap"]), fmt.count(row["n"]), _pct(row["achieved_power"])]
        if exact:
            cells.append(_pct(row["exact_mcnemar_power"]))
        if clusters:
            cells.append(fmt.count(row["n_clusters"]))
        rows.append(cells)
    return header, rows, notes


def pilot_line(doc: dict) -> str:
    """What the pilot file gave the plan, in one line."""
    pilot = doc["pilot"]
    models = pilot["a"] if pilot["b"] is None else f"{pilot['b']} vs {pilot['a']}"
    kind = "0/1 scores" if pilot["score_type"] == "binary" else "continuous scores"
    parts = [f"baseline {_pct(pilot['baseline'])}" if pilot["score_type"] == "binary"
             else f"mean of {pilot['a']} {fmt.general(pilot['baseline'])}",
             f"per-question variance {fmt.general(pilot['variance'])}"]
    if "disagreement" in pilot:
        parts.insert(0, f"disagreement {_pct(pilot['disagreement'])} ({pilot['a']} only "
                        f"{fmt.count(pilot['a_only'])}, {pilot['b']} only "
                        f"{fmt.count(pilot['b_only'])})")
    if "variance_d" in pilot:
        parts.insert(0, f"variance of the difference {fmt.general(pilot['variance_d'])}")
    if "icc" in pilot:
        of = pilot["a"] if pilot["b"] is None else "the differences"
        parts.append(f"ICC of {of} {fmt.general(pilot['icc'])} in clusters of "
                     f"{pilot['cluster_size']:g} questions on average")
    if "score_icc" in pilot:
        parts.append(f"ICC of the models' own scores {fmt.general(pilot['score_icc'])}")
    if "between_variance" in pilot:
        parts.append(f"between-question variance {fmt.general(pilot['between_variance'])} "
                     f"({pilot['answers']:g} answers per question on average)")
    return (f"pilot of {fmt.count(pilot['n_items'])} questions ({models}, {kind}): "
            + ", ".join(parts))


def render_text(doc: dict) -> str:
    """The terminal report: the answer in one line, then the inputs and the details."""
    lines = [doc["statement"], "", "Inputs"] + table(None, input_rows(doc))
    lines += ["", "Result"] + table(None, result_rows(doc))
    if "grid" in doc:
        header, rows, notes = grid_table(doc)
        lines += ["", f"n needed per gap (power {_pct(doc['power'], 0)}, alpha {doc['alpha']:g})"]
        lines += table(header, rows) + [f"  {note}" for note in notes]
    if "pilot" in doc:
        lines += ["", "Pilot", "  " + pilot_line(doc)]
    lines += ["", f"evalbars {doc['provenance']['version']}"]
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables."""
    lines = [f"### evalbars power: solved for {doc['solved_for']}", "", doc["statement"], ""]
    lines += md_table(["input", "value"], input_rows(doc)) + [""]
    lines += md_table(["result", "value"], result_rows(doc))
    if "grid" in doc:
        header, rows, notes = grid_table(doc)
        lines += ["", f"**n needed per gap** (power {_pct(doc['power'], 0)}, "
                      f"alpha {doc['alpha']:g})", ""]
        lines += md_table(header, rows) + [""] * bool(notes) + [f"- {note}" for note in notes]
    if "pilot" in doc:
        lines += ["", pilot_line(doc)[0].upper() + pilot_line(doc)[1:]]
    lines += ["", f"<sub>evalbars {doc['provenance']['version']}</sub>"]
    return "\n".join(lines) + "\n"
