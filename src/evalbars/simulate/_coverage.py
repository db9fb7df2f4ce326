"""The calibration study: do evalbars' 95% intervals cover 95% of the time, and do its
tests reject a true null 5% of the time?

:func:`coverage` runs every interval method and every test the report offers on a grid
of simulated settings ("cells") and measures how often each interval contains the true
value (coverage) and how often each test rejects (type I error under the null, power
against a real gap). The intervals and tests are evalbars' own functions, called on
each simulated dataset; for 0/1 data the rates are exact sums over the binomial
counts instead (no Monte Carlo at all). docs/calibration.md publishes the results
(``scripts/calibration.py`` regenerates it) and :mod:`evalbars.analyses.caveats` cites them.

Families of cells (:data:`FAMILIES`):

====================  ===============  ==================================================
``score-binary``      coverage         one model's accuracy, 0/1 scores
``score-continuous``  coverage         one model's mean, continuous scores in [0, 1]
``gap-binary``        coverage         the paired gap B - A, 0/1 scores, and the headline
``clustered``         coverage         one model's accuracy, questions in clusters
``passk``             coverage         pass@k over questions with 10 answers each
``null-binary``       type I error     the 0/1 tests, two equally good models
``null-continuous``   type I error     the continuous-score tests
``null-clustered``    type I error     the cluster sign-flip test, clustered questions
``power-binary``      power            the 0/1 tests against a real gap
``power-continuous``  power            the continuous-score tests against a real gap
====================  ===============  ==================================================
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..analyses import measures
from ..analyses.caveats import FEW_DISCORDANT
from ..analyses.settings import check_resamples
from ..core.errors import EvalbarsError
from ..core.progress import Progress
from ..core.seeding import child_seed
from ..stats.exact_coverage import EXACT_INTERVALS
from . import _calibration_mc as mc
from . import _calibration_units as units
from ._pairs import check_count, check_run
from ._result import Rate, Simulation

N_GRID: tuple[int, ...] = (10, 30, 100, 500, 5000)
ACCURACIES: tuple[float, ...] = (0.5, 0.9, 0.99)
CORRELATIONS: tuple[float, ...] = (0.0, 0.7, 0.95)
CLUSTERS: tuple[int, ...] = (10, 30, 100)
PER_CLUSTER: tuple[int, ...] = (5, 20)
ICCS: tuple[float, ...] = (0.05, 0.2, 0.5)
CLUSTER_ACCURACY = 0.7
PASSK_RATES: tuple[float, ...] = (0.3, 0.7)
POWER_ACCURACY, POWER_CORRELATION = 0.7, 0.7
POWER_GAPS_BINARY: tuple[float, ...] = (0.01, 0.02, 0.03, 0.05)
POWER_GAPS_CONTINUOUS: tuple[float, ...] = (0.01, 0.02, 0.05)
"""The grid. ``n`` (questions) can be chosen; the rest is fixed."""

DATASETS = 2000
"""Simulated datasets per cell by default (Monte Carlo error about 0.5 points at 95%)."""


@dataclass(frozen=True)
class Family:
    """A kind of cell: what is measured, for which methods, on which simulated data."""

    quantity: str
    methods: tuple[str, ...]
    exact: tuple[str, ...]
    data: str
    cells: Callable[[tuple[int, ...]], list[dict]]
    run: Callable[[dict, tuple[str, ...], mc.Run], dict[str, mc.Estimate]]
    defaults: tuple[str, ...] = ()
    labels: tuple[tuple[str, str], ...] = ()


def _pairs(ns: tuple[int, ...]) -> list[dict]:
    return [dict(n=n, p=p, r=r) for n in ns for p in ACCURACIES for r in CORRELATIONS]


def _power(gaps: tuple[float, ...]) -> Callable[[tuple[int, ...]], list[dict]]:
    return lambda ns: [dict(n=n, p=POWER_ACCURACY, r=POWER_CORRELATION, gap=g)
                       for n in ns for g in gaps]


def _clusters(_: tuple[int, ...]) -> list[dict]:
    return [dict(clusters=g, per_cluster=m, icc=icc, p=CLUSTER_ACCURACY)
            for g in CLUSTERS for m in PER_CLUSTER for icc in ICCS]


FAMILIES: dict[str, Family] = {
    "score-binary": Family(
        "coverage", measures.BINARY_MODEL_METHODS,
        tuple(m for m in measures.BINARY_MODEL_METHODS if m in EXACT_INTERVALS),
        "n questions, each right with probability p (accuracy)",
        lambda ns: [dict(n=n, p=p) for n in ns for p in ACCURACIES], mc.score_binary,
        ("wilson",)),
    "score-continuous": Family(
        "coverage", measures.CONTINUOUS_MODEL_METHODS, (),
        "n scores from Beta(2p, 2(1 - p)): mean p, standard deviation sqrt(p(1 - p)/3)",
        lambda ns: [dict(n=n, p=p) for n in ns for p in ACCURACIES], mc.score_continuous,
        ("t",)),
    "gap-binary": Family(
        "coverage", (mc.HEADLINE,) + measures.BINARY_DIFFERENCE_METHODS, (),
        "two models on n questions, accuracy about p, per-question correlation r; B wins "
        f"{mc.B_SHARE:.0%} of the questions they disagree on; headline: the report's first "
        f"interval, newcombe with fewer than {FEW_DISCORDANT} discordant questions in the "
        "dataset, else the paired bootstrap", _pairs, mc.gap_binary,
        (mc.HEADLINE, "paired-bootstrap-percentile", "paired-wald"),
        (("unpaired-wald", "unpaired-wald (for contrast)"),)),
    "clustered": Family(
        "coverage", units.CLUSTERED_INTERVALS, (),
        "clusters x per_cluster questions; cluster accuracies Beta with mean p and "
        "intraclass correlation icc", _clusters, units.clustered, ("cluster-cr1",),
        (("wilson", "wilson (ignores clusters)"), ("t", "t (ignores clusters)"))),
    "passk": Family(
        "coverage", units.PASSK_METHODS, (),
        f"n questions with {units.ANSWERS} sampled answers each; pass rates "
        f"Beta({units.SPREAD:g}p, {units.SPREAD:g}(1 - p))",
        lambda ns: [dict(n=n, p=p) for n in ns for p in PASSK_RATES], units.passk_coverage,
        units.PASSK_METHODS),
    "null-binary": Family(
        "type I error", measures.BINARY_TESTS, measures.BINARY_TESTS,
        "two equally good models on n questions, accuracy p, per-question correlation r",
        _pairs, mc.tests_binary, ("mcnemar-exact",)),
    "null-continuous": Family(
        "type I error", measures.CONTINUOUS_TESTS, (),
        "two exchangeable models: Beta(2p, 2(1 - p)) scores joined by a Gaussian copula "
        "with correlation r", _pairs, mc.tests_continuous, ("sign-flip",)),
    "null-clustered": Family(
        "type I error", units.CLUSTERED_TESTS, (),
        "two models whose accuracy on each cluster is its own Beta draw (mean p, "
        "intraclass correlation icc): equal on average, each better on some clusters",
        _clusters, units.null_clustered, ("cluster-sign-flip",),
        (("mcnemar-exact", "mcnemar-exact (ignores clusters)"),)),
    "power-binary": Family(
        "power", measures.BINARY_TESTS, measures.BINARY_TESTS,
        f"A at {POWER_ACCURACY:.0%}, B better by gap, per-question correlation "
        f"{POWER_CORRELATION}", _power(POWER_GAPS_BINARY), mc.tests_binary),
    "power-continuous": Family(
        "power", measures.CONTINUOUS_TESTS, (),
        f"Beta scores, A's mean {POWER_ACCURACY}, B's higher by gap, copula correlation "
        f"{POWER_CORRELATION}", _power(POWER_GAPS_CONTINUOUS), mc.tests_continuous),
}
"""Every family by name, in report order. ``defaults`` are the methods the report
recommends (its headline); ``labels`` name the methods shown for contrast."""

METHODS: tuple[str, ...] = tuple(dict.fromkeys(m for f in FAMILIES.values() for m in f.methods))
"""Every method and test the study calibrates (the choices of ``--methods``)."""


def cell_key(cell: dict) -> str:
    """``"n=500,p=0.9,r=0.7"``: a cell's settings, as they appear in rate names."""
    return ",".join(f"{name}={value:g}" for name, value in cell.items())


