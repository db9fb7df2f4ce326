"""The terminal report and Markdown of ``ci`` and ``compare`` documents.

Pure functions of the document; rounding happens here and only here (the file reports
reuse its tables). :func:`evalbars.report.text.render.render` makes the strings safe first.
"""
from __future__ import annotations

from .. import format as fmt
from .blocks import closing_lines, markdown_closing, md_table, source_lines, table


def _digits(doc: dict) -> int:
    widths = [i["high"] - i["low"] for m in doc["models"] for i in m["intervals"][:1]
              if i["high"] is not None and i["low"] is not None]
    if "difference" in doc:
        head = doc["difference"]["intervals"][0]
        if head["low"] is not None and head["high"] is not None:
            widths.append(head["high"] - head["low"])
    return fmt.decimals_for(doc["score_type"], min(widths) if widths else float("nan"))


def model_rows(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the per-model table: one row per method, one column per model."""
    score_type = doc["score_type"]
    header = ["method"] + [m["name"] for m in doc["models"]]
    rows = [["mean"] + [fmt.value(m["mean"], score_type, digits) for m in doc["models"]]]
    for index, interval in enumerate(doc["models"][0]["intervals"]):
        label = interval["method"] + (" (default)" if index == 0 else "")
        rows.append([label] + [fmt.ends(m["intervals"][index], score_type, digits)
                               for m in doc["models"]])
    return header, rows


def difference_rows(doc: dict, digits: int) -> list[list[str]]:
    """Rows of the gap's table: each interval method (default first) and its interval."""
    rows = []
    for index, interval in enumerate(doc["difference"]["intervals"]):
        label = interval["method"]
        if index == 0:
            label += " (default)"
        if interval["method"] == "unpaired-wald":
            label += " (for contrast)"
        rows.append([label, fmt.ends(interval, doc["score_type"], digits, sign=True)])
    return rows


def p_value_rows(doc: dict) -> list[list[str]]:
    """Rows of the tests' table: test (default first), statistic, p."""
    rows = []
    for index, test in enumerate(doc["tests"]):
        statistic = "n/a" if test["statistic"] is None else f"{test['statistic']:.6g}"
        p = fmt.p_cell(test["p_value"])
        if "n_resamples" in test:
            p += f" (\u00b1{test['mc_error']:.1g}, {fmt.count(test['n_resamples'])} resamples)"
        rows.append([test["name"] + (" (default)" if index == 0 else ""), statistic, p])
    return rows


def agreement_line(doc: dict) -> str:
    """How often the two models agree, question by question, in one line."""
    agreement = doc["agreement"]
    a, b = doc["difference"]["a"], doc["difference"]["b"]
    correlation = agreement["correlation"]
    parts = ["per-question correlation " +
             ("n/a" if correlation is None else f"{correlation:.2f}")]
    if "a_only" in agreement:
        parts += [f"both right {fmt.count(agreement['both'])}",
                  f"{a} only {fmt.count(agreement['a_only'])}",
                  f"{b} only {fmt.count(agreement['b_only'])}",
                  f"neither {fmt.count(agreement['neither'])}"]
    else:
        parts += [f"{b} higher {fmt.count(agreement['wins'])}",
                  f"{a} higher {fmt.count(agreement['losses'])}",
                  f"ties {fmt.count(agreement['ties'])}"]
    return " \u00b7 ".join(parts)


def _structure_rows(doc: dict) -> list[str]:
    """Lines on clustering and on sampled answers, for the models that have them."""
    score_type = doc["score_type"]
    lines = []
    clustered = [m for m in doc["models"] if m.get("clustered")]
    if clustered:
        n_clusters = clustered[0]["clustered"]["n_clusters"]
        lines += ["", f"Clusters ({fmt.count(n_clusters)} clusters of questions)"]
        header = ["model", "clustered SE", "naive SE", "ratio", "ICC", "design effect",
                  "effective n"]
        rows = []
        for m in clustered:
            c = m["clustered"]
            ratio = "n/a" if not c["se_naive"] else f"{c['se'] / c['se_naive']:.2f}x"
            icc = "n/a" if c["icc"] is None else f"{c['icc']:.3f}"
            deff = "n/a" if c["design_effect"] is None else (
                f"{c['design_effect']:.2f}" + ("" if c["design_effect_approx"] is None else
                                                f" (1+(m-1)ICC: {c['design_effect_approx']:.2f})"))
            eff = "n/a" if c["effective_n"] is None else \
                f"{c['effective_n']:.0f} of {fmt.count(m['n'])}"
            rows.append([m["name"], fmt.value(c["se"], score_type, 2),
                         fmt.value(c["se_naive"], score_type, 2), ratio, icc, deff, eff])
        lines += table(header, rows)
    sampled = [m for m in doc["models"] if m.get("samples")]
    if sampled:
        lines += ["", "Sampled answers: question noise against sampling noise (standard errors)"]
        counts = [k["answers"] for k in sampled[0]["samples"]["se_by_answers"]]
        header = ["model", "now"] + [f"K={k}" for k in counts] + ["K=inf", "worth"]
        rows = []
        for m in sampled:
            split = m["samples"]
            rows.append([m["name"], fmt.value(split["se"], score_type, 2)]
                        + [fmt.value(k["se"], score_type, 2) for k in split["se_by_answers"]]
                        + [fmt.value(split["se_floor"], score_type, 2),
                           "n/a" if split["question_equivalent"] is None else
                           f"{split['question_equivalent']:.1f}x the questions"])
        lines += table(header, rows)
    return lines


def _units(doc: dict) -> str:
    return "%" if doc["score_type"] == "binary" else "score units"


def pairing_words(difference: dict) -> str | None:
    """What pairing did to the gap's interval, from a document's ``difference``: its
    unpaired-to-paired width ratio, both clustered where the data has clusters.

    Anticorrelated models (one right where the other is wrong) make the paired interval
    wider than the unpaired one: that is said, with its factor. None without a ratio.

    >>> pairing_words({"width_ratio_unpaired_to_paired": 3.0})
    'pairing made the interval 3.0x narrower than the unpaired one'
    >>> pairing_words({"width_ratio_unpaired_to_paired": 1 / 1.34, "clustered": {}})
    'pairing made the interval 1.3x wider than the unpaired one (both clustered)'
    """
    ratio = difference.get("width_ratio_unpaired_to_paired")
    if ratio is None:
        return None
    both = " (both clustered)" if "clustered" in difference else ""
    if ratio < 1:
        return f"pairing made the interval {1 / ratio:.1f}x wider than the unpaired one{both}"
    return f"pairing made the interval {ratio:.1f}x narrower than the unpaired one{both}"


_DECIDED = {"equivalent": "{b} is within \u00b1{m} of {a} (equivalent)",
            "non-inferior": "{b} is not worse than {a} by more than {m} (non-inferior)",
            "inferior": "{b} is worse than {a} by more than {m} (inferior)",
            "inconclusive": "cannot rule out that {b} is worse than {a} by more than {m} "
                            "(inconclusive)"}


def equivalence_block(doc: dict, digits: int) -> tuple[str, list[list[str]]]:
    """Title and rows of the "Just as good?" block of a ``compare --margin`` document."""
    eq, score_type = doc["equivalence"], doc["score_type"]
    unit = " points" if score_type == "binary" else ""
    margin = fmt.value(eq["margin"], score_type, digits) + unit
    interval = eq["interval"]
    title = f"Just as good? (margin {margin}; one-sided tests at alpha {eq['alpha']:g})"
    decided = _DECIDED[eq["decision"]].format(a=doc["difference"]["a"],
                                              b=doc["difference"]["b"], m=margin)
    if eq.get("n_needed") is not None:
        decided += f"; about {fmt.count(eq['n_needed'])} questions would be needed"
    rows = [["deciding interval", f"{fmt.ends(interval, score_type, digits, sign=True)} "
                                  f"({fmt.level(interval['level'])} {interval['method']})"],
            ["non-inferiority p", fmt.p_cell(eq["non_inferiority_p"])],
            ["equivalence (TOST) p", fmt.p_cell(eq["tost_p"])],
            ["decision", decided]]
    return title, rows


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report for a ``ci`` or ``compare`` document."""
    digits = _digits(doc)
    level = fmt.level(doc['settings']['confidence_level'])
    kind = "0/1 scores" if doc["score_type"] == "binary" else "continuous scores"
    lines = [f"evalbars {doc['kind']}: {fmt.count(doc['n_items'])} questions, {kind}"]
    lines += source_lines(doc, dropped="items present for one model only")
    bounds = doc["kind"] == "ci" and _sided(doc, "") != ""  # compare keeps scores two-sided
    lines += ["", f"Scores (one-sided {level} bounds, {_units(doc)})" if bounds else
              f"Scores ({level} intervals, {_units(doc)})"]
    lines += table(*model_rows(doc, digits))
    lines += _structure_rows(doc)
    if doc["kind"] == "compare":
        difference = doc["difference"]
        unit = " points" if doc["score_type"] == "binary" else ""
        gap = fmt.value(difference["estimate"], doc["score_type"], digits, sign=True)
        kind = f"{level} intervals" if _sided(doc, "") == "" else \
            f"{_sided(doc, '').replace(':', f' {level} bounds:')}"
        lines += ["", f"Difference {difference['b']} \u2212 {difference['a']}: {gap}{unit} "
                      f"({kind})"]
        lines += table(None, difference_rows(doc, digits))
        pairing = pairing_words(difference)
        if pairing is not None:
            lines.append(f"  {pairing}")
        lines += ["", "Agreement", "  " + agreement_line(doc)]
        lines += ["", f"Tests ({_sided(doc, 'two-sided')})"]
        lines += table(["test", "statistic", "p"], p_value_rows(doc))
        if doc.get("equivalence"):
            title, rows = equivalence_block(doc, digits)
            lines += ["", title]
            lines += table(None, rows)
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables."""
    digits = _digits(doc)
    level = fmt.level(doc['settings']['confidence_level'])
    lines = [f"### evalbars {doc['kind']}: {fmt.count(doc['n_items'])} questions", "",
             doc["statement"], "",
             f"**Scores** ({'one-sided ' if doc['kind'] == 'ci' and _sided(doc, '') else ''}"
             f"{level} {'bounds' if doc['kind'] == 'ci' and _sided(doc, '') else 'intervals'}, "
             f"{_units(doc)})", ""]
    lines += md_table(*model_rows(doc, digits))
    if doc["kind"] == "compare":
        difference = doc["difference"]
        gap = fmt.value(difference["estimate"], doc["score_type"], digits, sign=True)
        lines += ["", f"**Difference** {difference['b']} \u2212 {difference['a']}: {gap}", ""]
        bound = f"{level} interval" if _sided(doc, "") == "" else f"one-sided {level} bound"
        lines += md_table(["method", bound], difference_rows(doc, digits))
        lines += ["", agreement_line(doc), ""]
        lines += md_table([f"test ({_sided(doc, 'two-sided')})", "statistic", "p"],
                          p_value_rows(doc))
        if doc.get("equivalence"):
            title, rows = equivalence_block(doc, digits)
            lines += ["", f"**{title}**", ""]
            lines += md_table(["", "value"], rows)
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"


def _sided(doc: dict, two_sided: str) -> str:
    """``two_sided``, or the one-sided question of ``settings.alternative`` (B vs A).

    >>> _sided({"settings": {"alternative": "greater"}}, "two-sided")
    'one-sided: B better than A'
    """
    alternative = doc["settings"].get("alternative", "two-sided")
    if alternative == "two-sided":
        return two_sided
    return f"one-sided: B {'better' if alternative == 'greater' else 'worse'} than A"
