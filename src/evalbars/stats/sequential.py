"""Always-valid inference on a paired gap observed one unit at a time: the registry of
sequential methods, each giving the whole path of its confidence sequence and e-process.

==================  ==========================================================================
``discordant``      0/1 pairs: the beta-binomial mixture e-process on the disagreements
                    (exact, like McNemar); its gap sequence is the betting one
``betting``         bounded scores: the betting confidence sequence (exact, nonasymptotic)
``normal-mixture``  any scores: the normal-mixture boundary with the running variance
                    (asymptotic; narrower where the betting one is conservative)
==================  ==========================================================================
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from ..core.errors import EvalbarsError
from .betting import betting_sequence, hedged_log_capital
from .mixtures import concentration_for, discordant_log_e, normal_mixture_sequence

PLANNED_DISAGREEMENT = 0.10
"""The share of disagreements assumed when the discordant mixture is tuned to ``plan``
questions (any fixed value keeps the guarantee; it only moves the power)."""

GUARANTEES = {
    "discordant": "exact: the chance that the test ever rejects a true 'no difference', at "
                  "any look however chosen, is at most alpha; the gap sequence covers the "
                  "true gap at every look at once with probability at least the level",
    "betting": "exact: the sequence covers the true gap at every look at once with "
               "probability at least the level, for scores within the stated bounds",
    "normal-mixture": "asymptotic: the coverage at every look at once tends to the level as "
                      "the variance estimate settles (no decisions before the burn-in)",
}
"""What each method guarantees, as the statement words it."""

METHODS = tuple(GUARANTEES)


@dataclass(frozen=True, slots=True)
class SequencePath:
    """A confidence sequence for a mean gap and its e-process for "gap = 0", after each
    of ``n`` units: ``estimate`` (the running mean), ``low``, ``high`` and ``log_e``."""

    method: str
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    log_e: np.ndarray


def check_method(method: str, d: np.ndarray, bounds: tuple[float, float] | None) -> None:
    """Refuse a method the differences ``d`` do not allow, saying why."""
    if method not in GUARANTEES:
        raise EvalbarsError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if method == "discordant" and not np.all(np.isin(d, (-1.0, 0.0, 1.0))):
        raise EvalbarsError("method 'discordant' needs one 0/1 outcome per question and "
                            "model (differences -1, 0 or 1); use 'betting' or "
                            "'normal-mixture'")
    if method == "betting" and bounds is None:
        raise EvalbarsError("method 'betting' needs the bounds the scores can take "
                            "(bounds=(low, high)); the scores do not all lie in [0, 1]")


def gap_sequence(d, *, method: str, confidence_level: float = 0.95, plan: int = 1000,
                 bounds: tuple[float, float] | None = (0.0, 1.0)) -> SequencePath:
    """The confidence sequence and e-process of the mean of paired differences ``d``.

    Parameters
    ----------
    d : array_like
        Differences B - A, one per unit (question or cluster), in completion order.
    method : str
        One of :data:`METHODS`.
    confidence_level : float
        ``1 - alpha``, for the sequence and the test (reject when ``log_e >= log(1/alpha)``).
    plan : int
        Units at which the mixtures are tightest (``discordant``: ``plan`` times
        :data:`PLANNED_DISAGREEMENT` disagreements; ``normal-mixture``: ``plan`` units).
    bounds : (float, float) or None
        The range of each score (``betting``; differences then lie in ``+-(high - low)``).

    Examples
    --------
    >>> d = np.tile([0.0, 1.0, 0.0, -1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0], 40)
    >>> path = gap_sequence(d, method="discordant")
    >>> round(float(path.estimate[-1]), 3), round(float(path.low[-1]), 3)
    (0.2, 0.102)
    >>> bool(path.log_e[-1] > math.log(20))
    True
    """
    d = np.asarray(d, dtype=np.float64)
    if d.ndim != 1 or d.size == 0 or not np.all(np.isfinite(d)):
        raise EvalbarsError("d must be a non-empty 1-D sequence of finite differences")
    check_method(method, d, bounds)
    alpha = 1.0 - confidence_level
    if method == "normal-mixture":
        mean, low, high, log_e = normal_mixture_sequence(d, confidence_level=confidence_level,
                                                         plan=plan)
        return SequencePath(method, mean, low, high, log_e)
    width = 1.0 if method == "discordant" else float(bounds[1] - bounds[0])
    x = (d + width) / (2.0 * width)
    if not np.all((x >= 0.0) & (x <= 1.0)):
        raise EvalbarsError(f"the scores are not all within the bounds {tuple(bounds)}: "
                            f"a difference of {float(d[np.argmax(np.abs(d))])!r}")
    low, high = betting_sequence(x, confidence_level=confidence_level)
    if method == "discordant":
        b_wins, a_wins = np.cumsum(d > 0), np.cumsum(d < 0)
        log_e = discordant_log_e(b_wins, a_wins, concentration=concentration_for(
            plan * PLANNED_DISAGREEMENT, alpha))
    else:
        log_e = hedged_log_capital(x, [0.5], confidence_level=confidence_level)[:, 0]
    estimate = np.cumsum(d) / np.arange(1, d.size + 1)
    return SequencePath(method, estimate, width * (2.0 * low - 1.0), width * (2.0 * high - 1.0),
                        log_e)


def fixed_n_half_width(d, confidence_level: float) -> float:
    """Half the width of the fixed-n paired interval ``z sd(d) / sqrt(n)``: what the
    sequence's width is priced against.

    >>> round(fixed_n_half_width([0.0, 1.0, -1.0, 0.0] * 25, 0.95), 4)
    0.1393
    """
    d = np.asarray(d, dtype=np.float64)
    if d.size < 2:
        return math.inf
    return float(norm.ppf(0.5 + confidence_level / 2.0) * np.std(d, ddof=1)
                 / math.sqrt(d.size))
