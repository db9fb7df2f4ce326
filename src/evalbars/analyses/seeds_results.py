"""The result records of :func:`evalbars.analyses.seeds.seeds`: runs, recipes, their difference.

Each record's ``to_dict()`` is its part of the ``seeds`` document (docs/seeds.md); the
words and tables are :mod:`evalbars.report.text.seeds`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.types import Interval
from ..report.notebook import NotebookMixin
from .results import Settings, find_named

METHODS = ("seeds-t", "two-level-bootstrap")
"""Intervals of a recipe's mean and of the difference of two recipes; the first is the
headline."""


@dataclass(frozen=True, slots=True)
class RunScore:
    """One training run's score over the questions, with its interval over questions."""

    run: str
    system: str
    mean: float
    interval: Interval

    def to_dict(self) -> dict:
        return {"run": self.run, "name": self.system, "mean": self.mean,
                "interval": self.interval.to_dict()}


@dataclass(frozen=True, slots=True)
class SeedSplit:
    """The variance of one run's score, split into seeds and questions.

    ``seed`` is the variance of the score across training runs with infinitely many
    questions (None with one run); ``question`` the variance of one run's score across
    question sets of this size; ``run_by_question`` the residual mean square of the
    two-way (question x run) table, the noise that makes runs disagree question by
    question; ``seed_share`` is ``seed / (seed + question)``.
    """

    seed: float | None
    question: float
    run_by_question: float | None
    seed_share: float | None

    def to_dict(self) -> dict:
        return {"seed": self.seed, "question": self.question,
                "run_by_question": self.run_by_question, "seed_share": self.seed_share}


@dataclass(frozen=True, slots=True)
class RecipeSeeds:
    """A recipe over its runs: each run, the mean and sd across runs, the intervals.

    ``se`` and ``df`` are the standard error and Satterthwaite degrees of freedom of the
    ``seeds-t`` interval; ``sd`` is None with a single run.
    """

    name: str
    runs: tuple[RunScore, ...]
    mean: float
    sd: float | None
    se: float
    df: float | None
    intervals: tuple[Interval, ...]
    variance: SeedSplit

    def interval(self, method: str) -> Interval:
        """The interval computed by ``method`` (``"seeds-t"`` or ``"two-level-bootstrap"``)."""
        return find_named(self.intervals, method)

    def to_dict(self) -> dict:
        return {"name": self.name, "n_runs": len(self.runs), "mean": self.mean, "sd": self.sd,
                "se": self.se, "df": self.df,
                "intervals": [i.to_dict() for i in self.intervals],
                "variance": self.variance.to_dict(), "runs": [r.to_dict() for r in self.runs]}


@dataclass(frozen=True, slots=True)
class RecipeDifference:
    """Mean of recipe ``b`` minus mean of recipe ``a``, runs as the unit, paired on questions.

    ``seed_a`` and ``seed_b`` are each recipe's seed variance over its number of runs and
    ``questions`` the question variance of the paired difference: the three parts of
    ``se ** 2``.
    """

    a: str
    b: str
    estimate: float
    se: float
    df: float | None
    intervals: tuple[Interval, ...]
    seed_a: float
    seed_b: float
    questions: float

    def interval(self, method: str) -> Interval:
        """The interval computed by ``method`` (``"seeds-t"`` or ``"two-level-bootstrap"``)."""
        return find_named(self.intervals, method)

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "estimate": self.estimate, "se": self.se,
                "df": self.df, "intervals": [i.to_dict() for i in self.intervals],
                "variance": {"seed_a": self.seed_a, "seed_b": self.seed_b,
                             "questions": self.questions}}


@dataclass(frozen=True, slots=True, repr=False)
class SeedsResult(NotebookMixin):
    """Runs, recipes and the paired recipe comparison (``evalbars seeds``).

    ``models`` holds the recipes; ``difference`` is set for a pair; ``n_clusters`` with a
    cluster column (then clusters, not questions, are resampled).
    """

    n_items: int
    score_type: str
    settings: Settings
    n_clusters: int | None
    models: tuple[RecipeSeeds, ...]
    difference: RecipeDifference | None
    dropped: dict | None
    statement: str
    warnings: tuple[str, ...]
    provenance: dict

    def model(self, name: str) -> RecipeSeeds:
        """The :class:`RecipeSeeds` of the recipe called ``name``."""
        for recipe in self.models:
            if recipe.name == name:
                return recipe
        raise KeyError(f"no recipe {name!r}; have {[m.name for m in self.models]}")

    def to_dict(self) -> dict:
        settings = {**self.settings.to_dict(), "methods": list(METHODS),
                    "resample": "questions" if self.n_clusters is None else "clusters"}
        if self.n_clusters is not None:
            settings["n_clusters"] = self.n_clusters
        out = {"schema_version": SCHEMA_VERSION, "kind": "seeds", "n_items": self.n_items,
               "score_type": self.score_type, "settings": settings,
               "models": [m.to_dict() for m in self.models]}
        if self.dropped is not None:
            out["dropped"] = dict(self.dropped)
        if self.difference is not None:
            out["difference"] = self.difference.to_dict()
        out.update(statement=self.statement, warnings=list(self.warnings),
                   provenance=self.provenance)
        return json_safe(out)


__all__ = ["METHODS", "RecipeDifference", "RecipeSeeds", "RunScore", "SeedSplit", "SeedsResult"]
