"""Power and sample size: how many questions a design needs to see a gap.

- The z test's power, two-sided or one-sided, and the standardized effect a power needs
  (:func:`z_power`, :func:`required_delta`): a two-sided test at level alpha rejects when
  ``|Z| >= Phi^-1(1 - alpha/2)``; a one-sided one (``"greater"`` or ``"less"``,
  :mod:`evalbars.stats.tails`) puts all of alpha on the asked side, so ``"greater"`` and
  ``"less"`` plan the same n, and fewer questions than two-sided.
- The exact power of the exact McNemar test on paired 0/1 questions
  (:func:`mcnemar_power`).
- The validated design of a calculation: :func:`make_plan` checks a design's inputs once
  (naming the parameter, the expectation and the value) and returns a
  :class:`DesignPlan`, which knows the per-question variance of the compared gap (with
  :func:`sampled_variance` for several sampled answers per question, times the design
  effect) and the power of its method at any n and gap; :func:`n_for` and
  :func:`gap_for` invert it. :mod:`evalbars.analyses.power` is the public face.
- The checks of the planning arguments and the wording of fractions
  (:func:`checked_real`, :func:`checked_count`, :func:`percent_text`,
  :func:`points_text`).
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
from scipy.special import ndtr, ndtri

from ..core.errors import EvalbarsError
from .tails import check_alternative


def checked_real(value: object, name: str, expectation: str, ok) -> float:
    """``value`` as a float satisfying ``ok``, or EvalbarsError naming all three."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or not ok(float(value)):
        raise EvalbarsError(f"{name} must be {expectation}; got {value!r}")
    return float(value)


def checked_count(value: object, name: str, expectation: str) -> int:
    try:
        count = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        count = None
    if count is None or count < 1:
        raise EvalbarsError(f"{name} must be {expectation}; got {value!r}")
    return count


def percent_text(x: float) -> str:
    return f"{100 * x:.1f}".removesuffix(".0") + "%"


def points_text(x: float, *, adjective: bool = False) -> str:
    """0.01 -> '1 point', 0.025 -> '2.5 points'; as an adjective '1-point'."""
    text = f"{100 * x:.2f}".rstrip("0").rstrip(".")
    if adjective:
        return f"{text}-point"
    return f"{text} point" + ("" if text == "1" else "s")


__all__ = ["required_delta", "z_power"]


def z_power(delta: float, alpha: float, alternative: str = "two-sided") -> float:
    """Power of the z test at standardized effect ``delta``.

    Two-sided: ``Phi(delta - z) + Phi(-delta - z)`` (both tails, as statsmodels);
    one-sided: ``Phi(delta - z)`` with ``z = Phi^-1(1 - alpha)``.

    >>> round(z_power(2.8016, 0.05), 3), round(z_power(2.4865, 0.05, "greater"), 3)
    (0.8, 0.8)
    """
    if alternative == "two-sided":
        z = -ndtri(alpha / 2)
        return float(ndtr(delta - z) + ndtr(-z - delta))
    return float(ndtr(delta + ndtri(alpha)))


def required_delta(power: float, alpha: float, alternative: str = "two-sided") -> float:
    """The standardized effect at which the z test has this power.

    One-sided it is ``Phi^-1(1 - alpha) + Phi^-1(power)`` exactly (1.645 + 0.842 for 5% and
    80%); two-sided the root of :func:`z_power`, just below ``1.96 + 0.842``.

    >>> round(required_delta(0.8, 0.05), 4), round(required_delta(0.8, 0.05, "greater"), 4)
    (2.8016, 2.4865)
    """
    if alternative != "two-sided":
        return float(-ndtri(alpha) + ndtri(power))
    from scipy.optimize import brentq  # imported when a plan is solved, not with the module

    top = -ndtri(alpha / 2) + ndtri(power)
    return brentq(lambda d: z_power(d, alpha) - power, 0.0, top, xtol=1e-14)


MCNEMAR_TAIL = 1e-12
"""Binomial mass of discordant-pair counts left out of the exact McNemar power sum: the
computed power is at most this much below the exact value (never above it)."""


