"""Training seeds: is the recipe better, or was it one lucky run?

Train a recipe once and its score mixes two kinds of luck: the questions (another 300 of
the same kind would score differently) and the seed (another training run of the same
recipe would too). Several runs per recipe, each scored on the same questions, let both
be measured (Bouthillier et al. 2021, "Accounting for Variance in Machine Learning
Benchmarks", MLSys):

- each run's score with its interval over questions;
- per recipe, the mean and standard deviation across runs, an interval for the recipe
  that includes both kinds of noise, and the **variance split** of one run's score into
  seed variance and question variance;
- for two recipes, the **paired recipe comparison**: runs are the unit, questions stay
  paired, and the interval of the difference of recipe means has both kinds of noise in
  it, once as a t interval with honest few-run degrees of freedom (``seeds-t``) and once
  as a two-level bootstrap over runs and questions (``two-level-bootstrap``).

:func:`seeds` is ``evalbars.seeds``. Recipes are the models of
:func:`evalbars.io.ingest.load` read with ``run=``: each (model, run) pair is a system
``"model@run"``, and :attr:`~evalbars.io.item_scores.ItemScores.runs` says which. Runs of
different recipes are unrelated, even when their labels match. The result records
(:class:`SeedsResult`: runs, recipes, their difference) are here, the statement and tables
in :mod:`evalbars.report.text.seeds`.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import special

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.errors import EvalbarsError
from ..core.records import Record, entry
from ..core.seeding import child_seed
from ..core.types import Interval
from ..io.ingest import ItemScores
from ..io.inputs import read_scores, takes_load_options
from ..report.notebook import NotebookMixin
from ..stats import cluster_resampling, clustering, intervals
from ..stats.bootstrap import bootstrap_means, percentile_interval
from ..stats.resample import bootstrap_sums
from .results import Settings, find_named
from .settings import checked_settings, provenance

METHODS = ("seeds-t", "two-level-bootstrap")
"""Intervals of a recipe's mean and of the difference of two recipes; the first is the
headline."""


@dataclass(frozen=True, slots=True)
class RunScore(Record):
    """One training run's score over the questions, with its interval over questions."""

    run: str
    system: str = entry(key="name")
    mean: float
    interval: Interval


@dataclass(frozen=True, slots=True)
class SeedSplit(Record):
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


MIN_RUNS = 3
"""Below this many runs per recipe the result warns that the seed variance is shaky."""

DF_GUARD = 0.25
"""The degrees of freedom of ``seeds-t`` take each seed variance at its one-sided
(1 - DF_GUARD) upper confidence bound, ``s^2 (R - 1) / chi2_{R-1}(DF_GUARD)``: plugging in
``s^2`` itself gives degrees of freedom that are too many exactly when ``s^2`` came out
small, and intervals that cover 90% with 3 runs (tests/analyses/test_seeds.py, docs/seeds.md)."""


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class _Table:
    """One recipe's (question x run) scores and the mean squares of the two-way table."""

    x: np.ndarray  # (n, R) canonical question order, runs in natural order
    between: float  # variance of the run means (ddof=1); nan with one run
    residual: float  # run x question mean square; nan with one run

    @property
    def seed_part(self) -> float:
        """Unbiased seed variance, not truncated: between - residual / n (0 with one run)."""
        n, r = self.x.shape
        return self.between - self.residual / n if r > 1 else 0.0


def _two_way(x: np.ndarray) -> _Table:
    n, r = x.shape
    if r == 1:
        return _Table(x, math.nan, math.nan)
    run_means, item_means = x.mean(axis=0), x.mean(axis=1)
    residual = x - run_means - item_means[:, None] + run_means.mean()
    return _Table(x, float(np.var(run_means, ddof=1)),
                  float(np.sum(residual * residual) / ((r - 1) * (n - 1))))


def _question_variance(x: np.ndarray, clusters: np.ndarray | None) -> tuple[float, int]:
    """Variance of the mean of ``x`` over questions (or clusters) and its degrees of freedom."""
    if clusters is None:
        return float(np.var(x, ddof=1)) / x.size, x.size - 1
    c = clustering.clustered_se(x, clusters)
    return c.se ** 2, c.n_clusters - 1


def _terms(tables: list[_Table], question: tuple[float, int],
           guard: bool) -> list[tuple[float, float]]:
    """Var(estimate) as (value, df) terms: each recipe's seed part over its runs (left out
    when not positive), then the question part. ``guard``: each s^2 at its upper bound."""
    terms = []
    for table in tables:
        n, r = table.x.shape
        if r == 1:
            continue
        between = table.between
        if guard:
            between *= (r - 1) / special.chdtri(r - 1, 1.0 - DF_GUARD)
        if between - table.residual / n > 0.0:
            terms += [(between / r, r - 1), (-table.residual / (n * r), (r - 1) * (n - 1))]
    return terms + [question]


