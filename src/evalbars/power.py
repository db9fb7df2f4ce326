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
Gaps and rates are fractions (0.01 = 1 point); every test is two-sided at level ``alpha``.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass, replace

import numpy as np
from scipy import optimize, stats

from . import __version__
from ._errors import EvalbarsError
from .results import SCHEMA_VERSION, json_safe

DESIGNS = ("paired", "unpaired", "clustered")
"""Accepted values of ``design``."""

METHODS = {"paired": ("normal", "mcnemar-exact"), "unpaired": ("normal", "cohen-h"),
           "clustered": ("normal", "cohen-h")}
"""Methods of each design; the first is the default."""

GRID_GAPS = (0.005, 0.01, 0.02, 0.05)
"""Gaps of :func:`grid`: 0.5, 1, 2 and 5 points."""

MCNEMAR_TAIL = 1e-12
"""Binomial mass of discordant-pair counts left out of the exact McNemar power sum: the
computed power is at most this much below the exact value (never above it)."""

_MAX_N = 10**9
"""Largest n searched for the exact McNemar test."""

INPUTS = ("disagreement", "baseline", "variance", "icc", "cluster_size", "design_effect",
          "samples", "between_variance")
"""The design inputs :func:`solve` and :func:`grid` accept (besides n, gap and power)."""


# --- validation -----------------------------------------------------------------------


def _real(value: object, name: str, expectation: str, ok) -> float:
    """``value`` as a float satisfying ``ok``, or EvalbarsError naming all three."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or not ok(float(value)):
        raise EvalbarsError(f"{name} must be {expectation}; got {value!r}")
    return float(value)


def _count(value: object, name: str, expectation: str) -> int:
    try:
        count = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        count = None
    if count is None or count < 1:
        raise EvalbarsError(f"{name} must be {expectation}; got {value!r}")
    return count


def _pct(x: float) -> str:
    return f"{100 * x:.1f}".removesuffix(".0") + "%"


def _points(x: float, *, adjective: bool = False) -> str:
    """0.01 -> '1 point', 0.025 -> '2.5 points'; as an adjective '1-point'."""
    text = f"{100 * x:.2f}".rstrip("0").rstrip(".")
    if adjective:
        return f"{text}-point"
    return f"{text} point" + ("" if text == "1" else "s")


# --- the variance-split standard error (several sampled answers per question) -----------


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
    K answers to a question independent given the question (seed 000, "Two kinds of noise").

    Examples
    --------
    >>> round(sampled_variance(between_variance=0.05, within_variance=0.16, samples=5), 3)
    0.082
    """
    between = _real(between_variance, "between_variance", "a variance >= 0", lambda x: x >= 0)
    within = _real(within_variance, "within_variance", "a variance >= 0", lambda x: x >= 0)
    if samples != math.inf:
        _count(samples, "samples", "a positive integer or math.inf")
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
    n = _count(n, "n", "a positive integer (questions)")
    p = _real(accuracy, "accuracy", "a fraction between 0 and 1", lambda x: 0 <= x <= 1)
    between = _real(between_variance, "between_variance", "a variance >= 0", lambda x: x >= 0)
    if between > p * (1 - p):
        raise EvalbarsError(f"between_variance must be at most accuracy * (1 - accuracy) = "
                            f"{p * (1 - p):.6g}, the variance it is part of; got {between!r}")
    variance = sampled_variance(between_variance=between, within_variance=p * (1 - p) - between,
                                samples=samples)
    return math.sqrt(variance / n)


# --- the intraclass correlation -------------------------------------------------------


