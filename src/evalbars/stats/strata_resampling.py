"""The stratified bootstrap: items resampled within each stratum, each keeping its size.

A benchmark's strata (subjects, tasks) have sizes fixed by its design, so a resample
draws ``n_s`` items with replacement inside every stratum s and the aggregate
``sum_s w_s mean*_s`` is recomputed. Each stratum's draws come from
:func:`evalbars.stats.bootstrap.bootstrap_means` (the one resampling engine) on its own
child stream of the seed, keyed by the stratum's label, so a stratum's resamples do not
change when another stratum is added or removed. One resample of a stratum serves every
column (model), so differences of columns are paired within strata.
"""
from __future__ import annotations

import zlib
from typing import Mapping

import numpy as np

from ..core.arguments import check_confidence_level
from ..core.errors import EvalbarsError
from ..core.types import Interval
from .bootstrap import bootstrap_means, percentile_interval
from .checks import checked_resamples, checked_seed
from .resample import bootstrap_sums
from .strata import stratum_codes, stratum_units, stratum_weights

__all__ = ["BOOTSTRAP_METHOD", "stratified_bootstrap_interval", "stratified_bootstrap_means",
           "stratum_seed"]

BOOTSTRAP_METHOD = "stratified-bootstrap-percentile"
"""The interval method name of :func:`stratified_bootstrap_interval`."""


def stratum_seed(seed: np.random.SeedSequence, label: object) -> np.random.SeedSequence:
    """The child stream of ``seed`` for the stratum ``label`` (stable: keyed by name).

    >>> s = np.random.SeedSequence(1)
    >>> bool((stratum_seed(s, "law").generate_state(2) ==
    ...       stratum_seed(s, "law").generate_state(2)).all())
    True
    """
    key = zlib.crc32(f"stratum:{label}".encode("utf-8"))
    return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, key))


def stratified_bootstrap_means(x: object, strata: object, *,
                               weights: str | Mapping = "macro", n_resamples: int,
                               seed: np.random.SeedSequence,
                               clusters: object | None = None) -> np.ndarray:
    """(n_resamples, m) replicates of the weighted aggregate of each column of ``x``.

    ``x`` is (items x columns) or 1-D; rows in the caller's canonical (item id) order.
    Replicate r is ``sum_s w_s mean_s*`` with ``mean_s*`` the mean of a resample of the
    ``n_s`` items of stratum s drawn with replacement. With ``clusters`` (nested inside
    strata) the ``G_s`` clusters of each stratum are drawn instead, each with all its
    items, through :func:`evalbars.stats.resample.bootstrap_sums` on the clusters' totals
    and sizes, and ``mean_s*`` is their ratio. Validated against a direct Monte Carlo loop
    of ``numpy.random.Generator.choice`` within strata, and against the exact bootstrap
    variance ``sum_s w_s^2 (n_s - 1) s_s^2 / n_s^2``.

    >>> reps = stratified_bootstrap_means([1, 0, 1, 1, 0, 0], list("aaabbb"),
    ...                                   n_resamples=1000, seed=np.random.SeedSequence(0))
    >>> reps.shape, round(float(reps.mean()), 1)
    ((1000, 1), 0.5)
    """
    arr = np.asarray(x, dtype=float)
    arr = arr[:, None] if arr.ndim == 1 else arr
    if arr.ndim != 2 or not np.isfinite(arr).all():
        raise EvalbarsError("x must be a 1-D or 2-D (items x columns) array of finite scores")
    n_resamples = checked_resamples(n_resamples)
    if checked_seed(seed) is None:
        raise EvalbarsError("seed must be a numpy.random.SeedSequence for the stratified "
                            "bootstrap; got None")
    codes, sizes, labels = stratum_codes(strata, arr.shape[0])
    w = stratum_weights(sizes, labels, weights)
    units, stratum_of = stratum_units(codes, sizes.size, clusters)
    total = np.zeros((n_resamples, arr.shape[1]))
    for s, label in enumerate(labels):
        stream = stratum_seed(seed, label)
        if clusters is None:
            total += w[s] * bootstrap_means(arr[codes == s], n_resamples=n_resamples,
                                            seed=stream)
            continue
        mine = np.flatnonzero(stratum_of == s)  # the stratum's clusters, in code order
        local = np.searchsorted(mine, units[codes == s])
        rows = np.column_stack([np.bincount(local, weights=column, minlength=mine.size)
                                for column in arr[codes == s].T]
                               + [np.bincount(local, minlength=mine.size)])
        sums = bootstrap_sums(rows, n_resamples=n_resamples, seed=stream)
        total += w[s] * sums[:, :-1] / sums[:, -1:]
    return total


def stratified_bootstrap_interval(replicates: np.ndarray, *,
                                  confidence_level: float = 0.95) -> Interval:
    """The percentile interval of stratified bootstrap replicates (1-D).

    >>> iv = stratified_bootstrap_interval(np.arange(101.0), confidence_level=0.9)
    >>> iv.method, round(iv.low, 9), round(iv.high, 9)
    ('stratified-bootstrap-percentile', 5.0, 95.0)
    """
    return percentile_interval(np.asarray(replicates, dtype=float),
                               method=BOOTSTRAP_METHOD,
                               confidence_level=check_confidence_level(confidence_level))
