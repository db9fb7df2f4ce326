"""Renderers for ``leaderboard`` and ``bradley-terry`` documents: pure functions of the JSON.

Rounding happens here and only here; the documents keep full precision.
"""
from __future__ import annotations

import string

from . import _format as fmt
from ._labels import share
from ._text_blocks import closing_lines, markdown_closing, md_table, source_lines, table


def group_labels(doc: dict) -> dict[str, str]:
    """Each model's group letters: models sharing a letter cannot be separated.

    >>> group_labels({"models": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
    ...               "groups": [["A", "B"], ["B", "C"]]})
    {'A': 'a', 'B': 'ab', 'C': 'b'}
    """
    labels = {m["name"]: "" for m in doc["models"]}
    for k, group in enumerate(doc["groups"]):
        letter = string.ascii_lowercase[k] if k < 26 else f"[{k + 1}]"
        for name in group:
            labels[name] += letter
    return labels


def _digits(doc: dict) -> int:
    widths = [m["intervals"][0]["high"] - m["intervals"][0]["low"] for m in doc["models"]
              if m["intervals"][0]["high"] is not None and m["intervals"][0]["low"] is not None]
    return fmt.decimals_for(doc["score_type"], min(widths) if widths else float("nan"))


def _model_table(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    score_type, labels = doc["score_type"], group_labels(doc)
    header = ["place", "model", "mean", doc["models"][0]["intervals"][0]["method"], "rank",
              "rank interval", "p_best", "group"]
    rows = [[str(place), m["name"], fmt.value(m["mean"], score_type, digits),
             fmt.ends(m["intervals"][0], score_type, digits), str(m["rank"]), fmt.rank_range(m),
             share(m["p_best"]), labels[m["name"]]]
            for place, m in enumerate(doc["models"], 1)]
    return header, rows


def _pair_table(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    score_type, first = doc["score_type"], doc["pairs"][0]
    header = ["b", "a", "b \u2212 a"] + [i["method"] for i in first["intervals"]] + [
        f"{first['test']} p", f"{doc['correction']['method']} p"]
    rows = [[pair["b"], pair["a"], fmt.value(pair["estimate"], score_type, digits, sign=True)]
            + [fmt.ends(i, score_type, digits, sign=True) for i in pair["intervals"]]
            + [fmt.p_cell(pair["p_value"]), fmt.p_cell(pair["p_adjusted"])]
            for pair in doc["pairs"]]
    return header, rows


def _heading(doc: dict) -> str:
    kind = "0/1 scores" if doc["score_type"] == "binary" else "continuous scores"
    return (f"{fmt.count(doc['n_items'])} questions, {kind}, "
            f"{len(doc['models'])} models")


def _titles(doc: dict) -> tuple[str, str]:
    level = f"{doc['settings']['confidence_level']:.0%}"
    units = "%" if doc["score_type"] == "binary" else "score units"
    correction = doc["correction"]
    family = "against the baseline " + doc["baseline"] if doc["baseline"] is not None \
        else "all pairs"
    return (f"Leaderboard ({level} intervals, {units}; rank 1 = best, ties share the "
            f"smallest rank; a letter marks places the data cannot separate)",
            f"Pairs, paired on the same questions ({family}; p-values {correction['method']}-"
            f"adjusted over {fmt.count(correction['n_tests'])} "
            f"test{'' if correction['n_tests'] == 1 else 's'}, separated when below "
            f"{correction['alpha']:g})")


def _bt_table(doc: dict) -> tuple[list[str], list[list[str]]]:
    header = ["place", "model", "rating", doc["models"][0]["intervals"][0]["method"], "rank",
              "rank interval", "p_best", "battles", "wins", "ties"]
    rows = [[str(place), m["name"], fmt.value(m["rating"], "continuous", 0, sign=True),
             fmt.ends(m["intervals"][0], "continuous", 0, sign=True), str(m["rank"]),
             fmt.rank_range(m), share(m["p_best"]), fmt.count(m["battles"]),
             fmt.count(m["wins"]), fmt.count(m["ties"])]
            for place, m in enumerate(doc["models"], 1)]
    return header, rows


def _bt_title(doc: dict) -> str:
    return (f"Bradley-Terry ratings (Elo scale: 400 points = 10:1 odds, mean 0; "
            f"{doc['settings']['confidence_level']:.0%} intervals over resampled battles)")


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report: the ranked table, the pairs, the statement and warnings."""
    if doc["kind"] == "bradley-terry":
        lines = [f"evalbars bradley-terry: {fmt.count(doc['n_battles'])} battles, "
                 f"{doc['n_models']} models", "", _bt_title(doc)]
        lines += table(*_bt_table(doc))
    else:
        digits = _digits(doc)
        lines = [f"evalbars leaderboard: {_heading(doc)}"]
        lines += source_lines(doc, dropped="items present for one model only")
        models_title, pairs_title = _titles(doc)
        lines += ["", models_title]
        lines += table(*_model_table(doc, digits))
        lines += ["", pairs_title]
        lines += table(*_pair_table(doc, digits))
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables."""
    if doc["kind"] == "bradley-terry":
        lines = [f"### evalbars bradley-terry: {fmt.count(doc['n_battles'])} battles, "
                 f"{doc['n_models']} models", "", doc["statement"], "", f"**{_bt_title(doc)}**",
                 ""]
        lines += md_table(*_bt_table(doc))
    else:
        digits = _digits(doc)
        models_title, pairs_title = _titles(doc)
        lines = [f"### evalbars leaderboard: {_heading(doc)}", "", doc["statement"], "",
                 f"**{models_title}**", ""]
        lines += md_table(*_model_table(doc, digits))
        lines += ["", f"**{pairs_title}**", ""]
        lines += md_table(*_pair_table(doc, digits))
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"