def mcnemar_exact_power(n: int, disagreement: float, gap: float, alpha: float,
             alternative: str = "two-sided") -> float:
    """Exact McNemar power (validated inputs); see :func:`mcnemar_power`."""
    from scipy import stats  # imported when a plan is solved: a report never needs it
    lo = int(stats.binom.ppf(MCNEMAR_TAIL / 2, n, disagreement))
    hi = int(stats.binom.isf(MCNEMAR_TAIL / 2, n, disagreement))
    m = np.arange(lo, max(lo, hi) + 1)
    tail = alpha / 2 if alternative == "two-sided" else alpha
    c = stats.binom.ppf(tail, m, 0.5)
    c = np.where(stats.binom.cdf(c, m, 0.5) <= tail, c, c - 1)
    q = (disagreement + gap) / (2 * disagreement)
    reject = stats.binom.sf(m - c - 1, m, q)  # B's share reaches m - c: "greater"
    if alternative == "two-sided":
        reject = reject + stats.binom.cdf(c, m, q)
    return float(stats.binom.pmf(m, n, disagreement) @ reject)


def mcnemar_power(n: int, *, disagreement: float, gap: float, alpha: float = 0.05,
                  alternative: str = "two-sided") -> float:
    """Exact power of the exact McNemar test on n paired 0/1 questions.

    Parameters
    ----------
    n : int
        Questions, each answered by both models.
    disagreement : float
        Chance D that the two models differ on a question.
    gap : float
        True accuracy gap, ``0 <= gap <= D``: B alone is right with chance ``(D + gap)/2``.
    alpha : float
        Level; the test rejects when its p-value is at most alpha.
    alternative : str
        ``"two-sided"`` (default), or one-sided (``"greater"``: B better; ``"less"``
        plans a loss of ``gap`` the same way): the test then puts all of alpha on the
        asked side.

    Notes
    -----
    The discordant count is ``m ~ Binomial(n, D)`` and, given m, B's share of it is
    ``Binomial(m, (D + gap) / (2D))``. The test rejects when ``min(b_only, a_only) <= c_m``,
    the largest c with ``2 P(Binomial(m, 1/2) <= c) <= alpha``, so::

        power = sum_m P(m) [F(c_m; m, q) + 1 - F(m - c_m - 1; m, q)]

    The sum is vectorized over the m with ``P(m)`` inside the central ``1 - MCNEMAR_TAIL``
    of its distribution: the result is within :data:`MCNEMAR_TAIL` below the exact sum.
    One-sided, the test rejects when ``b_only >= m - c_m`` with ``c_m`` the largest c with
    ``P(Binomial(m, 1/2) <= c) <= alpha``, and the power is the second term alone
    (about 10 ms at n = 100,000). Validated by enumerating every outcome for small n and
    by simulation: about 25% for a 2-point gain at 500 questions with 10% disagreement
    (tests/analyses/test_power.py).

    Examples
    --------
    >>> round(mcnemar_power(500, disagreement=0.10, gap=0.02), 3)
    0.25
    >>> round(mcnemar_power(500, disagreement=0.10, gap=0.02, alternative="greater"), 3)
    0.359
    """
    n = checked_count(n, "n", "a positive integer (questions)")
    alpha = checked_real(alpha, "alpha", "between 0 and 1 (exclusive)", lambda x: 0 < x < 1)
    d = checked_real(disagreement, "disagreement", "a fraction in (0, 1]", lambda x: 0 < x <= 1)
    gap = checked_real(gap, "gap", f"between 0 and the disagreement {d}", lambda x: 0 <= x <= d)
    return mcnemar_exact_power(n, d, gap, alpha, check_alternative(alternative))


DESIGNS = ("paired", "unpaired", "clustered")
"""Accepted values of ``design``."""

METHODS = {"paired": ("normal", "mcnemar-exact"), "unpaired": ("normal", "cohen-h"),
           "clustered": ("normal", "cohen-h")}
"""Methods of each design; the first is the default."""

INPUTS = ("disagreement", "baseline", "variance", "icc", "cluster_size", "design_effect",
          "samples", "between_variance")
