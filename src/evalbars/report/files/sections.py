"""What a file report shows, as format-neutral sections: the layout every file renderer reads.

:func:`sections` turns a report document into titled :class:`Section` s of paragraphs,
:class:`Table` s of plain-text cells and :class:`Svg` figures; the HTML page
(:mod:`evalbars.report.files.html`), the Markdown file (:mod:`evalbars.report.files.markdown`) and
the LaTeX table (:mod:`evalbars.report.files.latex`) each escape and lay out the same sections,
so every format shows the same numbers. Known kinds (``ci``, ``compare``, ``gate``,
``leaderboard``, ``passk``, ``power``, ``select``, ``seeds``, ``ablation``) get their own
tables, built by the row functions of their text report (:mod:`evalbars.report.text`), so
the cells are the terminal's; any other key, or any other kind, is shown as generic
tables, so a field added later is displayed, never a crash.

Examples
--------
>>> import evalbars
>>> doc = evalbars.compare("examples/lesson_pair.csv", n_resamples=2000).to_dict()
>>> [section.title for section in sections(doc)][:4]
['Figure', 'Scores', 'Difference model_b \u2212 model_a', 'Agreement']
"""
from __future__ import annotations

from dataclasses import replace

from .. import format as fmt
from ..labels import (
    digits,
    fixed,
    interval_text,
    level,
    number_text,
    percent_like,
    scalar,
    share,
)
from ..text.ablation import ablation_tables, shares_note
from ..text.power import grid_table, input_rows, pilot_line, result_rows
from ..text.scores import agreement_line, difference_rows, model_rows, p_value_rows, pairing_words
from ..text.seeds import parts_line, seeds_tables
from ..text.select import select_tables, split_line
from ..text.strata import strata_tables, strata_title
from .blocks import Section, Svg, Table, flat, generic_blocks
from .figure import figure_for

__all__ = ["Section", "Svg", "Table", "generic_blocks", "heading", "sections"]


TITLES = {"clustered": "Clustered questions", "samples": "Several answers per question",
          "seeds": "Training seeds (runs)", "equivalence": "Non-inferiority and equivalence"}
"""Section titles of optional keys; any other key is titled after itself."""

_ALWAYS = {"schema_version", "kind", "statement", "warnings", "provenance", "settings"}
_HANDLED = {
    "ci": {"n_items", "score_type", "models", "dropped", "strata"},
    "compare": {"n_items", "score_type", "models", "dropped", "difference", "agreement",
                "tests", "equivalence", "strata"},
    "leaderboard": {"n_items", "score_type", "models", "dropped", "baseline", "correction",
                    "pairs", "groups", "strata"},
    "passk": {"models", "a", "b", "difference", "difference_pass_hat_k"},
    "power": {"solved_for", "n", "gap", "power", "alpha", "design", "method", "inputs",
              "achieved_power", "n_unrounded", "exact_mcnemar_power", "design_effect",
              "effective_n", "n_clusters", "grid", "pilot"},
    "gate": {"comparison", "message", "decision", "exit_status", "baseline", "candidate",
             "max_regression", "estimate", "equivalence", "stratum", "weighting"},
    "select": {"n_items", "score_type", "dropped", "models", "baseline", "split", "correction",
               "candidates", "winner", "null_best", "adjusted_gain", "confirm"},
    "seeds": {"n_items", "score_type", "dropped", "models", "difference"},
    "ablation": {"n_items", "score_type", "dropped", "models", "full", "baseline", "correction",
                 "gain", "variants", "shares_total"},
}
"""Top-level keys each kind's builder shows; every other key gets a generic section."""


def _scores_sections(doc: dict) -> list[Section]:
    unit = "%" if percent_like(doc) else "score units"
    table = Table(*model_rows(doc, digits(doc)))
    one_sided = doc["kind"] == "ci" and doc["settings"].get("alternative", "two-sided") != \
        "two-sided"  # compare keeps the scores two-sided, as the text report does
    what = (f"one-sided {level(doc)} bounds, {unit}; the first bound" if one_sided
            else f"{level(doc)} intervals, {unit}; the first interval")
    return [Section("Scores", (f"{what} is the default.", table))] + _structure_sections(doc)


