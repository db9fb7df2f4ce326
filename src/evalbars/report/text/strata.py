"""The strata section of ``ci``, ``compare`` and ``leaderboard`` reports (and of a gate's
comparison): sentence, terminal and Markdown, and the tables the file reports lay out.

Pure functions of the document's ``strata`` section (:mod:`evalbars.analyses.strata`):
the weighted aggregate of each model (and the gap) with its stratified SE and intervals,
the stratified tests, and each stratum's score with its interval.
"""
from __future__ import annotations

from .. import format as fmt
from .blocks import md_table, table

_WEIGHTING = {
    "micro": "a micro average, each stratum weighted by its size",
    "macro": "a macro average, each stratum weighted equally",
    "given": "a weighted average with the weights",
}


def _digits(doc: dict) -> int:
    head = doc["strata"]["models"][0]["intervals"][0]
    width = float("nan") if head["low"] is None or head["high"] is None \
        else head["high"] - head["low"]
    return fmt.decimals_for(doc["score_type"], width)


def _where(strata: dict) -> str:
    words = _WEIGHTING[strata["weighting"]]
    if "weights_file" in strata:
        words += f" of {strata['weights_file']}"
    clusters = strata["models"][0].get("n_clusters")
    if clusters is not None:
        words += f"; its {fmt.count(clusters)} clusters resampled within strata"
    return f"over {fmt.count(strata['n_strata'])} strata of {strata['column']!r} ({words})"


def _on_scale(interval: dict, score_type: str, lowest: float) -> tuple[dict, str]:
    """For 0/1 scores, an interval cut to what a score (lowest 0) or a gap (lowest -1) can
    be, and the words saying so; the tables and the JSON keep the whole interval.

    >>> _on_scale({"low": -0.384, "high": 1.05}, "binary", 0.0)
    ({'low': 0.0, 'high': 1.0}, ', cut to the scale')
    >>> _on_scale({"low": 0.2, "high": 0.4}, "continuous", 0.0)[1]
    ''
    """
    if score_type != "binary" or None in (interval["low"], interval["high"]):
        return interval, ""
    low, high = max(interval["low"], lowest), min(interval["high"], 1.0)
    if (low, high) == (interval["low"], interval["high"]):
        return interval, ""
    return {"low": low, "high": high}, ", cut to the scale"


def _gap_name(doc: dict) -> str:
    """The gap paired within strata named as the plain statement names it.

    >>> _gap_name({"difference": {"a": "org/model-a", "b": "org/model-b"}})
    'org/model-b \u2212 org/model-a'
    """
    return f"{doc['difference']['b']} \u2212 {doc['difference']['a']}"


def strata_sentence(doc: dict) -> str:
    """The statement's sentence on the strata: the aggregates, the gap and its test.

    >>> doc = {"score_type": "binary", "settings": {"confidence_level": 0.95},
    ...        "strata": {"column": "subject", "weighting": "macro", "n_strata": 57,
    ...                   "models": [{"name": "A", "estimate": 0.61, "intervals": [
    ...                       {"method": "stratified-t", "low": 0.58, "high": 0.64}]}]}}
    >>> strata_sentence(doc)
    "Over 57 strata of 'subject' (a macro average, each stratum weighted equally), A scored 61.0% (stratified 95% CI 58.0 to 64.0)."
    """
    if "pairs" in doc["strata"]:
        return _ranked_sentence(doc)
    strata, score_type = doc["strata"], doc["score_type"]
    digits, unit = _digits(doc), "%" if score_type == "binary" else ""
    level = fmt.level(doc["settings"]["confidence_level"])
    verb = " scored" if len(strata["models"]) == 1 else ""
    parts = []
    for index, model in enumerate(strata["models"]):
        head, cut = _on_scale(model["intervals"][0], score_type, 0.0)
        words = f"stratified {level} CI " if index == 0 else ""
        parts.append(f"{model['name']}{verb} "
                     f"{fmt.value(model['estimate'], score_type, digits)}{unit} "
                     f"({words}{fmt.ends(head, score_type, digits)}{cut})")
    where = _where(strata)
    text = (f"{where[0].upper()}{where[1:]}, " + ("" if verb else "the scores are ")
            + " and ".join(parts) + ".")
    if "difference" not in strata:
        return text
    gap, test = strata["difference"], strata["tests"][0]
    points = " points" if score_type == "binary" else ""
    head, cut = _on_scale(gap["intervals"][0], score_type, -1.0)
    return (text + f" Paired within strata, the gap {_gap_name(doc)} is "
            f"{fmt.value(gap['estimate'], score_type, digits, sign=True)}{points} "
            f"({level} CI {fmt.ends(head, score_type, digits, sign=True)}{cut}; "
            f"{test['name']} p {fmt.p_value(test['p_value'])}).")


