"""The statement and renderers for ``select`` documents: pure functions of the JSON.

Rounding happens here and only here; the document keeps full precision.
"""
from __future__ import annotations

from ...stats import multiplicity
from .. import format as fmt
from ..labels import method_name, named_test
from ..statement import unmeasured_noise
from .blocks import closing_lines, markdown_closing, md_table, source_lines, table


def _digits(doc: dict) -> int:
    head = doc["candidates"][0]["intervals"][0]
    return fmt.decimals_for(doc["score_type"], head["high"] - head["low"])


def _gain(doc: dict, x: float | None, digits: int) -> str:
    return fmt.value(x, doc["score_type"], digits, sign=True)


def _ends(doc: dict, interval: dict, digits: int) -> str:
    return fmt.ends(interval, doc["score_type"], digits, sign=True)


def _unit(doc: dict) -> str:
    return " points" if doc["score_type"] == "binary" else ""


# --- the statement ---------------------------------------------------------------------


def _gain_in_units(doc: dict, x: float, digits: int) -> str:
    """'+2.4 points' for 0/1 scores; the signed gain alone otherwise."""
    return _gain(doc, x, digits) + _unit(doc)


def _versus(doc: dict, x: float, digits: int, what: str) -> str:
    """'+2.4 points above it', or '1.0 points below it' for a loss."""
    if x < 0:
        return f"{_gain_in_units(doc, -x, digits).lstrip('+')} below {what}"
    return f"{_gain_in_units(doc, x, digits)} above {what}"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _many(n: int, word: str) -> str:
    return f"{fmt.count(n)} {word}{'' if n == 1 else 's'}"


def select_statement(doc: dict) -> str:
    """The statement for a ``select`` document: the winner, the curse, the held-out result.

    A pure function of the document, so every renderer shows the same words.
    """
    level = doc["settings"]["confidence_level"]
    best, null = doc["candidates"][0], doc["null_best"]
    n_cand, baseline, winner = len(doc["candidates"]), doc["baseline"], doc["winner"]
    head = best["intervals"][0]
    digits = fmt.decimals_for(doc["score_type"], head["high"] - head["low"])
    split = doc["split"]
    where = f"this {fmt.count(doc['n_items'])}-question evaluation set"
    if split is not None:
        how = (f"split {split['column']!r} = {split['select_on']!r}"
               if split["method"] == "column"
               else f"a random {1 - split['holdout']:.0%} of the {split['unit']}, seed "
                    f"{doc['settings']['seed']}")
        where = f"{fmt.count(split['n_select'])} selection questions ({how})"
    null_of = (f"The best of {n_cand} candidates with no true effect" if n_cand > 1
               else "A candidate with no true effect")
    sentences = [
        f"On {where}, {_many(n_cand, 'candidate')} answered the same questions as the "
        f"baseline {baseline}. The best, {winner}, scores "
        f"{_versus(doc, best['estimate'], digits, 'it')} ({fmt.level(level)} CI "
        f"{_ends(doc, head, digits)}, {method_name(head['method'])}, "
        "not adjusted for the choice).",
        f"{null_of} would beat the baseline by {_gain_in_units(doc, null['mean'], digits)} "
        f"on average on data like these (95th percentile "
        f"{_gain_in_units(doc, null['p95'], digits)}); luck alone "
        f"gives a best gain at least this large with {_p(null['p_value'])} (one-sided and "
        f"selection-aware, from {fmt.count(null['n_resamples'])} shared bootstrap resamples "
        f"of the {_many(n_cand, 'gain')}).",
        f"Corrected for the choice, {winner}'s gain is estimated at "
        f"{_gain_in_units(doc, doc['adjusted_gain']['estimate'], digits)} (double bootstrap "
        f"bias correction); an interval that holds for {'all ' if n_cand > 1 else ''}"
        f"{_many(n_cand, 'candidate')} at once puts it at "
        f"{_ends(doc, best['intervals'][-1], digits)}.",
    ]
    correction = doc["correction"]
    alpha = correction["alpha"]
    adjusted = sum(c["p_adjusted"] < alpha for c in doc["candidates"])
    raw = sum(c["p_value"] < alpha for c in doc["candidates"])
    sentence = (f"{adjusted} of {_many(n_cand, 'candidate')} "
                f"{'differs' if adjusted == 1 else 'differ'} from the baseline after the "
                f"{correction['method'].title()} correction ({raw} on raw p-values)")
    if n_cand > 1:
        chance = multiplicity.familywise_error(n_cand, alpha=alpha)
        sentence += (f"; uncorrected, {n_cand} tests at the {fmt.level(alpha)} level would raise at "
                     f"least one false alarm with probability {chance:.0%} if no candidate "
                     "differed (independent tests)")
    sentences.append(sentence + ".")
    confirm = doc["confirm"]
    if confirm is None:
        sentences.append(f"To report {winner}'s gain, confirm it once on questions not used "
                         "for choosing (a held-out split).")
    else:
        interval = confirm["intervals"][0]
        test = named_test(confirm["test"])
        sentences.append(
            f"Confirmed once on the {fmt.count(confirm['n_items'])} held-out questions, "
            f"{winner} scores {_versus(doc, confirm['estimate'], digits, baseline)} "
            f"({fmt.level(level)} CI {_ends(doc, interval, digits)}, "
            f"{method_name(interval['method'])}; {test} "
            f"{_p(confirm['p_value'])}). This held-out comparison is the result; the "
            "numbers from the selection questions are biased upward by the choice.")
    sentences.append(unmeasured_noise(doc))
    return " ".join(sentences)


