"""A regression gate for CI pipelines: does the candidate regress beyond a margin?

The decision comes from the paired non-inferiority test of candidate - baseline with
margin M at one-sided level alpha (the lower end of the (1 - 2 alpha) interval):

- ``pass`` (exit 0): the candidate is shown not to be worse by more than M;
- ``fail`` (exit 1): a regression is shown (the interval lies below zero) and it is
  not shown to stay within M;
- ``inconclusive`` (exit 3): the data cannot tell; the result says about how many
  questions would decide it.

With ``sequential=True`` the decision comes from :func:`evalbars.monitor` instead, at
level ``1 - alpha`` two-sided: ``pass`` at the first look where the always-valid sequence
lies above ``-M``, ``fail`` at the first where it lies below zero. The sequence covers the
true gap at every look at once, so re-running the gate on every commit as results
accumulate (in the same order) keeps each error rate at most alpha (a false fail needs the
sequence to miss a gap of zero or more, a false pass to miss one of ``-M`` or less); once
a look decides, later runs report that same look.

With ``stratum=`` the decision rests on the gap of the weighted aggregates paired within
strata (:mod:`evalbars.analyses.strata`): the same non-inferiority test on its stratified
standard error and Satterthwaite degrees of freedom, the ``1 - 2 alpha`` ``stratified-t``
interval. Not with ``sequential=True``.

:func:`gate` is ``evalbars.gate``.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core.arguments import check_between
from ..core.document import json_safe
from ..core.errors import EvalbarsError
from ..io.inputs import pair_names, takes_load_options
from ..io.keywords import renamed, rewording
from ..report import format as fmt
from ..report.notebook import NotebookMixin
from ..report.text.strata import weighting_words
from ..stats.equivalence import INTERVAL_WORDS, Equivalence, equivalence
from .monitor import MonitorResult
from .results import CompareResult

EXIT_STATUS = {"pass": 0, "fail": 1, "inconclusive": 3}


@dataclass(frozen=True, slots=True, repr=False)
class GateResult(NotebookMixin):
    """The gate's decision, its one-line message, and the comparison it rests on: a
    :class:`CompareResult`, or with ``sequential=True`` a :class:`MonitorResult`."""

    decision: str
    message: str
    comparison: CompareResult | MonitorResult
    stratified: Equivalence | None = None  # with stratum=: the deciding test

    @property
    def exit_status(self) -> int:
        """0 pass, 1 fail, 3 inconclusive."""
        return EXIT_STATUS[self.decision]

    def to_dict(self) -> dict:
        if isinstance(self.comparison, MonitorResult):
            return self._sequential_dict()
        comparison = self.comparison.to_dict()
        deciding = comparison["equivalence"] if self.stratified is None \
            else self.stratified.to_dict()
        strata = {} if self.stratified is None else {
            "stratum": comparison["strata"]["column"],
            "weighting": comparison["strata"]["weighting"]}
        return json_safe({
            "schema_version": comparison["schema_version"],
            "kind": "gate",
            "decision": self.decision,
            "exit_status": self.exit_status,
            "message": self.message,
            "baseline": comparison["difference"]["a"],
            "candidate": comparison["difference"]["b"],
            "max_regression": comparison["equivalence"]["margin"],
            "estimate": comparison["difference"]["estimate"] if self.stratified is None
            else self.stratified.estimate,
            "equivalence": deciding,
            **strata,
            "comparison": comparison,
            "warnings": comparison["warnings"],
            "provenance": comparison["provenance"],
        })


    def _sequential_dict(self) -> dict:
        doc = self.comparison.to_dict()
        at = doc["stopped"] or doc["last"]
        return {
            "schema_version": doc["schema_version"], "kind": "gate", "sequential": True,
            "decision": self.decision, "exit_status": self.exit_status,
            "message": self.message, "baseline": doc["a"], "candidate": doc["b"],
            "max_regression": doc["settings"]["margin"], "estimate": at["estimate"],
            "monitor": doc, "warnings": doc["warnings"], "provenance": doc["provenance"]}


def _decide_sequential(result: MonitorResult,
                       max_regression: float) -> tuple[str, str, MonitorResult]:
    """pass / fail at the first look that decides, else inconclusive (see the module), and
    the monitor's record with that decision and stop."""
    a, b, unit = result.a, result.b, result.unit
    fails = result.high < 0.0
    passes = result.low > -max_regression
    decided = np.flatnonzero(passes | fails)
    k = int(decided[0]) if decided.size else len(result.looks) - 1
    stop = int(decided[0]) if decided.size else None
    marked = dataclasses.replace(result, stop=stop, decision="keep-going" if stop is None else
                                 "not-worse" if passes[k] else "a-better")
    score_type = result.score_type
    digits = fmt.decimals_for(score_type, float(result.high[k] - result.low[k]))
    points = " points" if score_type == "binary" else ""
    show = lambda x: fmt.value(float(x), score_type, digits, sign=True)  # noqa: E731
    facts = (f"{b} \u2212 {a} = {show(result.estimate[k])}{points} "
             f"({fmt.level(result.confidence_level)} always-valid CS {show(result.low[k])} "
             f"to {show(result.high[k])}, after {fmt.count(int(result.looks[k]))} {unit}s, "
             f"last {result.ids[k]})")
    margin = fmt.value(max_regression, score_type, digits)
    if decided.size and passes[k]:
        return "pass", (f"PASS (sequential): {b} does not regress by more than "
                        f"{margin}{points}: {facts}"), marked
    if decided.size:
        return "fail", f"FAIL (sequential): {b} regresses against {a}: {facts}", marked
    return "inconclusive", (f"INCONCLUSIVE (sequential): cannot rule out a regression of "
                            f"more than {margin}{points} yet: {facts}; add results and run "
                            "it again"), marked


