"""Renderers for ``kind: "simulate"`` documents: the terminal report and Markdown.

Pure functions of the document (``Simulation.to_dict()``); rounding happens only here.
Each simulation prints a table of what happened, every simulated number with its Monte
Carlo error, and one line saying what it shows.
"""
from __future__ import annotations

import textwrap

from .. import format as fmt
from .blocks import md_table, table

TITLES = {
    "fake-pair": "a simulated results file",
    "aa": "two identical models (A/A)",
    "power": "how often each test finds the gap",
    "peeking": "stopping at the first significant peek",
    "wrong-unit": "resampling the wrong unit",
    "winners-curse": "the best of many null candidates",
    "clustering": "clustered questions",
    "misaligned": "one file shuffled before a positional join",
    "coverage": "the calibration study",
}

LABELS = {
    "accuracy_a": ("model A's accuracy", "pct"),
    "accuracy_b": ("model B's accuracy", "pct"),
    "disagreement": ("questions the models disagree on", "pct"),
    "gap": ("gap B \u2212 A", "points"),
    "gap_at_least_threshold": ("B ahead of A by at least {threshold}", "pct"),
    "gap_at_least_threshold_either": ("either model ahead by at least {threshold}", "pct"),
    "paired_ci_excludes_zero": ("paired {level} interval of the gap excludes zero", "pct"),
    "mcnemar_p_below_alpha": ("exact McNemar p < {alpha}", "pct"),
    "bars_do_not_overlap": ("the two separate {level} bars do not overlap", "pct"),
    "paired-wald": ("paired {level} interval excludes zero (paired-wald)", "pct"),
    "mcnemar-exact": ("exact McNemar p < {alpha} (mcnemar-exact)", "pct"),
    "sign-flip": ("sign-flip p < {alpha} (for 0/1 scores, same as McNemar)", "pct"),
    "false_positive_peeking": ("p < {alpha} at some look ({looks} looks, stop there)", "pct"),
    "false_positive_once": ("p < {alpha} at n = {n} (one test at the end)", "pct"),
    "false_positive_monitor": ("the monitor stops at some look", "pct"),
    "power_once": ("real gain: p < {alpha} at n = {n}", "pct"),
    "power_monitor": ("real gain: the monitor stops by n = {n}", "pct"),
    "questions_monitor": ("real gain: questions until it stops (mean)", "number"),
    "coverage_wrong_unit": ("coverage, resampling {wrong_unit}s", "pct"),
    "width_wrong_unit": ("mean width, resampling {wrong_unit}s", "width"),
    "coverage_right_unit": ("coverage, resampling {right_unit}s", "pct"),
    "width_right_unit": ("mean width, resampling {right_unit}s", "width"),
    "selected_gain": ("gain of the best of {candidates} (mean)", "points"),
    "selected_gain_at_least_1pt": ("the best gains at least 1 point", "pct"),
    "confirmed_gain": ("its gain on fresh questions (mean)", "points"),
    "any_significant": ("some candidate at p < {alpha}", "pct"),
    "any_significant_bonferroni": ("some candidate at p < {alpha}/{candidates} (Bonferroni)",
                                   "pct"),
    "coverage_naive": ("coverage of the naive {level} interval", "pct"),
    "coverage_clustered": ("coverage of the clustered {level} interval", "pct"),
    "design_effect": ("design effect (clustered / naive variance, mean)", "number"),
}
"""Rate name -> (label, unit); labels are filled from the settings."""

_PAIRED_ROWS = (("disagreement", "questions the models disagree on", "pct"),
                ("correlation", "per-question correlation", "correlation"),
                ("ci_width", "width of the paired {level} interval", "width"),
                ("mcnemar_p", "exact McNemar p", "p"))
"""misaligned: rates ``<name>_joined`` and ``<name>_shuffled`` shown side by side."""


def _number(x: float | None, unit: str) -> str:
    if x is None:
        return "n/a"
    if unit == "pct":
        return f"{100 * x:.1f}%"
    if unit == "points":
        return f"{100 * x:+.2f} points".replace("-", "\u2212")
    if unit == "width":
        return f"{100 * x:.2f} points"
    if unit == "p":
        return f"{x:.4f}" if x >= 0.0001 else f"{x:.1e}"
    if unit == "correlation":
        return f"{x + 0.0:.3f}".replace("-0.000", "0.000").replace("-", "\u2212")
    return f"{x:.3g}"


