"""A regression gate for CI pipelines: does the candidate regress beyond a margin?

The decision comes from the paired non-inferiority test of candidate - baseline with
margin M at one-sided level alpha (the lower end of the (1 - 2 alpha) interval):

- ``pass`` (exit 0): the candidate is shown not to be worse by more than M;
- ``fail`` (exit 1): a regression is shown (the interval lies below zero) and it is
  not shown to stay within M;
- ``inconclusive`` (exit 3): the data cannot tell; the result says about how many
  questions would decide it.

:func:`gate` is ``evalbars.gate``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core.document import json_safe
from ..io.inputs import pair_names, takes_load_options
from ..report import format as fmt
from ..report.notebook import NotebookMixin
from ..stats.equivalence import INTERVAL_WORDS
from .results import CompareResult

EXIT_STATUS = {"pass": 0, "fail": 1, "inconclusive": 3}


@dataclass(frozen=True, slots=True, repr=False)
class GateResult(NotebookMixin):
    """The gate's decision, its one-line message, and the comparison it rests on."""

    decision: str
    message: str
    comparison: CompareResult

    @property
    def exit_status(self) -> int:
        """0 pass, 1 fail, 3 inconclusive."""
        return EXIT_STATUS[self.decision]

    def to_dict(self) -> dict:
        comparison = self.comparison.to_dict()
        return json_safe({
            "schema_version": comparison["schema_version"],
            "kind": "gate",
            "decision": self.decision,
            "exit_status": self.exit_status,
            "message": self.message,
            "baseline": comparison["difference"]["a"],
            "candidate": comparison["difference"]["b"],
            "max_regression": comparison["equivalence"]["margin"],
            "estimate": comparison["difference"]["estimate"],
            "equivalence": comparison["equivalence"],
            "comparison": comparison,
            "warnings": comparison["warnings"],
            "provenance": comparison["provenance"],
        })


def _decide(comparison: CompareResult) -> tuple[str, str]:
    eq = comparison.equivalence
    doc = comparison.to_dict()
    score_type, a, b = doc["score_type"], doc["difference"]["a"], doc["difference"]["b"]
    digits = fmt.decimals_for(score_type, eq.high - eq.low)
    unit = " points" if score_type == "binary" else ""
    gap = fmt.value(eq.estimate, score_type, digits, sign=True)
    kind = INTERVAL_WORDS[eq.method]
    ends = (f"{eq.level:.0%} {kind}CI {fmt.value(eq.low, score_type, digits, sign=True)} to "
            f"{fmt.value(eq.high, score_type, digits, sign=True)}")
    margin = fmt.value(eq.margin, score_type, digits)
    facts = f"{b} \u2212 {a} = {gap}{unit} ({ends}, n = {fmt.count(comparison.n_items)})"
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
         **load_options) -> GateResult:
    """Decide whether ``candidate`` regresses against ``baseline`` beyond ``max_regression``.

    :func:`evalbars.compare` of ``candidate`` against ``baseline`` with the margin
    ``max_regression``, at ``confidence_level = 1 - alpha``: ``alpha`` is the one-sided
    level of the non-inferiority test; ``n_resamples``, ``seed``, ``progress`` and the
    options that say how to read ``data`` (item, model, score, score_type, intersect,
    cluster, sample, run, input_format, metric, scorer, qrels: see :func:`evalbars.load`)
    are compare's. ``models=[baseline, candidate]`` is the same as ``baseline=``,
    ``candidate=``; with two inputs, they name them (data the baseline).

    Examples
    --------
    >>> import evalbars
    >>> g = evalbars.gate("examples/lesson_pair.csv", baseline="model_a", candidate="model_b",
    ...                   max_regression=0.01, n_resamples=1000)
    >>> g.decision, g.exit_status
    ('pass', 0)
    """
    from .compare import compare

    if not 0.0 < alpha < 0.5:
        from ..core.errors import EvalbarsError

        raise EvalbarsError(f"alpha must be between 0 and 0.5, got {alpha!r}")
    baseline, candidate = pair_names(models, baseline, candidate, ("baseline", "candidate"))
    comparison = compare(data, data2, a=baseline, b=candidate, margin=max_regression,
                         confidence_level=1.0 - alpha, n_resamples=n_resamples, seed=seed,
                         progress=progress, **load_options)
    decision, message = _decide(comparison)
    return GateResult(decision, message, comparison)
