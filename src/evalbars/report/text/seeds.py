"""The ``seeds`` document in words and tables: statement, terminal report and Markdown.

Pure functions of the document (``SeedsResult.to_dict()``); rounding happens only here.
Scores of 0/1 data are shown in percent and differences in points.
"""
from __future__ import annotations

import math

from .. import format as fmt
from .blocks import closing_lines, markdown_closing, md_table, source_lines, table, wrapped


def _digits(doc: dict) -> int:
    widths = [i["high"] - i["low"] for m in doc["models"] for i in m["intervals"][:1]
              if i["low"] is not None and i["high"] is not None and i["high"] > i["low"]]
    return fmt.decimals_for(doc["score_type"], min(widths) if widths else math.nan)


def _value(doc: dict, x: float | None, sign: bool = False, digits: int | None = None) -> str:
    return fmt.value(x, doc["score_type"], _digits(doc) if digits is None else digits,
                     sign=sign)


def _ends(doc: dict, interval: dict, sign: bool = False) -> str:
    return fmt.ends(interval, doc["score_type"], _digits(doc), sign=sign)


def _sd(doc: dict, variance: float | None) -> str:
    """A variance shown as a standard deviation, in the score's units."""
    return "n/a" if variance is None else _value(doc, math.sqrt(variance))


def _df(df: float | None) -> str:
    return "n/a" if df is None else f"{df:.1f}"


def _points(doc: dict) -> str:
    return " points" if doc["score_type"] == "binary" else ""


def _in_points(doc: dict) -> str:
    return ", in points" if doc["score_type"] == "binary" else ""


def _unit(doc: dict) -> str:
    return "%" if doc["score_type"] == "binary" else "score units"


def _level(doc: dict) -> str:
    return f"{fmt.level(doc['settings']['confidence_level'])}"


# --------------------------------------------------------------------------- statement


def _recipe_clause(doc: dict, m: dict) -> str:
    t = m["intervals"][0]
    if m["n_runs"] == 1:
        return (f"{m['name']} was trained once and scored {_value(doc, m['mean'])}"
                f"{'%' if doc['score_type'] == 'binary' else ''} ({_level(doc)} CI "
                f"{_ends(doc, t)} over questions only), a claim about one checkpoint, not "
                "about the recipe")
    return (f"{m['name']} scored {_value(doc, m['mean'])}"
            f"{'%' if doc['score_type'] == 'binary' else ''} averaged over {m['n_runs']} runs "
            f"(sd {_value(doc, m['sd'])}{_points(doc)} across runs; {_level(doc)} CI "
            f"{_ends(doc, t)} over seeds and questions)")


def statement(doc: dict) -> str:
    """The result in plain words, a pure function of the ``seeds`` document.

    Examples
    --------
    >>> t = {"method": "seeds-t", "low": 0.6, "high": 0.7}
    >>> doc = {"n_items": 300, "score_type": "binary",
    ...        "settings": {"confidence_level": 0.95, "n_resamples": 1000},
    ...        "models": [{"name": "r", "n_runs": 1, "mean": 0.65, "sd": None,
    ...                    "intervals": [t], "variance": {"seed_share": None}}]}
    >>> print(statement(doc))  # doctest: +NORMALIZE_WHITESPACE
    On 300 questions, r was trained once and scored 65.0% (95% CI 60.0 to 70.0 over
    questions only), a claim about one checkpoint, not about the recipe.
    """
    sentences = [f"On {doc['n_items']:,} questions, "
                 + "; ".join(_recipe_clause(doc, m) for m in doc["models"]) + "."]
    shares = [(m["name"], m["variance"]["seed_share"]) for m in doc["models"]
              if m["variance"]["seed_share"] is not None]
    if shares:
        listed = " and ".join(f"{share:.0%} ({name})" for name, share in shares)
        sentences.append(f"Of the variance of one run's score, seed-to-seed variation accounts "
                         f"for {listed}, the questions for the rest.")
    if "difference" in doc:
        d = doc["difference"]
        t, boot = d["intervals"][0], d["intervals"][1]
        sentences.append(
            f"Across seeds and questions, {d['b']} \u2212 {d['a']} is "
            f"{_value(doc, d['estimate'], True)}{_points(doc)} ({_level(doc)} CI "
            f"{_ends(doc, t, True)}, t with {_df(d['df'])} degrees of freedom; two-level "
            f"bootstrap {_ends(doc, boot, True)}, {doc['settings']['n_resamples']:,} rounds), "
            "with runs as the unit and the questions paired.")
        if t["low"] is not None and t["low"] <= 0 <= t["high"]:
            sentences.append("The interval includes zero: these runs cannot tell which recipe "
                             "is better.")
        single = [m["name"] for m in doc["models"] if m["n_runs"] == 1]
        if single:
            sentences.append(f"With one run of {' and '.join(single)}, the comparison is with "
                             "one checkpoint, and that recipe's seed-to-seed variation is not "
                             "in the interval.")
    return " ".join(sentences)


