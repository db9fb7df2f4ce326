"""Warnings about methods known to under-cover for the data at hand, with the figures of
evalbars' calibration study (docs/calibration.md) and the better method to use.

For 0/1 scores the study's coverage is exact, so it is recomputed here at the model's own
n and accuracy (:func:`evalbars.simulate.coverage` uses the same computation on its
grid). For continuous scores it is simulated, and the study's figures are quoted.
"""
from __future__ import annotations

from .results import Agreement, Difference, ModelScore

SMALL_N = 30
"""Below this many items clt and percentile bootstrap intervals of a mean are too narrow
(study: 92% and 91% at n = 10 for symmetric scores; pass@k intervals 48% to 92% at 10
questions)."""

SHORTFALL = 0.02
"""A method is flagged when its coverage is more than this far below its nominal level."""

SAFE_COUNT = 100
"""With at least this many right and this many wrong answers every binomial, clt and t
interval covered at least 94.3% in the study (docs/calibration.md), so the exact check is
skipped: its cost grows with n."""

CONTINUOUS_COVERAGE = {
    10: {"t": 0.95, "clt": 0.92, "bootstrap-percentile": 0.909, "bootstrap-bca": 0.929},
    30: {"t": 0.947, "clt": 0.94, "bootstrap-percentile": 0.937, "bootstrap-bca": 0.944},
}
"""Measured coverage of 95% intervals for continuous scores (Beta(1, 1): symmetric) at
n = 10 and 30, from the study (score-continuous, p = 0.5); skewed scores fare worse."""

NEAR_BOUND_COVERAGE = {
    (n, p): dict(zip(("t", "clt", "bootstrap-percentile", "bootstrap-bca"), figures))
    for (n, p), figures in {
        (10, 0.9): (0.83, 0.807, 0.808, 0.845), (10, 0.99): (0.403, 0.391, 0.396, 0.424),
        (30, 0.9): (0.906, 0.896, 0.9, 0.917), (30, 0.99): (0.639, 0.632, 0.645, 0.71),
        (100, 0.9): (0.935, 0.931, 0.935, 0.938), (100, 0.99): (0.825, 0.823, 0.835, 0.881),
        (500, 0.9): (0.945, 0.944, 0.943, 0.938), (500, 0.99): (0.917, 0.917, 0.918, 0.936),
    }.items()
}
"""Measured coverage of 95% intervals of a mean for continuous scores on [0, 1] piled
near a bound: Beta(2p, 2(1 - p)) with mean p = 0.9 and 0.99, at n = 10 to 500 (the
score-continuous table of the study; at n = 5000 every method covered 94.8% or more)."""

GAP_COVERAGE = (
    (1, {"paired-bootstrap-percentile": (0.005, 0.419), "paired-wald": (0.01, 0.591),
         "paired-t": (0.01, 0.591), "newcombe": (1.0, 1.0)}),
    (3, {"paired-bootstrap-percentile": (0.6, 0.801), "paired-wald": (0.787, 0.917),
         "paired-t": (0.794, 0.917), "newcombe": (0.991, 0.999)}),
    (10, {"paired-bootstrap-percentile": (0.866, 0.929), "paired-wald": (0.915, 0.949),
          "paired-t": (0.922, 0.956), "newcombe": (0.961, 0.996)}),
)
"""Coverage (lowest, highest) of 95% intervals of a 0/1 gap over the study's cells whose
expected number of discordant questions is below 1, from 1 to 3 and from 3 to 10
(gap-binary); with 10 or more every method covered at least 93.7%."""

FEW_DISCORDANT = GAP_COVERAGE[-1][0]
"""Below this many discordant questions a 0/1 gap's headline interval is ``newcombe``,
the one method that covered at least 95% there (:data:`GAP_COVERAGE`)."""

PASSK_ENOUGH = 100
"""From about this many questions (or clusters) pass@k intervals covered 93.7% to 95.6%."""

