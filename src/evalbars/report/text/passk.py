"""Renderers for ``kind: "passk"`` documents: the terminal report and Markdown.

Pure functions of the document (``PassKResult.to_dict()``); rounding happens only here.
"""
from __future__ import annotations

from .. import format as fmt
from .blocks import closing_lines, markdown_closing, md_table, source_lines, table


def _pct(x: float | None, sign: bool = False) -> str:
    return fmt.value(x, "binary", 1, sign=sign)


def _gap(x: float | None) -> str:
    return fmt.value(x, "binary", 1, sign=True)


def statement(doc: dict) -> str:
    """The result in plain words, a pure function of the ``passk`` document.

    >>> doc = {"settings": {"confidence_level": 0.95, "n_resamples": 1000, "k": [5],
    ...                     "resample": "questions"},
    ...        "models": [{"name": "m", "n_items": 40, "answers": {"min": 10, "max": 10},
    ...                    "pass_at_k": [{"k": 5, "estimate": 0.5, "low": 0.4, "high": 0.6,
    ...                                   "shortcut": 0.45}]}]}
    >>> statement(doc).split(". ")[0]
    'On 40 questions with 10 sampled answers each, m has pass@5 50.0% (95% CI 40.0 to 60.0%)'
    """
    settings = doc["settings"]
    level = f"{fmt.level(settings['confidence_level'])}"
    low = min(m["answers"]["min"] for m in doc["models"])
    high = max(m["answers"]["max"] for m in doc["models"])
    each = str(low) if low == high else f"{low} to {high}"
    hat = "pass_hat_k" in doc["models"][0]
    parts = []
    for model in doc["models"]:
        rows = [f"{name}{r['k']} {_pct(r['estimate'])}% ({level} CI {_pct(r['low'])} to "
                f"{_pct(r['high'])}%)" for name, key in _measures(hat) for r in model[key]]
        parts.append(f"{model['name']} has " + ", ".join(rows))
    sentences = [f"On {doc['models'][0]['n_items']:,} questions with {each} sampled answers "
                 "each, " + "; ".join(parts) + "."]
    if hat:
        sentences.append("pass^k is the chance that all k tries pass, pass@k that at least "
                         "one does.")
    if "difference" in doc:
        differences = [(name, doc[key]) for name, key in
                       (("pass@", "difference"), ("pass^", "difference_pass_hat_k")) if key in doc]
        gaps = [f"{name}{g['k']} {_gap(g['estimate'])} points ({level} CI {_gap(g['low'])} to "
                f"{_gap(g['high'])})" for name, rows in differences for g in rows]
        undecided = [f"{name}{g['k']}" for name, rows in differences for g in rows
                     if g["low"] is not None and g["low"] <= 0 <= g["high"]]
        sentences.append(f"Paired on the same questions, {doc['b']} \u2212 {doc['a']}: "
                         + ", ".join(gaps) + ".")
        if undecided:
            sentences.append(f"Where the interval includes zero ({', '.join(undecided)}), these "
                             "data cannot tell which model is better.")
    unit = "whole clusters of questions" if settings["resample"] == "clusters" else "questions"
    sentences.append(f"Intervals are percentile bootstrap intervals ({settings['n_resamples']:,}"
                     f" resamples) over {unit}, each carrying all its answers. The shortcut "
                     "1 \u2212 (1 \u2212 c/n)^k, shown for contrast, underestimates pass@k"
                     + (", and (c/n)^k overestimates pass^k." if hat else "."))
    return " ".join(sentences)


def _measures(hat: bool) -> tuple[tuple[str, str], ...]:
    """(label prefix, model key) of the measures in the document."""
    return (("pass@", "pass_at_k"), ("pass^", "pass_hat_k")) if hat else (("pass@", "pass_at_k"),)


def _answers(model: dict) -> str:
    low, high = model["answers"]["min"], model["answers"]["max"]
    return f"{low}" if low == high else f"{low}\u2013{high}"


def _model_rows(doc: dict, key: str = "pass_at_k") -> tuple[list[str], list[list[str]]]:
    header = ["model", "k", "pass@k" if key == "pass_at_k" else "pass^k", "interval",
              "shortcut (biased)"]
    rows = []
    for model in doc["models"]:
        for index, row in enumerate(model[key]):
            rows.append([model["name"] if index == 0 else "", str(row["k"]),
                         _pct(row["estimate"]), f"{_pct(row['low'])} to {_pct(row['high'])}",
                         _pct(row["shortcut"])])
    return header, rows


def _difference_rows(doc: dict, key: str = "difference") -> tuple[list[str], list[list[str]]]:
    header = ["k", "gap (points)", "interval"]
    rows = [[str(gap["k"]), _pct(gap["estimate"], True),
             f"{_pct(gap['low'], True)} to {_pct(gap['high'], True)}"]
            for gap in doc[key]]
    return header, rows


def _hat_heading(doc: dict) -> str:
    return (f"pass^k, all k tries pass (same resamples; shortcut = "
            f"{doc['settings']['shortcut_pass_hat_k']}, biased high)")


def _heading(doc: dict) -> str:
    settings = doc["settings"]
    unit = "questions" if settings["resample"] == "questions" else \
        f"{fmt.count(settings['n_clusters'])} clusters"
    return (f"pass@k ({fmt.level(settings['confidence_level'])} intervals, %; bootstrap over {unit}; "
            f"shortcut = {settings['shortcut']}, biased low)")


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report for a ``passk`` document."""
    first = doc["models"][0]
    answers = ", ".join(f"{m['name']} {_answers(m)}" for m in doc["models"])
    lines = [f"evalbars passk: {fmt.count(first['n_items'])} questions, answers per question: "
             f"{answers}"]
    lines += source_lines(doc, dropped="questions present for one model only")
    lines += ["", _heading(doc)] + table(*_model_rows(doc))
    if "pass_hat_k" in first:
        lines += ["", _hat_heading(doc)] + table(*_model_rows(doc, "pass_hat_k"))
    if "difference" in doc:
        lines += ["", f"Difference {doc['b']} \u2212 {doc['a']} (paired on the same questions)"]
        lines += table(*_difference_rows(doc))
    if "difference_pass_hat_k" in doc:
        lines += ["", f"Difference in pass^k, {doc['b']} \u2212 {doc['a']} (paired)"]
        lines += table(*_difference_rows(doc, "difference_pass_hat_k"))
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables."""
    lines = [f"### evalbars passk: {fmt.count(doc['models'][0]['n_items'])} questions", "",
             doc["statement"], "", f"**{_heading(doc)}**", ""]
    lines += md_table(*_model_rows(doc))
    if "pass_hat_k" in doc["models"][0]:
        lines += ["", f"**{_hat_heading(doc)}**", ""] + md_table(*_model_rows(doc, "pass_hat_k"))
    if "difference" in doc:
        lines += ["", f"**Difference** {doc['b']} \u2212 {doc['a']} (paired)", ""]
        lines += md_table(*_difference_rows(doc))
    if "difference_pass_hat_k" in doc:
        lines += ["", f"**Difference in pass^k** {doc['b']} \u2212 {doc['a']} (paired)", ""]
        lines += md_table(*_difference_rows(doc, "difference_pass_hat_k"))
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"
