r"""A LaTeX table for papers, from any report document.

:func:`render_latex` writes one ``table`` environment with ``booktabs`` rules: each
model's score with its default interval, and for a comparison the paired gap (in points,
under its own sub-header) with its interval and the headline test in the caption, worded
as a careful paper would: methods by their names ("Wilson", "paired bootstrap"), never
their identifiers; model names left-aligned, numbers right-aligned. Kinds
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
from ..labels import digits, interval_text, level, method_name, number_text, role, scalar
from ..text.leaderboard import group_labels
from .sections import Table, sections

__all__ = ["render_latex", "tex"]

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
            "\u2212": "$-$", "\u00b7": r"\textperiodcentered{}", "\u2013": "--",
            "\u00b1": r"$\pm$"}


def tex(text: object) -> str:
    """``text`` with every LaTeX special character escaped (and the minus sign typeset)."""
    return "".join(_SPECIAL.get(char, char) for char in str(text))


def _bracket(doc: dict, row: dict, d: int, sign: bool = False) -> str:
    """'[low, high]', or 'at least low' / 'at most high' for a one-sided bound."""
    text = interval_text(doc, row["low"], row["high"], d, sign)
    return text if text.startswith("at ") else "[" + text.replace(" to ", ", ") + "]"


def _tabular(header: list[str], rows: list[list[str]], rules: dict[int, list[str]] | None = None,
             align: str = "") -> list[str]:
    """A booktabs tabular: text columns left (``align``, default the first), numbers right;
    before each row index in ``rules`` a midrule and that sub-header row, then a midrule."""
    align = align or "l" + "r" * (len(header) - 1)
    lines = [r"\begin{tabular}{" + align + "}", r"\toprule",
             " & ".join(tex(cell) for cell in header) + r" \\", r"\midrule"]
    for index, row in enumerate(rows):
        if index in (rules or {}):
            lines += [r"\midrule", " & ".join(tex(cell) for cell in rules[index]) + r" \\",
                      r"\midrule"]
        lines.append(" & ".join(tex(cell) for cell in row) + r" \\")
    return lines + [r"\bottomrule", r"\end{tabular}"]


def _resamples(doc: dict, interval: dict) -> str:
    """' (10,000 resamples)' after a bootstrap interval's name; nothing after any other."""
    if "bootstrap" not in interval["method"]:
        return ""
    return f" ({fmt.count(doc['settings']['n_resamples'])} resamples)"


def _clusters(doc: dict) -> str:
    """The sentence on clusters, when the intervals take them as the unit."""
    clustered = next((m["clustered"] for m in doc.get("models", []) if m.get("clustered")), None)
    if clustered is None:
        return ""
    column = ((doc.get("provenance") or {}).get("source") or {}).get("columns", {}).get("cluster")
    by = f" by {column}" if column else ""
    return (f" Questions are clustered{by} ({fmt.count(clustered['n_clusters'])} clusters); "
            "intervals and test take whole clusters as the unit.")


def _scores(doc: dict) -> tuple[list[str], list[list[str]], str]:
    d = digits(doc)
    rows = [row for row in estimates(doc) if row["default"] and row["quantity"] == "score"]
    unit = " (%)" if doc["score_type"] == "binary" else ""
    one_sided = doc["kind"] == "ci" and doc["settings"].get("alternative", "two-sided") != \
        "two-sided"  # compare keeps the scores two-sided
    header = ["Model", f"Score{unit}", f"{level(doc)} {'bound' if one_sided else 'CI'}"]
    body = [[row["name"], number_text(doc, row["estimate"], d), _bracket(doc, row, d)]
            for row in rows]
    caption = (f"Scores{unit} on {fmt.count(doc['n_items'])} questions with {level(doc)} "
               f"{'one-sided ' if one_sided else ''}{method_name(rows[0]['method'])} "
               f"confidence {'bounds' if one_sided else 'intervals'}.")
    return header, body, caption


def _compare(doc: dict) -> tuple[list[str], list[list[str]], str, dict[int, list[str]]]:
    header, rows, caption = _scores(doc)
    d, difference = digits(doc), doc["difference"]
    head = difference["intervals"][0]
    unit = " (points)" if doc["score_type"] == "binary" else ""
    sub_header = ["Paired difference", f"Gap{unit}", f"{level(doc)} CI"]
    rules = {len(rows): sub_header}
    rows.append([f"{difference['b']} \u2212 {difference['a']}",
                 number_text(doc, difference["estimate"], d, True),
                 _bracket(doc, {"low": head["low"], "high": head["high"]}, d, True)])
    test = doc["tests"][0]
    caption += (f" The difference is paired on the same questions, with a {level(doc)} "
                f"{method_name(head['method'])} interval{_resamples(doc, head)}; "
                f"{method_name(test['name'])} test p {fmt.p_value(test['p_value'])}.")
    if doc["score_type"] == "binary" and doc["agreement"].get("a_only") is not None:
        caption += (f" The models disagree on "
                    f"{fmt.count(doc['agreement']['a_only'] + doc['agreement']['b_only'])} "
                    "questions.")
    return header, rows, caption + _clusters(doc), rules


