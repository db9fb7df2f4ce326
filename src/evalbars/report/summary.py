"""The one-line summary of a report document: what ``repr(result)`` shows.

``repr`` of a result is ``<ClassName kind: headline>``: the models and the headline number
with its interval, in a line, where the full dataclass dump would run to kilobytes;
``str(result)`` is the text report. A pure function of ``to_dict()``, like every report.
"""
from __future__ import annotations

from . import format as fmt
from . import labels
from .escape import visible

__all__ = ["summary"]

_NAME_WIDTH = 30
_LISTED = 3


def summary(doc: dict) -> str:
    """``kind: headline`` for a report document, one short line.

    Examples
    --------
    >>> summary({"kind": "compare", "score_type": "binary", "n_items": 500,
    ...          "settings": {"confidence_level": 0.95},
    ...          "difference": {"a": "model_a", "b": "model_b", "estimate": 0.026,
    ...                         "intervals": [{"low": 0.008, "high": 0.044}]}})
    'compare: model_b \u2212 model_a +2.6 points (95% CI +0.8 to +4.4), 500 questions'
    >>> summary({"kind": "mystery"})
    'mystery'
    """
    doc = visible(doc)
    kind = doc.get("kind")
    try:
        body = _HEADLINES[kind](doc)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ZeroDivisionError):
        body = ""
    return f"{kind}: {body}" if body else str(kind)


def _name(name: object) -> str:
    text = str(name)
    return text if len(text) <= _NAME_WIDTH else text[:_NAME_WIDTH - 3] + "..."


def _minus(b: object, a: object) -> str:
    """The gap's name, ``b \u2212 a`` (U+2212, as the reports write it), names shortened."""
    return f"{_name(b)} \u2212 {_name(a)}"


def _questions(n: int) -> str:
    return f"{fmt.count(n)} question{'' if n == 1 else 's'}"


def _more(parts: list[str], total: int) -> str:
    shown = ", ".join(parts[:_LISTED])
    return shown if total <= _LISTED else f"{shown} and {total - _LISTED} more"


def _with_interval(doc: dict, estimate, interval: dict | None, *, gap: bool) -> str:
    """'+2.6 points (95% CI +0.8 to +4.4)', '73.2% (95% CI 69.2 to 76.9)' or '0.412 (...)'."""
    percent = labels.percent_like(doc)
    width = (interval["high"] - interval["low"]) if interval else float("nan")
    digits = fmt.decimals_for("binary" if percent else "continuous", width)
    unit = (" points" if gap else "%") if percent else ""
    text = labels.number_text(doc, estimate, digits, sign=gap) + unit
    if interval:
        text += (f" ({labels.level(doc)} CI "
                 f"{labels.interval_text(doc, interval['low'], interval['high'], digits, gap)})")
    return text


def _first(intervals) -> dict | None:
    return intervals[0] if intervals else None


def _gap(doc: dict, difference: dict, a: str = "a", b: str = "b") -> str:
    interval = _first(difference.get("intervals"))
    return (f"{_minus(difference[b], difference[a])} "
            f"{_with_interval(doc, difference['estimate'], interval, gap=True)}")


def _ci(doc: dict) -> str:
    models = [f"{_name(m['name'])} "
              f"{_with_interval(doc, m['mean'], _first(m.get('intervals')), gap=False)}"
              for m in doc["models"]]
    return f"{_more(models, len(models))}; {_questions(doc['n_items'])}"


def _compare(doc: dict) -> str:
    return f"{_gap(doc, doc['difference'])}, {_questions(doc['n_items'])}"


def _leaderboard(doc: dict) -> str:
    top = doc["models"][0]
    return (f"{_name(top['name'])} first with "
            f"{_with_interval(doc, top['mean'], _first(top.get('intervals')), gap=False)}; "
            f"{len(doc['models'])} models, {_questions(doc['n_items'])}")


def _bradley_terry(doc: dict) -> str:
    top = doc["models"][0]
    interval = _first(top.get("intervals"))
    ends = "" if interval is None else \
        f" ({labels.level(doc)} CI {interval['low']:+.0f} to {interval['high']:+.0f})"
    return (f"{_name(top['name'])} first at {top['rating']:+.0f}{ends}; "
            f"{doc['n_models']} models, {fmt.count(doc['n_battles'])} battles")