"""The design inputs a plan accepts (besides n, gap and power)."""

_MAX_N = 10**9
"""Largest n searched for the exact McNemar test."""


# --- the variance-split standard error (several sampled answers per question) ---------


def sampled_variance(*, between_variance: float, within_variance: float,
                     samples: float) -> float:
    """Variance of one question's score averaged over ``samples`` sampled answers.

    Parameters
    ----------
    between_variance : float
        Variance over questions of the true per-question score (question noise).
    within_variance : float
        Mean variance of one sampled answer around its question's true score (sampling
        noise); for 0/1 scores with accuracy p it is ``p(1 - p) - between_variance``.
    samples : int or math.inf
        Answers sampled per question; ``math.inf`` gives the floor, question noise only.

    Notes
    -----
    ``between_variance + within_variance / samples``: the law of total variance with the
    K answers to a question independent given the question (Miller 2024, "Adding Error Bars
    to Evals", arXiv:2411.00640).

    Examples
    --------
    >>> round(sampled_variance(between_variance=0.05, within_variance=0.16, samples=5), 3)
    0.082
    """
    between = checked_real(between_variance, "between_variance", "a variance >= 0",
                           lambda x: x >= 0)
    within = checked_real(within_variance, "within_variance", "a variance >= 0", lambda x: x >= 0)
    if samples != math.inf:
        checked_count(samples, "samples", "a positive integer or math.inf")
    return between + within / samples


def sampled_se(n: int, *, accuracy: float, between_variance: float, samples: float) -> float:
    """Standard error of a mean 0/1 score over n questions with K sampled answers each.

    Parameters
    ----------
    n : int
        Questions.
    accuracy : float
        Mean accuracy p; one answer has variance ``p(1 - p)`` around the mean.
    between_variance, samples
        As in :func:`sampled_variance`; the within variance is ``p(1 - p) - between``.

    Notes
    -----
    ``SE = sqrt((Var(p_i) + mean(p_i (1 - p_i)) / K) / n)`` with
    ``mean(p_i (1 - p_i)) = p(1 - p) - Var(p_i)``. Seed 000's example: 500 questions,
    accuracy 70%, ``Var(p_i) = 0.05``: 2.0 points at K = 1, 1.3 at K = 5, 1.0 at K = inf.

    Examples
    --------
    >>> [round(100 * sampled_se(500, accuracy=0.7, between_variance=0.05, samples=k), 1)
    ...  for k in (1, 5, math.inf)]
    [2.0, 1.3, 1.0]
    """
    n = checked_count(n, "n", "a positive integer (questions)")
    p = checked_real(accuracy, "accuracy", "a fraction between 0 and 1", lambda x: 0 <= x <= 1)
    between = checked_real(between_variance, "between_variance", "a variance >= 0",
                           lambda x: x >= 0)
    if between > p * (1 - p):
        raise EvalbarsError(f"between_variance must be at most accuracy * (1 - accuracy) = "
                            f"{p * (1 - p):.6g}, the variance it is part of; got {between!r}")
    variance = sampled_variance(between_variance=between, within_variance=p * (1 - p) - between,
                                samples=samples)
    return math.sqrt(variance / n)


# --- the validated design -------------------------------------------------------------


class _Pilot(Protocol):
    """What :meth:`DesignPlan.describe` reads of a pilot: its number of questions.

    An :class:`evalbars.analyses.pilot.Pilot` is one; stats names it without importing it.
    """

    @property
    def n_items(self) -> int: ...


