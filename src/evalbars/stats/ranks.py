"""Ranks from resampled scores: observed ranks, rank intervals and the chance of being best.

Rank 1 is the highest score; tied models share the smallest rank of the tie ("1224"
ranking: one plus the number of models strictly higher), in the observed scores and in
every resample alike. :func:`rank_uncertainty` serves the leaderboard
(:mod:`evalbars.analyses.leaderboard`) and the Bradley-Terry ratings
(:mod:`evalbars.analyses.battles`).
"""
from __future__ import annotations

import numpy as np

_RANK_CELLS = 1 << 22
"""Largest (resamples x models x models) comparison array built at once when ranking."""


def _min_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks per row, 1 = highest; ties share the smallest rank (1 + count strictly higher)."""
    n_rows, m = values.shape
    ranks = np.empty((n_rows, m), dtype=np.int64)
    step = max(1, _RANK_CELLS // (m * m))
    for start in range(0, n_rows, step):
        v = values[start:start + step]
        ranks[start:start + step] = 1 + np.count_nonzero(v[:, None, :] > v[:, :, None], axis=2)
    return ranks


def rank_uncertainty(
    replicates: np.ndarray, estimates: np.ndarray, *, confidence_level: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Observed ranks, bootstrap rank intervals and chance of being best, per column.

    Parameters
    ----------
    replicates : (B, m) array
        A score per resample (row) and model (column), higher is better; every row one
        shared resample of the data.
    estimates : (m,) array
        The observed scores.
    confidence_level : float
        Level of the rank intervals.

    Returns
    -------
    rank, rank_low, rank_high : int arrays
        Observed rank (1 = best, ties share the smallest rank) and the ends of the
        rank interval: the ``(1 - level)/2`` and ``(1 + level)/2`` quantiles of the
        resampled ranks taken as ``inverted_cdf``, so both ends are ranks that occurred
        and at most ``(1 - level)/2`` of the resamples lie beyond each end.
    p_best : float array
        Share of resamples in which the column has the highest score; a tie at the top
        shares the resample equally, so the values sum to 1.

    Examples
    --------
    >>> import numpy as np
    >>> reps = np.array([[3.0, 2.0, 1.0], [2.0, 3.0, 1.0], [3.0, 3.0, 1.0], [3.0, 2.0, 1.0]])
    >>> rank, low, high, best = rank_uncertainty(reps, np.array([3.0, 2.0, 1.0]),
    ...                                          confidence_level=0.5)
    >>> rank.tolist(), low.tolist(), high.tolist(), best.tolist()
    ([1, 2, 3], [1, 1, 3], [1, 2, 3], [0.625, 0.375, 0.0])
    """
    rank = _min_ranks(np.asarray(estimates, dtype=float)[None, :])[0]
    ranks = _min_ranks(replicates)
    tail = (1.0 - confidence_level) / 2.0
    low, high = np.quantile(ranks, [tail, 1.0 - tail], axis=0, method="inverted_cdf")
    top = replicates == replicates.max(axis=1, keepdims=True)
    p_best = (top / top.sum(axis=1, keepdims=True)).mean(axis=0)
    return rank, low.astype(np.int64), high.astype(np.int64), p_best