def _leaderboard(doc: dict) -> tuple[list[str], list[list[str]], str, str]:
    d = digits(doc)
    rows = sorted((row for row in estimates(doc) if row["default"] and row["quantity"] == "score"),
                  key=lambda row: row["rank"])
    unit = " (%)" if doc["score_type"] == "binary" else ""
    letters = group_labels(doc)
    header = ["Rank", "Model", f"Score{unit}", f"{level(doc)} CI", "Rank interval", "P(best)",
              "Group"]
    body = [[str(row["rank"]), row["name"], number_text(doc, row["estimate"], d),
             _bracket(doc, row, d), fmt.rank_range(row), f"{row['p_best']:.2f}",
             letters[row["name"]]] for row in rows]
    correction = doc["correction"]
    pairs = f"{fmt.count(correction['n_tests'])} pair{'' if correction['n_tests'] == 1 else 's'}"
    tests = (f"paired {method_name(doc['pairs'][0]['test'])} tests at the "
             f"{fmt.level(correction['alpha'])} level, {method_name(correction['method'])} "
             f"correction over {pairs}")
    groups = (f"Models sharing a letter cannot be separated ({tests})." if doc["baseline"] is None
              else f"Models marked a cannot be separated from the baseline {doc['baseline']} "
                   f"({tests}; the other pairs were not tested).")
    caption = (f"Leaderboard on {fmt.count(doc['n_items'])} questions: each model's "
               f"score{unit} with its {level(doc)} {method_name(rows[0]['method'])} interval, "
               f"its rank (1 = best) with its {level(doc)} bootstrap rank interval, and "
               f"P(best), the share of {fmt.count(doc['settings']['n_resamples'])} bootstrap "
               f"resamples in which it scores highest. {groups}")
    return header, body, caption, "rlrrrrl"


def _ablation(doc: dict) -> tuple[list[str], list[list[str]], str, str]:
    """Each model's score, and the full system minus each model: for the baseline the
    gain, for a variant its drop, with the adjusted p and the share of the gain."""
    d, score_type = digits(doc), doc["score_type"]
    unit, points = (" (%)", " (points)") if score_type == "binary" else ("", "")
    scores = {row["name"]: row for row in estimates(doc)
              if row["default"] and row["quantity"] == "score"}
    full, baseline, correction = doc["full"], doc["baseline"], doc["correction"]

    def gap(pair: dict) -> list[str]:
        head = pair["intervals"][0]
        return [number_text(doc, pair["estimate"], d, True), _bracket(doc, head, d, True),
                fmt.p_value(pair["p_adjusted"]).removeprefix("= ")]

    def share(variant: dict) -> str:
        s = variant["share"]
        if s["estimate"] is None:
            return "n/a"
        ends = "" if s["low"] is None else f" [{100 * s['low']:.0f}, {100 * s['high']:.0f}]"
        return f"{100 * s['estimate']:.0f}%{ends}".replace("-", "\u2212")

    def model(name: str, what: str = "") -> list[str]:
        row = scores[name]
        shown = name if not what or role(what, name) == f"the {what}" else f"{name} ({what})"
        return [shown, number_text(doc, row["estimate"], d), _bracket(doc, row, d)]

    header = ["Model", f"Score{unit}", f"{level(doc)} CI", f"{full} \u2212 model{points}",
              f"{level(doc)} CI", f"{method_name(correction['method'])} p", "Share of gain"]
    rows = [model(full, "full system") + ["", "", "", ""],
            model(baseline, "baseline") + gap(doc["gain"]) + [""]]
    rows += [model(v["name"]) + gap(v["drop"]) + [share(v)] for v in doc["variants"]]
    head = doc["gain"]["intervals"][0]
    caption = (
        f"Ablation on {fmt.count(doc['n_items'])} questions: each model's score{unit} with its "
        f"{level(doc)} {method_name(scores[full]['method'])} interval, and "
        f"{role('full system', full)} minus each model{', in points' if points else ''}: for "
        "the baseline the full system's gain, for a variant what removing its part costs, "
        f"paired on the same questions with {level(doc)} {method_name(head['method'])} "
        f"intervals{_resamples(doc, head)}; "
        f"{method_name(doc['gain']['test'])} tests, {method_name(correction['method'])}-adjusted "
        f"over the {fmt.count(correction['n_tests'])} comparisons of the analysis (each variant "
        "also against the baseline). A variant's share is its drop over the gain, with its "
        f"{level(doc)} bootstrap interval (n/a when the gain cannot be told from zero); the "
        "shares are not additive.")
    return header, rows, caption, "l" + "r" * 6