def icc(values, clusters) -> float:
    """One-way ANOVA estimate of the intraclass correlation of ``values`` within clusters.

    Parameters
    ----------
    values : array_like
        One score per question (for a paired design, the difference ``b - a``).
    clusters : array_like
        The cluster label of each question (document, topic, session).

    Notes
    -----
    With k clusters of sizes n_j (N in all), MSB and MSW the between- and within-cluster
    mean squares and ``m0 = (N - sum(n_j**2) / N) / (k - 1)``::

        ICC = (MSB - MSW) / (MSB + (m0 - 1) MSW)

    It can be negative (clusters less alike than random questions). Validated against
    ``scipy.stats.f_oneway``: ``ICC = (F - 1) / (F + m0 - 1)``.

    Examples
    --------
    >>> round(icc([1, 1, 0, 0, 1, 0], ["x", "x", "y", "y", "z", "z"]), 3)
    0.5
    """
    x = np.asarray(values, dtype=float)
    labels = np.asarray(clusters)
    if x.ndim != 1 or labels.shape != x.shape:
        raise EvalbarsError(f"values and clusters must be 1-D and of equal length; got shapes "
                            f"{x.shape} and {labels.shape}")
    _, index, sizes = np.unique(labels, return_inverse=True, return_counts=True)
    k, total = sizes.size, x.size
    if k < 2 or total <= k:
        raise EvalbarsError(f"icc needs at least 2 clusters and a cluster with 2 or more "
                            f"questions; got {k} clusters of {total} questions")
    means = np.bincount(index, weights=x) / sizes
    msb = float(sizes @ (means - x.mean()) ** 2) / (k - 1)
    msw = float(((x - means[index]) ** 2).sum()) / (total - k)
    if msb + msw == 0:
        raise EvalbarsError("icc is undefined: every value is the same")
    m0 = (total - float(sizes @ sizes) / total) / (k - 1)
    return (msb - msw) / (msb + (m0 - 1) * msw)


# --- power functions ------------------------------------------------------------------


def _z_power(delta: float, alpha: float) -> float:
    """Power of the two-sided z test at standardized effect ``delta`` (both tails)."""
    z = stats.norm.isf(alpha / 2)
    return float(stats.norm.sf(z - delta) + stats.norm.cdf(-z - delta))


def _required_delta(power: float, alpha: float) -> float:
    """The standardized effect at which the two-sided z test has this power."""
    top = stats.norm.isf(alpha / 2) + stats.norm.ppf(power)
    return optimize.brentq(lambda d: _z_power(d, alpha) - power, 0.0, top, xtol=1e-14)


def _mcnemar(n: int, disagreement: float, gap: float, alpha: float) -> float:
    """Exact McNemar power (validated inputs); see :func:`mcnemar_power`."""
    lo = int(stats.binom.ppf(MCNEMAR_TAIL / 2, n, disagreement))
    hi = int(stats.binom.isf(MCNEMAR_TAIL / 2, n, disagreement))
    m = np.arange(lo, max(lo, hi) + 1)
    c = stats.binom.ppf(alpha / 2, m, 0.5)
    c = np.where(2 * stats.binom.cdf(c, m, 0.5) <= alpha, c, c - 1)
    q = (disagreement + gap) / (2 * disagreement)
    reject = stats.binom.cdf(c, m, q) + stats.binom.sf(m - c - 1, m, q)
    return float(stats.binom.pmf(m, n, disagreement) @ reject)


def mcnemar_power(n: int, *, disagreement: float, gap: float, alpha: float = 0.05) -> float:
    """Exact power of the two-sided exact McNemar test on n paired 0/1 questions.

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

    Notes
    -----
    The discordant count is ``m ~ Binomial(n, D)`` and, given m, B's share of it is
    ``Binomial(m, (D + gap) / (2D))``. The test rejects when ``min(b_only, a_only) <= c_m``,
    the largest c with ``2 P(Binomial(m, 1/2) <= c) <= alpha``, so::

        power = sum_m P(m) [F(c_m; m, q) + 1 - F(m - c_m - 1; m, q)]

    The sum is vectorized over the m with ``P(m)`` inside the central ``1 - MCNEMAR_TAIL``
    of its distribution: the result is within :data:`MCNEMAR_TAIL` below the exact sum
    (about 10 ms at n = 100,000). Validated by enumerating every outcome for small n and
    by simulation; seed 000: about 25% for a 2-point gain at 500 questions, D = 10%.

    Examples
    --------
    >>> round(mcnemar_power(500, disagreement=0.10, gap=0.02), 3)
    0.25
    """
    n = _count(n, "n", "a positive integer (questions)")
    alpha = _real(alpha, "alpha", "between 0 and 1 (exclusive)", lambda x: 0 < x < 1)
    d = _real(disagreement, "disagreement", "a fraction in (0, 1]", lambda x: 0 < x <= 1)
    gap = _real(gap, "gap", f"between 0 and the disagreement {d}", lambda x: 0 <= x <= d)
    return _mcnemar(n, d, gap, alpha)