def _structure_sections(doc: dict) -> list[Section]:
    """Clustering and sampled answers, where models (or the difference) carry them."""
    se = lambda x: number_text(doc, x, 2)  # noqa: E731
    out = []
    units = [(m["name"], m) for m in doc.get("models", []) if isinstance(m.get("clustered"), dict)]
    difference = doc.get("difference")
    if isinstance(difference, dict) and isinstance(difference.get("clustered"), dict):
        units.append((f"{difference['b']} \u2212 {difference['a']} (paired)", difference))
    if units:
        rows = []
        for name, unit in units:
            c = unit["clustered"]
            ratio = c["se"] / c["se_naive"] if c.get("se") and c.get("se_naive") else None
            rows.append([name, se(c.get("se")), se(c.get("se_cr0")), se(c.get("se_naive")),
                         "n/a" if ratio is None else f"{ratio:.2f}x", fixed(c.get("icc"), 3),
                         fixed(c.get("design_effect"), 2),
                         fixed(c.get("design_effect_approx"), 2),
                         fixed(c.get("effective_n"), 0)])
        n_clusters = scalar(units[0][1]["clustered"].get("n_clusters"))
        out.append(Section(TITLES["clustered"], (
            f"{n_clusters} clusters: each cluster, not each question, is an independent unit. "
            "Standard errors in the units of the scores; the design effect is how many times "
            "clustering inflates the variance.",
            Table(["", "clustered SE (CR1)", "CR0", "naive SE", "ratio", "ICC", "design effect",
                   "1 + (m \u2212 1) ICC", "effective n"], rows)), core=False))
    sampled = [m for m in doc.get("models", []) if isinstance(m.get("samples"), dict)]
    if sampled:
        counts = [k.get("answers") for k in sampled[0]["samples"].get("se_by_answers", [])]
        rows = [[m["name"], se(m["samples"].get("se"))]
                + [se(k.get("se")) for k in m["samples"].get("se_by_answers", [])]
                + [se(m["samples"].get("se_floor")),
                   fixed(m["samples"].get("question_equivalent"), 1)]
                for m in sampled]
        out.append(Section(TITLES["samples"], (
            "Question noise against sampling noise: the standard error with the answers "
            "collected (now), with K answers per question, and with infinitely many (question "
            "noise only); worth: how many times as many questions answered once.",
            Table(["model", "now"] + [f"K = {k}" for k in counts] + ["K = \u221e", "worth (x)"],
                  rows)), core=False))
    return out


def _compare_sections(doc: dict) -> list[Section]:
    out = _scores_sections(doc)
    difference, score_type = doc["difference"], doc["score_type"]
    gap = number_text(doc, difference["estimate"], digits(doc), sign=True)
    unit = " points" if score_type == "binary" else ""
    side = doc["settings"].get("alternative", "two-sided")  # compare --alternative
    sided = "two-sided" if side == "two-sided" else \
        f"one-sided: B {'better' if side == 'greater' else 'worse'} than A"
    bound = "interval" if side == "two-sided" else "one-sided bound"
    blocks: list = [f"Gap {gap}{unit}, paired on the same questions ({level(doc)} {bound}s).",
                    Table(["method", f"{level(doc)} {bound}"],
                          difference_rows(doc, digits(doc)))]
    pairing = pairing_words(difference)
    if pairing is not None:
        blocks.append(pairing.capitalize() + ".")
    out.append(Section(f"Difference {difference['b']} \u2212 {difference['a']}", tuple(blocks)))
    out.append(Section("Agreement", _agreement_blocks(doc)))
    out.append(Section(f"Tests ({sided})",
                       (Table(["test", "statistic", "p"], p_value_rows(doc)),)))
    if isinstance(doc.get("equivalence"), dict):
        out.append(_equivalence_section(doc, doc["equivalence"]))
    return out + _strata_sections(doc)