PASSK_COVERAGE = {
    10: {1: (0.9, 0.911), 5: (0.722, 0.926), 10: (0.482, 0.908)},
    30: {1: (0.934, 0.938), 5: (0.888, 0.944), 10: (0.858, 0.942)},
}
"""Coverage (lowest, highest over mean pass rates 0.3 and 0.7) of 95% percentile
bootstrap intervals of pass@1, pass@5 and pass@10 at 10 and 30 questions with 10 answers
each, from the study (passk family, docs/calibration.md)."""


def passk_warnings(n_units: int, unit: str, ks: tuple[int, ...]) -> list[str]:
    """A warning when pass@k intervals rest on too few questions (or clusters).

    Quotes the study's coverage at 10 questions (below 30) or at 30 (from 30 to 99) for
    the studied k nearest each asked one.

    >>> print(passk_warnings(40, "questions", (1, 10))[0][:63])
    with 40 questions, pass@k intervals cover less than their level
    """
    if n_units >= PASSK_ENOUGH:
        return []
    at = 10 if n_units < SMALL_N else 30
    figures = PASSK_COVERAGE[at]
    nearest = sorted({min(figures, key=lambda studied: (abs(studied - k), studied)) for k in ks})
    spans = _and([f"pass@{k} {_span(*figures[k])}" for k in nearest])
    return [f"with {n_units} {unit}, pass@k intervals cover less than their level: in "
            f"evalbars' calibration study (docs/calibration.md), at {at} questions with 10 "
            f"answers each, {spans} of 95% intervals held the true value, and about "
            f"{PASSK_ENOUGH} questions were needed for 94-96%; collect more {unit} or read "
            "the intervals as optimistic"]


_EXACT = ("wald", "clt", "t", "agresti-coull", "jeffreys", "wilson", "clopper-pearson")
"""Methods whose coverage on 0/1 data is computed exactly, in the order they are named."""


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%" if 0.01 <= x <= 0.99 else f"{100 * x:.1f}%"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _binary_coverage(model: ModelScore) -> tuple[str | None, str | None]:
    """The warning for 0/1 scores when a shown interval under-covers here (else None),
    and the interval it recommends (``"wilson"`` when there is no warning; None when it
    names none), so that every warning about this model gives the same advice."""
    n, right = model.n, round(model.mean * model.n)
    shown = {interval.method: interval.confidence_level for interval in model.intervals}
    if min(right, n - right) >= SAFE_COUNT or "wilson" not in shown:
        return None, "wilson"
    # Imported only here: it brings scipy.stats (0.5 s), which a large eval never needs.
    from ..stats.exact_coverage import binomial_coverage
    level = shown["wilson"]
    # all right (or all wrong) is evaluated half a question inside [0, 1]
    accuracy = min(max(right / n, 0.5 / n), 1.0 - 0.5 / n)
    found = {method: binomial_coverage(method, n, accuracy, confidence_level=level)
             for method in _EXACT if method in shown}
    short = [m for m in found if m not in ("wilson", "clopper-pearson")
             and found[m] < min(level, found["wilson"]) - SHORTFALL]
    wilson_short = found["wilson"] < level - SHORTFALL
    if not short and not wilson_short:
        return None, "wilson"
    where = f"at n = {n} and {100 * accuracy:.3g}% accuracy"
    study = "in evalbars' calibration study (exact binomial coverage, docs/calibration.md)"
    guaranteed = ""
    if wilson_short and "clopper-pearson" in found:
        guaranteed = (f", or clopper-pearson ({_percent(found['clopper-pearson'])}), which "
                      f"never covers less than {100 * level:g}%")
    if not short:
        said = f"wilson intervals {where} covered only {_percent(found['wilson'])} {study}"
        if "clopper-pearson" not in found:
            return said, None
        return (f"{said}; use clopper-pearson ({_percent(found['clopper-pearson'])})",
                "clopper-pearson")
    return (f"{_and(short)} intervals {where} covered only "
            f"{_and([_percent(found[m]) for m in short])} {study}; use wilson "
            f"({_percent(found['wilson'])}){guaranteed}", "wilson")