# --- the validated design -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
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
            return _mcnemar(int(n), self.disagreement, gap, self.alpha)
        if self.method == "cohen-h":
            return _z_power(self.cohen_h(gap) * math.sqrt(n / (2 * self.design_effect)),
                            self.alpha)
        variance = self.unit_variance(gap)
        return _z_power(gap * math.sqrt(n / variance), self.alpha) if variance > 0 else 1.0

    def cohen_h(self, gap: float) -> float:
        p_a, p_b = self.baseline, self.baseline + gap
        return 2 * (math.asin(math.sqrt(p_b)) - math.asin(math.sqrt(p_a)))

    def describe(self, pilot: Pilot | None) -> str:
        """Words for the comparison, e.g. 'a paired comparison with 10% disagreement'."""
        source = ""
        if pilot is not None:
            count = f"{pilot.n_items:,}"
            article = "an" if count[0] == "8" or count.split(",")[0] in ("11", "18") else "a"
            source = f" (from {article} {count}-question pilot)"
        if self.disagreement is not None:
            text = f"a paired comparison with {_pct(self.disagreement)} disagreement{source}"
        elif self.baseline is not None:
            text = f"an unpaired comparison from a {_pct(self.baseline)} baseline{source}"
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
            raise EvalbarsError(f"{' and '.join(named)} only apply to the clustered design; "
                                f"got design={design!r}")
        return 1.0, None, None
    size = given["cluster_size"]
    if size is not None:
        size = _real(size, "cluster_size", "at least 1 (questions per cluster)", lambda x: x >= 1)
    if given["design_effect"] is not None:
        if given["icc"] is not None:
            raise EvalbarsError(f"give design_effect, or icc with cluster_size, not both; got "
                                f"design_effect={given['design_effect']!r}, icc={given['icc']!r}")
        return _real(given["design_effect"], "design_effect", "at least 1",
                     lambda x: x >= 1), size, None
    if given["icc"] is None:
        raise EvalbarsError("the clustered design needs design_effect, or icc with cluster_size")
    rho = _real(given["icc"], "icc", "between 0 and 1", lambda x: 0 <= x <= 1)
    if size is None:
        raise EvalbarsError(f"icc={rho!r} needs cluster_size: the design effect is "
                            f"1 + (cluster_size - 1) * icc")
    return 1 + (size - 1) * rho, size, rho