def _agreement_blocks(doc: dict) -> tuple:
    """The 2x2 table of right and wrong for 0/1 scores; the summary line otherwise."""
    agreement, a, b = doc["agreement"], doc["difference"]["a"], doc["difference"]["b"]
    if doc["score_type"] != "binary" or agreement.get("both") is None:
        return (agreement_line(doc),)
    cells = [scalar(agreement[key]) for key in ("both", "a_only", "b_only", "neither")]
    correlation = agreement.get("correlation")
    return (Table(["", f"{b} right", f"{b} wrong"],
                  [[f"{a} right", cells[0], cells[1]], [f"{a} wrong", cells[2], cells[3]]]),
            f"The models disagree on {scalar(agreement['a_only'] + agreement['b_only'])} "
            f"questions; per-question correlation "
            f"{'n/a' if correlation is None else format(correlation, '.2f')}.")


def _equivalence_section(doc: dict, eq: dict) -> Section:
    interval = eq.get("interval") or {}
    d = digits(doc)
    rows = [["margin", number_text(doc, eq.get("margin"), d)],
            ["deciding interval",
             f"{interval_text(doc, interval.get('low'), interval.get('high'), d, True)} "
             f"({share(interval.get('level'))} level)"],
            ["non-inferiority p", scalar(eq.get("non_inferiority_p"))],
            ["equivalence (TOST) p", scalar(eq.get("tost_p"))],
            ["decision", scalar(eq.get("decision"))],
            ["questions needed", scalar(eq.get("n_needed"))]]
    return Section(TITLES["equivalence"], (Table(None, rows),), core=False)


def _leaderboard_sections(doc: dict) -> list[Section]:
    d, first = digits(doc), doc["models"][0]["intervals"][0]["method"]
    rows = []
    for model in sorted(doc["models"], key=lambda m: m.get("rank", 0)):
        head = model["intervals"][0]
        ranks = (f"{model.get('rank_low')} to {model.get('rank_high')}"
                 if model.get("rank_low") != model.get("rank_high") else str(model.get("rank_low")))
        rows.append([scalar(model.get("rank")), model["name"], number_text(doc, model["mean"], d),
                     interval_text(doc, head["low"], head["high"], d), ranks,
                     share(model.get("p_best"))])
    out = [Section("Ranking", (f"{level(doc)} intervals; the rank interval bounds the rank over "
                               "bootstrap resamples.",
                               Table(["rank", "model", "mean", first, "rank interval", "P(best)"],
                                     rows)))] + _structure_sections(doc)
    pairs = []
    for pair in doc.get("pairs") or []:
        head = pair["intervals"][0]
        pairs.append([f"{pair['b']} \u2212 {pair['a']}",
                      number_text(doc, pair["estimate"], d, True),
                      interval_text(doc, head["low"], head["high"], d, True),
                      scalar(pair.get("test")), scalar(pair.get("p_value")),
                      scalar(pair.get("p_adjusted"))])
    correction = doc.get("correction") or {}
    if pairs:
        tests = correction.get("n_tests")
        note = (f"p-values adjusted by {scalar(correction.get('method'))} over {scalar(tests)} "
                f"test{'' if tests == 1 else 's'} ({scalar(correction.get('family'))}).")
        out.append(Section("Pairs", (note, Table(["pair", "gap", "interval", "test", "p",
                                                   "p adjusted"], pairs))))
    groups = doc.get("groups") or []
    if groups:
        out.append(Section("Places the data cannot separate",
                           tuple(", ".join(group) for group in groups)))
    return out + _strata_sections(doc)