def _error(rate: dict, unit: str) -> str:
    """The Monte Carlo error in the unit of the value, two significant digits."""
    error = rate["mc_error"]
    if error is None:
        return "n/a"
    if error == 0:
        return "exact" if "mean" in rate else "\u00b10"
    scale = 1.0 if unit in ("p", "number", "correlation") else 100.0
    return f"\u00b1{scale * error:#.2g}".rstrip(".")


def _names(settings: dict) -> dict:
    """Settings as the labels show them."""
    level = 1.0 - settings.get("alpha", 0.05)
    out = {key: value for key, value in settings.items() if not isinstance(value, (dict, list))}
    out.update(level=f"{100 * level:g}%", alpha=f"{settings.get('alpha', 0.05):g}")
    if "threshold" in settings:
        out["threshold"] = f"{100 * settings['threshold']:g} points"
    return out


def _settings_line(doc: dict) -> str:
    parts = []
    for key, value in doc["settings"].items():
        if isinstance(value, (dict, list)) or key in ("data", "a", "b"):
            continue
        if key in ("accuracy", "disagreement"):
            shown = f"{100 * value:.4g}%"
        elif key in ("gap", "threshold", "gain"):
            shown = f"{100 * value:.4g} points".replace("-", "\u2212")
        elif isinstance(value, float):
            shown = f"{value:.4g}"
        elif isinstance(value, int):
            shown = fmt.count(value)
        else:
            shown = str(value)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return " \u00b7 ".join(parts)


def _rate_rows(doc: dict) -> list[list[str]]:
    names = _names(doc["settings"])
    rows = []
    for name, rate in doc["rates"].items():
        label, unit = LABELS.get(name, (name.replace("_", " "), "number"))
        value = rate["rate"] if "rate" in rate else rate["mean"]
        rows.append([label.format(**names), _number(value, unit), _error(rate, unit)])
    return rows


def _misaligned_rows(doc: dict) -> list[list[str]]:
    rates, names = doc["rates"], _names(doc["settings"])
    rows = [["gap B \u2212 A (the same either way)", _number(rates["gap"]["mean"], "points"),
             _number(rates["gap"]["mean"], "points") + " exact"]]
    for key, label, unit in _PAIRED_ROWS:
        joined, shuffled = rates[f"{key}_joined"], rates[f"{key}_shuffled"]
        rows.append([label.format(**names), _number(joined["mean"], unit),
                     f"{_number(shuffled['mean'], unit)} {_error(shuffled, unit)}"])
    still = rates["significant_shuffled"]
    rows.append([f"p < {names['alpha']}", "yes" if rates["mcnemar_p_joined"]["mean"] <
                 doc["settings"]["alpha"] else "no",
                 f"in {_number(still['rate'], 'pct')} of shuffles "
                 f"{_error(still, 'pct')}"])
    return rows


def _table_parts(doc: dict) -> tuple[list[str], list[list[str]]]:
    if doc["name"] == "misaligned":
        return ["", "joined on ids", "shuffled (mean, MC error)"], _misaligned_rows(doc)
    if doc["name"] == "fake-pair":
        return ["in the file", "value", "sampling error"], _rate_rows(doc)
    return ["what happened", "share or mean", "MC error"], _rate_rows(doc)


def _reading(doc: dict) -> str:
    """One line saying what the numbers show."""
    rates, s, name = doc["rates"], doc["settings"], doc["name"]

    def v(key: str, unit: str) -> str:
        rate = rates[key]
        return _number(rate["rate"] if "rate" in rate else rate["mean"], unit)

    if name == "aa":
        return (f"Two identical models: B looks at least {100 * s['threshold']:g} points "
                f"better in {v('gap_at_least_threshold', 'pct')} of experiments.")
    if name == "power":
        return (f"A real {_number(s['gap'], 'points')} gap on {fmt.count(s['n'])} "
                f"questions: the paired interval finds it in {v('paired-wald', 'pct')} of "
                f"experiments, comparing bars in {v('bars_do_not_overlap', 'pct')}.")
    if name == "peeking":
        return (f"Peeking {s['looks']} times turns {v('false_positive_once', 'pct')} false "
                f"positives into {v('false_positive_peeking', 'pct')}; the monitor keeps "
                f"them at {v('false_positive_monitor', 'pct')}, and finds a real "
                f"{_number(s['gain'], 'points')} in {v('power_monitor', 'pct')} of "
                f"experiments against {v('power_once', 'pct')} for one test at n.")
    if name == "wrong-unit":
        return (f"Resampling {s['wrong_unit']}s covers the truth in "
                f"{v('coverage_wrong_unit', 'pct')} of experiments; resampling "
                f"{s['right_unit']}s, the independent unit, in "
                f"{v('coverage_right_unit', 'pct')}.")
    if name == "winners-curse":
        return (f"The best of {s['candidates']} useless candidates looks "
                f"{v('selected_gain', 'points')} better; on fresh questions, "
                f"{v('confirmed_gain', 'points')}.")
    if name == "clustering":
        worth = s["n"] / rates["design_effect"]["mean"]
        return (f"The naive interval covers {v('coverage_naive', 'pct')}, the clustered "
                f"{v('coverage_clustered', 'pct')}; {fmt.count(s['n'])} questions are worth "
                f"about {worth:.0f} independent ones.")
    if name == "misaligned":
        return ("Nothing crashed, yet the paired analysis became an unpaired one: join on "
                "question ids, never on row order.")
    if name == "fake-pair":
        cells = doc["cells"]
        return (f"{fmt.count(s['n'])} questions: both right {cells['both']}, A only "
                f"{cells['a_only']}, B only {cells['b_only']}, neither {cells['neither']}.")
    return ""