def _ranked_sentence(doc: dict) -> str:
    """A leaderboard's sentence: the first aggregate and how many pairs the stratified
    tests separate after the correction."""
    strata, score_type = doc["strata"], doc["score_type"]
    digits, unit = _digits(doc), "%" if score_type == "binary" else ""
    level = fmt.level(doc["settings"]["confidence_level"])
    first, correction = strata["models"][0], doc["correction"]
    where = _where(strata)
    separated = sum(p["p_adjusted"] < correction["alpha"] for p in strata["pairs"])
    tests = ", ".join(dict.fromkeys(p["test"] for p in strata["pairs"]))
    return (f"{where[0].upper()}{where[1:]}, {first['name']} is first with "
            f"{fmt.value(first['estimate'], score_type, digits)}{unit} (stratified {level} "
            f"CI {fmt.ends(first['intervals'][0], score_type, digits)}); paired within "
            f"strata, {separated} of {fmt.count(len(strata['pairs']))} pairs "
            f"{'is' if separated == 1 else 'are'} separated ({tests}, "
            f"{correction['method'].title()}-adjusted).")


def strata_stated(statement, doc: dict) -> str:
    """``statement(doc)``, followed by :func:`strata_sentence` when ``doc`` has strata.

    >>> strata_stated(lambda doc: "Done.", {})
    'Done.'
    """
    text = statement(doc)
    return text + " " + strata_sentence(doc) if "strata" in doc else text