def _passk_sections(doc: dict) -> list[Section]:
    settings = doc["settings"]
    rows = [[model["name"], f"{label}{row['k']}", number_text(doc, row["estimate"], 1),
             interval_text(doc, row["low"], row["high"], 1), number_text(doc, row["shortcut"], 1)]
            for model in doc["models"]
            for label, key in (("pass@", "pass_at_k"), ("pass^", "pass_hat_k")) if key in model
            for row in model[key]]
    note = (f"{level(doc)} intervals ({scalar(settings.get('method'))}, resampling "
            f"{scalar(settings.get('resample'))}); the shortcut {scalar(settings.get('shortcut'))}"
            " is biased low and shown for contrast only"
            + (f"; pass^k (all k tries pass) and its shortcut "
               f"{scalar(settings.get('shortcut_pass_hat_k'))}, biased high, beside it."
               if "shortcut_pass_hat_k" in settings else "."))
    out = [Section("pass@k (%)", (note, Table(["model", "k", "estimate", "interval",
                                               "shortcut"], rows)))]
    if doc.get("difference"):
        gaps = [[f"{label}{row['k']}", number_text(doc, row["estimate"], 1, True),
                 interval_text(doc, row["low"], row["high"], 1, True)]
                for label, key in (("pass@", "difference"), ("pass^", "difference_pass_hat_k"))
                for row in doc.get(key) or ()]
        out.append(Section(f"Difference {doc['b']} \u2212 {doc['a']} (points)",
                           (Table(["k", "gap", "interval"], gaps),)))
    return out


def _power_sections(doc: dict) -> list[Section]:
    out = [Section("Inputs", (Table(None, input_rows(doc)),)),
           Section("Result", (Table(None, result_rows(doc)),))]
    if doc.get("grid"):
        header, rows, notes = grid_table(doc)
        out.append(Section("Questions needed per gap", (Table(header, rows), *notes)))
    if doc.get("pilot"):
        out.append(Section("Pilot", (pilot_line(doc),)))
    return out


def _gate_sections(doc: dict) -> list[Section]:
    comparison = doc.get("comparison") or {}
    out = _compare_sections(comparison) if comparison.get("kind") == "compare" else []
    if isinstance(doc.get("equivalence"), dict) and "equivalence" not in comparison:
        out.append(_equivalence_section(comparison or doc, doc["equivalence"]))
    if isinstance(doc.get("equivalence"), dict) and doc.get("stratum") is not None:
        deciding = _equivalence_section(comparison or doc, doc["equivalence"])
        out.append(Section(f"{deciding.title}, on the stratified gap (deciding)",
                           deciding.blocks, core=False))
    return out


def _table_sections(tables: list[tuple[str, list[str] | None, list[list[str]]]]) \
        -> list[Section]:
    """A section per (title, header, rows) of a kind's text report, titled as it is there."""
    return [Section(title, (Table(header, rows),)) for title, header, rows in tables]


def _sentence(text: str) -> str:
    """A line of a text report as a sentence: capital first letter, full stop.

    >>> _sentence("split: choose on 'dev'")
    "Split: choose on 'dev'."
    """
    return text[:1].upper() + text[1:] + "."


def _select_sections(doc: dict) -> list[Section]:
    """The candidates (after the split, if any), the winner's curse, the held-out result,
    and each model's own score (which the text report leaves out)."""
    out = _table_sections(select_tables(doc))
    split = split_line(doc)
    if split is not None:
        out[0] = replace(out[0], blocks=(_sentence(split), *out[0].blocks))
    return out + [replace(section, core=False) for section in _models_sections(doc)]


def _seeds_sections(doc: dict) -> list[Section]:
    """Runs, recipes, variance and, for two recipes, the difference with its parts."""
    out = _table_sections(seeds_tables(doc))
    if "difference" in doc:
        out[-1] = replace(out[-1], blocks=(*out[-1].blocks, _sentence(parts_line(doc))))
    return out


def _ablation_sections(doc: dict) -> list[Section]:
    """Scores, the gain of the full system, and each variant with its share of the gain."""
    out = _table_sections(ablation_tables(doc))
    out[-1] = replace(out[-1], blocks=(*out[-1].blocks, _sentence(shares_note(doc))))
    return out


def _models_sections(doc: dict) -> list[Section]:
    """Models with intervals (of ``select`` or any kind without a builder): estimate,
    default interval, other fields."""
    models = [m for m in doc["models"] if isinstance(m, dict) and m.get("intervals")]
    d, first = digits(doc), models[0]["intervals"][0].get("method")
    extra = [key for key in dict.fromkeys(k for m in models for k in m)
             if key not in ("name", "mean", "rating", "intervals")
             and not any(isinstance(m.get(key), (dict, list)) for m in models)]
    rows = [[scalar(m.get("name")), number_text(doc, m.get("mean", m.get("rating")), d),
             interval_text(doc, m["intervals"][0].get("low"), m["intervals"][0].get("high"), d)]
            + [scalar(m.get(key)) for key in extra] for m in models]
    return [Section("Models", (f"{level(doc)} intervals.",
                               Table(["model", "estimate", scalar(first)] + extra, rows)))]


