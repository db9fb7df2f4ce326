"""Mixture e-processes: the normal-mixture boundary (Howard et al. 2021) and the
beta-binomial mixture on the discordant pairs of 0/1 outcomes.

An e-process is a nonnegative process whose value at any stopping time has expectation at
most 1 when the null holds; by Ville's inequality it ever reaches ``1 / alpha`` with
probability at most ``alpha``. Averaging the likelihood ratio over a prior on the effect
(a mixture) gives one, and the prior's spread sets the time at which it is most powerful:
:func:`best_precision` tunes it to a planned sample size, the same way for both.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import betaln

from ..core.arguments import check_confidence_level
from ..core.errors import EvalbarsError


def _alpha(confidence_level: float) -> float:
    return 1.0 - check_confidence_level(confidence_level)


def best_ratio(alpha: float) -> float:
    """``r = v / rho`` that minimises the two-sided normal-mixture boundary at time ``v``.

    Setting the derivative of ``(v + rho) log((v + rho) / (rho alpha^2))`` in rho to zero
    gives ``r = 2 log(1 / alpha) + log(1 + r)``, solved by fixed-point iteration (Howard et
    al. 2021 use one step of it, ``2 log(1 / alpha) + log(1 + 2 log(1 / alpha))``).

    Examples
    --------
    >>> round(best_ratio(0.05), 4)
    8.212
    """
    r = 2.0 * math.log(1.0 / alpha)
    for _ in range(60):
        r = 2.0 * math.log(1.0 / alpha) + math.log1p(r)
    return r


def best_precision(plan: float, alpha: float) -> float:
    """The mixture precision ``rho`` for which the boundary is tightest at time ``plan``.

    Examples
    --------
    >>> round(best_precision(1000, 0.05), 2)
    121.77
    """
    if isinstance(plan, bool) or not isinstance(plan, (int, float)) or not plan >= 1:
        raise EvalbarsError(f"plan must be a number of at least 1 (the time at which the "
                            f"boundary is tightest), got {plan!r}")
    return float(plan) / best_ratio(alpha)


def normal_mixture_radius(v, rho: float, alpha: float) -> np.ndarray:
    """The two-sided normal-mixture boundary ``sqrt((v + rho) log((v + rho) / (rho alpha^2)))``.

    Howard, Ramdas, McAuliffe and Sekhon (2021), "Time-uniform, nonparametric,
    nonasymptotic confidence sequences", Ann. Statist. 49(2): a sum ``S_t`` of
    1-sub-Gaussian increments with intrinsic time ``v = V_t`` stays inside ``+-radius`` at
    every t with probability at least ``1 - alpha``.

    Examples
    --------
    >>> normal_mixture_radius(np.array([0.0, 100.0]), 10.0, 0.05).round(4)
    array([ 7.7405, 30.3781])
    """
    v = np.asarray(v, dtype=np.float64)
    return np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha ** 2)))


BURN_IN = 30
"""Observations before the plug-in normal mixture says anything: its variance estimate
must settle first (the guarantee is asymptotic), so before them its ends are infinite."""


def normal_mixture_sequence(d, *, confidence_level: float = 0.95, plan: float = 1000,
                            burn_in: int = BURN_IN,
                            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The normal-mixture confidence sequence for the mean of ``d``, with the running
    variance plugged in, and its e-process against mean 0.

    Parameters
    ----------
    d : array_like
        Observations in the order they arrived (paired differences, say).
    confidence_level : float
        ``1 - alpha``.
    plan : float
        The number of observations at which the sequence is tightest (any value fixed
        in advance keeps the guarantee).
    burn_in : int
        Observations (at least 2) before the first finite ends.

    Returns
    -------
    mean, low, high, log_e : ndarray
        The running mean and the ends of the sequence after 1, ..., n observations (the
        ends are infinite and the e-process 1 before ``burn_in``), and the log of the
        mixture e-process for mean 0: ``log sqrt(rho / (V + rho)) + S^2 / (2 (V + rho))``.

    Notes
    -----
    With ``sigma_t`` the running standard deviation (ddof 1), intrinsic time
    ``V_t = t sigma_t^2`` and precision ``rho = sigma_t^2 rho_1`` (``rho_1`` from
    :func:`best_precision` at ``plan``), the ends are ``mean +- radius(V_t) / t``
    (:func:`normal_mixture_radius`): the asymptotic confidence sequence of Waudby-Smith,
    Arbour, Sinha, Kennedy and Ramdas (2024, "Time-uniform central limit theory and
    asymptotic confidence sequences", Ann. Statist.), whose coverage holds
    in the limit as the variance estimate settles, exactly for Gaussian increments of
    known variance. The e-process reaches ``1 / alpha`` exactly when the sequence
    excludes 0.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> mean, low, high, log_e = normal_mixture_sequence(rng.normal(0.1, 1.0, size=2000))
    >>> [round(float(v[-1]), 4) for v in (mean, low, high, log_e)]
    [0.072, 0.0034, 0.1405, 3.4497]
    """
    alpha = _alpha(confidence_level)
    d = np.asarray(d, dtype=np.float64)
    if d.ndim != 1 or d.size == 0 or not np.all(np.isfinite(d)):
        raise EvalbarsError("d must be a non-empty 1-D sequence of finite numbers")
    if isinstance(burn_in, bool) or not isinstance(burn_in, int) or burn_in < 2:
        raise EvalbarsError(f"burn_in must be an integer of at least 2, got {burn_in!r}")
    rho_1 = best_precision(plan, alpha)
    t = np.arange(1, d.size + 1, dtype=np.float64)
    total = np.cumsum(d)
    mean = total / t
    shifted = d - d[0]  # running variance without cancellation
    sq = np.cumsum(shifted ** 2) - np.cumsum(shifted) ** 2 / t
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.where(t > 1, np.maximum(sq, 0.0) / (t - 1.0), np.nan)
        v, rho = t * var, var * rho_1
        radius = np.sqrt((t + rho_1) * np.log((t + rho_1) / (rho_1 * alpha ** 2)))
        half = np.sqrt(var) * radius / t
        log_e = 0.5 * np.log(rho / (v + rho)) + total ** 2 / (2.0 * (v + rho))
    ready = t >= burn_in
    half = np.where(ready, half, np.inf)
    log_e = np.where(ready & (var > 0), log_e, np.where(ready & (total != 0), np.inf, 0.0))
    return mean, mean - half, mean + half, log_e


