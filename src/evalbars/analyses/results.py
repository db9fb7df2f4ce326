"""Result objects: frozen records with full precision and no verdicts.

``to_dict()`` of a top-level result is the report document (schema_version 1,
documented in docs/json.md); the CLI's ``--format json`` prints exactly that. The records
of a score report live here, its strata section's included (:class:`Strata`, with its
:class:`Aggregate` rows and a leaderboard's :class:`StrataPair`), so a result's fields
are typed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.records import Record, entry
from ..core.types import Interval, TestResult
from ..report.notebook import NotebookMixin

if TYPE_CHECKING:
    from ..stats.clustering import ClusteredSE
    from ..stats.equivalence import Equivalence
    from ..stats.samples import VarianceSplit

def find_named(intervals: tuple[Interval, ...], method: str) -> Interval:
    for interval in intervals:
        if interval.method == method:
            return interval
    raise KeyError(f"no interval {method!r}; have {[i.method for i in intervals]}")


@dataclass(frozen=True, slots=True)
class Settings(Record):
    """How the numbers were computed; ``alternative`` is the side of a one-sided question
    (``"greater"``, ``"less"``), recorded only when it is not ``"two-sided"``."""

    confidence_level: float
    n_resamples: int
    seed: int
    alternative: str = entry("two-sided", omit=lambda s: s.alternative == "two-sided")

    @property
    def alpha(self) -> float:
        """``1 - confidence_level`` as the digits given: 0.05, not 0.050000000000000044.

        >>> Settings(0.95, 1000, 0).alpha
        0.05
        """
        return float(f"{1.0 - self.confidence_level:.12g}")



@dataclass(frozen=True, slots=True)
class ModelScore:
    """One model's mean score over ``n`` items, with every interval computed for it.

    ``n_answers`` counts answers (more than ``n`` when several answers were sampled per
    question); ``clustered`` (a :class:`~evalbars.stats.clustering.ClusteredSE`) is set when
    clusters were given, ``samples`` (a :class:`~evalbars.stats.samples.VarianceSplit`) when
    questions have several answers.
    """

    name: str
    n: int
    mean: float
    intervals: tuple[Interval, ...]
    n_answers: int | None = None
    clustered: "ClusteredSE | None" = None
    samples: "VarianceSplit | None" = None

    def interval(self, method: str) -> Interval:
        """The interval computed by ``method`` (e.g. ``"wilson"``)."""
        return find_named(self.intervals, method)

    def to_dict(self) -> dict:
        out = {
            "name": self.name,
            "n": self.n,
            "n_answers": self.n if self.n_answers is None else self.n_answers,
            "mean": self.mean,
            "intervals": [interval.to_dict() for interval in self.intervals],
        }
        if self.clustered is not None:
            out["clustered"] = self.clustered.to_dict()
        if self.samples is not None:
            out["samples"] = self.samples.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Difference(Record):
    """The paired gap ``mean(b - a)`` with its intervals.

    ``width_ratio`` is how many times wider the unpaired interval is than the
    paired-wald one: what pairing the comparison bought; with clusters, both clustered
    (the unpaired ``± t_{G-1} sqrt(se_a² + se_b²)`` against paired-cluster-cr1). ``sd`` is
    the standard deviation of the per-item differences (ddof=1).
    """

    a: str
    b: str
    estimate: float
    intervals: tuple[Interval, ...]
    sd: float
    width_ratio: float = entry(key="width_ratio_unpaired_to_paired")
    clustered: "ClusteredSE | None" = entry(None, omit=lambda gap: gap.clustered is None)

    def interval(self, method: str) -> Interval:
        """The interval computed by ``method`` (e.g. ``"paired-bootstrap-percentile"``)."""
        return find_named(self.intervals, method)



@dataclass(frozen=True, slots=True)
class Agreement:
    """How the two models agree item by item.

    For 0/1 scores the 2x2 counts (``both`` right, ``a_only``, ``b_only``,
    ``neither``); for continuous scores ``wins`` (b > a), ``losses`` (b < a), ``ties``.
    """

    correlation: float
    both: int | None = None
    a_only: int | None = None
    b_only: int | None = None
    neither: int | None = None
    wins: int | None = None
    losses: int | None = None
    ties: int | None = None

    @property
    def disagreements(self) -> int:
        """Items on which the models differ."""
        if self.a_only is not None:
            return self.a_only + self.b_only
        return self.wins + self.losses

    def to_dict(self) -> dict:
        names = ("both", "a_only", "b_only", "neither") if self.both is not None else (
            "wins", "losses", "ties")
        return {"correlation": self.correlation, **{k: getattr(self, k) for k in names}}


@dataclass(frozen=True, slots=True)
class Aggregate(Record):
    """A weighted aggregate (a model's score, or the gap ``b - a``) over strata."""

    name: str
    estimate: float
    se: float
    df: float
    intervals: tuple[Interval, ...]
    n_clusters: int | None = entry(None, omit=lambda agg: agg.n_clusters is None)


@dataclass(frozen=True, slots=True)
class StratumRow:
    """One stratum: its label, size, weight, and each model's mean with its interval."""

    label: str
    n: int
    weight: float
    means: tuple[float, ...]
    intervals: tuple[Interval, ...]

    def to_dict(self, names: Sequence[str]) -> dict:
        return {"label": self.label, "n": self.n, "weight": self.weight,
                "models": [{"name": name, "mean": mean, "interval": iv.to_dict()}
                           for name, mean, iv in zip(names, self.means, self.intervals)]}


@dataclass(frozen=True, slots=True)
class Strata:
    """The ``strata`` section of a ci or compare document."""

    column: str
    weighting: str
    names: tuple[str, ...]
    rows: tuple[StratumRow, ...]
    models: tuple[Aggregate, ...]
    difference: Aggregate | None = None
    tests: tuple[TestResult, ...] = ()
    weights_file: str | None = None
    warnings: tuple[str, ...] = ()  # the report's, merged into the result's warnings
    pairs: tuple[StrataPair, ...] = ()  # a leaderboard's

    def to_dict(self) -> dict:
        out = {"column": self.column, "weighting": self.weighting,
               "n_strata": len(self.rows),
               "models": [m.to_dict() for m in self.models],
               "strata": [row.to_dict(self.names) for row in self.rows]}
        if self.weights_file is not None:
            out["weights_file"] = self.weights_file
        if self.difference is not None:
            out["difference"] = self.difference.to_dict()
            out["tests"] = [t.to_dict() for t in self.tests]
        if self.pairs:
            out["pairs"] = [pair.to_dict() for pair in self.pairs]
        return out


@dataclass(frozen=True, slots=True)
class StrataPair:
    """One pair's gap ``b - a`` paired within strata, its stratified tests (the first is
    the headline) and the headline p-value adjusted over the leaderboard's pairs."""

    a: str
    b: str
    difference: Aggregate
    tests: tuple[TestResult, ...]
    p_adjusted: float

    def to_dict(self) -> dict:
        head = self.tests[0]
        return {"a": self.a, "b": self.b, "difference": self.difference.to_dict(),
                "tests": [t.to_dict() for t in self.tests], "test": head.name,
                "p_value": head.p_value, "p_adjusted": self.p_adjusted}


@dataclass(frozen=True, slots=True, repr=False)
class ReportRecord(NotebookMixin):
    """Fields every top-level result shares."""

    n_items: int
    score_type: str
    settings: Settings
    models: tuple[ModelScore, ...]
    statement: str
    warnings: tuple[str, ...]
    dropped: dict | None
    provenance: dict

    def model(self, name: str) -> ModelScore:
        """The :class:`ModelScore` of the model called ``name``."""
        for model in self.models:
            if model.name == name:
                return model
        raise KeyError(f"no model {name!r}; have {[m.name for m in self.models]}")

    def _common(self, kind: str) -> dict:
        out = {
            "schema_version": SCHEMA_VERSION,
            "kind": kind,
            "n_items": self.n_items,
            "score_type": self.score_type,
            "settings": self.settings.to_dict(),
            "models": [model.to_dict() for model in self.models],
        }
        if self.dropped is not None:
            out["dropped"] = dict(self.dropped)
        return out

    def _finish(self, out: dict) -> dict:
        out["statement"] = self.statement
        out["warnings"] = list(self.warnings)
        out["provenance"] = self.provenance
        return json_safe(out)


@dataclass(frozen=True, slots=True, repr=False)
class CIResult(ReportRecord):
    """Every model's score with its intervals (``evalbars ci``); ``strata``, with
    ``stratum=``, is a :class:`Strata` (None without)."""

    strata: Strata | None = None

    def to_dict(self) -> dict:
        out = self._common("ci")
        if self.strata is not None:
            out["strata"] = self.strata.to_dict()
        return self._finish(out)


@dataclass(frozen=True, slots=True, repr=False)
class CompareResult(ReportRecord):
    """A paired comparison of model ``b`` against model ``a`` (``evalbars compare``)."""

    difference: Difference
    agreement: Agreement
    tests: tuple[TestResult, ...]
    equivalence: "Equivalence | None" = None
    strata: Strata | None = None  # with stratum=

    def test(self, name: str) -> TestResult:
        """The test called ``name`` (e.g. ``"mcnemar-exact"``)."""
        for test in self.tests:
            if test.name == name:
                return test
        raise KeyError(f"no test {name!r}; have {[t.name for t in self.tests]}")

    def to_dict(self) -> dict:
        out = self._common("compare")
        out["difference"] = self.difference.to_dict()
        out["agreement"] = self.agreement.to_dict()
        out["tests"] = [test.to_dict() for test in self.tests]
        if self.equivalence is not None:
            out["equivalence"] = self.equivalence.to_dict()
        if self.strata is not None:
            out["strata"] = self.strata.to_dict()
        return self._finish(out)

