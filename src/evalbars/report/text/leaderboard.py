"""Renderers for ``leaderboard`` and ``bradley-terry`` documents: pure functions of the JSON.

Rounding happens here and only here; the documents keep full precision.
"""
from __future__ import annotations

import string

from ...stats import multiplicity
from .. import format as fmt
from ..labels import method_name, share
from ..statement import unmeasured_noise
from .blocks import closing_lines, markdown_closing, md_table, source_lines, table

# --- the statement -------------------------------------------------------------------


def _places(first: int, last: int) -> str:
    return f"place {first}" if first == last else f"places {first}\u2013{last}"


def _share(p: float) -> str:
    """A probability as a reader takes it in: never "100%" or "0%" unless it is."""
    if 0.0 < p < 0.005:
        return "under 1%"
    if 0.995 < p < 1.0:
        return "over 99%"
    return f"{p:.0%}"


def _how(doc: dict) -> str:
    correction = doc["correction"]
    test = method_name(doc["pairs"][0]["test"])
    return (f"paired {test} tests, {correction['method'].title()}-adjusted over "
            f"{_plural(correction['n_tests'], 'pair')}, {fmt.level(correction['alpha'])} level")


def _plural(n: int, word: str) -> str:
    return f"{fmt.count(n)} {word}{'' if n == 1 else 's'}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _baseline_sentence(doc: dict) -> str:
    baseline, alpha = doc["baseline"], doc["correction"]["alpha"]
    higher = [p["b"] for p in doc["pairs"] if p["p_adjusted"] < alpha and p["estimate"] > 0]
    lower = [p["b"] for p in doc["pairs"] if p["p_adjusted"] < alpha and p["estimate"] < 0]
    tied = [name for name in doc["groups"][0] if name != baseline]
    parts = []
    if higher:
        parts.append(f"{_names(higher)} {'scores' if len(higher) == 1 else 'score'} higher")
    if lower:
        parts.append(f"{_names(lower)} {'scores' if len(lower) == 1 else 'score'} lower")
    if tied:
        parts.append(f"the data cannot separate {_names(tied)} from it")
    return (f"Against the baseline {baseline} ({_how(doc)}): {'; '.join(parts)}. Models other "
            "than the baseline were not compared with each other.")


def _separation_sentence(doc: dict) -> str:
    if doc["baseline"] is not None:
        return _baseline_sentence(doc)
    place = {m["name"]: i + 1 for i, m in enumerate(doc["models"])}
    found = doc["groups"]
    if len(found) == 1:
        return (f"The data cannot separate any of the {len(doc['models'])} models from each "
                f"other ({_how(doc)}).")
    together = [g for g in found if len(g) > 1]
    if not together:
        return f"The data separate every place from the next ({_how(doc)})."
    listed = "; ".join(f"{_places(place[g[0]], place[g[-1]])} ({', '.join(g)})"
                       for g in together)
    alone = [place[g[0]] for g in found if len(g) == 1]
    sentence = f"The data cannot separate {listed} ({_how(doc)})."
    if alone:
        sentence += (f" {'Places' if len(alone) > 1 else 'Place'} "
                     f"{', '.join(map(str, alone))} {'are' if len(alone) > 1 else 'is'} "
                     "separated from every neighbouring place.")
    return sentence


def _narrower_ranks(doc: dict) -> str:
    """Pairs the tests cannot separate although a rank interval leaves out the other's rank.

    Rank intervals come from the bootstrap one model at a time, with no correction over
    the pairs, so they can be narrower than what the adjusted tests can tell apart.

    >>> doc = {"correction": {"alpha": 0.05}, "models": [
    ...     {"name": "A", "rank": 1, "rank_low": 1, "rank_high": 1},
    ...     {"name": "B", "rank": 2, "rank_low": 2, "rank_high": 3}],
    ...     "pairs": [{"a": "B", "b": "A", "p_adjusted": 0.2}]}
    >>> _narrower_ranks(doc)[-89:]
    'the tests cannot separate A (rank 1, rank interval 1) from B (rank 2, rank interval 2–3).'
    """
    models = {m["name"]: m for m in doc["models"]}

    def where(name: str) -> str:
        m = models[name]
        return f"{name} (rank {m['rank']}, rank interval {fmt.rank_range(m)})"

    found = [f"{where(pair['b'])} from {where(pair['a'])}" for pair in doc["pairs"]
             if pair["p_adjusted"] >= doc["correction"]["alpha"]
             and not all(models[one]["rank_low"] <= models[other]["rank"]
                         <= models[one]["rank_high"]
                         for one, other in ((pair["a"], pair["b"]), (pair["b"], pair["a"])))]
    if not found:
        return ""
    return ("Rank intervals come from the bootstrap one model at a time, with no correction "
            "over the pairs, so they can be narrower than what the tests tell apart: the tests "
            f"cannot separate {'; '.join(found)}.")