def _footer(doc: dict) -> str:
    count = "one dataset" if doc["name"] == "fake-pair" else \
        f"{fmt.count(doc['experiments'])} experiments"
    return f"{count} \u00b7 seed {doc['seed']} \u00b7 evalbars {doc['provenance']['version']}"


# --- the calibration study (``coverage``) ---------------------------------------------

FLAG = "*"
"""Marks a rate clearly on the wrong side of nominal (see :func:`_flagged`)."""


def _flagged(quantity: str, alpha: float, rate: dict) -> bool:
    """Coverage more than 2 points under nominal, or a type I error more than 1 point over
    alpha, by more than twice the Monte Carlo error."""
    value, error = rate["rate"], 2.0 * rate["mc_error"]
    if quantity == "coverage":
        return value + error < 1.0 - alpha - 0.02
    return quantity == "type I error" and value - error > alpha + 0.01


def _entry(quantity: str, alpha: float, rate: dict, exact: bool, markdown: bool) -> str:
    digits = 2 if quantity == "type I error" else 1
    shown = f"{100 * rate['rate']:.{digits}f}"
    if not exact:
        shown += f" \u00b1{100 * rate['mc_error']:.{digits}f}"
    if _flagged(quantity, alpha, rate):
        shown = f"**{shown}**" if markdown else shown + FLAG
    return shown


def _cells(key: str) -> list[str]:
    return [part.split("=")[1] for part in key.split(",")]


def _family_table(doc: dict, name: str, markdown: bool) -> tuple[list[str], list[list[str]]]:
    info, alpha = doc["settings"]["families"][name], doc["settings"]["alpha"]
    header = [part.split("=")[0] for part in info["cells"][0].split(",")]
    header += [info["labels"].get(m, m) for m in info["methods"]]
    rows = []
    for key in info["cells"]:
        row = _cells(key)
        for method in info["methods"]:
            rate = doc["rates"][f"{name}/{method}/{key}"]
            row.append(_entry(info["quantity"], alpha, rate, method in info["exact"],
                              markdown))
            if f"{method}/{key}" in info["reduced"]:
                row[-1] += f" ({fmt.count(info['reduced'][f'{method}/{key}'])})"
        rows.append(row)
    return header, rows


def _family_notes(doc: dict, name: str) -> str:
    info, s = doc["settings"]["families"][name], doc["settings"]
    what = {"coverage": f"coverage of {100 * (1 - s['alpha']):g}% intervals",
            "type I error": f"type I error at alpha = {s['alpha']:g}",
            "power": f"power at alpha = {s['alpha']:g}"}[info["quantity"]]
    notes = [f"{name}: {what} (%). {info['data']}."]
    if info["exact"]:
        notes.append(f"Exact (no Monte Carlo): {', '.join(info['exact'])}.")
    simulated = [m for m in info["methods"] if m not in info["exact"]]
    if simulated:
        notes.append(f"Simulated ({', '.join(simulated)}): {fmt.count(s['datasets'])} "
                     "datasets per cell unless a count in parentheses says fewer, "
                     "\u00b1 one Monte Carlo error.")
    return " ".join(notes)