def _t_interval(estimate: float, tables: list[_Table], question: tuple[float, int],
                level: float) -> tuple[Interval, float, float | None]:
    """``estimate ± t_nu SE``: SE from the terms, nu by Satterthwaite from the guarded terms."""
    variance = sum(value for value, _ in _terms(tables, question, guard=False))
    if variance <= 0.0:
        return Interval("seeds-t", estimate, estimate, level), 0.0, None
    guarded = _terms(tables, question, guard=True)
    df = float(sum(value for value, _ in guarded) ** 2
               / sum(value ** 2 / df for value, df in guarded))
    half = float(special.stdtrit(df, (1.0 + level) / 2.0)) * math.sqrt(variance)
    return Interval("seeds-t", estimate - half, estimate + half, level), math.sqrt(variance), df


def _run_interval(x: np.ndarray, clusters, binary: bool, level: float) -> Interval:
    if clusters is not None:
        return clustering.cluster_interval(x, clusters, confidence_level=level)
    if binary:
        return intervals.binomial_interval(int(x.sum()), x.size, method="wilson",
                                           confidence_level=level)
    return intervals.mean_interval(x, method="t", confidence_level=level)


def _two_level(tables: list[_Table], clusters, names: list[str],
               settings: Settings) -> np.ndarray:
    """(B, recipes) recipe means over two-level bootstrap rounds, through the engine.

    Each round draws the questions once (or whole clusters) from the one resample plan of
    the items (stream ``plan``, as compare's; :mod:`evalbars.analyses.draws`), shared by
    every run of every recipe, so recipes stay paired and a recipe's numbers do not depend
    on the others (unless the runs' 0/1 rows repeat and are drawn over their patterns);
    and, per recipe, as many runs as it has, with replacement, from its own stream: the
    engine resamples the rows of an identity matrix, whose column sums are how often each
    run was drawn.
    """
    x = np.hstack([t.x for t in tables])
    seed = child_seed(settings.seed, "plan" if clusters is None else "cluster-plan")
    means = bootstrap_means(x, n_resamples=settings.n_resamples, seed=seed) if clusters is None \
        else cluster_resampling.cluster_bootstrap_means(
            x, clusters, n_resamples=settings.n_resamples, seed=seed)
    out, start = [], 0
    for table, name in zip(tables, names):
        r = table.x.shape[1]
        drawn = bootstrap_sums(np.eye(r), n_resamples=settings.n_resamples,
                               seed=child_seed(settings.seed, f"seeds-runs:{name}"))
        out.append((drawn * means[:, start:start + r]).sum(axis=1) / r)
        start += r
    return np.column_stack(out)


def _recipe(name: str, systems: list[tuple[str, str]], table: _Table, clusters,
            binary: bool, settings: Settings) -> RecipeSeeds:
    level = settings.confidence_level
    n, r = table.x.shape
    runs = tuple(RunScore(run, f"{name}@{run}", float(column.mean()),
                          _run_interval(column, clusters, binary, level))
                 for (_, run), column in zip(systems, table.x.T))
    item_means = table.x.mean(axis=1)
    t, se, df = _t_interval(float(item_means.mean()), [table],
                            _question_variance(item_means, clusters), level)
    replicates = _two_level([table], clusters, [name], settings)[:, 0]
    boot = percentile_interval(replicates, method="two-level-bootstrap", confidence_level=level)
    one_run = float(np.mean([_question_variance(c, clusters)[0] for c in table.x.T]))
    seed = max(table.seed_part, 0.0) if r > 1 else None
    split = SeedSplit(seed, one_run, table.residual if r > 1 else None,
                      None if seed is None or seed + one_run == 0 else seed / (seed + one_run))
    return RecipeSeeds(name, runs, float(item_means.mean()),
                       float(math.sqrt(table.between)) if r > 1 else None, se, df, (t, boot),
                       split)