def _stratified(comparison: CompareResult, alpha: float) -> Equivalence:
    """Non-inferiority of the stratified gap: its SE and Satterthwaite df; the questions
    needed from its design-based spread ``se sqrt(n)``."""
    gap, margin = comparison.strata.difference, comparison.equivalence.margin
    return equivalence(gap.estimate, gap.se, gap.df, margin=margin, alpha=alpha,
                       sd=gap.se * math.sqrt(comparison.n_items), n_items=comparison.n_items,
                       method="stratified-t")


_WORDS = {**INTERVAL_WORDS, "stratified-t": "stratified "}
"""How the message names the deciding interval."""


def _decide(comparison: CompareResult, eq: Equivalence) -> tuple[str, str]:
    doc = comparison.to_dict()
    score_type, a, b = doc["score_type"], doc["difference"]["a"], doc["difference"]["b"]
    digits = fmt.decimals_for(score_type, eq.high - eq.low)
    unit = " points" if score_type == "binary" else ""
    gap = fmt.value(eq.estimate, score_type, digits, sign=True)
    kind = _WORDS[eq.method]
    ends = (f"{eq.level:.0%} {kind}CI {fmt.value(eq.low, score_type, digits, sign=True)} to "
            f"{fmt.value(eq.high, score_type, digits, sign=True)}")
    margin = fmt.value(eq.margin, score_type, digits)
    over = "" if eq.method != "stratified-t" else f" {weighting_words(doc['strata'])}"
    facts = f"{b} \u2212 {a} = {gap}{unit} ({ends}, n = {fmt.count(comparison.n_items)}){over}"
    if eq.low > -eq.margin:
        return "pass", f"PASS: {b} does not regress by more than {margin}{unit}: {facts}"
    if eq.high < 0:
        return "fail", f"FAIL: {b} regresses against {a}: {facts}"
    more = "" if eq.n_needed is None else \
        f"; about {fmt.count(eq.n_needed)} questions would decide it"
    return "inconclusive", (f"INCONCLUSIVE: cannot rule out a regression of more than "
                            f"{margin}{unit}: {facts}{more}")


