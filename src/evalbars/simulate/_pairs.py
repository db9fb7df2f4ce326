"""Paired 0/1 outcomes: checked settings, the four cell probabilities, and the paired
statistics computed from cell counts for many experiments at once.

Cells, in this order everywhere: both right, A only right, B only right, neither.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from ..core.errors import EvalbarsError
from ..core.seeding import check_seed

CELLS = ("both", "a_only", "b_only", "neither")
DEFAULT_DISAGREEMENT = 0.10
_TOLERANCE = 1e-12


# --- settings ------------------------------------------------------------------------


def check_count(value: object, name: str, minimum: int) -> int:
    """``value`` as an int of at least ``minimum``, or EvalbarsError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise EvalbarsError(f"{name} must be an integer of at least {minimum}, got {value!r}")
    return int(value)


def check_fraction(value: object, name: str, *, low: float = 0.0, high: float = 1.0,
                   example: str = "0.7 = 70%", open_low: bool = False,
                   open_high: bool = False) -> float:
    """``value`` as a float in the interval from ``low`` to ``high``, ends open as asked."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))
    if ok:
        x = float(value)
        ok = (low < x if open_low else low <= x) and (x < high if open_high else x <= high)
    if not ok:
        ends = f"{'(' if open_low else '['}{low:g}, {high:g}{')' if open_high else ']'}"
        raise EvalbarsError(f"{name} must be a fraction in {ends} ({example}), got {value!r}")
    return x


def check_run(experiments: object, seed: object, alpha: object) -> tuple[int, int, float]:
    """The settings every simulation shares, checked."""
    return (check_count(experiments, "experiments", 1), check_seed(seed),
            check_fraction(alpha, "alpha", example="0.05", open_low=True, open_high=True))


def at_least(threshold: float, n: int) -> int:
    """The smallest count difference k with k / n >= threshold (free of rounding)."""
    return math.ceil(round(threshold * n, 9))


def z_for(alpha: float) -> float:
    """The two-sided normal critical value for level 1 - alpha (1.96 for 0.05)."""
    return float(stats.norm.ppf(1.0 - alpha / 2.0))


def disagreement_from_correlation(accuracy: float, gap: float, correlation: float) -> float:
    """The disagreement rate of two 0/1 models with this per-question correlation.

    Parameters
    ----------
    accuracy : float
        Model A's true accuracy p_A (a fraction); model B's is p_B = p_A + gap.
    gap : float
        True gap p_B - p_A.
    correlation : float
        Pearson correlation of the two models' 0/1 outcomes on a question.

    Returns
    -------
    float
        ``P(A only) + P(B only)``. Not checked for feasibility (see :func:`pair_spec`).

    Notes
    -----
    ``P(both) = p_A - (D - gap) / 2`` and ``Cov = P(both) - p_A p_B``; setting
    ``Cov = r sqrt(p_A (1 - p_A) p_B (1 - p_B))`` and solving for ``D``::

        D = 2 (p_A (1 - p_B) - r sqrt(p_A (1 - p_A) p_B (1 - p_B))) + gap

    At ``r = 0`` this is ``p_A (1 - p_B) + p_B (1 - p_A)`` (independent models).

    Examples
    --------
    >>> round(disagreement_from_correlation(0.70, 0.03, 0.7), 4)
    0.1232
    """
    p_a, p_b = accuracy, accuracy + gap
    spread = math.sqrt(p_a * (1.0 - p_a) * p_b * (1.0 - p_b))
    return 2.0 * (p_a * (1.0 - p_b) - correlation * spread) + gap


@dataclass(frozen=True, slots=True)
class PairSpec:
    """The true joint law of two models' 0/1 outcomes on one question."""

    accuracy: float
    gap: float
    disagreement: float
    correlation: float | None
    probabilities: tuple[float, float, float, float]

    def settings(self) -> dict:
        out = {"accuracy": self.accuracy, "gap": self.gap, "disagreement": self.disagreement}
        if self.correlation is not None:
            out["correlation"] = self.correlation
        out["cell_probabilities"] = dict(zip(CELLS, self.probabilities))
        return out


def _correlation_range(accuracy: float, gap: float) -> tuple[float, float]:
    """Feasible correlations: D runs from |gap| to its largest value with no negative cell."""
    p_a, p_b = accuracy, accuracy + gap
    spread = math.sqrt(p_a * (1.0 - p_a) * p_b * (1.0 - p_b))
    largest = min(2.0 * p_a + gap, 2.0 * (1.0 - p_a) - gap)

    def r(d: float) -> float:
        return (p_a * (1.0 - p_b) - (d - gap) / 2.0) / spread

    return r(largest), r(abs(gap))


