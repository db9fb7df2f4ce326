"""Bootstrap intervals for a mean and for a paired gap, built on the resampling engine.

Every function resamples items (the independent unit) through
:mod:`evalbars.stats.resample`, the rows taken as the units in the caller's canonical
order (the analyses sort items by id), so a column's replicates are the same whatever the
other columns. Where the rows repeat (0/1 data), identical items are grouped into patterns
and resampled multinomially, which is the same bootstrap distribution at a cost that does
not depend on the number of items. BCa needs no n x n work: the jackknife of a mean is in
closed form (:func:`_jackknife_acceleration`).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.special import ndtr, ndtri

from ..core.errors import EvalbarsError
from ..core.types import Interval
from .resample import bootstrap_sums

MEAN_METHODS = ("bootstrap-percentile", "bootstrap-bca")
PAIRED_METHODS = ("paired-bootstrap-percentile",)

_PATTERN_RATIO = 8
"""Group identical items when there are at least this many items per distinct pattern."""


def unit_sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Rows to resample, and their multiplicities when grouping identical rows pays.

    >>> rows, multiplicity = unit_sums(np.array([[0.0], [1.0]] * 8))
    >>> rows[:, 0].tolist(), multiplicity.tolist()
    ([0.0, 1.0], [8, 8])
    >>> unit_sums(np.arange(4.0)[:, None])[1] is None
    True
    """
    if x.shape[1] == 1:  # much faster than the row-wise unique below
        values, counts = np.unique(x[:, 0], return_counts=True)
        patterns = values[:, None]
    elif x.shape[1] and np.unique(x[:, 0]).size * _PATTERN_RATIO > len(x):
        return x, None  # distinct rows are at least as many as one column's distinct values
    else:
        patterns, counts = np.unique(x, axis=0, return_counts=True)
    if len(patterns) * _PATTERN_RATIO <= len(x):
        return patterns, counts
    return x, None


def bootstrap_means(
    x: np.ndarray,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Means of each column of ``x`` (items x columns) over item bootstrap resamples.

    One resample of items serves all columns, so differences of columns are paired.

    >>> import numpy as np
    >>> m = bootstrap_means(np.array([[0.0], [1.0]] * 50), n_resamples=2000,
    ...                     seed=np.random.SeedSequence(0))
    >>> round(float(m.mean()), 2), m.shape
    (0.5, (2000, 1))
    """
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if n_resamples < 1:
        raise EvalbarsError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    rows, multiplicity = unit_sums(x)
    sums = bootstrap_sums(
        rows, n_resamples=n_resamples, seed=seed, multiplicity=multiplicity, progress=progress
    )
    return sums / len(x)


def percentile_interval(
    replicates: np.ndarray, *, method: str, confidence_level: float
) -> Interval:
    """The (1 - level)/2 and (1 + level)/2 quantiles of bootstrap replicates."""
    tail = (1.0 - confidence_level) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail])
    return Interval(method, float(low), float(high), confidence_level)


def _jackknife_acceleration(x: np.ndarray) -> float:
    """BCa acceleration of the mean from the jackknife; 0 where it is undefined.

    ``a = sum(u^3) / (6 (sum u^2)^1.5)`` with ``u_i`` the mean of the leave-one-out means
    minus the i-th one; the leave-one-out means are ``(S - x_i) / (n - 1)``, so O(n).
    Undefined (taken as 0) for one value, or when every ``u_i`` is 0 (constant data).

    >>> round(_jackknife_acceleration(np.array([0.0, 0.0, 0.0, 1.0])), 4)
    0.0962
    >>> _jackknife_acceleration(np.ones(3))
    0.0
    """
    n = x.size
    if n < 2:
        return 0.0
    leave_one_out = (x.sum() - x) / (n - 1)
    u = leave_one_out.mean() - leave_one_out
    denominator = 6.0 * np.sum(u**2) ** 1.5
    return float(np.sum(u**3) / denominator) if denominator > 0 else 0.0


def bca_interval(
    x: np.ndarray, replicates: np.ndarray, *, confidence_level: float
) -> Interval:
    """Bias-corrected and accelerated (BCa) interval for the mean of ``x``.

    Notes
    -----
    Efron's BCa as in ``scipy.stats.bootstrap(method="BCa")``: the bias correction
    z0 = Phi^-1(share of replicates below the estimate, ties counted half), the
    acceleration ``a`` from the jackknife (:func:`_jackknife_acceleration`), and the ends
    are the replicates' quantiles at ``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))`` for the
    two normal quantiles ``z`` of the level. Validated against scipy.stats.bootstrap with
    the same settings (tests/stats/test_bootstrap.py).

    Degenerate cases, defined here rather than left to nan arithmetic (no warnings):

    - every replicate the same number (constant data): every quantile is that number,
      so the interval is that point, as the percentile interval is; z0 and ``a`` do not
      enter. (Comparing the replicates with the estimate would be decided by rounding:
      for 23 copies of 0.1 the mean is 0.10000000000000003, every replicate 0.1.)
    - the replicates vary but none lies on one side of the estimate (near-constant data,
      or very few resamples): z0 is infinite and BCa is undefined, as scipy finds (it
      returns nan); ends nan, None in the JSON.
    - ``1 - a (z0 + z) <= 0`` at either end (strong skew with an extreme z0): the BCa
      level is no longer monotone in ``z`` (scipy would put an end at the wrong extreme
      replicate); undefined as well, ends nan.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.full(23, 0.1)
    >>> replicates = bootstrap_means(x, n_resamples=500, seed=np.random.SeedSequence(0))[:, 0]
    >>> iv = bca_interval(x, replicates, confidence_level=0.95)
    >>> iv.low, iv.high, float(x.mean())
    (0.1, 0.1, 0.10000000000000003)

    Two replicates, both above the estimate 0.5 (z0 infinite):

    >>> bca_interval(np.array([0.0, 1.0]), np.array([0.75, 1.0]), confidence_level=0.95).low
    nan
    """
    x = np.asarray(x, dtype=float)
    replicates = np.asarray(replicates, dtype=float)
    lowest, highest = float(replicates.min()), float(replicates.max())
    if lowest == highest:
        return Interval("bootstrap-bca", lowest, highest, confidence_level)
    undefined = Interval("bootstrap-bca", math.nan, math.nan, confidence_level)
    estimate = float(x.mean())
    below = np.count_nonzero(replicates < estimate) + np.count_nonzero(replicates <= estimate)
    if below in (0, 2 * replicates.size):
        return undefined
    z0 = float(ndtri(below / (2.0 * replicates.size)))
    acceleration = _jackknife_acceleration(x)
    tail = (1.0 - confidence_level) / 2.0
    shifted = z0 + ndtri(np.array([tail, 1.0 - tail]))
    stretch = 1.0 - acceleration * shifted
    if np.any(stretch <= 0):
        return undefined
    low, high = np.quantile(replicates, ndtr(z0 + shifted / stretch))
    return Interval("bootstrap-bca", float(low), float(high), confidence_level)