def _headline_rows(doc: dict, markdown: bool) -> list[list[str]]:
    """Each recommended default over its family's grid: range and worst cell."""
    s, rows = doc["settings"], []
    for name, info in s["families"].items():
        if info["quantity"] == "power":
            continue
        for method in info["defaults"]:
            rates = {key: doc["rates"][f"{name}/{method}/{key}"] for key in info["cells"]}
            sign = 1.0 if info["quantity"] == "coverage" else -1.0
            worst = min(rates, key=lambda key: sign * rates[key]["rate"])
            values = [r["rate"] for r in rates.values()]
            digits = 2 if info["quantity"] == "type I error" else 1
            rows.append([method, name, f"{100 * min(values):.{digits}f} to "
                         f"{100 * max(values):.{digits}f}",
                         f"{worst}: " + _entry(info["quantity"], s["alpha"], rates[worst],
                                               method in info["exact"], markdown)])
    return rows


def _coverage_parts(doc: dict, markdown: bool) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of the headline and of every family's table."""
    parts = []
    headline = _headline_rows(doc, markdown)
    if headline:
        parts.append(("The recommended defaults over the grid (%)",
                      ["method", "family", "range", "worst cell"], headline))
    for name in doc["settings"]["families"]:
        parts.append((_family_notes(doc, name), *_family_table(doc, name, markdown)))
    return parts


def _coverage_intro(doc: dict) -> str:
    s = doc["settings"]
    return (f"{100 * (1 - s['alpha']):g}% intervals \u00b7 tests at alpha = {s['alpha']:g} "
            f"\u00b7 {fmt.count(s['datasets'])} datasets per simulated cell \u00b7 "
            f"{fmt.count(s['n_resamples'])} resamples \u00b7 n = "
            + ", ".join(fmt.count(n) for n in s["n"]))


def _coverage_legend(markdown: bool) -> str:
    return (f"{'Bold' if markdown else FLAG}: coverage more than 2 points under nominal, or a "
            "type I error more than 1 point over alpha, by more than twice the Monte Carlo "
            "error.")


def _coverage_footer(doc: dict) -> str:
    return (f"{fmt.count(doc['experiments'])} datasets per simulated cell \u00b7 seed "
            f"{doc['seed']} \u00b7 evalbars {doc['provenance']['version']}")


_WHOLE_WORDS = dict(break_on_hyphens=False, break_long_words=False)
"""Wrap at spaces only: never inside a (hyphenated) name."""


def _coverage_text(doc: dict) -> str:
    lines = [f"evalbars simulate coverage: {TITLES['coverage']}", _coverage_intro(doc), ""]
    for title, header, rows in _coverage_parts(doc, markdown=False):
        lines += textwrap.wrap(title, 92, **_WHOLE_WORDS) + table(header, rows) + [""]
    lines += textwrap.wrap(_coverage_legend(False), 92, **_WHOLE_WORDS)
    lines += ["", _coverage_footer(doc)]
    return "\n".join(lines) + "\n"


def _coverage_markdown(doc: dict) -> str:
    lines = [f"### evalbars simulate coverage: {TITLES['coverage']}", "",
             _coverage_intro(doc), ""]
    for title, header, rows in _coverage_parts(doc, markdown=True):
        lines += [title, ""] + md_table(header, rows) + [""]
    lines += [_coverage_legend(True), "", f"<sub>{_coverage_footer(doc)}</sub>"]
    return "\n".join(lines) + "\n"


def render_text(doc: dict) -> str:
    """The terminal report for a ``simulate`` document."""
    if doc["name"] == "coverage":
        return _coverage_text(doc)
    lines = [f"evalbars simulate {doc['name']}: {TITLES.get(doc['name'], '')}".rstrip(": ")]
    if "data" in doc["settings"]:
        lines.append(f"data: {doc['settings']['data']}")
    lines += [_settings_line(doc), ""]
    lines += table(*_table_parts(doc))
    lines += ["", _reading(doc), "", _footer(doc)]
    return "\n".join(lines) + "\n"


def render_markdown(doc: dict) -> str:
    """Markdown for a pull-request comment or a notebook."""
    if doc["name"] == "coverage":
        return _coverage_markdown(doc)
    lines = [f"### evalbars simulate {doc['name']}: {TITLES.get(doc['name'], '')}", ""]
    if "data" in doc["settings"]:
        lines += [f"data: {doc['settings']['data']}", ""]
    lines += [_settings_line(doc), ""]
    lines += md_table(*_table_parts(doc))
    lines += ["", _reading(doc), "", f"<sub>{_footer(doc)}</sub>"]
    return "\n".join(lines) + "\n"