def _continuous_coverage(model: ModelScore) -> str | None:
    """The warning for continuous scores at small n, quoting the simulated figures."""
    if model.n >= SMALL_N:
        return None
    grid = max(n for n in CONTINUOUS_COVERAGE if n <= max(model.n, min(CONTINUOUS_COVERAGE)))
    figures = CONTINUOUS_COVERAGE[grid]
    shown = [i.method for i in model.intervals if i.method in figures and i.method != "t"]
    short = [m for m in shown if figures[m] < 0.95 - SHORTFALL]
    if not short:
        return None
    return (f"with n = {model.n}, {_and(short)} intervals are too narrow: at n = {grid} they "
            f"covered only {_and([_percent(figures[m]) for m in short])} in evalbars' "
            f"calibration study (symmetric scores; skewed ones fare worse, "
            f"docs/calibration.md); use the t interval ({_percent(figures['t'])})")


def _near_bound_coverage(model: ModelScore) -> str | None:
    """The warning for continuous scores on [0, 1] with a mean within 0.1 of a bound."""
    distance = min(model.mean, 1.0 - model.mean)
    if distance > 0.1 or model.n >= 5000:
        return None
    grid_n = max([n for n, _ in NEAR_BOUND_COVERAGE if n <= model.n] or [10])
    grid_p = 0.99 if distance <= 0.01 else 0.9
    figures = NEAR_BOUND_COVERAGE[grid_n, grid_p]
    shown = [i.method for i in model.intervals if i.method in figures]
    short = [m for m in shown if figures[m] < 0.95 - SHORTFALL]
    if not short:
        return None
    closest = max(shown, key=figures.get)
    return (f"with a mean of {model.mean:.3g} on a 0-to-1 scale, near its bound, "
            f"{_and(short)} intervals are too narrow: with n = {grid_n} and a mean of "
            f"{grid_p:g} or {1 - grid_p:.2g} (the study's cell at or below these data; "
            "skewed Beta scores) they "
            f"covered only {_and([_percent(figures[m]) for m in short])} in evalbars' "
            f"calibration study (docs/calibration.md), {closest} coming closest; no interval "
            "shown fixes this: read them as optimistic, or collect more questions")


def _span(low: float, high: float) -> str:
    return _percent(low) if _percent(low) == _percent(high) else \
        f"{_percent(low)} to {_percent(high)}"


def gap_warnings(difference: Difference, agreement: Agreement) -> list[str]:
    """A warning when a 0/1 gap rests on too few discordant questions for its intervals.

    Parameters
    ----------
    difference : Difference
        The paired gap with the intervals the report shows.
    agreement : Agreement
        The 2x2 counts (0/1 scores); nothing is said for continuous or clustered data.

    Returns
    -------
    list of str
        Empty, or one warning quoting the study's coverage (:data:`GAP_COVERAGE`) of the
        shown paired intervals for that many discordant questions, and saying that the
        headline is therefore newcombe.

    Examples
    --------
    >>> from evalbars.core.types import Interval
    >>> gap = Difference("a", "b", 0.05, (Interval("paired-wald", -0.02, 0.12, 0.95),), 0.2, 2.0)
    >>> print(gap_warnings(gap, Agreement(0.9, both=70, a_only=1, b_only=4, neither=25))[0][:72])
    b − a: only 5 questions have one model right and the other wrong; with 3
    """
    if agreement.a_only is None or difference.clustered is not None:
        return []
    m = agreement.a_only + agreement.b_only
    band = next(((bound, figures) for bound, figures in GAP_COVERAGE if m < bound), None)
    if band is None:
        return []
    bound, figures = band
    low = ([b for b, _ in GAP_COVERAGE if b < bound] or [0])[-1]
    shown = [i.method for i in difference.intervals
             if i.method in figures and i.method != "newcombe"
             and figures[i.method][0] < 0.95 - SHORTFALL]
    if not shown:
        return []
    expected = "under 1" if low == 0 else f"{low} to {bound}"
    counted = {0: "no question has", 1: "only 1 question has"}.get(
        m, f"only {m} questions have")
    spans = _and([_span(*figures[method]) for method in shown])
    return [f"{difference.b} \u2212 {difference.a}: {counted} one model right and the other "
            f"wrong; with {expected} such questions expected, {_and(shown)} intervals of the "
            f"gap covered only {spans} in evalbars' calibration study (docs/calibration.md); "
            f"the headline interval is newcombe's, which covered "
            f"{_span(*figures['newcombe'])}"]