# --- the report --------------------------------------------------------------------------


def _heading(doc: dict) -> str:
    kind = "0/1 scores" if doc["score_type"] == "binary" else "continuous scores"
    n = len(doc["candidates"])
    return (f"{fmt.count(doc['n_items'])} questions, {kind}, {n} candidate"
            f"{'' if n == 1 else 's'} against {doc['baseline']}")


def split_line(doc: dict) -> str | None:
    """How the questions were split into choosing and confirming, or None without a split."""
    split = doc["split"]
    if split is None:
        return None
    if split["method"] == "column":
        line = (f"split: choose on {split['column']!r} = {split['select_on']!r} "
                f"({fmt.count(split['n_select'])} questions), confirm on "
                f"{split['confirm_on']!r} ({fmt.count(split['n_confirm'])} questions)")
        if split["n_unused"]:
            line += f"; {fmt.count(split['n_unused'])} questions with other values unused"
        return line
    return (f"split: {split['holdout']:g} of the {split['unit']} held out at random (seed "
            f"{doc['settings']['seed']}): choose on {fmt.count(split['n_select'])} questions, "
            f"confirm on {fmt.count(split['n_confirm'])}")


def _candidate_table(doc: dict, digits: int) -> tuple[list[str], list[list[str]]]:
    first = doc["candidates"][0]
    shown = (0, len(first["intervals"]) - 1)  # the one-at-a-time and the simultaneous
    header = (["candidate", "gain"] + [first["intervals"][k]["method"] for k in shown]
              + ["disagree", f"{first['test']} p", f"{doc['correction']['method']} p"])
    rows = [[c["name"], _gain(doc, c["estimate"], digits)]
            + [_ends(doc, c["intervals"][k], digits) for k in shown]
            + [f"{c['disagreement']:.1%}", fmt.p_cell(c["p_value"]), fmt.p_cell(c["p_adjusted"])]
            for c in doc["candidates"]]
    return header, rows


