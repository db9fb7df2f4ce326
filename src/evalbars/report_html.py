"""The HTML report: one self-contained page from any report document.

:func:`render_html` turns a document (``result.to_dict()``, or a saved JSON file) into a
single HTML file that needs nothing else to be read: the styles are inline, the figures
are inline SVG written here (so the report needs neither matplotlib nor a network), and
there is no script at all. A Content-Security-Policy in the page forbids scripts and
every remote fetch, and every string from the document (model names, ids, file names,
the statement) is escaped, so a model called ``<script>alert(1)</script>`` shows as text.

The page is built from :func:`sections`, a layout shared by every file renderer: the
Markdown twin (:func:`render_markdown`) and the LaTeX table (:mod:`evalbars.report_latex`)
read the same sections, so every format shows the same numbers. Known kinds (``ci``,
``compare``, ``gate``, ``leaderboard``, ``passk``, ``power``) get their own tables and
figures; any other key, or any other kind, is shown as generic tables, so a field added
later is displayed, never a crash. Like the text renderers, this is a pure function of
the document; the one figure that needs computing (the power curve) is computed from the
document's own inputs by :func:`evalbars.plots.power_curves` (numpy and scipy only).

Examples
--------
>>> import evalbars
>>> doc = evalbars.compare("examples/lesson_pair.csv", n_resamples=2000).to_dict()
>>> page = render_html(doc)
>>> page.startswith("<!doctype html>") and "<script" not in page
True
>>> [section.title for section in sections(doc)][:4]
['Figure', 'Scores', 'Difference model_b \u2212 model_a', 'Agreement']
"""
from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass

from . import _format as fmt
from .render import visible

__all__ = ["Section", "Table", "estimates", "render_html", "render_markdown", "sections",
           "compact_html"]


@dataclass(frozen=True)
class Table:
    """Plain-text cells; every renderer escapes them for its own format."""

    header: list[str] | None
    rows: list[list[str]]


@dataclass(frozen=True)
class Section:
    """A titled part of a report: paragraphs (str), :class:`Table` s and SVG figures.

    ``core`` is True when the kind's own text and Markdown renderer already shows it.
    """

    title: str
    blocks: tuple
    core: bool = True


@dataclass(frozen=True)
class Svg:
    """An inline SVG figure, built with every text escaped, and its caption."""

    markup: str
    caption: str


TITLES = {"clustered": "Clustered questions", "samples": "Several answers per question",
          "seeds": "Training seeds (runs)", "equivalence": "Non-inferiority and equivalence"}
"""Section titles of optional keys; any other key is titled after itself."""

_ALWAYS = {"schema_version", "kind", "statement", "warnings", "provenance", "settings"}
_HANDLED = {
    "ci": {"n_items", "score_type", "models", "dropped"},
    "compare": {"n_items", "score_type", "models", "dropped", "difference", "agreement",
                "tests", "equivalence"},
    "leaderboard": {"n_items", "score_type", "models", "dropped", "baseline", "correction",
                    "pairs", "groups"},
    "passk": {"models", "a", "b", "difference"},
    "power": {"solved_for", "n", "gap", "power", "alpha", "design", "method", "inputs",
              "achieved_power", "n_unrounded", "exact_mcnemar_power", "design_effect",
              "effective_n", "n_clusters", "grid", "pilot"},
    "gate": {"comparison", "message", "decision", "exit_status", "baseline", "candidate",
             "max_regression", "estimate", "equivalence"},
}
"""Top-level keys each kind's builder shows; every other key gets a generic section."""


# --- plain-text values ----------------------------------------------------------------


