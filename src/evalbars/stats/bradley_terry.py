"""Bradley-Terry ratings from pairwise preference battles (Chatbot Arena style).

Each row is one battle: two models answered the same prompt and a judge (a person or
a model) preferred one of them, or neither. The Bradley-Terry model gives model i a
strength theta_i with ``P(i beats j) = 1 / (1 + exp(-(theta_i - theta_j)))``; the
strengths are fitted by maximum likelihood and reported on the Elo scale, where 400
points are 10:1 odds, with the mean of the models' ratings at 0.

This module fits the strengths (:func:`fit`); the analysis that reads battles and gives
ratings with intervals from resampled battles is :mod:`evalbars.analyses.battles`.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import expit, log_expit

_MAX_CELLS = 1 << 21
"""Largest (resamples x models x models) array fitted at once; the numbers do not depend
on it."""

ELO_PER_LOG_ODDS = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds: a gap of 400 points means 10:1 odds."""

_MAX_NEWTON_STEPS = 100
_STEP_TOLERANCE = 1e-10
"""Newton stops when no strength moves by more than this (in log-odds)."""


def wins_tables(pairs: np.ndarray, wins: np.ndarray, games: np.ndarray, m: int) -> np.ndarray:
    """(R, m, m) tables: entry [r, i, j] is i's wins over j (ties half) in resample r."""
    tables = np.zeros((wins.shape[0], m, m))
    tables[:, pairs[:, 0], pairs[:, 1]] = wins
    tables[:, pairs[:, 1], pairs[:, 0]] = games - wins
    return tables


def all_connected(tables: np.ndarray) -> np.ndarray:
    """Per table: does every model reach every other through 'beat or tied' both ways?

    This is Zermelo's condition for the maximum likelihood ratings to exist (finite).
    """
    n_tables, m, _ = tables.shape
    ok = np.ones(n_tables, dtype=bool)
    beat = tables > 0
    for edges in (beat, beat.transpose(0, 2, 1)):
        reach = np.zeros((n_tables, m), dtype=bool)
        reach[:, 0] = True
        for _ in range(m - 1):
            grown = reach | (reach[:, :, None] & edges).any(axis=1)
            if np.array_equal(grown, reach):
                break
            reach = grown
        ok &= reach.all(axis=1)
    return ok


def _log_likelihood(tables: np.ndarray, theta: np.ndarray) -> np.ndarray:
    return (tables * log_expit(theta[:, :, None] - theta[:, None, :])).sum(axis=(1, 2))


def fit(tables: np.ndarray) -> np.ndarray:
    """Maximum likelihood log-strengths (mean 0) of each wins table in a stack.

    Parameters
    ----------
    tables : (R, m, m) array
        ``tables[r, i, j]``: wins of model i over model j in table r, a tie counting half
        a win for each side. Every table must be connected both ways (see Notes).

    Returns
    -------
    (R, m) array of log-strengths theta, each row with mean 0.

    Notes
    -----
    The log-likelihood ``sum_ij w_ij log(expit(theta_i - theta_j))`` is concave, and
    strictly so on mean-zero strengths when every model has beaten (or tied) a model of
    every other group, directly or through others (Zermelo 1929; Ford 1957): otherwise no
    finite maximum exists. Newton's method on all tables at once, with step halving
    whenever the likelihood would fall: the gradient is ``W_i - sum_j n_ij p_ij`` and
    the negative Hessian the Laplacian of the weights ``n_ij p_ij (1 - p_ij)``, made
    invertible by adding the all-ones matrix (its null direction, a common shift, is
    the one the mean-zero reference fixes). Validated against a logistic regression
    (statsmodels Logit) on simulated battles (tests/analyses/test_battles.py).

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([[[0.0, 3.0], [1.0, 0.0]]])  # model 0 beat model 1 three times of four
    >>> theta = fit(w)
    >>> round(float(theta[0, 0] - theta[0, 1]), 6) == round(float(np.log(3.0)), 6)
    True
    """
    n_tables, m, _ = tables.shape
    games = tables + tables.transpose(0, 2, 1)
    total = tables.sum(axis=2)
    theta = np.zeros((n_tables, m))
    likelihood = _log_likelihood(tables, theta)
    diagonal = np.arange(m)
    for _ in range(_MAX_NEWTON_STEPS):
        p = expit(theta[:, :, None] - theta[:, None, :])
        gradient = total - (games * p).sum(axis=2)
        weights = games * p * (1.0 - p)
        hessian = -weights
        hessian[:, diagonal, diagonal] = weights.sum(axis=2)
        step = np.linalg.solve(hessian + 1.0, gradient[:, :, None])[:, :, 0]
        size = np.ones(n_tables)
        for _ in range(60):
            trial = theta + size[:, None] * step
            trial_likelihood = _log_likelihood(tables, trial)
            worse = trial_likelihood < likelihood - 1e-12 * np.abs(likelihood)
            if not worse.any():
                break
            size[worse] /= 2.0
        theta, likelihood = trial, trial_likelihood
        if np.max(np.abs(size[:, None] * step), initial=0.0) < _STEP_TOLERANCE:
            break
    return theta - theta.mean(axis=1, keepdims=True)


def fit_stack(tables: np.ndarray) -> np.ndarray:
    """Elo ratings of each table (nan rows where none exist), a memory-bounded slice at a time."""
    n_tables, m, _ = tables.shape
    out = np.full((n_tables, m), np.nan)
    step = max(1, _MAX_CELLS // (m * m))
    for start in range(0, n_tables, step):
        chunk = tables[start:start + step]
        ok = all_connected(chunk)
        if ok.any():
            out[start:start + step][ok] = ELO_PER_LOG_ODDS * fit(chunk[ok])
    return out


def no_mle_message(table: np.ndarray, names: tuple[str, ...]) -> str:
    """Name a group of models that no other model ever beat or tied (or never played)."""
    m = len(names)
    reach = np.eye(m, dtype=bool) | (table > 0)
    for _ in range(m):
        reach = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
    for i in range(m):
        group = np.flatnonzero(reach[i] & reach[:, i])
        outside = np.setdiff1d(np.arange(m), group)
        if not (table[np.ix_(outside, group)] > 0).any():
            inside = ", ".join(repr(names[k]) for k in group)
            rest = ", ".join(repr(names[k]) for k in outside)
            if not (table[np.ix_(group, outside)] > 0).any():
                return (f"models {inside} never played the other models ({rest}), so the two "
                        "groups' ratings have no common scale; add battles between them or "
                        "rate them separately")
            return (f"Bradley-Terry ratings are not finite here: models {inside} never lost "
                    f"to, or tied with, any of the other models ({rest}); every group of "
                    "models needs at least one loss or tie against the rest")
    raise AssertionError("the battles are connected")  # pragma: no cover