def _plan(design: object, method: object, alpha: object, given: dict) -> _Plan:
    if design not in DESIGNS:
        raise EvalbarsError(f"design must be one of {', '.join(map(repr, DESIGNS))}; "
                            f"got {design!r}")
    alpha = _real(alpha, "alpha", "between 0 and 1 (exclusive)", lambda x: 0 < x < 1)
    method = METHODS[design][0] if method is None else method
    if method not in METHODS[design]:
        raise EvalbarsError(f"method must be one of {', '.join(map(repr, METHODS[design]))} for "
                            f"the {design} design; got {method!r}")
    effect, size, rho = _clustering(design, given)
    d, p, v = given["disagreement"], given["baseline"], given["variance"]
    paired = design == "paired" or (design == "clustered" and p is None)
    if paired:
        if p is not None:
            raise EvalbarsError("baseline is not used by a paired comparison: its variance "
                                "depends only on the disagreement rate")
        if (d is None) == (v is None):
            raise EvalbarsError(f"a paired comparison needs disagreement (share of questions the "
                                f"models differ on, 0/1 scores) or variance (of the per-question "
                                f"difference), exactly one; got disagreement={d!r}, "
                                f"variance={v!r}")
    elif d is not None:
        raise EvalbarsError("disagreement is for paired comparisons and baseline for unpaired "
                            "ones (in the clustered design, baseline makes it unpaired); give one")
    elif (p is None) == (v is None):
        raise EvalbarsError(f"an unpaired comparison needs baseline (model A's accuracy) or "
                            f"variance (of one model's per-question score), exactly one; got "
                            f"baseline={p!r}, variance={v!r}")
    if d is not None:
        d = _real(d, "disagreement", "a fraction in (0, 1]", lambda x: 0 < x <= 1)
    if p is not None:
        p = _real(p, "baseline", "a fraction between 0 and 1 (exclusive)", lambda x: 0 < x < 1)
    if v is not None:
        v = _real(v, "variance", "a positive number", lambda x: x > 0)
    k, between = given["samples"], given["between_variance"]
    if (k is None) != (between is None):
        raise EvalbarsError(f"samples and between_variance go together (the variance splits into "
                            f"question and sampling noise); got samples={k!r}, "
                            f"between_variance={between!r}")
    if k is not None:
        k = _count(k, "samples", "a positive integer (answers sampled per question)")
        between = _real(between, "between_variance", "a variance >= 0", lambda x: x >= 0)
    if method == "mcnemar-exact" and (d is None or k is not None):
        raise EvalbarsError("method 'mcnemar-exact' needs 0/1 scores with one answer per "
                            "question: give disagreement and leave out samples")
    if method == "cohen-h" and (p is None or k is not None):
        raise EvalbarsError("method 'cohen-h' compares two independent proportions: give "
                            "baseline and leave out samples")
    plan = _Plan(design, method, alpha, paired, d, p, v, effect, size, rho, k, between)
    if k is not None and min(plan.totals(0.0)) < between:
        raise EvalbarsError(f"between_variance must be at most the per-question variance it is "
                            f"part of, {min(plan.totals(0.0)):.6g}; got {between!r}")
    return plan


# --- solving --------------------------------------------------------------------------


def _n_for(plan: _Plan, gap: float, power: float) -> tuple[int, float | None]:
    """(n rounded up, unrounded n or None) reaching this power at this gap."""
    if plan.method == "mcnemar-exact":
        return _smallest_exact_n(plan, gap, power), None
    delta = _required_delta(power, plan.alpha)
    if plan.method == "cohen-h":
        exact = 2 * plan.design_effect * delta ** 2 / plan.cohen_h(gap) ** 2
    else:
        exact = delta ** 2 * plan.unit_variance(gap) / gap ** 2
    if plan.cluster_size is None:
        return max(1, math.ceil(exact)), exact
    clusters = max(1, math.ceil(exact / plan.cluster_size))
    return math.ceil(clusters * plan.cluster_size), exact


def _smallest_exact_n(plan: _Plan, gap: float, power: float) -> int:
    """Bisection for n with exact power(n) >= power > exact power(n - 1)."""
    normal = replace(plan, method="normal")
    lo, hi = 0, max(1, _n_for(normal, gap, power)[0])
    while hi > _MAX_N or plan.power(hi, gap) < power:
        if hi > _MAX_N:
            raise EvalbarsError(f"the exact McNemar test does not reach power {power!r} at gap "
                                f"{gap!r} with up to {_MAX_N:,} questions")
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if plan.power(mid, gap) >= power else (mid, hi)
    return hi