@dataclass(frozen=True, slots=True)
class DesignPlan:
    """Validated inputs of one design: everything except n, gap and power."""

    design: str
    method: str
    alpha: float
    paired: bool
    disagreement: float | None
    baseline: float | None
    variance: float | None
    design_effect: float
    cluster_size: float | None
    icc: float | None
    samples: int | None
    between_variance: float | None
    alternative: str = "two-sided"

    def totals(self, gap: float) -> list[float]:
        """Single-answer variance of each compared arm (one for a paired design)."""
        if self.variance is not None:
            return [self.variance] * (1 if self.paired else 2)
        if self.paired:
            return [self.disagreement - gap ** 2]
        return [p * (1 - p) for p in (self.baseline, self.baseline + gap)]

    def unit_variance(self, gap: float) -> float:
        """Variance of one question's contribution to the compared gap, times the DE."""
        totals = self.totals(gap)
        if self.samples is not None:
            totals = [sampled_variance(between_variance=self.between_variance,
                                       within_variance=t - self.between_variance,
                                       samples=self.samples) for t in totals]
        return self.design_effect * sum(totals)

    def gap_problem(self, gap: float) -> str | None:
        """Why this gap is impossible for the design, or None."""
        if self.disagreement is not None and gap > self.disagreement:
            return (f"gap {gap!r} is impossible with disagreement {self.disagreement!r}: B gains "
                    f"at most one point per question on which the models differ, so the gap "
                    f"cannot exceed the disagreement rate")
        if self.baseline is not None and self.baseline + gap > 1:
            return f"gap {gap!r} from baseline {self.baseline!r} would put model B above 100%"
        if self.samples is not None and min(self.totals(gap)) < self.between_variance:
            return (f"gap {gap!r} leaves a per-question variance of {min(self.totals(gap)):.6g}, "
                    f"less than between_variance {self.between_variance!r}, which is part of it")
        return None

    def max_gap(self) -> float:
        """The largest possible gap (inf when the variance does not depend on it)."""
        if self.variance is not None:
            return math.inf
        v = self.between_variance or 0.0
        if self.paired:
            return min(self.disagreement, math.sqrt(self.disagreement - v))
        return min(1.0, (1 + math.sqrt(1 - 4 * v)) / 2) - self.baseline

    def power(self, n: float, gap: float) -> float:
        """Power of the plan's method at n questions (per model) and this gap."""
        if self.method == "mcnemar-exact":
            return mcnemar_exact_power(int(n), self.disagreement, gap, self.alpha, self.alternative)
        if self.method == "cohen-h":
            return z_power(self.cohen_h(gap) * math.sqrt(n / (2 * self.design_effect)),
                           self.alpha, self.alternative)
        variance = self.unit_variance(gap)
        return z_power(gap * math.sqrt(n / variance), self.alpha, self.alternative) \
            if variance > 0 else 1.0

    def cohen_h(self, gap: float) -> float:
        p_a, p_b = self.baseline, self.baseline + gap
        return 2 * (math.asin(math.sqrt(p_b)) - math.asin(math.sqrt(p_a)))

    def describe(self, pilot: _Pilot | None) -> str:
        """Words for the comparison, e.g. 'a paired comparison with 10% disagreement'."""
        source = ""
        if pilot is not None:
            count = f"{pilot.n_items:,}"
            article = "an" if count[0] == "8" or count.split(",")[0] in ("11", "18") else "a"
            source = f" (from {article} {count}-question pilot)"
        if self.disagreement is not None:
            text = (f"a paired comparison with {percent_text(self.disagreement)} "
                    f"disagreement{source}")
        elif self.baseline is not None:
            text = f"an unpaired comparison from a {percent_text(self.baseline)} baseline{source}"
        else:
            kind = "difference " if self.paired else ""
            text = (f"{'a paired' if self.paired else 'an unpaired'} comparison with per-question "
                    f"{kind}variance {self.variance:.4g}{source}")
        if self.icc is not None:
            text += (f" on clusters of {self.cluster_size:g} questions (ICC {self.icc:g}: "
                     f"design effect {self.design_effect:.3g})")
        elif self.design == "clustered":
            text += f" on clustered questions (design effect {self.design_effect:.3g})"
        if self.samples is not None:
            text += (f", sampling {self.samples} answers per question (between-question "
                     f"variance {self.between_variance:.3g}),")
        return text


