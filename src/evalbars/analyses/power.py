"""Power, sample size and the minimum detectable effect: how many questions do you need?

Before running a comparison, ask: if model B really is better by the gap you care about,
how likely is the experiment to show it? :func:`solve` answers for whichever one of
``n`` (questions), ``gap`` (the minimum detectable effect) or ``power`` is left out;
:func:`grid` adds the n needed for gaps of 0.5, 1, 2 and 5 points to the MDE at the
current n; :func:`from_pilot` estimates the planning inputs from a small results file.

Designs, and their methods in :data:`METHODS` (the first is the default):

- ``paired``: both models answer the same questions. The variance of the per-question
  difference is ``disagreement - gap**2`` for 0/1 scores (or ``variance`` for others).
  ``normal`` uses the z test; ``mcnemar-exact`` the exact McNemar test, whose exact power
  is reported with every paired 0/1 result.
- ``unpaired``: each model answers its own n questions (n is per model). ``normal`` uses
  ``p_a(1 - p_a) + p_b(1 - p_b)`` with ``p_a = baseline`` and ``p_b = baseline + gap``
  (or twice ``variance``); ``cohen-h`` the arcsine effect size of statsmodels'
  ``NormalIndPower`` and R's ``pwr.2p.test``.
- ``clustered``: questions come in clusters; the variance of the paired comparison (with
  ``disagreement`` or ``variance``) or the unpaired one (with ``baseline``) is multiplied
  by the design effect ``1 + (cluster_size - 1) * icc`` (or ``design_effect``), and n is
  rounded up to whole clusters.

With ``samples`` K sampled answers per question, the per-question variance splits into
``between_variance`` (question noise) plus the rest divided by K (:func:`sampled_variance`).
Gaps and rates are fractions (0.01 = 1 point); every test is two-sided at level ``alpha``
unless ``alternative`` is ``"greater"`` (B better than A by the gap) or ``"less"`` (B worse
by it): a one-sided test puts all of alpha on that side and needs fewer questions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.errors import EvalbarsError
from ..core.version import __version__
from ..report.notebook import NotebookMixin
from ..stats.power import (
    DESIGNS,
    INPUTS,
    MCNEMAR_TAIL,
    METHODS,
    DesignPlan,
    check_gap,
    check_power,
    checked_count,
    checked_real,
    gap_for,
    make_plan,
    mcnemar_exact_power,
    mcnemar_power,
    missing_input,
    n_for,
    percent_text,
    points_text,
    sampled_se,
    sampled_variance,
)
from .pilot import Pilot, from_pilot, icc

__all__ = ["DESIGNS", "GRID_GAPS", "INPUTS", "MCNEMAR_TAIL", "METHODS", "Pilot", "PowerResult",
           "from_pilot", "grid", "icc", "mcnemar_power", "sampled_se", "sampled_variance",
           "solve"]


GRID_GAPS = (0.005, 0.01, 0.02, 0.05)
"""Gaps of :func:`grid`: 0.5, 1, 2 and 5 points."""


# --- results --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class PowerResult(NotebookMixin):
    """A solved power calculation; ``to_dict()`` is the ``kind: "power"`` document.

    ``n`` is per model for unpaired designs. ``power`` is the target (or the solved
    power); ``achieved_power`` is the method's power at the rounded n. Optional fields
    are None where they do not apply.
    """

    solved_for: str
    n: int
    gap: float
    power: float
    alpha: float
    design: str
    method: str
    inputs: dict
    achieved_power: float
    statement: str
    n_unrounded: float | None = None
    exact_mcnemar_power: float | None = None
    design_effect: float | None = None
    effective_n: float | None = None
    n_clusters: int | None = None
    grid: tuple[dict, ...] | None = None
    pilot: dict | None = None
    alternative: str = "two-sided"

    def to_dict(self) -> dict:
        out = {"schema_version": SCHEMA_VERSION, "kind": "power"}
        for key in ("solved_for", "n", "gap", "power", "alpha", "design", "method"):
            out[key] = getattr(self, key)
        if self.alternative != "two-sided":  # absent: two-sided, as in every document
            out["alternative"] = self.alternative
        out["inputs"] = dict(self.inputs)
        out["achieved_power"] = self.achieved_power
        for key in ("n_unrounded", "exact_mcnemar_power", "design_effect", "effective_n",
                    "n_clusters", "pilot"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.grid is not None:
            out["grid"] = [dict(row) for row in self.grid]
        out["statement"] = self.statement
        inputs = self.pilot["source"].get("inputs", []) if self.pilot else []
        out["provenance"] = {"version": __version__, "inputs": inputs}
        return json_safe(out)


def _statement(plan: DesignPlan, solved_for: str, n: int, gap: float, power: float,
               exact: float | None, n_clusters: int | None, pilot: Pilot | None) -> str:
    binary = plan.variance is None
    word = "loss" if plan.alternative == "less" else "gain"
    gain = f"{points_text(gap, adjective=True)} {word}" if binary else f"{word} of {gap:.4g}"
    sided = "two-sided" if plan.alternative == "two-sided" else \
        f"one-sided: B {'better' if plan.alternative == 'greater' else 'worse'} than A"
    level = f"alpha {plan.alpha:g} ({sided})"
    who = plan.describe(pilot)
    unit = "questions" + ("" if plan.paired else " per model")
    if solved_for == "n":
        clusters = f" ({n_clusters:,} clusters)" if n_clusters is not None else ""
        text = (f"To detect a {gain} with {percent_text(power)} power at {level}, {who} needs "
                f"about {n:,} {unit}{clusters}.")
    else:
        size = f"With {n:,} {unit}"
        if plan.design == "clustered":
            size += f" (worth about {n / plan.design_effect:,.0f} independent ones)"
        if solved_for == "gap":
            shown = points_text(gap) if binary else f"{gap:.4g}"
            smaller = "losses" if word == "loss" else "gains"
            text = (f"{size}, {who} detects a real {word} of {shown} or more with "
                    f"{percent_text(power)} power at {level}; smaller {smaller} will usually "
                    f"be missed.")
        else:
            text = (f"{size}, {who} has {percent_text(power)} power to detect a real {gain} "
                    f"at {level}.")
    method = {"normal": "Normal approximation", "cohen-h": "Cohen's h (arcsine) approximation",
              "mcnemar-exact": "Exact McNemar test"}[plan.method]
    if exact is not None and plan.method != "mcnemar-exact":
        method += f"; the exact McNemar test has {percent_text(exact)} power at this size"
    return f"{text} {method}."


def _result(plan: DesignPlan, solved_for: str, n: int, gap: float, power: float,
            n_unrounded: float | None, inputs: dict, pilot: Pilot | None) -> PowerResult:
    achieved = plan.power(n, gap)
    exact = None
    if plan.design == "paired" and plan.disagreement is not None and plan.samples is None:
        exact = achieved if plan.method == "mcnemar-exact" else mcnemar_exact_power(
            n, plan.disagreement, gap, plan.alpha, plan.alternative)
    power = achieved if solved_for == "power" else power
    clustered = plan.design == "clustered"
    n_clusters = math.ceil(n / plan.cluster_size) if plan.cluster_size is not None else None
    return PowerResult(
        solved_for=solved_for, n=n, gap=gap, power=power, alpha=plan.alpha, design=plan.design,
        method=plan.method, inputs=inputs, achieved_power=achieved,
        statement=_statement(plan, solved_for, n, gap, power, exact, n_clusters, pilot),
        n_unrounded=n_unrounded, exact_mcnemar_power=exact,
        design_effect=plan.design_effect if clustered else None,
        effective_n=n / plan.design_effect if clustered else None, n_clusters=n_clusters,
        pilot=pilot.to_dict() if pilot is not None else None, alternative=plan.alternative)


# --- solve and grid -------------------------------------------------------------------


def _prepare(design, method, alpha, given: dict, pilot: Pilot | None,
             alternative: str = "two-sided") -> tuple[DesignPlan, dict]:
    """The validated plan, and every input given (validated values, JSON-safe)."""
    if pilot is not None:
        given = pilot._fill(design, given)
    plan = make_plan(design, method, alpha, given, alternative)
    names = [key for key in INPUTS if given[key] is not None]
    return plan, {"alpha": plan.alpha, **{key: getattr(plan, key) for key in names}}


def solve(*, design: str = "paired", n: int | None = None, gap: float | None = None,
          power: float | None = None, alpha: float = 0.05, disagreement: float | None = None,
          baseline: float | None = None, variance: float | None = None,
          icc: float | None = None, cluster_size: float | None = None,
          design_effect: float | None = None, samples: int | None = None,
          between_variance: float | None = None, method: str | None = None,
          pilot: Pilot | None = None, alternative: str = "two-sided") -> PowerResult:
    """Solve for whichever one of ``n``, ``gap`` or ``power`` is left out.

    Parameters
    ----------
    design : {"paired", "unpaired", "clustered"}
        See the module docstring.
    n, gap, power : int, float, float
        Give exactly two. ``n`` is questions (per model when unpaired); ``gap`` the true
        gain as a fraction (0.01 = 1 point); ``power`` a probability above alpha.
    alpha : float
        Level of the test (two-sided unless ``alternative`` says otherwise).
    disagreement : float, optional
        Paired 0/1: chance D that the models differ on a question (``gap <= D``).
    baseline : float, optional
        Unpaired 0/1: model A's accuracy p_a; ``p_b = p_a + gap``.
    variance : float, optional
        Any scores: per-question variance of ``b - a`` (paired) or of one model's score
        (unpaired, both models alike), instead of disagreement or baseline.
    icc, cluster_size, design_effect : float, optional
        Clustered: ``design_effect``, or ``1 + (cluster_size - 1) * icc``; with
        ``cluster_size`` n is rounded up to whole clusters.
    samples, between_variance : int, float, optional
        K answers sampled per question and the between-question part of the variance.
    method : str, optional
        One of :data:`METHODS` for the design; default the first.
    pilot : Pilot, optional
        From :func:`from_pilot`: supplies disagreement, baseline or variance (and with
        clusters icc and cluster_size: a clustered pilot plans only the clustered design).
    alternative : {"two-sided", "greater", "less"}
        The test planned: two-sided (default), or one-sided with all of alpha on one side,
        ``"greater"`` for B better than A by ``gap`` (``"less"``: worse by it; the same n).

    Returns
    -------
    PowerResult
        n rounded up (to whole clusters when clustered), the power achieved there, and
        for paired 0/1 designs the exact McNemar power too.

    Notes
    -----
    ``normal``: ``n = delta**2 Var / gap**2`` where delta solves
    ``Phi(delta - z) + Phi(-delta - z) = power``, ``z = Phi^-1(1 - alpha/2)`` (both tails,
    as statsmodels); dropping the far tail gives the textbook ``delta = z + Phi^-1(power)``,
    ``(1.96 + 0.84)**2``, and 7,841.03 instead of 7,841.01 questions in the example below.
    ``Var = D - gap**2`` (paired 0/1), ``p_a(1-p_a) + p_b(1-p_b)`` (unpaired), times the
    design effect, each arm ``between + (total - between) / K`` with samples.
    ``cohen-h``: ``n = 2 DE delta**2 / h**2``, ``h = 2 asin sqrt(p_b) - 2 asin sqrt(p_a)``.
    ``mcnemar-exact``: :func:`mcnemar_power`; n is found by bisection (power(n) reaches the
    target and power(n - 1) does not; exact power can saw-tooth when D is near 1).
    One-sided, ``z = Phi^-1(1 - alpha)`` and ``delta = z + Phi^-1(power)`` exactly, and
    the exact McNemar test puts alpha on one side (:func:`mcnemar_power`).
    Validated against statsmodels ``NormalIndPower`` and ``TTestPower`` (with
    ``alternative="larger"`` for one-sided plans).

    Examples
    --------
    >>> r = solve(design="paired", gap=0.01, power=0.8, disagreement=0.10)
    >>> r.n, round(r.n_unrounded, 2), round(r.exact_mcnemar_power, 3)
    (7842, 7841.01, 0.79)
    >>> solve(design="unpaired", gap=0.095, power=0.8, baseline=0.615, method="cohen-h").n
    388
    >>> solve(design="paired", gap=0.01, power=0.8, disagreement=0.10, alternative="greater").n
    6177
    """
    given = dict(disagreement=disagreement, baseline=baseline, variance=variance, icc=icc,
                 cluster_size=cluster_size, design_effect=design_effect, samples=samples,
                 between_variance=between_variance)
    solved_for = missing_input(n, gap, power)
    plan, inputs = _prepare(design, method, alpha, given, pilot, alternative)
    n = None if n is None else checked_count(n, "n", "a positive integer (questions)")
    gap = None if gap is None else check_gap(plan, gap)
    power = None if power is None else check_power(plan, power)
    inputs.update({k: v for k, v in (("n", n), ("gap", gap), ("power", power)) if v is not None})
    n_unrounded = None
    if solved_for == "n":
        n, n_unrounded = n_for(plan, gap, power)
    elif solved_for == "gap":
        gap = gap_for(plan, n, power)
    return _result(plan, solved_for, n, gap, power, n_unrounded, inputs, pilot)


def grid(*, design: str = "paired", n: int | None = None, power: float = 0.8,
         alpha: float = 0.05, gaps: tuple[float, ...] = GRID_GAPS, method: str | None = None,
         pilot: Pilot | None = None, alternative: str = "two-sided", **inputs) -> PowerResult:
    """The MDE at the current n, with the n needed for each gap in ``gaps``.

    Parameters
    ----------
    n : int, optional
        The current number of questions; default the pilot's.
    power, alpha, method, pilot, design, alternative
        As in :func:`solve`.
    gaps : tuple of float
        Gaps to tabulate (default 0.5, 1, 2 and 5 points).
    **inputs
        The design's inputs, as in :func:`solve` (disagreement, baseline, ...).

    Returns
    -------
    PowerResult
        Solved for the gap at n; ``grid`` holds one row per gap with ``gap``, ``n``,
        ``achieved_power`` (and ``exact_mcnemar_power``, ``n_clusters`` where they
        apply), or ``n`` None and a ``note`` when the gap is impossible.

    Notes
    -----
    Each row is ``solve(gap=g, power=power, ...)`` and the MDE is
    ``solve(n=n, power=power, ...)``: n grows as 1/gap**2.

    Examples
    --------
    >>> r = grid(n=500, disagreement=0.10)
    >>> round(r.gap, 4), [row["n"] for row in r.grid]
    (0.0393, [31388, 7842, 1955, 307])
    """
    unknown = set(inputs) - set(INPUTS)
    if unknown:
        raise EvalbarsError(f"grid got unexpected argument(s) {sorted(unknown)}; expected "
                            f"{', '.join(INPUTS)}")
    if n is None and pilot is not None:
        n = pilot.n_items
    if n is None:
        raise EvalbarsError("grid needs n, the current number of questions (or a pilot)")
    current = solve(design=design, n=n, power=power, alpha=alpha, method=method, pilot=pilot,
                    alternative=alternative, **inputs)
    plan, _ = _prepare(design, method, alpha, {k: inputs.get(k) for k in INPUTS}, pilot,
                       alternative)
    rows = []
    for value in gaps:
        value = checked_real(value, "gaps", "positive fractions (0.01 = 1 point)", lambda x: x > 0)
        problem = plan.gap_problem(value)
        if problem is not None:
            rows.append({"gap": value, "n": None, "note": problem})
            continue
        needed, _ = n_for(plan, value, current.power)
        row = _result(plan, "n", needed, value, current.power, None, {}, None)
        rows.append({"gap": value, "n": row.n, "achieved_power": row.achieved_power,
                     **{k: getattr(row, k) for k in ("exact_mcnemar_power", "n_clusters")
                        if getattr(row, k) is not None}})
    return replace(current, grid=tuple(rows))