def _gap_for(plan: _Plan, n: int, power: float) -> float:
    """The smallest gap detected with this power at n."""
    top = plan.max_gap()
    if plan.method == "normal" and top == math.inf:
        return _required_delta(power, plan.alpha) * math.sqrt(plan.unit_variance(0.0) / n)
    if plan.power(n, top) < power:
        raise EvalbarsError(f"no gap reaches power {power!r} with n={n}: even the largest "
                            f"possible gap, {top:.6g}, is detected with power "
                            f"{plan.power(n, top):.4g}")
    return optimize.brentq(lambda g: plan.power(n, g) - power, 0.0, top, xtol=1e-13)


def _missing(n: object, gap: object, power: object) -> str:
    given = {"n": n, "gap": gap, "power": power}
    missing = [k for k, v in given.items() if v is None]
    if len(missing) != 1:
        listed = ", ".join(f"{k}={v!r}" for k, v in given.items() if v is not None) or "none"
        hint = "; power=0.8 is the usual target" if len(missing) == 2 and power is None else ""
        raise EvalbarsError(f"give exactly two of n, gap and power (the one left out is solved "
                            f"for); got {listed}{hint}")
    return missing[0]


def _check_gap(plan: _Plan, gap: object) -> float:
    gap = _real(gap, "gap", "a positive fraction (0.01 = 1 point)", lambda x: x > 0)
    problem = plan.gap_problem(gap)
    if problem is not None:
        raise EvalbarsError(problem)
    return gap


def _check_power(plan: _Plan, power: object) -> float:
    return _real(power, "power", f"between alpha ({plan.alpha:g}) and 1, exclusive: a zero gap "
                 f"is already 'detected' with probability alpha", lambda x: plan.alpha < x < 1)


# --- results --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PowerResult:
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

    def to_dict(self) -> dict:
        out = {"schema_version": SCHEMA_VERSION, "kind": "power"}
        for key in ("solved_for", "n", "gap", "power", "alpha", "design", "method"):
            out[key] = getattr(self, key)
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

    def __str__(self) -> str:
        from .render_power import render_text

        return render_text(self.to_dict())


def _statement(plan: _Plan, solved_for: str, n: int, gap: float, power: float,
               exact: float | None, n_clusters: int | None, pilot: Pilot | None) -> str:
    binary = plan.variance is None
    gain = f"{_points(gap, adjective=True)} gain" if binary else f"gain of {gap:.4g}"
    level = f"alpha {plan.alpha:g} (two-sided)"
    who = plan.describe(pilot)
    unit = "questions" + ("" if plan.paired else " per model")
    if solved_for == "n":
        clusters = f" ({n_clusters:,} clusters)" if n_clusters is not None else ""
        text = (f"To detect a {gain} with {_pct(power)} power at {level}, {who} needs about "
                f"{n:,} {unit}{clusters}.")
    else:
        size = f"With {n:,} {unit}"
        if plan.design == "clustered":
            size += f" (worth about {n / plan.design_effect:,.0f} independent ones)"
        if solved_for == "gap":
            shown = _points(gap) if binary else f"{gap:.4g}"
            text = (f"{size}, {who} detects a real gain of {shown} or more with {_pct(power)} "
                    f"power at {level}; smaller gains will usually be missed.")
        else:
            text = f"{size}, {who} has {_pct(power)} power to detect a real {gain} at {level}."
    method = {"normal": "Normal approximation", "cohen-h": "Cohen's h (arcsine) approximation",
              "mcnemar-exact": "Exact McNemar test"}[plan.method]
    if exact is not None and plan.method != "mcnemar-exact":
        method += f"; the exact McNemar test has {_pct(exact)} power at this size"
    return f"{text} {method}."


def _result(plan: _Plan, solved_for: str, n: int, gap: float, power: float,
            n_unrounded: float | None, inputs: dict, pilot: Pilot | None) -> PowerResult:
    achieved = plan.power(n, gap)
    exact = None
    if plan.design == "paired" and plan.disagreement is not None and plan.samples is None:
        exact = achieved if plan.method == "mcnemar-exact" else _mcnemar(
            n, plan.disagreement, gap, plan.alpha)
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
        pilot=pilot.to_dict() if pilot is not None else None)