def _strata_sections(doc: dict) -> list[Section]:
    """With --stratum: the aggregates (and gap), the tests or pairs, each stratum's score."""
    if not isinstance(doc.get("strata"), dict):
        return []
    blocks: list = [strata_title(doc) + "."]
    for title, header, rows in strata_tables(doc):
        blocks += ([] if title is None else [title + "."]) + [Table(header, rows)]
    return [Section("Strata", tuple(blocks))]


_BUILDERS = {"ci": lambda doc: _scores_sections(doc) + _strata_sections(doc),
             "compare": _compare_sections, "leaderboard": _leaderboard_sections,
             "passk": _passk_sections, "power": _power_sections, "gate": _gate_sections,
             "select": _select_sections, "seeds": _seeds_sections,
             "ablation": _ablation_sections}


def _provenance_section(doc: dict) -> Section:
    provenance = dict(doc.get("provenance") or {})
    rows = [[key, scalar(value)] for key, value in (doc.get("settings") or {}).items()]
    rows += [["evalbars version", scalar(provenance.pop("version", None))]]
    if "seed" in provenance and "seed" not in (doc.get("settings") or {}):
        rows.append(["seed", scalar(provenance["seed"])])
    provenance.pop("seed", None)
    for item in provenance.pop("inputs", None) or []:
        if isinstance(item, dict):
            rows.append([f"input {scalar(item.get('path'))}",
                         f"sha256 {scalar(item.get('sha256'))}"])
    source = provenance.pop("source", None)
    if isinstance(source, dict) and source.get("description"):
        rows.append(["read", scalar(source["description"])])
    rows += [[key, scalar(value)] for key, value in flat(provenance).items()]
    return Section("Provenance", (Table(None, rows),), core=False)


def sections(doc: dict) -> list[Section]:
    """The report's layout: the figure, the kind's tables, every other key, provenance.

    The statement, title and warnings are not sections; see :func:`heading` and
    :func:`evalbars.report.files.html.render_html`.
    """
    kind = doc.get("kind")
    out = []
    figure = figure_for(doc)
    if figure is not None:
        out.append(Section("Figure", (Svg(*figure),)))
    handled = _ALWAYS | _HANDLED.get(kind, set())
    if kind in _BUILDERS:
        out += _BUILDERS[kind](doc)
    elif isinstance(doc.get("models"), list) and any(
            isinstance(m, dict) and m.get("intervals") for m in doc["models"]):
        out += _models_sections(doc)
        handled = handled | {"models"}
    for key, value in doc.items():
        if key not in handled and value is not None:
            out.append(Section(TITLES.get(key, key.replace("_", " ").capitalize()),
                               tuple(generic_blocks(value)), core=False))
    out.append(_provenance_section(doc))
    return out


def heading(doc: dict) -> tuple[str, str]:
    """The report's title and the line under it: questions, score type, what was read."""
    kind = scalar(doc.get("kind", "report"))
    target = doc.get("comparison") if kind == "gate" else doc
    parts = []
    if isinstance(target, dict):
        if isinstance(target.get("n_items"), int):
            parts.append(f"{fmt.count(target['n_items'])} questions")
        if target.get("score_type"):
            parts.append("0/1 scores" if target["score_type"] == "binary"
                         else f"{scalar(target['score_type'])} scores")
        description = ((target.get("provenance") or {}).get("source") or {}).get("description")
        if description:
            parts.append(f"read: {scalar(description)}")
        if target.get("dropped"):
            dropped = ", ".join(f"{k} {scalar(v)}" for k, v in target["dropped"].items())
            parts.append(f"--intersect dropped items present for one model only: {dropped}")
    return f"evalbars {kind}", " \u00b7 ".join(parts)