def _difference(a: str, b: str, columns: dict[str, np.ndarray], clusters,
                settings: Settings) -> RecipeDifference:
    """b - a, computed for the pair in name order and negated back, so swapping is exact.

    ``columns`` and ``clusters`` have the items in the canonical order (sorted by id).
    """
    first, second = sorted((a, b))
    x = np.hstack([columns[first], columns[second]])
    split = columns[first].shape[1]
    tables = {first: _two_way(x[:, :split]), second: _two_way(x[:, split:])}
    d = tables[second].x.mean(axis=1) - tables[first].x.mean(axis=1)
    question = _question_variance(d, clusters)
    t, se, df = _t_interval(float(d.mean()), [tables[first], tables[second]], question,
                            settings.confidence_level)
    means = _two_level([tables[first], tables[second]], clusters, [first, second], settings)
    boot = percentile_interval(means[:, 1] - means[:, 0], method="two-level-bootstrap",
                               confidence_level=settings.confidence_level)
    seed = {k: max(tables[k].seed_part, 0.0) / tables[k].x.shape[1] for k in (a, b)}
    if a > b:  # 0.0 - x: never -0.0
        t, boot = (Interval(i.method, 0.0 - i.high, 0.0 - i.low, i.confidence_level)
                   for i in (t, boot))
    sign = 1.0 if a < b else -1.0
    return RecipeDifference(a, b, sign * float(d.mean()) + 0.0, se, df, (t, boot), seed[a],
                            seed[b], question[0])


# --------------------------------------------------------------------------- the entry point


def _recipes(scores: ItemScores) -> dict[str, list[tuple[int, tuple[str, str]]]]:
    """Each recipe's systems: (column, (recipe, run)), recipes in the order of the data."""
    out: dict[str, list] = {}
    for j, pair in enumerate(scores.runs):
        out.setdefault(pair[0], []).append((j, pair))
    return out


def _pair(recipes: Sequence[str], a: str | None, b: str | None) -> tuple[str, str] | None:
    if a is None and b is None:
        return tuple(recipes) if len(recipes) == 2 else None
    if a is None or b is None:
        raise EvalbarsError("give both a= and b= (--a and --b), or neither when the data have "
                            "exactly two recipes")
    for param, name in (("a", a), ("b", b)):
        if name not in recipes:
            raise EvalbarsError(f"unknown recipe {name!r} ({param}=); the data have "
                                f"{', '.join(map(repr, recipes))}")
    return a, b


def _warnings(recipes: tuple[RecipeSeeds, ...], clusters) -> tuple[str, ...]:
    found = []
    for recipe in recipes:
        r = len(recipe.runs)
        if r == 1:
            found.append(f"recipe {recipe.name!r} has a single run: every number about it is a "
                         "claim about one checkpoint, and no interval includes seed-to-seed "
                         f"variation; train at least {MIN_RUNS} runs (seeds) per recipe")
        elif r < MIN_RUNS:
            found.append(f"recipe {recipe.name!r} has only {r} runs: its seed variance rests on "
                         f"{r - 1} degree{'s' if r > 2 else ''} of freedom, so the seeds-t "
                         "interval is wide and the two-level bootstrap too narrow; train at "
                         f"least {MIN_RUNS} runs (seeds) per recipe")
    if clusters is not None:
        found += clustering.cluster_warnings(clusters)
    return tuple(found)