def _prepare(design, method, alpha, given: dict, pilot: Pilot | None) -> tuple[_Plan, dict]:
    """The validated plan, and every input given (validated values, JSON-safe)."""
    if pilot is not None:
        given = pilot._fill(design, given)
    plan = _plan(design, method, alpha, given)
    names = [key for key in INPUTS if given[key] is not None]
    return plan, {"alpha": plan.alpha, **{key: getattr(plan, key) for key in names}}


def solve(*, design: str = "paired", n: int | None = None, gap: float | None = None,
          power: float | None = None, alpha: float = 0.05, disagreement: float | None = None,
          baseline: float | None = None, variance: float | None = None,
          icc: float | None = None, cluster_size: float | None = None,
          design_effect: float | None = None, samples: int | None = None,
          between_variance: float | None = None, method: str | None = None,
          pilot: Pilot | None = None) -> PowerResult:
    """Solve for whichever one of ``n``, ``gap`` or ``power`` is left out.

    Parameters
    ----------
    design : {"paired", "unpaired", "clustered"}
        See the module docstring.
    n, gap, power : int, float, float
        Give exactly two. ``n`` is questions (per model when unpaired); ``gap`` the true
        gain as a fraction (0.01 = 1 point); ``power`` a probability above alpha.
    alpha : float
        Two-sided level of the test.
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
        From :func:`from_pilot`: supplies disagreement, baseline or variance.

    Returns
    -------
    PowerResult
        n rounded up (to whole clusters when clustered), the power achieved there, and
        for paired 0/1 designs the exact McNemar power too.

    Notes
    -----
    ``normal``: ``n = delta**2 Var / gap**2`` where delta solves
    ``Phi(delta - z) + Phi(-delta - z) = power``, ``z = Phi^-1(1 - alpha/2)`` (both tails,
    as statsmodels); dropping the far tail gives seed 000's ``delta = z + Phi^-1(power)``,
    ``(1.96 + 0.84)**2``, and 7,841.03 instead of 7,841.01 questions in the example below.
    ``Var = D - gap**2`` (paired 0/1), ``p_a(1-p_a) + p_b(1-p_b)`` (unpaired), times the
    design effect, each arm ``between + (total - between) / K`` with samples.
    ``cohen-h``: ``n = 2 DE delta**2 / h**2``, ``h = 2 asin sqrt(p_b) - 2 asin sqrt(p_a)``.
    ``mcnemar-exact``: :func:`mcnemar_power`; n is found by bisection (power(n) reaches the
    target and power(n - 1) does not; exact power can saw-tooth when D is near 1).
    Validated against statsmodels ``NormalIndPower`` and ``TTestPower``.

    Examples
    --------
    >>> r = solve(design="paired", gap=0.01, power=0.8, disagreement=0.10)
    >>> r.n, round(r.n_unrounded, 2), round(r.exact_mcnemar_power, 3)
    (7842, 7841.01, 0.79)
    >>> solve(design="unpaired", gap=0.095, power=0.8, baseline=0.615, method="cohen-h").n
    388
    """
    given = dict(disagreement=disagreement, baseline=baseline, variance=variance, icc=icc,
                 cluster_size=cluster_size, design_effect=design_effect, samples=samples,
                 between_variance=between_variance)
    solved_for = _missing(n, gap, power)
    plan, inputs = _prepare(design, method, alpha, given, pilot)
    n = None if n is None else _count(n, "n", "a positive integer (questions)")
    gap = None if gap is None else _check_gap(plan, gap)
    power = None if power is None else _check_power(plan, power)
    inputs.update({k: v for k, v in (("n", n), ("gap", gap), ("power", power)) if v is not None})
    n_unrounded = None
    if solved_for == "n":
        n, n_unrounded = _n_for(plan, gap, power)
    elif solved_for == "gap":
        gap = _gap_for(plan, n, power)
    return _result(plan, solved_for, n, gap, power, n_unrounded, inputs, pilot)