def concentration_for(plan_discordant: float, alpha: float) -> float:
    """The Beta(a, a) prior of :func:`discordant_log_e` tuned to a planned number of
    discordant pairs: ``a = (rho - 1) / 2`` with ``rho`` = :func:`best_precision`, at least
    1/2 (Jeffreys).

    Under Beta(a, a) the drift ``2 theta - 1`` of the +-1 signs has variance
    ``1 / (2 a + 1)``: the precision of the normal mixture that the beta mixture
    approximates for the same signs.

    Examples
    --------
    >>> round(concentration_for(100, 0.05), 3)
    5.589
    """
    return max(0.5, (best_precision(plan_discordant, alpha) - 1.0) / 2.0)


def discordant_log_e(b_wins, a_wins, *, concentration: float) -> np.ndarray:
    """Log e-values of "B wins half the disagreements" from the counts so far.

    Parameters
    ----------
    b_wins, a_wins : array_like of int
        Discordant pairs won by B (B right, A wrong) and by A, cumulated over time.
    concentration : float
        ``a`` of the symmetric Beta(a, a) prior on ``theta = P(B wins | they disagree)``.

    Returns
    -------
    ndarray
        ``log E = m log 2 + log B(k + a, m - k + a) - log B(a, a)`` with ``k`` B's wins and
        ``m`` disagreements: the Beta-mixed likelihood of theta against theta = 1/2.

    Notes
    -----
    Under the null of McNemar's test each disagreement is a fair coin whatever happens
    on the questions where the two models agree, so ``E`` is a nonnegative martingale
    with mean 1 in the questions' own order; it uses only the disagreements, like
    McNemar, and is exact (no normal approximation). Reject when ``E >= 1 / alpha``.
    Validated against direct numerical integration of the mixture
    (``tests/stats/test_monitor_sequences.py``).

    Examples
    --------
    >>> discordant_log_e([0, 30, 60], [0, 10, 40], concentration=0.5).round(4)
    array([ 0.    ,  3.1546, -0.5174])
    """
    k = np.asarray(b_wins, dtype=np.float64)
    j = np.asarray(a_wins, dtype=np.float64)
    if not concentration > 0:
        raise EvalbarsError(f"concentration must be positive, got {concentration!r}")
    a = float(concentration)
    return (k + j) * math.log(2.0) + betaln(k + a, j + a) - betaln(a, a)