# --------------------------------------------------------------------------- tables


def _run_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    rows = []
    for m in doc["models"]:
        for k, r in enumerate(m["runs"]):
            rows.append([m["name"] if k == 0 else "", r["run"], _value(doc, r["mean"]),
                         _ends(doc, r["interval"])])
    return ["recipe", "run", "score", "interval"], rows


def _recipe_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    rows = [[m["name"], str(m["n_runs"]), _value(doc, m["mean"]), _value(doc, m["sd"]),
             _ends(doc, m["intervals"][0]), _df(m["df"]), _ends(doc, m["intervals"][1])]
            for m in doc["models"]]
    return ["recipe", "runs", "mean", "sd across runs", "seeds-t (default)", "df",
            "two-level-bootstrap"], rows


def _variance_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    rows = []
    for m in doc["models"]:
        v = m["variance"]
        share = "n/a (one run)" if v["seed_share"] is None else f"{v['seed_share']:.0%}"
        rows.append([m["name"], _sd(doc, v["seed"]), _sd(doc, v["question"]), share])
    return ["recipe", "seeds", "questions", "seed share"], rows


def _difference_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    d = doc["difference"]
    t, boot = d["intervals"]
    return (["method", f"{_level(doc)} interval"],
            [[f"seeds-t (default), {_df(d['df'])} df", _ends(doc, t, True)],
             ["two-level-bootstrap", _ends(doc, boot, True)]])


def parts_line(doc: dict) -> str:
    """The difference's standard error and the variances it adds up from."""
    d, v = doc["difference"], doc["difference"]["variance"]
    return (f"standard error {_value(doc, d['se'])}{_points(doc)} from seeds of {d['a']} "
            f"{_sd(doc, v['seed_a'])}, seeds of {d['b']} {_sd(doc, v['seed_b'])}, questions "
            f"{_sd(doc, v['questions'])} (as standard deviations; variances add)")


def _heading(doc: dict) -> str:
    recipes = ", ".join(f"{m['name']} ({m['n_runs']} run{'s' if m['n_runs'] > 1 else ''})"
                        for m in doc["models"])
    kind = "0/1 scores" if doc["score_type"] == "binary" else "continuous scores"
    unit = "questions" if doc["settings"]["resample"] == "questions" else \
        f"questions in {fmt.count(doc['settings']['n_clusters'])} clusters"
    return f"evalbars seeds: {fmt.count(doc['n_items'])} {unit}, {kind}, recipes {recipes}"


def seeds_tables(doc: dict) -> list[tuple[str, list[str], list[list[str]]]]:
    """The report's tables as (title, header, rows): the runs, the recipes, the variance
    and, for two recipes, the difference; every renderer (terminal, Markdown, files) lays
    them out."""
    method = doc["models"][0]["runs"][0]["interval"]["method"]
    out = [(f"Runs ({_level(doc)} intervals over questions, {method}, {_unit(doc)})",
            *_run_rows(doc)),
           (f"Recipes ({_level(doc)} intervals over seeds and questions, {_unit(doc)})",
            *_recipe_rows(doc)),
           (f"Variance of one run's score, as standard deviations{_in_points(doc)}",
            *_variance_rows(doc))]
    if "difference" in doc:
        d = doc["difference"]
        out.append((f"Difference {d['b']} \u2212 {d['a']}: {_value(doc, d['estimate'], True)}"
                    f"{_points(doc)} (runs are the unit, questions paired)",
                    *_difference_rows(doc)))
    return out


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report for a ``seeds`` document."""
    lines = [_heading(doc)]
    lines += source_lines(doc, dropped="questions some run lacks")
    for title, header, rows in seeds_tables(doc):
        lines += ["", title] + table(header, rows)
    if "difference" in doc:
        lines += wrapped(parts_line(doc), width)
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables."""
    lines = [f"### {_heading(doc)}", "", doc["statement"]]
    for title, header, rows in seeds_tables(doc):
        lines += ["", f"**{title}**", ""] + md_table(header, rows)
    if "difference" in doc:
        lines += ["", parts_line(doc)]
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"