def _curse_rows(doc: dict, digits: int) -> list[list[str]]:
    null, adjusted, n = doc["null_best"], doc["adjusted_gain"], len(doc["candidates"])
    unit = _unit(doc)
    return [
        ["best observed gain", f"{doc['winner']} "
                               f"{_gain(doc, doc['candidates'][0]['estimate'], digits)}{unit}"],
        [f"best of {n} with no true effect",
         f"{_gain(doc, null['mean'], digits)}{unit} on average, 95th percentile "
         f"{_gain(doc, null['p95'], digits)}"],
        ["selection-aware p (one-sided)",
         f"{fmt.p_cell(null['p_value'])} (\u00b1{null['mc_error']:.1g}, "
         f"{fmt.count(null['n_resamples'])} resamples)"],
        ["adjusted gain of the winner",
         f"{_gain(doc, adjusted['estimate'], digits)}{unit} ({adjusted['method']}, "
         f"curse {_gain(doc, adjusted['bias'], digits)})"],
    ]


def _confirm_rows(doc: dict, digits: int) -> tuple[str, list[list[str]]]:
    confirm = doc["confirm"]
    level = f"{fmt.level(doc['settings']['confidence_level'])}"
    title = (f"Held-out confirmation, the result: {confirm['winner']} \u2212 {doc['baseline']}"
             f" on {fmt.count(confirm['n_items'])} questions not used for choosing "
             f"({level} intervals)")
    rows = [[m["name"], fmt.value(m["mean"], doc["score_type"], digits)
             + ("%" if doc["score_type"] == "binary" else "")] for m in confirm["models"]]
    rows.append(["gain", _gain(doc, confirm["estimate"], digits) + _unit(doc)])
    rows += [[i["method"] + (" (for contrast)" if i["method"] == "unpaired-wald" else ""),
              _ends(doc, i, digits)] for i in confirm["intervals"]]
    p = fmt.p_cell(confirm["p_value"])
    if "mc_error" in confirm:
        p += f" (\u00b1{confirm['mc_error']:.1g})"
    rows.append([f"{confirm['test']} p", p])
    return title, rows


def _titles(doc: dict) -> tuple[str, str]:
    level = f"{fmt.level(doc['settings']['confidence_level'])}"
    units = "points" if doc["score_type"] == "binary" else "score units"
    correction = doc["correction"]
    where = "the selection questions" if doc["split"] is not None else "all questions"
    return (f"Candidates against {doc['baseline']}, on {where} ({level} intervals, {units};"
            f" p-values {correction['method']}-adjusted over {correction['n_tests']} tests)",
            f"The winner's curse ({len(doc['candidates'])} candidates)")


def select_tables(doc: dict) -> list[tuple[str, list[str] | None, list[list[str]]]]:
    """The report's tables as (title, header, rows), in the terminal's order: the
    candidates, the winner's curse and, with a split, the held-out confirmation; every
    renderer (terminal, Markdown, files) lays them out. A header of None: name and value."""
    digits = _digits(doc)
    candidates_title, curse_title = _titles(doc)
    out = [(candidates_title, *_candidate_table(doc, digits)),
           (curse_title, None, _curse_rows(doc, digits))]
    if doc["confirm"] is not None:
        title, rows = _confirm_rows(doc, digits)
        out.append((title, None, rows))
    return out


def render_text(doc: dict, width: int = 92) -> str:
    """The terminal report: candidates, the winner's curse, the held-out result, the statement."""
    lines = [f"evalbars select: {_heading(doc)}"]
    lines += source_lines(doc)
    split = split_line(doc)
    if split:
        lines.append(split)
    for title, header, rows in select_tables(doc):
        lines += ["", title] + table(header, rows)
    lines += closing_lines(doc, width)
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment: the statement, then the tables, the result first."""
    lines = [f"### evalbars select: {_heading(doc)}", "", doc["statement"]]
    split = split_line(doc)
    if split:
        lines += ["", split]
    candidates, *others = select_tables(doc)
    for title, header, rows in others[::-1] + [candidates]:
        lines += ["", f"**{title}**", ""] + md_table(header or ["", "value"], rows)
    lines += markdown_closing(doc)
    return "\n".join(lines) + "\n"