def _clustering(design: str, given: dict) -> tuple[float, float | None, float | None]:
    """(design effect, cluster size, icc) from the clustering inputs."""
    named = [k for k in ("icc", "cluster_size", "design_effect") if given[k] is not None]
    if design != "clustered":
        if named:
            flags = " and ".join(f"{k} (--{k.replace('_', '-')})" for k in named)
            raise EvalbarsError(f"{flags} {'applies' if len(named) == 1 else 'apply'} only to "
                                f"the clustered design (--design clustered); got "
                                f"design={design!r}")
        return 1.0, None, None
    size = given["cluster_size"]
    if size is not None:
        size = checked_real(size, "cluster_size", "at least 1 (questions per cluster)",
                            lambda x: x >= 1)
    if given["design_effect"] is not None:
        if given["icc"] is not None:
            raise EvalbarsError(f"give design_effect, or icc with cluster_size, not both; got "
                                f"design_effect={given['design_effect']!r}, icc={given['icc']!r}")
        return checked_real(given["design_effect"], "design_effect", "at least 1",
                     lambda x: x >= 1), size, None
    if given["icc"] is None:
        raise EvalbarsError("the clustered design needs design_effect (--design-effect), or icc "
                            "with cluster_size (--icc, --cluster-size)")
    rho = checked_real(given["icc"], "icc", "between 0 and 1", lambda x: 0 <= x <= 1)
    if size is None:
        raise EvalbarsError(f"icc={rho!r} needs cluster_size (--cluster-size): the design "
                            f"effect is 1 + (cluster_size - 1) * icc")
    return 1 + (size - 1) * rho, size, rho


def make_plan(design: object, method: object, alpha: object, given: dict,
          alternative: object = "two-sided") -> DesignPlan:
    alternative = check_alternative(alternative)
    if design not in DESIGNS:
        raise EvalbarsError(f"design must be one of {', '.join(map(repr, DESIGNS))}; "
                            f"got {design!r}")
    alpha = checked_real(alpha, "alpha", "between 0 and 1 (exclusive)", lambda x: 0 < x < 1)
    method = METHODS[design][0] if method is None else method
    if method not in METHODS[design]:
        raise EvalbarsError(f"method must be one of {', '.join(map(repr, METHODS[design]))} for "
                            f"the {design} design; got {method!r}")
    effect, size, rho = _clustering(design, given)
    d, p, v = given["disagreement"], given["baseline"], given["variance"]
    paired = design == "paired" or (design == "clustered" and p is None)
    if paired:
        if p is not None:
            raise EvalbarsError("baseline (--baseline) is not used by a paired comparison: its "
                                "variance depends only on the disagreement rate")
        if (d is None) == (v is None):
            raise EvalbarsError(f"a paired comparison needs disagreement (share of questions the "
                                f"models differ on, 0/1 scores) or variance (of the per-question "
                                f"difference), exactly one; got disagreement={d!r}, "
                                f"variance={v!r}")
    elif d is not None:
        raise EvalbarsError("disagreement (--disagreement) is for paired comparisons and baseline "
                            "(--baseline) for unpaired ones (in the clustered design, baseline "
                            "makes it unpaired); give one")
    elif (p is None) == (v is None):
        raise EvalbarsError(f"an unpaired comparison needs baseline (--baseline), model A's "
                            f"accuracy, or variance (--variance), of one model's per-question "
                            f"score, exactly one; got "
                            f"baseline={p!r}, variance={v!r}")
    if d is not None:
        d = checked_real(d, "disagreement", "a fraction in (0, 1]", lambda x: 0 < x <= 1)
    if p is not None:
        p = checked_real(p, "baseline", "a fraction between 0 and 1 (exclusive)",
                         lambda x: 0 < x < 1)
    if v is not None:
        v = checked_real(v, "variance", "a positive number", lambda x: x > 0)
    k, between = given["samples"], given["between_variance"]
    if (k is None) != (between is None):
        raise EvalbarsError(f"samples and between_variance go together (the variance splits into "
                            f"question and sampling noise); got samples={k!r}, "
                            f"between_variance={between!r}")
    if k is not None:
        k = checked_count(k, "samples", "a positive integer (answers sampled per question)")
        between = checked_real(between, "between_variance", "a variance >= 0", lambda x: x >= 0)
    if method == "mcnemar-exact" and (d is None or k is not None):
        raise EvalbarsError("method 'mcnemar-exact' needs 0/1 scores with one answer per "
                            "question: give disagreement and leave out samples")
    if method == "cohen-h" and (p is None or k is not None):
        raise EvalbarsError("method 'cohen-h' compares two independent proportions: give "
                            "baseline and leave out samples")
    plan = DesignPlan(design, method, alpha, paired, d, p, v, effect, size, rho, k, between,
                 alternative)
    if k is not None and min(plan.totals(0.0)) < between:
        raise EvalbarsError(f"between_variance must be at most the per-question variance it is "
                            f"part of, {min(plan.totals(0.0)):.6g}; got {between!r}")
    return plan