def _passk(doc: dict) -> tuple[list[str], list[list[str]], str]:
    ks = doc["settings"]["k"]
    hat = "pass_hat_k" in doc["models"][0]  # passk(pass_hat_k=True), --pass-hat-k
    header = ["Model"] + [f"pass@{k} (%)" for k in ks] + [f"pass^{k} (%)" for k in ks if hat]
    body = [[model["name"]] + [f"{number_text(doc, row['estimate'], 1)} "
                               f"{_bracket(doc, row, 1)}"
                               for row in model["pass_at_k"] + model.get("pass_hat_k", [])]
            for model in doc["models"]]
    caption = (f"pass@k (%) with {level(doc)} {method_name(doc['settings']['method'])} "
               f"intervals, resampling {doc['settings']['resample']}; unbiased estimator of "
               "Chen et al. (2021)" + ("; pass^k (%), the chance that all k tries pass, with "
                                       "the same intervals." if hat else "."))
    return header, body, caption


_AVERAGE = {"micro": "micro average (by size)", "macro": "macro average (equal weights)",
            "given": "weighted average (given weights)"}
"""The last row of the strata table, by weighting."""


def _strata(doc: dict) -> list[str]:
    r"""A second table, for ``--stratum``: each stratum's score with its interval, and under
    a rule the weighted average with its stratified-t interval.

    >>> import evalbars
    >>> doc = evalbars.ci("examples/strata_subjects.csv", models=["model_b"],
    ...                   stratum="subject", n_resamples=200).to_dict()
    >>> _strata(doc)[11:13]
    ['law & 20 & 0.1 & 35.0 [18.1, 56.7] \\\\', '\\midrule']
    """
    strata, d = doc["strata"], digits(doc)
    header = ["Stratum", "n", "Weight"] + [m["name"] for m in strata["models"]]
    rows = [[row["label"], fmt.count(row["n"]), f"{row['weight']:.3g}"]
            + [f"{number_text(doc, m['mean'], d)} {_bracket(doc, m['interval'], d)}"
               for m in row["models"]] for row in strata["strata"]]
    rows.append([_AVERAGE[strata["weighting"]], fmt.count(sum(r["n"] for r in strata["strata"])),
                 "1"] + [f"{number_text(doc, m['estimate'], d)} "
                         f"{_bracket(doc, m['intervals'][0], d)}" for m in strata["models"]])
    table = _tabular(header, rows)
    table.insert(len(table) - 3, r"\midrule")  # above the average
    unit = " (%)" if doc["score_type"] == "binary" else ""
    method = method_name(strata["strata"][0]["models"][0]["interval"]["method"])
    caption = (f"Scores{unit} in each of the {fmt.count(strata['n_strata'])} strata of "
               f"{strata['column']} with {level(doc)} {method} intervals, and their "
               f"{_AVERAGE[strata['weighting']]} with its {level(doc)} stratified t interval "
               "(stratified standard error, Satterthwaite degrees of freedom).")
    return [r"\begin{table}[t]", r"\centering", f"\\caption{{{tex(caption)}}}",
            f"\\label{{tab:evalbars-{tex(doc['kind'])}-strata}}"] + table + [r"\end{table}"]


def render_latex(doc: dict) -> str:
    r"""A LaTeX ``table`` (booktabs) of a report document, ready for a paper.

    Parameters
    ----------
    doc : dict
        Any report document. ``ci``, ``compare``, ``gate``, ``leaderboard``,
        ``ablation`` and ``passk`` get one compact table; other kinds get each table of
        their report.

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
    rules: dict[int, list[str]] = {}
    align = ""
    if target and target.get("kind") == "compare":
        header, rows, caption, rules = _compare(target)
        if kind == "gate":
            caption = f"{doc['message']}. {caption}"
    elif kind in ("leaderboard", "ablation"):
        header, rows, caption, align = {"leaderboard": _leaderboard, "ablation": _ablation}[kind](doc)
    elif kind in ("ci", "passk"):
        header, rows, caption = {"ci": _scores, "passk": _passk}[kind](doc)
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
    lines += _tabular(header, rows, rules, align)
    lines.append(r"\end{table}")
    if isinstance((target or {}).get("strata"), dict):
        lines += _strata(target)
    return "\n".join(lines) + "\n"