def _aggregate_rows(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    strata, score_type = doc["strata"], doc["score_type"]
    rows_of = strata["models"] + ([strata["difference"]] if "difference" in strata else [])
    header = ["", "estimate", "SE"] + [i["method"] for i in rows_of[0]["intervals"]]
    rows = []
    for k, agg in enumerate(rows_of):
        sign = k == len(strata["models"])
        name = _gap_name(doc) if sign else agg["name"]
        rows.append([name, fmt.value(agg["estimate"], score_type, digits, sign=sign),
                     fmt.value(agg["se"], score_type, digits + 1)]
                    + [fmt.ends(i, score_type, digits, sign=sign) for i in agg["intervals"]])
    return header, rows


def _test_rows(doc: dict) -> list[list[str]]:
    rows = []
    for test in doc["strata"].get("tests", []):
        p = fmt.p_cell(test["p_value"])
        if "n_resamples" in test:
            p += f" (\u00b1{test['mc_error']:.1g}, {fmt.count(test['n_resamples'])} resamples)"
        statistic = "n/a" if test["statistic"] is None else f"{test['statistic']:.6g}"
        rows.append([test["name"], statistic, p])
    return rows


def _stratum_rows(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    strata, score_type = doc["strata"], doc["score_type"]
    header = ["stratum", "n", "weight"] + [m["name"] for m in strata["models"]]
    rows = [[row["label"], fmt.count(row["n"]), f"{row['weight']:.3g}"]
            + [f"{fmt.value(m['mean'], score_type, digits)} "
               f"({fmt.ends(m['interval'], score_type, digits)})" for m in row["models"]]
            for row in strata["strata"]]
    return header, rows


def _pair_rows(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    strata, score_type = doc["strata"], doc["score_type"]
    first = strata["pairs"][0]["difference"]
    header = ["b", "a", "b \u2212 a", "SE"] + [i["method"] for i in first["intervals"]] + [
        "test", "p", f"{doc['correction']['method']} p"]
    rows = [[pair["b"], pair["a"],
             fmt.value(pair["difference"]["estimate"], score_type, digits, sign=True),
             fmt.value(pair["difference"]["se"], score_type, digits + 1)]
            + [fmt.ends(i, score_type, digits, sign=True) for i in pair["difference"]["intervals"]]
            + [pair["test"], fmt.p_cell(pair["p_value"]), fmt.p_cell(pair["p_adjusted"])]
            for pair in strata["pairs"]]
    return header, rows


def strata_tables(doc: dict) -> list[tuple[str | None, list[str], list[list[str]]]]:
    """The section's tables as (title, header, rows): the aggregates, the tests or a
    leaderboard's pairs, each stratum; every renderer (terminal, Markdown, files) lays
    them out. The first title is None: the line over the section names it."""
    digits, level = _digits(doc), fmt.level(doc["settings"]["confidence_level"])
    out = [(None, *_aggregate_rows(doc, digits))]
    if doc["strata"].get("tests"):
        out.append(("Tests within strata", ["test", "statistic", "p"], _test_rows(doc)))
    if doc["strata"].get("pairs"):
        n = len(doc["strata"]["pairs"])
        out.append((f"Pairs, paired within strata (p-values {doc['correction']['method']}-"
                    f"adjusted over {fmt.count(n)} test{'' if n == 1 else 's'})",
                    *_pair_rows(doc, digits)))
    out.append((f"Each stratum ({_method(doc)} {level} intervals)",
                *_stratum_rows(doc, digits)))
    return out


def weighting_words(strata: dict) -> str:
    """Which strata and how they are weighted, for a sentence.

    >>> weighting_words({"column": "task", "weighting": "macro", "n_strata": 3,
    ...                  "models": [{}]})
    "over 3 strata of 'task' (a macro average, each stratum weighted equally)"
    """
    return _where(strata)


def strata_title(doc: dict) -> str:
    """The line over the section: the strata, the weighting."""
    return f"Strata: {_where(doc['strata'])}"


def _method(doc: dict) -> str:
    return doc["strata"]["strata"][0]["models"][0]["interval"]["method"]


def strata_text(doc: dict) -> list[str]:
    """The terminal lines of the strata section."""
    lines = ["", strata_title(doc)]
    for title, header, rows in strata_tables(doc):
        lines += ([] if title is None else ["", title]) + table(header, rows)
    return lines


def strata_markdown(doc: dict) -> list[str]:
    """The Markdown lines of the strata section."""
    lines = ["", f"**Strata** {_where(doc['strata'])}", ""]
    for title, header, rows in strata_tables(doc):
        if title == "Tests within strata":  # the test column names it
            lines += [""] + md_table(["test within strata"] + header[1:], rows)
            continue
        lines += ([] if title is None else ["", f"{title}:", ""]) + md_table(header, rows)
    return lines


def with_strata(rendered: str, doc: dict, output_format: str) -> str:
    """``rendered`` (a ci or compare report) with the strata section inserted: before the
    Result block of a terminal report, before the closing warnings and footer of Markdown.

    >>> with_strata("Scores\\n\\nResult\\n  done", {}, "text")
    'Scores\\n\\nResult\\n  done'
    """
    if "strata" not in doc:
        return rendered
    lines = rendered.split("\n")
    if output_format == "markdown":
        section = strata_markdown(doc)
        at = max((i for i, line in enumerate(lines) if line.startswith("<sub>")),
                 default=len(lines))
        while at > 0 and (lines[at - 1].startswith("> **Warning:**") or not lines[at - 1]):
            at -= 1
    else:
        section = strata_text(doc)
        at = next((i for i, line in enumerate(lines) if line == "Result"), len(lines))
        while at > 0 and not lines[at - 1]:
            at -= 1
    return "\n".join(lines[:at] + section + lines[at:])