def _methods(methods: Sequence[str] | None) -> tuple[str, ...]:
    if methods is None:
        return METHODS
    chosen = [methods] if isinstance(methods, str) else list(methods)
    unknown = [m for m in chosen if m not in METHODS]
    if unknown or not chosen:
        raise EvalbarsError(f"methods must be names from {', '.join(METHODS)}; got "
                            f"{unknown[0] if unknown else 'none'}")
    return tuple(m for m in METHODS if m in chosen)


def _grid(n: Sequence[int]) -> tuple[int, ...]:
    values = [n] if isinstance(n, int) else list(n)
    if not values:
        raise EvalbarsError("n must list at least one number of questions; got none")
    return tuple(sorted({check_count(value, "n", 2) for value in values}))


def run_cell(family: str, cell: dict, methods: tuple[str, ...], *, datasets: int,
             n_resamples: int, alpha: float, seed: int) -> dict[str, mc.Estimate]:
    """The rates of one cell, as :func:`coverage` computes them (same stream, same numbers).

    Parameters
    ----------
    family : str
        A key of :data:`FAMILIES`.
    cell : dict
        The cell's settings, e.g. ``{"n": 20, "p": 0.95}`` (see the family's grid).
    methods : tuple of str
        Methods of that family.
    datasets, n_resamples, alpha, seed
        As in :func:`coverage` (not checked here).

    Returns
    -------
    dict
        ``{method: Estimate}`` with ``value``, ``mc_error`` and ``datasets`` (None when
        exact).

    Examples
    --------
    >>> found = run_cell("score-binary", {"n": 20, "p": 0.95}, ("wald", "wilson"),
    ...                  datasets=1, n_resamples=1, alpha=0.05, seed=0)
    >>> round(found["wald"].value, 3), round(found["wilson"].value, 3), found["wald"].datasets
    (0.639, 0.925, None)
    """
    stream = child_seed(seed, f"simulate:coverage:{family}/{cell_key(cell)}")
    return FAMILIES[family].run(cell, methods, mc.Run(datasets, n_resamples, alpha, stream))