def grid(*, design: str = "paired", n: int | None = None, power: float = 0.8,
         alpha: float = 0.05, gaps: tuple[float, ...] = GRID_GAPS, method: str | None = None,
         pilot: Pilot | None = None, **inputs) -> PowerResult:
    """The MDE at the current n, with the n needed for each gap in ``gaps``.

    Parameters
    ----------
    n : int, optional
        The current number of questions; default the pilot's.
    power, alpha, method, pilot, design
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
    ``solve(n=n, power=power, ...)``; seed 000's lesson in one table: n grows as 1/gap**2.

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
                    **inputs)
    plan, _ = _prepare(design, method, alpha, {k: inputs.get(k) for k in INPUTS}, pilot)
    rows = []
    for value in gaps:
        value = _real(value, "gaps", "positive fractions (0.01 = 1 point)", lambda x: x > 0)
        problem = plan.gap_problem(value)
        if problem is not None:
            rows.append({"gap": value, "n": None, "note": problem})
            continue
        needed, _ = _n_for(plan, value, current.power)
        row = _result(plan, "n", needed, value, current.power, None, {}, None)
        rows.append({"gap": value, "n": row.n, "achieved_power": row.achieved_power,
                     **{k: getattr(row, k) for k in ("exact_mcnemar_power", "n_clusters")
                        if getattr(row, k) is not None}})
    return replace(current, grid=tuple(rows))


# --- pilot data -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pilot:
    """Planning inputs estimated from a pilot results file (:func:`from_pilot`).

    ``baseline`` is model A's mean score; ``variance`` the mean of the two models'
    per-question variances (ddof=1); for a pair, ``disagreement`` (0/1 scores: share of
    questions the models differ on, with ``a_only``/``b_only`` counts) or ``variance_d``
    (continuous: variance of ``b - a``, ddof=1). With clusters, ``icc`` (of the
    per-question differences for a pair, of model A's scores for one model; it can be
    negative) and ``cluster_size`` (questions per cluster, on average); None otherwise.
    """

    n_items: int
    score_type: str
    a: str
    b: str | None
    baseline: float
    variance: float
    disagreement: float | None
    variance_d: float | None
    a_only: int | None
    b_only: int | None
    source: dict
    icc: float | None = None
    cluster_size: float | None = None

    def _fill(self, design: str, given: dict) -> dict:
        """``given`` with the pilot's estimates for the design filled in."""
        paired = design == "paired" or (design == "clustered" and self.b is not None)
        binary = self.score_type == "binary"
        if paired and self.b is None:
            raise EvalbarsError(f"a paired design needs two models; the pilot has one, "
                                f"{self.a!r}")
        if paired and binary and self.disagreement == 0:
            raise EvalbarsError(f"the pilot's models agree on all {self.n_items} questions, so it "
                                f"says nothing about the disagreement rate; give disagreement")
        key, value = ("disagreement", self.disagreement) if paired and binary else \
            ("variance", self.variance_d) if paired else \
            ("baseline", self.baseline) if binary else ("variance", self.variance)
        filled = {key: value}
        if design == "clustered" and self.icc is not None:
            if given["design_effect"] is not None:
                raise EvalbarsError("design_effect was given and the clustered pilot estimates "
                                    "icc; give one (or load the pilot without clusters)")
            filled["icc"] = max(self.icc, 0.0)
            if given["cluster_size"] is None:  # a design choice: plan other sizes at will
                filled["cluster_size"] = self.cluster_size
        for name in filled:
            if given[name] is not None:
                raise EvalbarsError(f"{name} was given and is also estimated from the pilot; "
                                    f"give one")
        return {**given, **filled}

    def to_dict(self) -> dict:
        out = {"n_items": self.n_items, "score_type": self.score_type, "a": self.a, "b": self.b,
               "baseline": self.baseline, "variance": self.variance}
        for key in ("disagreement", "a_only", "b_only", "variance_d", "icc", "cluster_size"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out["source"] = self.source
        return json_safe(out)


def from_pilot(data, data2=None, *, a: str | None = None, b: str | None = None,
               item: str | None = None, model: str | None = None, score: str | None = None,
               score_type: str = "auto", intersect: bool = False,
               cluster: str | None = None) -> Pilot:
    """Estimate the planning inputs (disagreement, baseline, variances, ICC) from pilot results.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Pilot results, read by :func:`evalbars.ingest.load` with the column options.
    a, b : str, optional
        The baseline and the compared model; default the data's models when it has one
        or two.
    cluster : str, optional
        The column giving each question's cluster (document, topic, session): estimates
        ``icc`` and ``cluster_size`` for the clustered design. Loaded ItemScores bring
        their own clusters.

    Returns
    -------
    Pilot
        Pass it to :func:`solve` or :func:`grid` as ``pilot=``. The pilot's own gap is
        not used: plan for the gap you care about, not the one a small pilot happened
        to show.

    Notes
    -----
    0/1 pairs: ``disagreement = (a_only + b_only) / n``; continuous pairs:
    ``variance_d = var(b - a)``; ``baseline = mean(a)`` and ``variance`` the mean of the
    models' ``var(x)`` (variances with ddof=1). With clusters, ``icc`` is :func:`icc`
    (one-way ANOVA) of the per-question differences ``b - a`` for a pair (the paired
    comparison is what the clustering inflates) and of ``a`` for one model, and
    ``cluster_size = n / number of clusters``. For the clustered design the pilot then
    supplies ``icc`` (a negative estimate is planned as 0; the pilot keeps the estimate)
    and, unless given, ``cluster_size``.

    Examples
    --------
    >>> p = from_pilot("examples/lesson_pair.csv")
    >>> p.n_items, p.disagreement, p.a_only, p.b_only, p.baseline
    (500, 0.042, 4, 17, 0.732)
    >>> p = from_pilot("examples/cookbook_topics.csv", cluster="topic_id")
    >>> round(p.icc, 4), p.cluster_size
    (-0.032, 10.0)
    """
    from .api import _as_item_scores, _pick_pair

    wanted = [a, b] if a is not None and b is not None else None
    scores = _as_item_scores(data, data2, wanted, item=item, model=model, score=score,
                             score_type=score_type, intersect=intersect, cluster=cluster)
    if len(scores.items) < 2:
        raise EvalbarsError(f"a pilot needs at least 2 questions; got {len(scores.items)}")
    if len(scores.models) == 1 and b is None:
        a = a or scores.models[0]
        x, y = scores.column(a), None
    else:
        a, b = _pick_pair(scores, a, b)
        x, y = scores.column(a), scores.column(b)
    both = [x] if y is None else [x, y]
    variance = float(np.mean([np.var(s, ddof=1) for s in both]))
    disagreement = a_only = b_only = variance_d = None
    if y is not None and scores.score_type == "binary":
        a_only, b_only = int(np.sum(x > y)), int(np.sum(y > x))
        disagreement = (a_only + b_only) / x.size
    elif y is not None:
        variance_d = float(np.var(y - x, ddof=1))
    rho = size = None
    if cluster is not None and scores.clusters is None:
        raise EvalbarsError(f"cluster={cluster!r} names a column to read, but the pilot was "
                            f"loaded already, without clusters: load it with cluster=")
    if scores.clusters is not None:
        what = f"{a!r}" if y is None else f"the differences {b!r} - {a!r}"
        try:
            rho = icc(x if y is None else y - x, scores.clusters)
        except EvalbarsError as exc:
            raise EvalbarsError(f"cannot estimate the pilot's ICC of {what}: {exc}") from None
        size = len(scores.items) / len(set(scores.clusters))
    return Pilot(len(scores.items), scores.score_type, a, b, float(np.mean(x)), variance,
                 disagreement, variance_d, a_only, b_only, scores.source, rho, size)
