"""Renderers for ``kind: "passk"`` documents: the terminal report and Markdown.

Pure functions of the document (``PassKResult.to_dict()``); rounding happens only here.
"""
from __future__ import annotations

from . import _format as fmt
from ._text_blocks import closing_lines, markdown_closing, md_table, source_lines, table


def _pct(x: float | None, sign: bool = False) -> str:
    return fmt.value(x, "binary", 1, sign=sign)


def _answers(model: dict) -> str:
    low, high = model["answers"]["min"], model["answers"]["max"]
    return f"{low}" if low == high else f"{low}\u2013{high}"


def _model_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    header = ["model", "k", "pass@k", "interval", "shortcut (biased)"]
    rows = []
    for model in doc["models"]:
        for index, row in enumerate(model["pass_at_k"]):
            rows.append([model["name"] if index == 0 else "", str(row["k"]),
                         _pct(row["estimate"]), f"{_pct(row['low'])} to {_pct(row['high'])}",
                         _pct(row["shortcut"])])
    return header, rows


def _difference_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    header = ["k", "gap (points)", "interval"]
    rows = [[str(gap["k"]), _pct(gap["estimate"], True),
             f"{_pct(gap['low'], True)} to {_pct(gap['high'], True)}"]
            for gap in doc["difference"]]
    return header, rows


def _heading(doc: dict) -> str:
    settings = doc["settings"]
    unit = "questions" if settings["resample"] == "questions" else \
        f"{fmt.count(settings['n_clusters'])} clusters"
    return (f"pass@k ({settings['confidence_level']:.0%} intervals, %; bootstrap over {unit}; "
            f"shortcut = {settings['shortcut']}, biased low)")


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report for a ``passk`` document."""
    first = doc["models"][0]
    answers = ", ".join(f"{m['name']} {_answers(m)}" for m in doc["models"])
    lines = [f"evalbars passk: {fmt.count(first['n_items'])} questions, answers per question: "
             f"{answers}"]
    lines += source_lines(doc, dropped="questions present for one model only")
    lines += ["", _heading(doc)] + table(*_model_rows(doc))
    if "difference" in doc:
        lines += ["", f"Difference {doc['b']} \u2212 {doc['a']} (paired on the same questions)"]
        lines += table(*_difference_rows(doc))
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables."""
    lines = [f"### evalbars passk: {fmt.count(doc['models'][0]['n_items'])} questions", "",
             doc["statement"], "", f"**{_heading(doc)}**", ""]
    lines += md_table(*_model_rows(doc))
    if "difference" in doc:
        lines += ["", f"**Difference** {doc['b']} \u2212 {doc['a']} (paired)", ""]
        lines += md_table(*_difference_rows(doc))
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"
