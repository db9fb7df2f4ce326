r"""A LaTeX table for papers, from any report document.

:func:`render_latex` writes one ``table`` environment with ``booktabs`` rules: each
model's score with its default interval, and for a comparison the paired gap with its
interval and the headline test in the caption, worded as a careful paper would. Kinds
without a dedicated table (and any extra tables) come from
:func:`evalbars.report.files.sections.sections`, so the numbers are those of the HTML report.
Every string from the document is escaped, so a model name cannot inject LaTeX.

Needs ``\usepackage{booktabs}`` in the preamble (the output says so in a comment).

Examples
--------
>>> print(tex("model_a & 50% <b>"))
model\_a \& 50\% \textless{}b\textgreater{}
"""
from __future__ import annotations

from .. import format as fmt
from ..escape import visible
from ..estimates import estimates
from ..labels import digits, interval_text, level, number_text, scalar
from .sections import Table, sections

__all__ = ["render_latex", "tex"]

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
            "\u2212": "$-$", "\u00b7": r"\textperiodcentered{}", "\u2013": "--"}


def tex(text: object) -> str:
    """``text`` with every LaTeX special character escaped (and the minus sign typeset)."""
    return "".join(_SPECIAL.get(char, char) for char in str(text))


def _bracket(doc: dict, row: dict, d: int, sign: bool = False) -> str:
    return "[" + interval_text(doc, row["low"], row["high"], d, sign).replace(" to ", ", ") + "]"


def _tabular(header: list[str], rows: list[list[str]], rules: tuple[int, ...] = ()) -> list[str]:
    """A booktabs tabular: first column left, the others right; a midrule before each
    row index in ``rules``."""
    lines = [r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\toprule",
             " & ".join(tex(cell) for cell in header) + r" \\", r"\midrule"]
    for index, row in enumerate(rows):
        if index in rules:
            lines.append(r"\midrule")
        lines.append(" & ".join(tex(cell) for cell in row) + r" \\")
    return lines + [r"\bottomrule", r"\end{tabular}"]


def _scores(doc: dict) -> tuple[list[str], list[list[str]], str]:
    d = digits(doc)
    rows = [row for row in estimates(doc) if row["default"] and row["quantity"] == "score"]
    unit = " (%)" if doc["score_type"] == "binary" else ""
    header = ["Model", f"Score{unit}", f"{level(doc)} CI"]
    body = [[row["name"], number_text(doc, row["estimate"], d), _bracket(doc, row, d)]
            for row in rows]
    caption = (f"Scores on {fmt.count(doc['n_items'])} questions with {level(doc)} "
               f"confidence intervals ({rows[0]['method']}).")
    return header, body, caption


def _compare(doc: dict) -> tuple[list[str], list[list[str]], str, tuple[int, ...]]:
    header, rows, caption = _scores(doc)
    d, difference = digits(doc), doc["difference"]
    head = difference["intervals"][0]
    rows.append([f"{difference['b']} \u2212 {difference['a']} (paired)",
                 number_text(doc, difference["estimate"], d, True),
                 _bracket(doc, {"low": head["low"], "high": head["high"]}, d, True)])
    test = doc["tests"][0]
    caption += (f" The difference is paired on the same questions ({head['method']}, "
                f"{fmt.count(doc['settings']['n_resamples'])} resamples); {test['name']} "
                f"p {fmt.p_value(test['p_value'])}.")
    if doc["score_type"] == "binary" and doc["agreement"].get("a_only") is not None:
        caption += (f" The models disagree on "
                    f"{fmt.count(doc['agreement']['a_only'] + doc['agreement']['b_only'])} "
                    "questions.")
    return header, rows, caption, (len(rows) - 1,)


def _leaderboard(doc: dict) -> tuple[list[str], list[list[str]], str]:
    d = digits(doc)
    rows = sorted((row for row in estimates(doc) if row["default"] and row["quantity"] == "score"),
                  key=lambda row: row["rank"])
    header = ["Rank", "Model", "Score", f"{level(doc)} CI", "Rank interval", "P(best)"]
    body = [[str(row["rank"]), row["name"], number_text(doc, row["estimate"], d),
             _bracket(doc, row, d), fmt.rank_range(row), f"{row['p_best']:.2f}"] for row in rows]
    correction = doc.get("correction") or {}
    caption = (f"Leaderboard on {fmt.count(doc['n_items'])} questions: scores with "
               f"{level(doc)} intervals ({rows[0]['method']}) and bootstrap rank intervals; "
               f"pairwise p-values adjusted by {scalar(correction.get('method'))}.")
    return header, body, caption


def _passk(doc: dict) -> tuple[list[str], list[list[str]], str]:
    ks = doc["settings"]["k"]
    header = ["Model"] + [f"pass@{k} (%)" for k in ks]
    body = [[model["name"]] + [f"{number_text(doc, row['estimate'], 1)} "
                               f"{_bracket(doc, row, 1)}" for row in model["pass_at_k"]]
            for model in doc["models"]]
    caption = (f"pass@k with {level(doc)} intervals ({doc['settings']['method']}, resampling "
               f"{doc['settings']['resample']}); unbiased estimator of Chen et al. (2021).")
    return header, body, caption


def render_latex(doc: dict) -> str:
    r"""A LaTeX ``table`` (booktabs) of a report document, ready for a paper.

    Parameters
    ----------
    doc : dict
        Any report document. ``ci``, ``compare``, ``gate``, ``leaderboard`` and
        ``passk`` get one compact table; other kinds get each table of their report.

    Returns
    -------
    str
        LaTeX source; needs ``\usepackage{booktabs}``.
    """
    doc = visible(doc)  # control characters as escapes (a newline would end a paragraph)
    kind = doc.get("kind")
    version = scalar((doc.get("provenance") or {}).get("version"))
    lines = [f"% evalbars {tex(version)}: {tex(kind)} report. Needs \\usepackage{{booktabs}}."]
    target = doc.get("comparison") if kind == "gate" else doc
    rules: tuple[int, ...] = ()
    if target and target.get("kind") == "compare":
        header, rows, caption, rules = _compare(target)
        if kind == "gate":
            caption = f"{doc['message']}. {caption}"
    elif kind in ("ci", "leaderboard", "passk"):
        header, rows, caption = {"ci": _scores, "leaderboard": _leaderboard,
                                 "passk": _passk}[kind](doc)
    else:
        tables = [(section.title, block) for section in sections(doc)
                  if section.title not in ("Figure", "Provenance")
                  for block in section.blocks if isinstance(block, Table)]
        for title, table in tables:
            lines += [r"\begin{table}[t]", r"\centering", f"\\caption{{{tex(title)}}}"]
            lines += _tabular(table.header or ["", ""], table.rows)
            lines.append(r"\end{table}")
        return "\n".join(lines) + "\n"
    lines += [r"\begin{table}[t]", r"\centering", f"\\caption{{{tex(caption)}}}",
              f"\\label{{tab:evalbars-{tex(kind)}}}"]
    lines += _tabular(header, rows, rules)
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"