def scalar(value: object) -> str:
    """Any JSON value as short text: 4 significant digits, thousands separators."""
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return fmt.count(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(scalar(v) for v in value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _flat(value: dict, prefix: str = "") -> dict:
    """A nested dict as one level with dotted keys."""
    out = {}
    for key, item in value.items():
        if isinstance(item, dict) and item:
            out.update(_flat(item, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = item
    return out


def generic_blocks(value: object) -> list:
    """Blocks showing any JSON value: a key/value table, a table of rows, or a line."""
    if isinstance(value, dict):
        return [Table(None, [[key, scalar(item)] for key, item in _flat(value).items()])]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        rows = [_flat(v) for v in value]
        header = list(dict.fromkeys(key for row in rows for key in row))
        return [Table(header, [[scalar(row.get(key)) for key in header] for row in rows])]
    return [scalar(value)]


def _fixed(x: object, decimals: int) -> str:
    """A number with fixed decimals (thousands separated), or 'n/a'."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "n/a"
    return f"{x:,.{decimals}f}".replace("-", "\u2212")


def _share(p: object) -> str:
    """A probability as a percentage; '<1%' and '>99%' rather than a rounded 0 or 100."""
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        return scalar(p)
    if 0 < p < 0.005 or 0.995 < p < 1:
        return "<1%" if p < 0.5 else ">99%"
    return f"{p:.0%}"


def _percent_like(doc: dict) -> bool:
    """Shown in percent and points: 0/1 scores, and pass@k."""
    return doc.get("score_type") == "binary" or doc.get("kind") == "passk"


def _value(doc: dict, x: float | None, digits: int, sign: bool = False) -> str:
    return fmt.value(x, "binary" if _percent_like(doc) else "continuous", digits, sign=sign)


def _ends(doc: dict, low, high, digits: int, sign: bool = False) -> str:
    return f"{_value(doc, low, digits, sign)} to {_value(doc, high, digits, sign)}"


def digits(doc: dict) -> int:
    """Decimals that show the narrowest default interval with two significant digits."""
    widths = [m["intervals"][0]["high"] - m["intervals"][0]["low"]
              for m in doc.get("models", []) if isinstance(m, dict) and m.get("intervals")
              and None not in (m["intervals"][0].get("low"), m["intervals"][0].get("high"))]
    score_type = "binary" if _percent_like(doc) else "continuous"
    return fmt.decimals_for(score_type, min(widths) if widths else float("nan"))


def level(doc: dict) -> str:
    """The confidence level as '95%' (or '' when the document has none)."""
    value = (doc.get("settings") or {}).get("confidence_level")
    return f"{value:.0%}" if isinstance(value, (int, float)) else ""


# --- tidy estimates (tables, plots, DataFrames) ----------------------------------------


def estimates(doc: dict) -> list[dict]:
    """Every estimate of a document with its intervals, one dict per (quantity, method).

    Keys: ``quantity`` (``score``, ``rating``, ``difference``, ``pass@k``, ``pass@k
    difference``), ``name``, ``method``, ``estimate``, ``low``, ``high``, ``default``
    (the first interval listed, the one reports show) and ``level``; leaderboard rows add
    ``rank``, ``rank_low``, ``rank_high`` and ``p_best``, pass@k rows ``k``. Kinds
    without intervals give an empty list.

    Examples
    --------
    >>> doc = {"kind": "ci", "settings": {"confidence_level": 0.95}, "models": [
    ...     {"name": "m", "n": 10, "mean": 0.7, "intervals": [
    ...         {"method": "wilson", "low": 0.4, "high": 0.9}]}]}
    >>> estimates(doc)[0]["low"], estimates(doc)[0]["default"]
    (0.4, True)
    """
    if doc.get("kind") == "gate":
        return estimates(doc.get("comparison") or {})
    conf = (doc.get("settings") or {}).get("confidence_level")
    out: list[dict] = []

    def add(quantity: str, name: str, estimate, intervals: list, **extra) -> None:
        for index, interval in enumerate(intervals or []):
            out.append({"quantity": quantity, "name": name, "method": interval.get("method"),
                        "estimate": estimate, "low": interval.get("low"),
                        "high": interval.get("high"), "default": index == 0, "level": conf,
                        **extra})

    if doc.get("kind") == "passk":
        method = doc["settings"].get("method")
        for model in doc["models"]:
            for row in model["pass_at_k"]:
                add(f"pass@{row['k']}", model["name"], row["estimate"],
                    [{"method": method, "low": row["low"], "high": row["high"]}], k=row["k"])
        for row in doc.get("difference") or []:
            add(f"pass@{row['k']} difference", f"{doc['b']} \u2212 {doc['a']}", row["estimate"],
                [{"method": method, "low": row["low"], "high": row["high"]}], k=row["k"])
        return out
    for model in doc.get("models") or []:
        if not isinstance(model, dict) or "intervals" not in model:
            continue
        quantity = "rating" if "rating" in model else "score"
        extra = {key: model[key] for key in ("rank", "rank_low", "rank_high", "p_best")
                 if key in model}
        add(quantity, model["name"], model.get("mean", model.get("rating")), model["intervals"],
            **extra)
    difference = doc.get("difference")
    if isinstance(difference, dict):
        add("difference", f"{difference['b']} \u2212 {difference['a']}", difference["estimate"],
            difference["intervals"])
    for pair in doc.get("pairs") or []:
        add("difference", f"{pair['b']} \u2212 {pair['a']}", pair["estimate"], pair["intervals"])
    return out


# --- sections of each kind -------------------------------------------------------------


def _scores_sections(doc: dict) -> list[Section]:
    from .render import _model_rows

    unit = "%" if _percent_like(doc) else "score units"
    table = Table(*_model_rows(doc, digits(doc)))
    return [Section("Scores", (f"{level(doc)} intervals, {unit}; the first interval is the "
                               "default.", table))] + _structure_sections(doc)


def _structure_sections(doc: dict) -> list[Section]:
    """Clustering and sampled answers, where models (or the difference) carry them."""
    se = lambda x: _value(doc, x, 2)  # noqa: E731
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
                         "n/a" if ratio is None else f"{ratio:.2f}x", _fixed(c.get("icc"), 3),
                         _fixed(c.get("design_effect"), 2),
                         _fixed(c.get("design_effect_approx"), 2),
                         _fixed(c.get("effective_n"), 0)])
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
                   _fixed(m["samples"].get("question_equivalent"), 1)]
                for m in sampled]
        out.append(Section(TITLES["samples"], (
            "Question noise against sampling noise: the standard error with the answers "
            "collected (now), with K answers per question, and with infinitely many (question "
            "noise only); worth: how many times as many questions answered once.",
            Table(["model", "now"] + [f"K = {k}" for k in counts] + ["K = \u221e", "worth (x)"],
                  rows)), core=False))
    return out


def _compare_sections(doc: dict) -> list[Section]:
    from .render import _difference_rows, _test_rows

    out = _scores_sections(doc)
    difference, score_type = doc["difference"], doc["score_type"]
    gap = _value(doc, difference["estimate"], digits(doc), sign=True)
    unit = " points" if score_type == "binary" else ""
    blocks: list = [f"Gap {gap}{unit}, paired on the same questions ({level(doc)} intervals).",
                    Table(["method", f"{level(doc)} interval"],
                          _difference_rows(doc, digits(doc)))]
    ratio = difference.get("width_ratio_unpaired_to_paired")
    if ratio is not None:
        blocks.append(f"Pairing made the interval {ratio:.1f}x narrower than the unpaired one.")
    out.append(Section(f"Difference {difference['b']} \u2212 {difference['a']}", tuple(blocks)))
    out.append(Section("Agreement", _agreement_blocks(doc)))
    out.append(Section("Tests (two-sided)", (Table(["test", "statistic", "p"], _test_rows(doc)),)))
    if isinstance(doc.get("equivalence"), dict):
        out.append(_equivalence_section(doc, doc["equivalence"]))
    return out


def _agreement_blocks(doc: dict) -> tuple:
    """The 2x2 table of right and wrong for 0/1 scores; the summary line otherwise."""
    from .render import _agreement_line

    agreement, a, b = doc["agreement"], doc["difference"]["a"], doc["difference"]["b"]
    if doc["score_type"] != "binary" or agreement.get("both") is None:
        return (_agreement_line(doc),)
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
    rows = [["margin", _value(doc, eq.get("margin"), d)],
            ["deciding interval",
             f"{_ends(doc, interval.get('low'), interval.get('high'), d, True)} "
             f"({_share(interval.get('level'))} level)"],
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
        rows.append([scalar(model.get("rank")), model["name"], _value(doc, model["mean"], d),
                     _ends(doc, head["low"], head["high"], d), ranks, _share(model.get("p_best"))])
    out = [Section("Ranking", (f"{level(doc)} intervals; the rank interval bounds the rank over "
                               "bootstrap resamples.",
                               Table(["rank", "model", "mean", first, "rank interval", "P(best)"],
                                     rows)))] + _structure_sections(doc)
    pairs = []
    for pair in doc.get("pairs") or []:
        head = pair["intervals"][0]
        pairs.append([f"{pair['b']} \u2212 {pair['a']}", _value(doc, pair["estimate"], d, True),
                      _ends(doc, head["low"], head["high"], d, True), scalar(pair.get("test")),
                      scalar(pair.get("p_value")), scalar(pair.get("p_adjusted"))])
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
    return out


def _passk_sections(doc: dict) -> list[Section]:
    settings = doc["settings"]
    rows = [[model["name"], f"pass@{row['k']}", _value(doc, row["estimate"], 1),
             _ends(doc, row["low"], row["high"], 1), _value(doc, row["shortcut"], 1)]
            for model in doc["models"] for row in model["pass_at_k"]]
    note = (f"{level(doc)} intervals ({scalar(settings.get('method'))}, resampling "
            f"{scalar(settings.get('resample'))}); the shortcut {scalar(settings.get('shortcut'))}"
            " is biased low and shown for contrast only.")
    out = [Section("pass@k (%)", (note, Table(["model", "k", "estimate", "interval",
                                               "shortcut"], rows)))]
    if doc.get("difference"):
        gaps = [[f"pass@{row['k']}", _value(doc, row["estimate"], 1, True),
                 _ends(doc, row["low"], row["high"], 1, True)] for row in doc["difference"]]
        out.append(Section(f"Difference {doc['b']} \u2212 {doc['a']} (points)",
                           (Table(["k", "gap", "interval"], gaps),)))
    return out


def _power_sections(doc: dict) -> list[Section]:
    from .render_power import _grid, _input_rows, _pilot_line, _result_rows

    out = [Section("Inputs", (Table(None, _input_rows(doc)),)),
           Section("Result", (Table(None, _result_rows(doc)),))]
    if doc.get("grid"):
        header, rows, notes = _grid(doc)
        out.append(Section("Questions needed per gap", (Table(header, rows), *notes)))
    if doc.get("pilot"):
        out.append(Section("Pilot", (_pilot_line(doc),)))
    return out


def _gate_sections(doc: dict) -> list[Section]:
    comparison = doc.get("comparison") or {}
    out = _compare_sections(comparison) if comparison.get("kind") == "compare" else []
    if isinstance(doc.get("equivalence"), dict) and "equivalence" not in comparison:
        out.append(_equivalence_section(comparison or doc, doc["equivalence"]))
    return out


def _models_sections(doc: dict) -> list[Section]:
    """Any other kind's models with intervals: estimate, default interval, other fields."""
    models = [m for m in doc["models"] if isinstance(m, dict) and m.get("intervals")]
    d, first = digits(doc), models[0]["intervals"][0].get("method")
    extra = [key for key in dict.fromkeys(k for m in models for k in m)
             if key not in ("name", "mean", "rating", "intervals")
             and not any(isinstance(m.get(key), (dict, list)) for m in models)]
    rows = [[scalar(m.get("name")), _value(doc, m.get("mean", m.get("rating")), d),
             _ends(doc, m["intervals"][0].get("low"), m["intervals"][0].get("high"), d)]
            + [scalar(m.get(key)) for key in extra] for m in models]
    return [Section("Models", (f"{level(doc)} intervals.",
                               Table(["model", "estimate", scalar(first)] + extra, rows)))]


_BUILDERS = {"ci": _scores_sections, "compare": _compare_sections,
             "leaderboard": _leaderboard_sections, "passk": _passk_sections,
             "power": _power_sections, "gate": _gate_sections}


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
    rows += [[key, scalar(value)] for key, value in _flat(provenance).items()]
    return Section("Provenance", (Table(None, rows),), core=False)


def sections(doc: dict) -> list[Section]:
    """The report's layout: the figure, the kind's tables, every other key, provenance.

    The statement, title and warnings are not sections; see :func:`render_html`.
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


# --- inline SVG figures ----------------------------------------------------------------

_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#8c8c8c")
_W, _RIGHT, _ROW = 760, 190, 26


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12,
          fill: str = "#1d2330", weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}">{html.escape(text)}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#1d2330",
          width: float = 1.0, dash: str = "") -> str:
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
            f'stroke-width="{width}"{dashed}/>')


def nice_step(span: float, target: int = 6) -> float:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) giving about ``target`` ticks.

    >>> nice_step(13.0), nice_step(0.9)
    (2.5, 0.2)
    """
    raw = span / target if span > 0 else 1.0
    magnitude = 10.0 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * 0.999)


def _finite(*values) -> bool:
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in values)


def interval_svg(panels: list[tuple[str, str, list[tuple], bool]]) -> str:
    """Horizontal intervals in stacked panels that share one scale (units per pixel).

    Each panel is ``(title, axis label, rows, zero line?)``; each row is ``(label,
    estimate, low, high, color, value text)`` in display units. Sharing the scale makes
    widths comparable across panels: a paired interval drawn under two separate ones
    is visibly narrower.
    """
    spans, boxes = [], []
    for _, _, rows, zero in panels:
        values = [v for row in rows for v in row[1:4] if _finite(v)] + ([0.0] * zero)
        low, high = (min(values), max(values)) if values else (0.0, 1.0)
        boxes.append((low, high))
        spans.append(high - low)
    longest = max((len(row[0]) for _, _, rows, _ in panels for row in rows), default=10)
    left = min(max(7 * longest + 24, 110), 300)
    width = _W - left - _RIGHT
    span = max(max(spans, default=1.0), 1e-9) * 1.15
    per_unit, step = width / span, nice_step(span)
    out, y = [], 8.0
    for (title, axis, rows, zero), (low, high) in zip(panels, boxes):
        start = (low + high) / 2 - span / 2
        x_of = lambda v, s=start: left + (v - s) * per_unit  # noqa: E731
        out.append(_text(8, y + 14, title, size=13, weight="600"))
        top, y = y + 22, y + 22 + _ROW * len(rows)
        tick = math.ceil(start / step) * step
        while tick <= start + span + 1e-12:
            x = x_of(tick)
            out.append(_line(x, top, x, y, "#e6e8ee"))
            out.append(_text(x, y + 14, f"{tick:.10g}", "middle", 11, "#5b6474"))
            tick += step
        out.append(_line(left, y, left + width, y, "#8a93a3"))
        if zero and start <= 0 <= start + span:
            out.append(_line(x_of(0), top - 4, x_of(0), y, "#1d2330", 1.2, "4 3"))
        for index, (label, estimate, lo, hi, color, value) in enumerate(rows):
            mid = top + _ROW * index + _ROW / 2
            out.append(_text(left - 10, mid + 4, label, "end"))
            out.append(_text(left + width + 10, mid + 4, value, size=11, fill="#39404d"))
            if _finite(lo, hi):
                out += [_line(x_of(lo), mid, x_of(hi), mid, color, 3),
                        _line(x_of(lo), mid - 6, x_of(lo), mid + 6, color, 2),
                        _line(x_of(hi), mid - 6, x_of(hi), mid + 6, color, 2)]
            if _finite(estimate):
                out.append(f'<circle cx="{x_of(estimate):.1f}" cy="{mid:.1f}" r="4.5" '
                           f'fill="#fff" stroke="{color}" stroke-width="2"/>')
        out.append(_text(left + width / 2, y + 30, axis, "middle", 12, "#39404d"))
        y += 44
    return _svg(y, out)


def _svg(height: float, parts: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{height:.0f}" '
            f'viewBox="0 0 {_W} {height:.0f}" font-family="system-ui,sans-serif" role="img">'
            + "".join(parts) + "</svg>")


def lines_svg(series: list[tuple[str, list[float], list[float]]], *, x_label: str,
              y_label: str, target: float | None, mark: float | None) -> str:
    """Curves on a log x axis and a 0-100% y axis, with a target line and an x marker."""
    xs = [x for _, xv, _ in series for x in xv]
    if not xs:
        return _svg(10, [])
    lo, hi = math.log10(min(xs)), math.log10(max(xs))
    hi = hi if hi > lo else lo + 1
    left, right, top, height = 70, _W - 200, 16, 260
    x_of = lambda x: left + (math.log10(x) - lo) / (hi - lo) * (right - left)  # noqa: E731
    y_of = lambda p: top + (1 - p) * height  # noqa: E731
    out = []
    for p in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        out += [_line(left, y_of(p), right, y_of(p), "#e6e8ee"),
                _text(left - 8, y_of(p) + 4, f"{p:.0%}", "end", 11, "#5b6474")]
    for exponent in range(math.floor(lo), math.ceil(hi) + 1):
        for m in (1, 2, 5):
            x = m * 10.0 ** exponent
            if lo - 1e-9 <= math.log10(x) <= hi + 1e-9:
                out += [_line(x_of(x), top, x_of(x), top + height, "#e6e8ee"),
                        _text(x_of(x), top + height + 15, f"{x:,.0f}", "middle", 11, "#5b6474")]
    if target is not None:
        out.append(_line(left, y_of(target), right, y_of(target), "#1d2330", 1, "4 3"))
    if mark is not None and mark > 0 and lo <= math.log10(mark) <= hi:
        out.append(_line(x_of(mark), top, x_of(mark), top + height, "#c44e52", 1.2, "2 3"))
        out.append(_text(x_of(mark) + 4, top + height - 6, f"n = {mark:,.0f}", size=11,
                         fill="#c44e52"))
    for index, (label, xv, yv) in enumerate(series):
        color = _COLORS[index % len(_COLORS)]
        points = " ".join(f"{x_of(x):.1f},{y_of(p):.1f}" for x, p in zip(xv, yv))
        out.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2.2"/>')
        out += [_line(right + 16, top + 14 + 20 * index, right + 40, top + 14 + 20 * index,
                      color, 3), _text(right + 46, top + 18 + 20 * index, label, size=12)]
    out += [_line(left, top + height, right, top + height, "#8a93a3"),
            _text((left + right) / 2, top + height + 36, x_label, "middle", 12, "#39404d"),
            f'<text x="16" y="{top + height / 2:.1f}" font-size="12" fill="#39404d" '
            f'text-anchor="middle" transform="rotate(-90 16 {top + height / 2:.1f})">'
            f"{html.escape(y_label)}</text>"]
    return _svg(top + height + 48, out)


def _row(doc: dict, label: str, estimate, low, high, color: str, d: int,
         sign: bool = False) -> tuple:
    scale = 100.0 if _percent_like(doc) else 1.0
    shown = [v * scale if _finite(v) else None for v in (estimate, low, high)]
    text = f"{_value(doc, estimate, d, sign)} ({_ends(doc, low, high, d, sign)})"
    return (label, *shown, color, text)


def gap_label(doc: dict, gap: float) -> str:
    """'gap 1 point', 'gap 2.5 points', or 'gap 0.05' for scores that are not 0/1."""
    if "variance" in (doc.get("inputs") or {}):
        return f"gap {gap:g}"
    points = f"{100 * gap:.2f}".rstrip("0").rstrip(".")
    return f"gap {points} point" + ("" if points == "1" else "s")


def axis_label(doc: dict, what: str = "score", method: str | None = None) -> str:
    """'score, % (95% intervals, wilson)': the unit and the level, for an axis."""
    unit = (", points" if what == "gap" else ", %") if _percent_like(doc) else ""
    how = f", {method}" if method else ""
    return f"{what}{unit} ({level(doc)} intervals{how})"


def figure_for(doc: dict) -> tuple[str, str] | None:
    """The report's figure as ``(svg, caption)``, or None for a kind without one."""
    kind = doc.get("kind")
    if kind == "gate":
        return figure_for(doc.get("comparison") or {})
    d = digits(doc)
    if kind == "power":
        from .plots import power_curves

        curves = power_curves(doc)
        label = "questions per model" if doc.get("design") == "unpaired" else "questions"
        series = [(gap_label(doc, gap), ns, powers) for gap, ns, powers in curves]
        return (lines_svg(series, x_label=f"{label} (log scale)", y_label="power",
                          target=doc.get("power"), mark=doc.get("n")),
                f"Power against the number of questions ({doc.get('design')}, "
                f"{doc.get('method')}, alpha {doc.get('alpha')}); dashed: the target power.")
    rows = [row for row in estimates(doc) if row["default"]]
    if not rows:
        return None
    if kind == "compare":
        scores = [r for r in rows if r["quantity"] == "score"]
        difference = doc["difference"]
        gap_rows = [_row(doc, "paired",
                         difference["estimate"], difference["intervals"][0]["low"],
                         difference["intervals"][0]["high"], _COLORS[2], d, True)]
        gap_rows += [_row(doc, "unpaired (for contrast)", difference["estimate"], i["low"],
                          i["high"], "#8c8c8c", d, True)
                     for i in difference["intervals"] if i["method"] == "unpaired-wald"]
        panels = [("Each model on its own", axis_label(doc, "score", scores[0]["method"]),
                   [_row(doc, r["name"], r["estimate"], r["low"], r["high"], _COLORS[i], d)
                    for i, r in enumerate(scores)], False),
                  (f"The gap {difference['b']} \u2212 {difference['a']}",
                   axis_label(doc, "gap", difference["intervals"][0]["method"]), gap_rows,
                   True)]
        return (interval_svg(panels),
                "Top: each model's own interval. Bottom: the interval of the gap, paired on "
                "the same questions, and the unpaired one for contrast; dashed: zero. Both "
                "panels share one scale, so the widths compare directly: overlapping bars "
                "do not mean no difference.")
    if kind == "leaderboard":
        rows = sorted([r for r in rows if r["quantity"] == "score"], key=lambda r: r["rank"])
        panel = [_row(doc, f"{r['rank']}. {r['name']}", r["estimate"], r["low"], r["high"],
                      _COLORS[0], d) for r in rows]
        panel = [p[:5] + (f"{p[5]}, rank {r['rank_low']}" + (
            f"\u2013{r['rank_high']}" if r["rank_high"] != r["rank_low"] else ""),)
                 for p, r in zip(panel, rows)]
        return (interval_svg([("Leaderboard", axis_label(doc, "score", rows[0]["method"]),
                               panel, False)]),
                "Models by rank, each score with its interval and its rank interval.")
    groups: dict[str, list] = {}
    for row in rows:
        if not row["quantity"].endswith("difference"):
            groups.setdefault(row["quantity"], []).append(row)
    panels = [(quantity if kind == "passk" else f"{quantity.capitalize()}s",
               axis_label(doc, quantity, group[0]["method"]),
               [_row(doc, r["name"], r["estimate"], r["low"], r["high"],
                     _COLORS[i % len(_COLORS)], d) for i, r in enumerate(group)], False)
              for quantity, group in groups.items()]
    return (interval_svg(panels), "Each estimate with its interval.") if panels else None


# --- HTML ------------------------------------------------------------------------------

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;
background:#fff;margin:0}
main{max-width:920px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid
#e3e6ec;padding-bottom:4px}
.meta{color:#5b6474;margin:0 0 16px;font-size:13px}
.statement{font-size:16px;background:#f5f7fb;border-left:4px solid #2f6fdd;padding:12px 16px;
margin:16px 0}
.verdict{font-weight:600;padding:10px 14px;border-radius:6px;margin:12px 0}
.pass{background:#e5f5ea}.fail{background:#fde8e8}.inconclusive{background:#fff4dc}
.warn{background:#fff8e6;border-left:4px solid #e0a100;padding:8px 14px;margin:8px 0}
table{border-collapse:collapse;margin:6px 0 10px;font-size:14px}
th,td{padding:4px 12px 4px 0;text-align:left;vertical-align:top}
th{border-bottom:1px solid #c9ced8;font-weight:600}
td{border-bottom:1px solid #eef0f4;font-variant-numeric:tabular-nums}
td.n{text-align:right}.kv td+td{word-break:break-all}
figure{margin:8px 0}figcaption{color:#5b6474;font-size:13px}svg{max-width:100%;height:auto}
footer{color:#5b6474;font-size:12px;margin-top:32px}
"""

_NUMBER = re.compile(r"^([+\u2212-]?[\d.,]+(e[+-]?\d+)?[%x]?|n/a|<1%|>99%)"
                     r"( to [+\u2212-]?[\d.,]+%?)?( \(.*\))?$")
"""Cells aligned to the right: numbers, percentages and intervals."""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""No scripts, no fonts, no fetches: nothing in the page can run or call out."""


def _html_block(block) -> str:
    esc = html.escape
    if isinstance(block, Svg):
        return f"<figure>{block.markup}<figcaption>{esc(block.caption)}</figcaption></figure>"
    if isinstance(block, Table):
        head = ("<tr>" + "".join(f"<th>{esc(cell)}</th>" for cell in block.header) + "</tr>"
                if block.header else "")
        body = "".join("<tr>" + "".join(
            ('<td class="n">' if _NUMBER.match(cell) else "<td>") + f"{esc(cell)}</td>"
            for cell in row) + "</tr>" for row in block.rows)
        style = "" if block.header else ' class="kv"'
        return f"<table{style}>{head}{body}</table>"
    return f"<p>{esc(str(block))}</p>"


def _title(doc: dict) -> tuple[str, str]:
    """The page title and the line under it."""
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


def render_html(doc: dict) -> str:
    """The self-contained HTML report of any report document.

    Parameters
    ----------
    doc : dict
        A report document: ``result.to_dict()`` or a JSON file the CLI wrote.

    Returns
    -------
    str
        One HTML page with inline styles and inline SVG figures; no scripts, no remote
        resources, every document string escaped (control characters shown as escapes).
    """
    doc = visible(doc)
    esc = html.escape
    title, meta = _title(doc)
    parts = [f"<h1>{esc(title)}</h1>", f'<p class="meta">{esc(meta)}</p>' if meta else ""]
    if doc.get("kind") == "gate" and doc.get("message"):
        decision = doc.get("decision")
        css = decision if decision in ("pass", "fail", "inconclusive") else "inconclusive"
        parts.append(f'<p class="verdict {css}">{esc(scalar(doc["message"]))}</p>')
    statement = doc.get("statement") or (doc.get("comparison") or {}).get("statement")
    if statement:
        parts.append(f'<p class="statement">{esc(scalar(statement))}</p>')
    for warning in doc.get("warnings") or (doc.get("comparison") or {}).get("warnings") or []:
        parts.append(f'<p class="warn">Warning: {esc(scalar(warning))}</p>')
    for section in sections(doc):
        heading = "" if section.title == "Figure" else f"<h2>{esc(section.title)}</h2>"
        parts.append(f"<section>{heading}{''.join(_html_block(b) for b in section.blocks)}"
                     "</section>")
    version = scalar((doc.get("provenance") or {}).get("version"))
    parts.append(f"<footer>Written by evalbars {esc(version)}: a pure rendering of the JSON "
                 "report document; the figures are inline SVG.</footer>")
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{esc(title)}</title><style>{_CSS}</style></head>\n<body><main>\n"
            + "\n".join(p for p in parts if p) + "\n</main></body></html>\n")


def compact_html(doc: dict) -> str:
    """A small HTML table for notebooks: each estimate with its default interval.

    Examples
    --------
    >>> doc = {"kind": "ci", "settings": {"confidence_level": 0.95}, "models": [
    ...     {"name": "<b>", "n": 10, "mean": 0.7, "intervals": [
    ...         {"method": "wilson", "low": 0.4, "high": 0.9}]}]}
    >>> "&lt;b&gt;" in compact_html(doc)
    True
    """
    doc = visible(doc)
    esc = html.escape
    target = doc.get("comparison") if doc.get("kind") == "gate" else doc
    d = digits(target or {})
    rows = [[row["quantity"], row["name"],
             _value(target, row["estimate"], d, row["quantity"].endswith("difference")),
             _ends(target, row["low"], row["high"], d, row["quantity"].endswith("difference")),
             scalar(row["method"])] for row in estimates(doc) if row["default"]]
    table = Table(["", "name", "estimate", f"{level(target or {})} interval", "method"], rows)
    if not rows:  # no intervals (power, simulate, ...): the Result table, else the first
        tables = sorted(((s.title != "Result", i, b) for i, s in enumerate(sections(doc))
                         if s.title != "Figure" for b in s.blocks if isinstance(b, Table)),
                        key=lambda t: t[:2])
        table = tables[0][2] if tables else None
    statement = doc.get("statement") or (target or {}).get("statement") or ""
    body = _html_block(table) if table is not None else ""
    return (f"<div><strong>evalbars {esc(scalar(doc.get('kind')))}</strong>{body}"
            f"<p style=\"max-width:60em\">{esc(scalar(statement))}</p></div>")


# --- Markdown twin ---------------------------------------------------------------------


def md_safe(value: object) -> object:
    """Every string of a document with &, <, >, [ and ] neutralised for Markdown, and
    control characters (a newline would start a new block) shown as escapes."""
    return _md_escaped(visible(value))


def _md_escaped(value: object) -> object:
    if isinstance(value, str):
        return (html.escape(value, quote=False).replace("[", "\\[").replace("]", "\\]"))
    if isinstance(value, dict):
        return {_md_escaped(key): _md_escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_md_escaped(item) for item in value]
    return value



def _md_blocks(section: Section) -> list[str]:
    from .render import _md_table

    lines = ["", f"**{section.title}**", ""]
    for block in section.blocks:
        if isinstance(block, Table):
            header = block.header or ["", ""]
            lines += _md_table(header, block.rows) + [""]
        elif not isinstance(block, Svg):
            lines += [str(block), ""]
    return lines


def render_markdown(doc: dict) -> str:
    """The Markdown twin of the HTML report, for a pull request or a wiki page.

    The kind's own Markdown (:func:`evalbars.render.render`) comes first, followed by the
    sections it does not show (equivalence, clustering, samples, any other key, and the
    provenance). A kind without a Markdown renderer gets every section. Every string
    from the document is escaped (``<`` becomes ``&lt;``), so no HTML in a model name
    can reach a Markdown viewer. Figures are not included: use ``evalbars plot``.
    """
    import importlib

    from .render import RENDERER_MODULES

    safe = md_safe(doc)
    kind = str(doc.get("kind"))
    try:
        module = importlib.import_module(
            "." + RENDERER_MODULES.get(kind, f"render_{kind}"), __package__)
    except ImportError:
        module = None
    if module is not None:
        head, extra = module.render_markdown(safe).rstrip("\n").split("\n"), \
            [s for s in sections(safe) if not s.core]
    else:
        title, meta = _title(safe)
        head = [f"### {title}", "", meta, "", scalar(safe.get("statement", ""))]
        head += [f"> **Warning:** {w}" for w in safe.get("warnings") or []]
        extra = [s for s in sections(safe) if s.title != "Figure"]
    lines = list(head)
    for section in extra:
        lines += _md_blocks(section)
    return "\n".join(lines).rstrip("\n") + "\n"