@takes_load_options
def seeds(
    data,
    data2=None,
    *,
    run: str | None = None,
    a: str | None = None,
    b: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    **load_options,
) -> SeedsResult:
    """Several training runs per recipe: each run, each recipe, and the recipe comparison.

    Parameters
    ----------
    data, data2 : path, pandas.DataFrame or ItemScores
        Per-question scores with a run column, read by :func:`evalbars.io.ingest.load` (or
        already loaded with ``run=``). The model column names the recipe.
    run : str
        The column naming each row's training run (seed).
    a, b : str, optional
        Two recipes to compare (``b - a``). With neither and exactly two recipes, the
        second is compared with the first; with more, no comparison.
    confidence_level, n_resamples, seed
        Interval level, bootstrap rounds, and the seed (recorded). Recipe r draws its runs
        from the stream ``seeds-runs:r``; every recipe and the pair draw their questions
        from the one resample plan of the questions (stream ``plan``), compare's.
    item, model, score, score_type, intersect, cluster, sample, input_format, metric,
    eval_split, scorer, qrels, engine, spark
        How to read ``data``, see :func:`evalbars.load` (harness logs have no run column).
        With ``cluster``, clusters replace questions as the resampled unit and in every t
        interval.

    Returns
    -------
    SeedsResult

    Notes
    -----
    For recipe r with R runs scored on n questions, x[i, j] is run j's score on question
    i (a mean over sampled answers when there are several), m_j the run's score, and
    the two-way table's mean squares are ``s^2 = var(m_j)`` (ddof 1; ``n s^2`` is the
    between-runs mean square) and the residual ``MSE = sum (x_ij - m_j - xbar_i + M)^2 /
    ((R - 1)(n - 1))``. The runs share the questions, so the questions' luck is common to
    every run and cancels from ``s^2``: ``E[s^2] = seed + MSE_true / n``. Hence

    - seed variance ``max(s^2 - MSE / n, 0)`` (the ANOVA estimator of a crossed random
      effect; subtracting each run's whole sampling variance var_i(x_ij) / n instead
      would also remove the question-difficulty variance, which the runs do not show,
      and bias it to 0);
    - question variance of one run's score: the mean over runs of ``var_i(x_ij) / n``
      (with clusters, the mean squared CR1 standard error);
    - recipe mean ``M = mean_j m_j`` with variance ``(s^2 - MSE / n) / R + var_i(xbar_i)
      / n``, where ``xbar_i`` is question i's mean over runs: the seed part and the
      question part, unbiased; the seed part is left out when it is not positive;
    - difference ``M_b - M_a`` with variance ``seed_a / R_a + seed_b / R_b + var_i(xbar_bi
      - xbar_ai) / n``: paired on the questions, runs as the unit.

    ``seeds-t`` is ``estimate ± t_nu SE`` with nu from Welch-Satterthwaite over the mean
    squares it is made of (s^2 with R - 1 degrees of freedom, MSE with (R - 1)(n - 1),
    the question variance with n - 1, or G - 1 with G clusters), each s^2 taken at its
    75% upper confidence bound for nu only (:data:`DF_GUARD`): with few runs and real
    seed noise, nu is near the runs' degrees of freedom, which is what makes the interval
    honest. A plain Welch test on the run means would miss the question part, which every
    run of a recipe shares. ``two-level-bootstrap`` is the percentile interval of rounds
    that draw the questions once (shared by all runs of both recipes) and each recipe's
    runs with replacement; it cannot know how few runs there are and counts the run x
    question noise twice, so it is too narrow with 3 runs when seeds dominate and too
    wide when they do not (tests/analyses/test_seeds.py measures both). A recipe with one run has
    no seed part: its intervals cover questions only, and its claims are about one
    checkpoint.

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.seeds("examples/seeds.csv", run="seed", n_resamples=2000)
    >>> [(m.name, len(m.runs), round(m.mean, 3)) for m in r.models]
    [('baseline', 5, 0.675), ('curriculum', 5, 0.723)]
    >>> round(r.model("baseline").variance.seed_share, 2)
    0.47
    >>> d = r.difference
    >>> round(d.estimate, 3), [round(v, 3) for v in (d.interval("seeds-t").low,
    ...                                                d.interval("seeds-t").high)]
    (0.048, [0.003, 0.093])
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    if a is not None and a == b:
        raise EvalbarsError(f"a and b must be different recipes, got {a!r} twice")
    loaded = isinstance(data, ItemScores)
    scores = None
    if loaded or run is not None:
        # a and b are recipes: they choose what to read, not among loaded model@run systems
        wanted = [a, b] if a is not None and b is not None and not loaded else None
        scores = read_scores(data, data2, wanted, named_by={"a": a, "b": b},
                             training_runs=True, run=run, **load_options)
    if scores is None or scores.runs is None:
        raise EvalbarsError("seeds needs training runs: pass run= (--run COL), the column "
                            "naming each row's run (seed), or data loaded with "
                            "load(..., run=COL)")
    if len(scores.items) < 2:
        raise EvalbarsError(f"seeds needs at least 2 questions; got {len(scores.items)}")
    recipes = _recipes(scores)
    pair = _pair(list(recipes), a, b)
    names = list(pair) if a is not None else list(recipes)
    codes = labels = None
    if scores.clusters is not None:  # factorized once; the statistics see integer codes
        labels, codes = np.unique(np.asarray(scores.clusters), return_inverse=True)
        codes = codes.reshape(-1)
    # Items sorted by id, the resample plan's canonical order (evalbars.analyses.draws).
    order = sorted(range(len(scores.items)), key=scores.items.__getitem__)
    clusters = None if codes is None else codes[order]
    columns = {name: scores.scores[order][:, [j for j, _ in recipes[name]]] for name in names}
    results = []
    for name in names:
        j = [j for j, _ in recipes[name]]
        binary = scores.score_type == "binary" and int(scores.counts[:, j].max()) == 1
        results.append(_recipe(name, [p for _, p in recipes[name]], _two_way(columns[name]),
                               clusters, binary, settings))
    difference = None if pair is None else _difference(*pair, columns, clusters, settings)
    result = SeedsResult(
        n_items=len(scores.items), score_type=scores.score_type, settings=settings,
        n_clusters=None if labels is None else len(labels), models=tuple(results),
        difference=difference, dropped=scores.dropped, statement="",
        warnings=_warnings(tuple(results), None if codes is None else labels[codes]),
        provenance=provenance(scores, settings))
    from ..report.text.seeds import statement

    return dataclasses.replace(result, statement=statement(result.to_dict()))


__all__ = ["MIN_RUNS", "seeds"]
