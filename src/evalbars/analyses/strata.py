"""The strata part of a score report: the weighted aggregate, each stratum, the paired gap.

With ``stratum=`` (``--stratum COL``) ``ci`` and ``compare`` add a ``strata`` section:
each model's aggregate ``sum_s w_s mean_s`` (micro, macro or given weights) with its
stratified standard error and intervals (Student t on Satterthwaite df, normal, and the
stratified bootstrap), each stratum's own score and interval, and in ``compare`` the gap
``b - a`` paired within strata with the stratified tests (sign-flip within strata; for
0/1 scores the exact stratified McNemar test when its null law is small enough, and the
Mantel-Haenszel chi-square). With clusters (nested inside strata) the clusters are the
units within each stratum: cluster-robust stratified SEs, a bootstrap of clusters within
strata and the sign-flip of whole clusters (the item-level 0/1 tests are left out).
Bootstrap and Monte Carlo streams are children of the analysis seed keyed
``strata:bootstrap:model:<name>`` (each model's aggregate), ``strata:bootstrap:paired:<a>
\\x00<b>`` (the gap, names sorted) and ``strata:sign-flip``, so adding a model changes
nothing already reported.
"""
from __future__ import annotations

import os
from typing import Mapping, Sequence

import numpy as np

from ..core.errors import EvalbarsError
from ..core.seeding import child_seed
from ..core.types import Interval, TestResult
from ..io.item_scores import ItemScores
from ..io.strata import check_nested, strata_of, weights_option
from ..stats import strata as st
from ..stats import strata_resampling as sr
from ..stats import strata_tests as stt
from ..stats.bootstrap import percentile_interval
from ..stats.tails import one_sided_ends, two_sided_level
from .measures import Prepared
from .results import Aggregate, Settings, Strata, StratumRow

__all__ = ["FEW_ITEMS", "paired_within", "strata_section", "strata_warnings", "stratify"]


def _aggregate(name: str, found: st.StratifiedMean, replicates: np.ndarray,
               level: float, alternative: str) -> Aggregate:
    computed = [st.stratified_interval(found, method=method, confidence_level=level,
                                       alternative=alternative)
                for method in st.INTERVAL_METHODS[::-1]]
    boot = percentile_interval(replicates, method=sr.BOOTSTRAP_METHOD,
                               confidence_level=two_sided_level(level, alternative))
    low, high = one_sided_ends(boot.low, boot.high, alternative)
    computed.append(Interval(sr.BOOTSTRAP_METHOD, low, high, level))
    return Aggregate(name, found.estimate, found.se, found.df, tuple(computed),
                     found.n_clusters)


FEW_ITEMS = 5
"""A stratum with fewer questions than this gets a warning: its variance is shaky."""


def _listed(labels: list, limit: int = 3) -> str:
    shown = ", ".join(repr(str(v)) for v in labels[:limit])
    return shown + (" ..." if len(labels) > limit else "")


def strata_warnings(found: Sequence[st.StratifiedMean], names: Sequence[str]) -> tuple[str, ...]:
    """Plain-words warnings: strata with very few questions, and strata where a model's
    scores do not vary (the stratified SE then counts them as noiseless).

    >>> r = st.stratified_mean([1, 1] + [0, 1] * 3, ["a"] * 2 + ["b"] * 6)
    >>> [w[:54] for w in strata_warnings([r], ["m"])]
    ["1 of 2 strata have fewer than 5 questions ('a' 2): the", "model 'm': in 1 of 2 strata ('a') every question has t"]
    """
    first, out = found[0], []
    few = [(label, int(n)) for label, n in zip(first.labels, first.sizes) if n < FEW_ITEMS]
    if few:
        out.append(f"{len(few)} of {first.n_strata} strata have fewer than {FEW_ITEMS} "
                   f"questions ({', '.join(f'{str(v)!r} {n}' for v, n in few[:3])}"
                   f"{' ...' if len(few) > 3 else ''}): their variances are shaky, so "
                   f"the stratified standard errors and intervals are rough")
    for name, r in zip(names, found):
        flat = [label for label, var in zip(r.labels, r.variances) if var == 0]
        if flat:
            out.append(f"model {name!r}: in {len(flat)} of {r.n_strata} strata "
                       f"({_listed(flat)}) every question has the same score, so the "
                       f"stratified standard error counts them as noiseless; each "
                       f"stratum's own interval shows how little they say")
    return tuple(out)