def pair_spec(accuracy: float, gap: float, disagreement: float | None,
              correlation: float | None) -> PairSpec:
    """Check the settings of a paired simulation and return its cell probabilities.

    ``P(A only) = (D - gap) / 2``, ``P(B only) = (D + gap) / 2``,
    ``P(both) = accuracy - P(A only)`` and ``P(neither) = 1 - P(both) - D`` (the four cells
    of a paired 2x2 table with disagreement rate D). Give ``disagreement`` or ``correlation``, not both; with neither,
    ``disagreement`` is 0.10.
    """
    accuracy = check_fraction(accuracy, "accuracy")
    gap = check_fraction(gap, "gap", low=-1.0, example="0.03 = 3 points")
    if disagreement is not None and correlation is not None:
        raise EvalbarsError("give disagreement or correlation, not both; got disagreement="
                            f"{disagreement!r} and correlation={correlation!r}")
    if correlation is not None:
        correlation = check_fraction(correlation, "correlation", low=-1.0, example="0.7")
        p_b = accuracy + gap
        if not (0.0 < accuracy < 1.0 and 0.0 < p_b < 1.0):
            raise EvalbarsError(
                f"correlation is undefined when a model is always right or always wrong; got "
                f"accuracy={accuracy!r} and gap={gap!r} (model B's accuracy {p_b:g})")
        low, high = _correlation_range(accuracy, gap)
        if not low - _TOLERANCE <= correlation <= high + _TOLERANCE:
            raise EvalbarsError(
                f"correlation must be between {low:.4g} and {high:.4g} for accuracy "
                f"{accuracy:g} and gap {gap:g}; got {correlation!r}")
        disagreement = min(max(disagreement_from_correlation(accuracy, gap, correlation),
                               abs(gap)), 1.0)
    elif disagreement is None:
        disagreement = DEFAULT_DISAGREEMENT
    else:
        disagreement = check_fraction(disagreement, "disagreement", example="0.1 = 10%")
    if abs(gap) > disagreement + _TOLERANCE:
        raise EvalbarsError(
            f"the gap cannot exceed the disagreement rate (every point of gap is a question "
            f"the models disagree on); got gap={gap!r} and disagreement={disagreement!r}")
    a_only, b_only = (disagreement - gap) / 2.0, (disagreement + gap) / 2.0
    both = accuracy - a_only
    neither = 1.0 - both - disagreement
    if both < -_TOLERANCE or neither < -_TOLERANCE:
        which = "low" if both < 0 else "high"
        raise EvalbarsError(
            f"accuracy {accuracy!r} is too {which} for disagreement {disagreement:g} and gap "
            f"{gap:g}: P(both right) = {both:.4g} and P(neither) = {neither:.4g} must not be "
            f"negative")
    cells = tuple(max(0.0, float(p)) for p in (both, a_only, b_only, neither))
    total = sum(cells)
    return PairSpec(accuracy, gap, disagreement, correlation,
                    tuple(p / total for p in cells))


# --- statistics on cell counts (arrays: one entry per experiment) --------------------


def mcnemar_exact_p(a_only: np.ndarray, b_only: np.ndarray) -> np.ndarray:
    """Two-sided exact McNemar p: ``min(1, 2 P(X <= min(a_only, b_only)))``,
    ``X ~ Binomial(a_only + b_only, 1/2)``; 1 with no discordant pairs. For 0/1 scores
    this is also the exact sign-flip p (evalbars.stats.permutation.sign_flip, route 1)."""
    m = a_only + b_only
    k = np.minimum(a_only, b_only)
    with np.errstate(invalid="ignore"):
        p = np.minimum(1.0, 2.0 * special.bdtr(k, m, 0.5))
    return np.where(m == 0, 1.0, p)


def paired_wald(a_only: np.ndarray, b_only: np.ndarray, n: int,
                z: float) -> tuple[np.ndarray, np.ndarray]:
    """Gap ``mean(b - a)`` and the half-width ``z sd(d) / sqrt(n)`` of the paired-wald
    interval (sd with ddof=1), from the discordant counts."""
    diff = (b_only - a_only).astype(float)
    variance = np.maximum((a_only + b_only - diff * diff / n) / (n - 1), 0.0)
    return diff / n, z * np.sqrt(variance / n)


def bars_do_not_overlap(right_a: np.ndarray, right_b: np.ndarray, n: int,
                        z: float) -> np.ndarray:
    """Whether the two separate ``clt`` intervals ``p ± z sd / sqrt(n)`` (sd with
    ddof=1, so ``sd² / n = p (1 - p) / (n - 1)``) do not overlap."""
    p_a, p_b = right_a / n, right_b / n
    half_a = z * np.sqrt(p_a * (1.0 - p_a) / (n - 1))
    half_b = z * np.sqrt(p_b * (1.0 - p_b) / (n - 1))
    return np.abs(p_b - p_a) > half_a + half_b