@takes_load_options
def gate(data, data2=None, *, baseline: str | None = None, candidate: str | None = None,
         models: Sequence[str] | None = None, max_regression: float, alpha: float = 0.05,
         n_resamples: int = 10_000, seed: int = 0, progress: bool = False,
         sequential: bool = False, order: str | None = None, every: int = 1,
         stratum: str | None = None, weights: object = "micro",
         **load_options) -> GateResult:
    """Decide whether ``candidate`` regresses against ``baseline`` beyond ``max_regression``.

    :func:`evalbars.compare` of ``candidate`` against ``baseline`` with the margin
    ``max_regression``, at ``confidence_level = 1 - alpha``: ``alpha`` is the one-sided
    level of the non-inferiority test; ``n_resamples``, ``seed``, ``progress`` and the
    options that say how to read ``data`` (item, model, score, score_type, intersect,
    cluster, sample, run, input_format, metric, eval_split, scorer, qrels, engine, spark:
    see :func:`evalbars.load`)
    are compare's. ``models=[baseline, candidate]`` is the same as ``baseline=``,
    ``candidate=``; with two inputs, they name them (data the baseline).

    ``sequential=True`` decides with :func:`evalbars.monitor` (one table; ``order`` and
    ``every`` are the monitor's; ``n_resamples`` and ``seed`` are not used): safe to re-run
    as results accumulate. See the module's docstring.

    ``stratum`` and ``weights`` (as for :func:`evalbars.compare`) decide on the gap of the
    weighted aggregates paired within strata instead (docs/strata.md); the comparison
    holds the strata section.

    Examples
    --------
    >>> import evalbars
    >>> g = evalbars.gate("examples/lesson_pair.csv", baseline="model_a", candidate="model_b",
    ...                   max_regression=0.01, n_resamples=1000)
    >>> g.decision, g.exit_status
    ('pass', 0)
    >>> g = evalbars.gate("examples/lesson_pair.csv", baseline="model_a", candidate="model_b",
    ...                   max_regression=0.01, sequential=True)
    >>> g.decision, g.comparison.stopped_at, g.comparison.decision
    ('pass', 419, 'not-worse')
    """
    from .compare import compare

    alpha = check_between(alpha, "alpha", 0.0, 0.5,
                          "a number strictly between 0 and 0.5 (0.05 for 5%)")
    check_between(max_regression, "max_regression", 0.0, math.inf,
                  "a positive number (0.01 = 1 point)")
    baseline, candidate = pair_names(models, baseline, candidate, ("baseline", "candidate"))
    # compare and monitor name the models a= and b=; an unknown one was gate's own keyword
    keywords = {"a": "baseline", "b": "candidate"} if models is None else \
        {"a": "models", "b": "models"}
    own_keywords = rewording(lambda message: renamed(message, keywords))
    if sequential:
        if stratum is not None or weights != "micro":
            raise EvalbarsError("stratum= (--stratum) and weights= (--weights) do not go with "
                                "sequential=True (--sequential): the always-valid sequence "
                                "follows the questions in the order they came in, not a "
                                "weighted average over strata; drop one")
        if data2 is not None:
            raise EvalbarsError("gate --sequential reads one results table (the order "
                                "results came in is read from it), not two files")
        from .monitor import monitor

        with own_keywords:
            result = monitor(data, a=baseline, b=candidate, order=order,
                             margin=max_regression, every=every,
                             confidence_level=1.0 - alpha, **load_options)
        return GateResult(*_decide_sequential(result, max_regression))
    if order is not None or every != 1:
        raise EvalbarsError("order and every (--order, --every) are settings of the "
                            "sequential gate; add sequential=True (--sequential)")
    with own_keywords:
        comparison = compare(data, data2, a=baseline, b=candidate, margin=max_regression,
                             confidence_level=1.0 - alpha, n_resamples=n_resamples,
                             seed=seed, progress=progress, stratum=stratum, weights=weights,
                             **load_options)
    stratified = None if comparison.strata is None else _stratified(comparison, alpha)
    decision, message = _decide(comparison, stratified or comparison.equivalence)
    return GateResult(decision, message, comparison, stratified)