def leaderboard_statement(doc: dict) -> str:
    """The statement for a ``leaderboard`` document: the leader, the places the data cannot
    separate, the correction.

    A pure function of the document, so every renderer shows the same words.
    """
    level = doc["settings"]["confidence_level"]
    score_type = doc["score_type"]
    leader = doc["models"][0]
    interval = leader["intervals"][0]
    digits = fmt.decimals_for(score_type, interval["high"] - interval["low"])
    unit = "%" if score_type == "binary" else ""
    ends = (f"{fmt.value(interval['low'], score_type, digits)} to "
            f"{fmt.value(interval['high'], score_type, digits)}")
    ranks = str(leader["rank_low"]) if leader["rank_low"] == leader["rank_high"] \
        else f"{leader['rank_low']} to {leader['rank_high']}"
    sentences = [
        f"On this {fmt.count(doc['n_items'])}-question evaluation set, "
        f"{len(doc['models'])} models answered the same questions. {leader['name']} is first "
        f"with {fmt.value(leader['mean'], score_type, digits)}{unit} ({fmt.level(level)} CI "
        f"{ends}, {method_name(interval['method'])}); it scores highest in "
        f"{_share(leader['p_best'])} of "
        f"{fmt.count(doc['settings']['n_resamples'])} bootstrap resamples of the questions, "
        f"and its {fmt.level(level)} rank interval is {ranks}.",
        _separation_sentence(doc)]
    narrower = _narrower_ranks(doc)
    if narrower:
        sentences.append(narrower)
    correction = doc["correction"]
    alpha, n_tests = correction["alpha"], correction["n_tests"]
    adjusted = sum(p["p_adjusted"] < alpha for p in doc["pairs"])
    raw = sum(p["p_value"] < alpha for p in doc["pairs"])
    sentence = (f"{adjusted} of {fmt.count(n_tests)} pairs {'is' if adjusted == 1 else 'are'} "
                f"separated after the {correction['method'].title()} correction ({raw} on raw "
                "p-values)")
    if n_tests > 1:
        chance = multiplicity.familywise_error(n_tests, alpha=alpha)
        sentence += (f"; uncorrected, {fmt.count(n_tests)} tests at the {fmt.level(alpha)} level "
                     f"would raise at least one false alarm with probability "
                     f"{_share(chance)} if no model differed (independent tests)")
    sentences += [sentence + ".", unmeasured_noise(doc)]
    return " ".join(sentences)


def bradley_terry_statement(doc: dict) -> str:
    """The statement for a ``bradley-terry`` document (a pure function of it)."""
    level = doc["settings"]["confidence_level"]
    models = doc["models"]
    leader = models[0]
    interval = leader["intervals"][0]

    def points(x: float) -> str:
        return fmt.value(x, "continuous", 0, sign=True)

    ranks = str(leader["rank_low"]) if leader["rank_low"] == leader["rank_high"] \
        else f"{leader['rank_low']} to {leader['rank_high']}"
    contenders = [m["name"] for m in models if m["rank_low"] == 1]
    sentences = [
        f"From {fmt.count(doc['n_battles'])} battles among {len(models)} models (a tie counts "
        "as half a win for each side), Bradley-Terry ratings on the Elo scale (400 points = "
        f"10:1 odds, mean 0) put {leader['name']} first at {points(leader['rating'])} "
        f"({fmt.level(level)} CI {points(interval['low'])} to {points(interval['high'])}); it is "
        f"first in {_share(leader['p_best'])} of {fmt.count(doc['settings']['n_resamples'])} "
        f"bootstrap resamples of the battles and its {fmt.level(level)} rank interval is {ranks}."]
    if len(contenders) > 1:
        sentences.append(f"The data cannot tell which model is first: the rank intervals of "
                         f"{', '.join(contenders)} all include 1.")
    fixed = sum(m["rank_low"] == m["rank_high"] for m in models)
    sentences.append(f"{fixed} of {len(models)} models have a rank interval of a single place.")
    sentences.append("Battles are treated as independent draws and one strength per model as "
                     "explaining every pairing; repeated prompts or voters are not accounted "
                     "for.")
    return " ".join(sentences)


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
    level = f"{fmt.level(doc['settings']['confidence_level'])}"
    units = "%" if doc["score_type"] == "binary" else "score units"
    correction = doc["correction"]
    family = "against the baseline " + doc["baseline"] if doc["baseline"] is not None \
        else "all pairs"
    return (f"Leaderboard ({level} intervals, {units}; rank 1 = best, equal means share the "
            f"smallest rank; models sharing a letter cannot be separated)",
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
            f"{fmt.level(doc['settings']['confidence_level'])} intervals over resampled battles)")


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
