"""Renderers for ``ablation`` documents: pure functions of the JSON.

Rounding happens here and only here; the document keeps full precision.
"""
from __future__ import annotations

from .. import format as fmt
from ..labels import role
from .blocks import closing_lines, markdown_closing, md_table, source_lines, table


def _digits(doc: dict) -> int:
    head = doc["gain"]["intervals"][0]
    return fmt.decimals_for(doc["score_type"], head["high"] - head["low"])


def _gap(doc: dict, x: float | None, digits: int) -> str:
    return fmt.value(x, doc["score_type"], digits, sign=True)


def _ends(doc: dict, interval: dict, digits: int, sign: bool = True) -> str:
    return fmt.ends(interval, doc["score_type"], digits, sign=sign)


def _percent(x: float) -> str:
    return f"{x:.0%}".replace("-", "\u2212")


def _share(share: dict) -> tuple[str, str]:
    if share["estimate"] is None:
        return "n/a", "n/a"
    ends = ("n/a" if share["low"] is None
            else f"{_percent(share['low'])} to {_percent(share['high'])}")
    return _percent(share["estimate"]), ends


def _heading(doc: dict) -> str:
    kind = "0/1 scores" if doc["score_type"] == "binary" else "continuous scores"
    n = len(doc["variants"])
    full = role("full system", doc["full"]).removeprefix("the ")
    baseline = role("baseline", doc["baseline"]).removeprefix("the ")
    return (f"{fmt.count(doc['n_items'])} questions, {kind}, {full}, {baseline}, "
            f"{n} variant{'' if n == 1 else 's'}")


def _score_table(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    roles = {doc["full"]: "full", doc["baseline"]: "baseline"}
    header = ["model", "role", "mean", doc["models"][0]["intervals"][0]["method"]]
    rows = [[m["name"], roles.get(m["name"], "variant"),
             fmt.value(m["mean"], doc["score_type"], digits),
             _ends(doc, m["intervals"][0], digits, sign=False)] for m in doc["models"]]
    return header, rows


def _gain_rows(doc: dict, digits: int) -> list[list[str]]:
    gain = doc["gain"]
    rows = [[interval["method"], _ends(doc, interval, digits)] for interval in gain["intervals"]]
    return rows + [[f"{gain['test']} p", fmt.p_cell(gain["p_value"])],
                   [f"{doc['correction']['method']} p", fmt.p_cell(gain["p_adjusted"])]]


def _variant_table(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    method = doc["gain"]["intervals"][0]["method"]
    correction = doc["correction"]["method"]
    header = ["variant", "drop from full", method, f"{correction} p", "share of gain",
              "share interval", f"vs {doc['baseline']}", f"{correction} p"]
    rows = []
    for v in doc["variants"]:
        drop, versus = v["drop"], v["vs_baseline"]
        rows.append([v["name"], _gap(doc, drop["estimate"], digits),
                     _ends(doc, drop["intervals"][0], digits), fmt.p_cell(drop["p_adjusted"]),
                     *_share(v["share"]), _gap(doc, versus["estimate"], digits),
                     fmt.p_cell(versus["p_adjusted"])])
    return header, rows


def _titles(doc: dict) -> tuple[str, str, str]:
    level = f"{fmt.level(doc['settings']['confidence_level'])}"
    units = "points" if doc["score_type"] == "binary" else "score units"
    correction = doc["correction"]
    return (f"Scores ({level} intervals, {'%' if doc['score_type'] == 'binary' else units})",
            f"Gain of the full system: {doc['full']} \u2212 {doc['baseline']} "
            f"{_gap(doc, doc['gain']['estimate'], _digits(doc))}"
            f"{' points' if doc['score_type'] == 'binary' else ''} ({level} intervals)",
            f"Each variant against the full system and the baseline ({units}; drop = "
            f"{doc['full']} \u2212 variant; p-values {correction['method']}-adjusted over the "
            f"{correction['n_tests']} comparisons of the table)")


def shares_note(doc: dict) -> str:
    """What the variants' shares of the gain add up to, and why that need not be 100%."""
    total = doc["shares_total"]
    shown = "n/a" if total is None else _percent(total)
    return (f"shares add up to {shown}; they are not additive in general (parts can overlap "
            "or depend on each other)")


def ablation_tables(doc: dict) -> list[tuple[str, list[str] | None, list[list[str]]]]:
    """The report's tables as (title, header, rows), in the terminal's order: the scores,
    the gain of the full system, each variant; every renderer (terminal, Markdown, files)
    lays them out. A header of None: name and value."""
    digits = _digits(doc)
    scores_title, gain_title, table_title = _titles(doc)
    return [(scores_title, *_score_table(doc, digits)),
            (gain_title, None, _gain_rows(doc, digits)),
            (table_title, *_variant_table(doc, digits))]


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report: scores, the gain, the ablation table, the statement."""
    lines = [f"evalbars ablation: {_heading(doc)}"]
    lines += source_lines(doc)
    for title, header, rows in ablation_tables(doc):
        lines += ["", title] + table(header, rows)
    lines.append("  " + shares_note(doc))
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables, each variant first."""
    scores, gain, variants = ablation_tables(doc)
    lines = [f"### evalbars ablation: {_heading(doc)}", "", doc["statement"], "",
             f"**{variants[0]}**", ""]
    lines += md_table(*variants[1:])
    lines += ["", shares_note(doc).capitalize() + ".", "", f"**{gain[0]}**", ""]
    lines += md_table(["", "value"], gain[2])
    lines += ["", f"**{scores[0]}**", ""] + md_table(*scores[1:])
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"