def stratify(data: Prepared, labels: Sequence[str], column: str,
             weights: str | Mapping, settings: Settings, *, pair: tuple[str, str] | None = None,
             alternative: str = "two-sided", weights_file: str | None = None) -> Strata:
    """The strata section for the models of ``data`` (labels in ``data``'s item order).

    ``alternative`` makes the models' aggregate intervals one-sided (ci) or, with
    ``pair`` = (a, b), the gap's intervals and tests (compare; the models' stay two-sided).
    """
    level, clusters = settings.confidence_level, data.clusters
    names = tuple(pair) if pair is not None else tuple(data.names)
    columns = [data.column(name) for name in names]

    def replicates(x, key: str) -> np.ndarray:  # one stream per model, or per pair
        return sr.stratified_bootstrap_means(
            x, labels, weights=weights, n_resamples=settings.n_resamples,
            seed=child_seed(settings.seed, f"strata:bootstrap:{key}"), clusters=clusters)[:, 0]

    model_side = alternative if pair is None else "two-sided"
    found = [st.stratified_mean(x, labels, weights=weights, clusters=clusters)
             for x in columns]
    first = found[0]
    models = [_aggregate(name, f, replicates(x, f"model:{name}"), level, model_side)
              for name, f, x in zip(names, found, columns)]
    warnings = strata_warnings(found, names)
    per_model = [st.stratum_intervals(x, labels, confidence_level=level) for x in columns]
    rows = tuple(StratumRow(str(label), int(first.sizes[s]), float(first.weights[s]),
                            tuple(float(p[s][2]) for p in per_model),
                            tuple(p[s][3] for p in per_model))
                 for s, label in enumerate(first.labels))
    strata = Strata(column, first.weighting, names, rows, tuple(models),
                    weights_file=weights_file, warnings=warnings)
    if pair is None:
        return strata
    gap, tests = paired_within(data, labels, weights, settings, pair, alternative)
    return Strata(column, first.weighting, names, rows, tuple(models), gap,
                  tests, weights_file, warnings)


def paired_within(data: Prepared, labels: Sequence[str], weights: str | Mapping,
                  settings: Settings, pair: tuple[str, str],
                  alternative: str = "two-sided") -> tuple[Aggregate, tuple[TestResult, ...]]:
    """The gap ``b - a`` of ``pair`` = (a, b) paired within strata, and its stratified
    tests (the first is the headline): compare's, and each pair's of a leaderboard."""
    level, clusters = settings.confidence_level, data.clusters
    a_name, b_name = pair
    a, b = data.column(a_name), data.column(b_name)
    # one stream per unordered pair, drawn for the sorted pair: swapping A and B negates
    # every replicate exactly
    low, high = sorted(pair)
    flip = 1.0 if (a_name, b_name) == (low, high) else -1.0
    sorted_gap = data.column(high) - data.column(low)
    replicates = sr.stratified_bootstrap_means(
        sorted_gap, labels, weights=weights, n_resamples=settings.n_resamples,
        seed=child_seed(settings.seed, f"strata:bootstrap:paired:{low}\x00{high}"),
        clusters=clusters)[:, 0]
    gap = _aggregate(f"{b_name} - {a_name}",
                     st.stratified_gap(a, b, labels, weights=weights, clusters=clusters),
                     flip * replicates, level, alternative)
    tests = [stt.stratified_sign_flip(a, b, labels, weights=weights,
                                      n_resamples=settings.n_resamples,
                                      seed=child_seed(settings.seed, "strata:sign-flip"),
                                      clusters=clusters,
                                      alternative=alternative)]
    if data.binary and clusters is None:  # item-level tests: not with clustered items
        if stt.exact_fits(a, b, labels, weights=weights):
            tests.insert(0, stt.stratified_mcnemar_exact(a, b, labels, weights=weights,
                                                         alternative=alternative))
        tests.append(stt.stratified_mantel_haenszel(a, b, labels, weights=weights,
                                                    alternative=alternative))
    return gap, tuple(tests)


def strata_section(scores: ItemScores, prepared: Prepared,
                   stratum: str | None, weights: object, settings: Settings, *,
                   pair: tuple[str, str] | None = None,
                   alternative: str = "two-sided", build=None, **options) -> Strata | None:
    """The section for ``stratum=``, from the labels read with ``scores``; None without.

    ``weights`` other than the default ``"micro"`` without a stratum is an error. ``build``
    (default :func:`stratify`, with ``pair`` and ``alternative``) makes the section from
    ``(prepared, labels, column, weights, settings, weights_file=..., **options)``.
    """
    if stratum is None:
        if weights != "micro":
            raise EvalbarsError("weights= (--weights) weighs strata: name the stratum "
                                "column with stratum= (--stratum COL)")
        return None
    chosen = weights_option(weights)
    source = None if chosen is weights else os.fsdecode(os.fspath(weights))  # a file
    labels = strata_of(scores, stratum)
    check_nested(scores.items, scores.clusters, labels)
    order = sorted(range(len(scores.items)), key=scores.items.__getitem__)
    if build is None:
        build, options = stratify, {"pair": pair, "alternative": alternative}
    try:
        return build(prepared, [labels[i] for i in order], stratum, chosen, settings,
                     weights_file=source, **options)
    except EvalbarsError as error:
        if source is None:
            raise
        raise EvalbarsError(f"{source}: {error}") from None