# --- solving --------------------------------------------------------------------------


def n_for(plan: DesignPlan, gap: float, power: float) -> tuple[int, float | None]:
    """(n rounded up, unrounded n or None) reaching this power at this gap."""
    if plan.method == "mcnemar-exact":
        return _smallest_exact_n(plan, gap, power), None
    delta = required_delta(power, plan.alpha, plan.alternative)
    if plan.method == "cohen-h":
        exact = 2 * plan.design_effect * delta ** 2 / plan.cohen_h(gap) ** 2
    else:
        exact = delta ** 2 * plan.unit_variance(gap) / gap ** 2
    if plan.cluster_size is None:
        return max(1, math.ceil(exact)), exact
    clusters = max(1, math.ceil(exact / plan.cluster_size))
    return math.ceil(clusters * plan.cluster_size), exact


def _smallest_exact_n(plan: DesignPlan, gap: float, power: float) -> int:
    """Bisection for n with exact power(n) >= power > exact power(n - 1)."""
    normal = replace(plan, method="normal")
    lo, hi = 0, max(1, n_for(normal, gap, power)[0])
    while hi > _MAX_N or plan.power(hi, gap) < power:
        if hi > _MAX_N:
            raise EvalbarsError(f"the exact McNemar test does not reach power {power!r} at gap "
                                f"{gap!r} with up to {_MAX_N:,} questions")
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if plan.power(mid, gap) >= power else (mid, hi)
    return hi


def gap_for(plan: DesignPlan, n: int, power: float) -> float:
    """The smallest gap detected with this power at n."""
    top = plan.max_gap()
    if plan.method == "normal" and top == math.inf:
        return required_delta(power, plan.alpha, plan.alternative) \
            * math.sqrt(plan.unit_variance(0.0) / n)
    if plan.power(n, top) < power:
        raise EvalbarsError(f"no gap reaches power {power!r} with n={n}: even the largest "
                            f"possible gap, {top:.6g}, is detected with power "
                            f"{plan.power(n, top):.4g}")
    from scipy.optimize import brentq

    return brentq(lambda g: plan.power(n, g) - power, 0.0, top, xtol=1e-13)


def missing_input(n: object, gap: object, power: object) -> str:
    given = {"n": n, "gap": gap, "power": power}
    missing = [k for k, v in given.items() if v is None]
    if len(missing) != 1:
        listed = ", ".join(f"{k}={v!r}" for k, v in given.items() if v is not None) or "none"
        hint = "; power=0.8 is the usual target" if len(missing) == 2 and power is None else ""
        raise EvalbarsError(f"give exactly two of n, gap and power (the one left out is solved "
                            f"for); got {listed}{hint}")
    return missing[0]


def check_gap(plan: DesignPlan, gap: object) -> float:
    gap = checked_real(gap, "gap", "a positive fraction (0.01 = 1 point)", lambda x: x > 0)
    if gap >= 1 and plan.variance is None:
        raise EvalbarsError(f"gap (--gap) {gap:g} is 100 points or more: did you mean "
                            f"{gap / 100:g} ({gap:g} point{'' if gap == 1 else 's'})? gaps are "
                            f"fractions (0.01 = 1 point)")
    problem = plan.gap_problem(gap)
    if problem is not None:
        raise EvalbarsError(problem)
    return gap


def check_power(plan: DesignPlan, power: object) -> float:
    return checked_real(power, "power", f"between alpha ({plan.alpha:g}) and 1, exclusive: a "
                        f"zero gap is already 'detected' with probability alpha",
                        lambda x: plan.alpha < x < 1)