def _select(doc: dict) -> str:
    winner = next(c for c in doc["candidates"] if c["name"] == doc["winner"])
    gain = _with_interval(doc, winner["estimate"], _first(winner.get("intervals")), gap=True)
    n = len(doc["candidates"])
    return (f"best {_name(winner['name'])} {gain} over {_name(doc['baseline'])}, not adjusted "
            f"for the choice; {n} candidate{'' if n == 1 else 's'}, "
            f"{_questions(doc['n_items'])}")


def _seeds(doc: dict) -> str:
    runs = " and ".join(str(m["n_runs"]) for m in doc["models"][:2])
    return f"{_gap(doc, doc['difference'])}; {runs} runs, {_questions(doc['n_items'])}"


def _ablation(doc: dict) -> str:
    n = len(doc["variants"])
    return (f"gain of the full system {_gap(doc, doc['gain'])}; {n} "
            f"variant{'' if n == 1 else 's'}, {_questions(doc['n_items'])}")


def _gate(doc: dict) -> str:
    if doc.get("sequential"):
        return f"{doc['decision']} (sequential), {_monitor(doc['monitor'])}"
    comparison = doc["comparison"]
    eq = doc["equivalence"]
    interval = {"low": eq["interval"]["low"], "high": eq["interval"]["high"]}
    shown = {**comparison, "settings": {"confidence_level": eq["interval"]["level"]}}
    gap = _with_interval(shown, doc["estimate"], interval, gap=True)
    margin = labels.number_text(comparison, doc["max_regression"], 1 if
                                labels.percent_like(comparison) else 3)
    unit = " points" if labels.percent_like(comparison) else ""
    return (f"{doc['decision']}, {_minus(doc['candidate'], doc['baseline'])} {gap}, "
            f"max regression {margin}{unit}, {_questions(comparison['n_items'])}")


def _passk(doc: dict) -> str:
    n = doc["models"][0]["n_items"]
    if doc.get("difference"):
        row = doc["difference"][0]
        head = (f"{_minus(doc['b'], doc['a'])} pass@{row['k']} "
                f"{_with_interval(doc, row['estimate'], row, gap=True)}")
    else:
        model = doc["models"][0]
        row = model["pass_at_k"][0]
        head = (f"{_name(model['name'])} pass@{row['k']} "
                f"{_with_interval(doc, row['estimate'], row, gap=False)}")
    return f"{head}; {len(doc['models'])} model{'' if len(doc['models']) == 1 else 's'}, " \
           f"{_questions(n)}"


def _power(doc: dict) -> str:
    unit = " per model" if doc["design"] != "paired" else ""
    return (f"solved for {doc['solved_for']}: n {fmt.count(doc['n'])}{unit} ({doc['design']}), "
            f"{labels.gap_label(doc, doc['gap'])}, power {doc['power']:.0%}, "
            f"alpha {doc['alpha']:g}")


def _simulate(doc: dict) -> str:
    rates = [f"{_name(name)} {rate.get('rate', rate.get('mean')):.3g} "
             f"(MC error {rate['mc_error']:.2g})" for name, rate in doc["rates"].items()]
    n = doc["experiments"]
    return (f"{doc['name']}, {fmt.count(n)} experiment{'' if n == 1 else 's'}: "
            f"{_more(rates, len(rates))}")


def _monitor(doc: dict) -> str:
    at = doc["stopped"] or doc["last"]
    shown = {**doc, "settings": {"confidence_level": doc["settings"]["confidence_level"]}}
    gap = _with_interval(shown, at["estimate"], at, gap=True)
    when = "stopped at" if doc["stopped"] else "after"
    return (f"{_minus(doc['b'], doc['a'])} {gap}, {doc['decision']} {when} "
            f"{fmt.count(at['n'])} {doc['unit']}{'' if at['n'] == 1 else 's'}")


_HEADLINES = {
    "ci": _ci, "compare": _compare, "leaderboard": _leaderboard,
    "bradley-terry": _bradley_terry, "select": _select, "seeds": _seeds,
    "ablation": _ablation, "gate": _gate, "passk": _passk, "power": _power,
    "simulate": _simulate, "monitor": _monitor,
}