def interval_warnings(model: ModelScore, score_type: str, *,
                      unit_interval: bool = False) -> list[str]:
    """Plain-words warnings about this model's intervals (empty when all is well).

    Parameters
    ----------
    model : ModelScore
        One model's score with the intervals the report shows.
    score_type : str
        ``"binary"`` (0/1 scores) or ``"continuous"``.
    unit_interval : bool
        Continuous scores that all lie in [0, 1] (rates, NDCG, judge scores scaled to 1).

    Returns
    -------
    list of str
        For 0/1 scores: a Wald, CLT or t interval that leaves [0, 1] (with the interval
        the coverage warning recommends, so that the advice is one); and the shown
        intervals whose exact coverage at this n and accuracy is more than
        :data:`SHORTFALL` below both their level and Wilson's coverage, with the figures
        and the better method (clopper-pearson too when Wilson itself falls short). For
        continuous scores on [0, 1] with a mean within 0.1 of a bound: the study's
        coverage there (:data:`NEAR_BOUND_COVERAGE`), which no method fixes; otherwise,
        below :data:`SMALL_N` items: the study's coverage of the clt and bootstrap
        intervals at small n. Nothing about coverage with clusters (the
        clustered warnings of :func:`evalbars.stats.clustering.cluster_warnings` apply).

    Notes
    -----
    The coverage of a 0/1 interval is ``sum_k P(K = k) [low(k) <= p <= high(k)]`` for
    ``K ~ Binomial(n, p)``, with ``p`` the observed accuracy (half a question inside
    [0, 1] when every answer is right or every answer is wrong), computed by
    :func:`evalbars.stats.exact_coverage.binomial_coverage` from the same interval
    functions the report uses. It is skipped with at least :data:`SAFE_COUNT` right and
    wrong answers.

    Examples
    --------
    >>> from evalbars.core.types import Interval
    >>> m = ModelScore("m", 20, 0.95, (Interval("wilson", 0.764, 0.991, 0.95),
    ...                                Interval("wald", 0.854, 1.046, 0.95)))
    >>> for line in interval_warnings(m, "binary"):
    ...     print(line[:75])
    model 'm': the wald interval (0.854 to 1.046) leaves [0, 1]: its normal app
    model 'm': wald intervals at n = 20 and 95% accuracy covered only 64% in ev
    """
    name = f"model {model.name!r}"
    found, coverage = [], None
    if score_type == "binary":
        advice = "wilson"
        if model.clustered is None:
            coverage, advice = _binary_coverage(model)
        use = f"; use the {advice} interval" if advice else ""
        for interval in model.intervals:
            if interval.method in ("wald", "clt", "t") and (interval.low < 0 or interval.high > 1):
                found.append(
                    f"{name}: the {interval.method} interval ({interval.low:.3f} to "
                    f"{interval.high:.3f}) leaves [0, 1]: its normal approximation has broken "
                    f"down here{use}")
    elif model.clustered is None:
        coverage = (_near_bound_coverage(model) if unit_interval else None) \
            or _continuous_coverage(model)
    if coverage is not None:
        found.append(f"{name}: {coverage}")
    return found