def coverage(*, methods: Sequence[str] | None = None, n: Sequence[int] = N_GRID,
             datasets: int = DATASETS, n_resamples: int = 1000, alpha: float = 0.05,
             seed: int = 0, progress: bool = False) -> Simulation:
    """The calibration study: coverage of every interval, type I error and power of
    every test, on a grid of simulated cells.

    Parameters
    ----------
    methods : list of str, optional
        Methods and tests to calibrate (default: all of :data:`METHODS`).
    n : list of int
        Numbers of questions of the cells without clusters (clustered cells have their
        own grid of clusters x questions per cluster).
    datasets : int
        Simulated datasets per Monte Carlo cell. Bootstraps and permutations on
        continuous scores use fewer when ``n x n_resamples`` would cost too much
        (at least 200; recorded under ``settings.families.*.reduced``).
    n_resamples : int
        Bootstrap and permutation resamples for each simulated dataset.
    alpha : float
        Intervals have level 1 - alpha; tests reject at p < alpha.
    seed : int
        Every cell draws from its own stream, ``"simulate:coverage:<family>/<cell>"``, so
        a cell's rates do not depend on which other cells or methods are run.
    progress : bool
        Show a progress bar on stderr (only on a terminal).

    Returns
    -------
    Simulation
        Name ``"coverage"``. One rate per family, method and cell, named
        ``"<family>/<method>/<cell>"`` (for example
        ``"score-binary/wald/n=10,p=0.9"``): the share of datasets whose interval
        contains the truth (coverage) or whose test rejects (type I error, power), with
        its Monte Carlo error; an exactly computed rate has error 0 and its method is
        listed under ``settings.families.<family>.exact``.

    Notes
    -----
    For 0/1 scores an interval that depends only on the number right k (wald, wilson,
    clopper-pearson, agresti-coull, jeffreys, clt, t) is calibrated exactly:
    ``sum_k P(K = k) [low(k) <= p <= high(k)]``. A paired 0/1 test is calibrated
    exactly over the discordant counts (see :mod:`._calibration_exact`). Every other
    rate is the share of ``datasets`` simulated datasets, with Monte Carlo error
    ``sqrt(rate (1 - rate) / datasets)``.

    Examples
    --------
    >>> from evalbars.simulate import coverage
    >>> r = coverage(methods=["wald", "wilson"], n=[20], datasets=200)
    >>> round(r.rate("score-binary/wald/n=20,p=0.9").value, 3)
    0.876
    >>> r.rate("score-binary/wilson/n=20,p=0.9").mc_error
    0.0
    """
    chosen, ns = _methods(methods), _grid(n)
    datasets = check_count(datasets, "datasets", 1)
    n_resamples = check_resamples(n_resamples, positive="an integer of at least 1")
    datasets, seed, alpha = check_run(datasets, seed, alpha)
    plan = [(name, family, tuple(m for m in family.methods if m in chosen), cell)
            for name, family in FAMILIES.items() for cell in family.cells(ns)]
    plan = [step for step in plan if step[2]]
    bar = Progress("simulate coverage", len(plan)) if progress else None
    rates, families = [], {}
    try:
        for name, family, wanted, cell in plan:
            key = cell_key(cell)
            found = run_cell(name, cell, wanted, datasets=datasets, n_resamples=n_resamples,
                             alpha=alpha, seed=seed)
            info = families.setdefault(name, {
                "quantity": family.quantity, "data": family.data, "methods": list(wanted),
                "defaults": [m for m in family.defaults if m in wanted],
                "exact": [m for m in family.exact if m in wanted],
                "labels": {m: label for m, label in family.labels if m in wanted},
                "cells": [], "reduced": {}})
            info["cells"].append(key)
            for method in wanted:
                estimate = found[method]
                rates.append(Rate(f"{name}/{method}/{key}", estimate.value, estimate.mc_error))
                if estimate.datasets is not None and estimate.datasets < datasets:
                    info["reduced"][f"{method}/{key}"] = estimate.datasets
            if bar is not None:
                bar(1)
    finally:
        if bar is not None:
            bar.close()
    settings = {"methods": list(chosen), "n": list(ns), "datasets": datasets,
                "n_resamples": n_resamples, "alpha": alpha, "families": families}
    return Simulation("coverage", settings, datasets, seed, tuple(rates))
