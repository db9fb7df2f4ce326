"""Bootstrap intervals for a mean and for a paired gap, built on the resampling engine.

Every function resamples items (the independent unit) through
:mod:`evalbars._resample`. Where the data are 0/1, identical items are grouped into
patterns and resampled multinomially, which is the same bootstrap distribution at a cost
that does not depend on the number of items.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.special import ndtr, ndtri

from ._errors import EvalbarsError
from ._resample import bootstrap_sums
from ._types import Interval

MEAN_METHODS = ("bootstrap-percentile", "bootstrap-bca")
PAIRED_METHODS = ("paired-bootstrap-percentile",)

_PATTERN_RATIO = 8
"""Group identical items when there are at least this many items per distinct pattern."""


def _unit_sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Rows to resample, and their multiplicities when grouping identical rows pays."""
    if x.shape[1] == 1:  # much faster than the row-wise unique below
        values, counts = np.unique(x[:, 0], return_counts=True)
        patterns = values[:, None]
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
    rows, multiplicity = _unit_sums(x)
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


def bca_interval(
    x: np.ndarray, replicates: np.ndarray, *, confidence_level: float
) -> Interval:
    """Bias-corrected and accelerated (BCa) interval for the mean of ``x``.

    Notes
    -----
    Efron's BCa as in ``scipy.stats.bootstrap(method="BCa")``: the bias correction
    z0 = Phi^-1(share of replicates below the estimate, ties counted half), the
    acceleration from the jackknife, a = sum(u^3) / (6 (sum u^2)^1.5) with
    u_i = mean of leave-one-out means minus the i-th one; for a mean the leave-one-out
    means are (S - x_i) / (n - 1), so the jackknife costs O(n). Validated against
    scipy.stats.bootstrap with the same settings (tests/test_bootstrap.py).
    """
    x = np.asarray(x, dtype=float)
    n = x.size
    estimate = float(x.mean())
    below = np.count_nonzero(replicates < estimate) + np.count_nonzero(replicates <= estimate)
    z0 = ndtri(below / (2.0 * replicates.size))
    if n < 2:
        acceleration = 0.0
    else:
        leave_one_out = (x.sum() - x) / (n - 1)
        u = leave_one_out.mean() - leave_one_out
        denominator = 6.0 * np.sum(u**2) ** 1.5
        acceleration = float(np.sum(u**3) / denominator) if denominator > 0 else 0.0
    tail = (1.0 - confidence_level) / 2.0
    levels = []
    for z_tail in (ndtri(tail), ndtri(1.0 - tail)):
        shifted = z0 + z_tail
        levels.append(float(ndtr(z0 + shifted / (1.0 - acceleration * shifted))))
    if not np.all(np.isfinite(levels)):
        return Interval("bootstrap-bca", float("nan"), float("nan"), confidence_level)
    low, high = np.quantile(replicates, levels)
    return Interval("bootstrap-bca", float(low), float(high), confidence_level)
