""""Just as good" claims done right: paired non-inferiority and equivalence (TOST).

A non-significant difference is not equivalence. Equivalence within a margin M is
shown when the (1 - 2 alpha) interval of the gap lies inside (-M, +M): two one-sided
tests (TOST), each at level alpha. Non-inferiority ("b is not worse than a by more
than M") is shown when that interval's lower end lies above -M.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import special

from ..core.errors import EvalbarsError

INTERVAL_WORDS = {"paired-t": "", "cluster-cr1": "clustered ", "newcombe": "Newcombe "}
"""How reports name each kind of deciding interval: "90% CI", "90% Newcombe CI"."""

DECISIONS = ("equivalent", "non-inferior", "inconclusive", "inferior")
"""equivalent: inside (-M, M); non-inferior: above -M but not below M; inferior: the
whole interval below -M; inconclusive: the interval reaches below -M and above it."""


@dataclass(frozen=True, slots=True)
class Equivalence:
    """Non-inferiority and TOST equivalence of the gap mean(b - a) within ``margin``.

    ``low``/``high`` is the (1 - 2 alpha) interval that decides both tests, of kind
    ``method`` (``paired-t``, ``cluster-cr1`` or ``newcombe``); ``n_needed`` is about how
    many questions would show non-inferiority with 80% power if the true gap were zero
    (the spread of the differences as observed). ``se`` and ``df`` are those of the t
    reference (nan for ``newcombe``).
    """

    margin: float
    alpha: float
    estimate: float
    se: float
    df: float
    low: float
    high: float
    non_inferiority_p: float
    tost_p: float
    decision: str
    n_needed: int | None
    method: str = "paired-t"

    @property
    def level(self) -> float:
        """Level of the deciding two-sided interval, 1 - 2 alpha (to 12 significant digits:
        0.9, not 0.8999999999999999)."""
        return float(f"{1.0 - 2.0 * self.alpha:.12g}")

    def to_dict(self) -> dict:
        return {
            "margin": self.margin,
            "alpha": self.alpha,
            "non_inferiority_p": self.non_inferiority_p,
            "tost_p": self.tost_p,
            "interval": {"low": self.low, "high": self.high, "level": self.level,
                         "method": self.method},
            "decision": self.decision,
            "n_needed": self.n_needed,
        }


def _t_upper_tail(t: float, df: float) -> float:
    """P(T > t) for Student's t with df degrees of freedom (normal when df is infinite)."""
    if math.isinf(df):
        return float(special.ndtr(-t))
    return float(special.stdtr(df, -t))


def _t_quantile(q: float, df: float) -> float:
    if math.isinf(df):
        return float(special.ndtri(q))
    return float(special.stdtrit(df, q))


def _checked_margin(margin, alpha: float) -> float:
    if isinstance(margin, bool) or not (isinstance(margin, (int, float)) and margin > 0
                                        and math.isfinite(margin)):
        raise EvalbarsError(f"margin must be a positive number (0.01 = 1 point), got {margin!r}")
    if not 0.0 < alpha < 0.5:
        raise EvalbarsError(f"alpha must be between 0 and 0.5, got {alpha!r}")
    return float(margin)


def _decide(low: float, high: float, margin: float) -> str:
    if -margin < low and high < margin:
        return "equivalent"
    if low > -margin:
        return "non-inferior"
    if high < -margin:
        return "inferior"
    return "inconclusive"


def _questions_needed(sd: float, margin: float, alpha: float, n_items: int) -> int:
    """n with 80% power for the non-inferiority test at true gap 0 (normal approximation)."""
    z = special.ndtri(1.0 - alpha) + special.ndtri(0.8)
    return max(n_items, int(math.ceil((z * sd / margin) ** 2)))


def equivalence(
    estimate: float, se: float, df: float, *, margin: float, alpha: float = 0.05,
    sd: float | None = None, n_items: int | None = None, method: str = "paired-t",
) -> Equivalence:
    """Non-inferiority and TOST from a gap, its standard error and degrees of freedom.

    Parameters
    ----------
    estimate, se, df : float
        The gap mean(b - a), its standard error, and the t degrees of freedom
        (``math.inf`` for a normal reference; G - 1 for a clustered SE).
    margin : float
        M > 0, in score units (0.01 is 1 point for 0/1 scores).
    alpha : float
        Level of each one-sided test; the deciding interval is 1 - 2 alpha.
    sd, n_items : optional
        Spread of the per-item differences and the number of items, to say how many
        questions would be needed when the result is not yet decided.
    method : str
        The deciding interval's name in the result (``cluster-cr1`` for a clustered SE).

    Notes
    -----
    t_lower = (estimate + M) / se, p_lower = P(T > t_lower) (non-inferiority);
    t_upper = (estimate - M) / se, p_upper = P(T < t_upper); tost_p = max of both.
    Validated against statsmodels ``ttost_paired`` (tests/stats/test_equivalence.py).

    Examples
    --------
    >>> e = equivalence(0.004, 0.003, 499, margin=0.01)
    >>> e.decision, round(e.low, 4), round(e.high, 4), round(e.tost_p, 4)
    ('equivalent', -0.0009, 0.0089, 0.023)
    """
    margin = _checked_margin(margin, alpha)
    if not se > 0:
        # No spread at all: the gap is known exactly.
        inside_low, inside_high = estimate > -margin, estimate < margin
        p_lower, p_upper = (0.0 if inside_low else 1.0), (0.0 if inside_high else 1.0)
        low = high = estimate
    else:
        p_lower = _t_upper_tail((estimate + margin) / se, df)
        p_upper = _t_upper_tail(-(estimate - margin) / se, df)
        half = _t_quantile(1.0 - alpha, df) * se
        low, high = estimate - half, estimate + half
    decision = _decide(low, high, margin)
    needed = None
    if decision == "inconclusive" and sd is not None and n_items is not None and sd > 0:
        needed = _questions_needed(sd, margin, alpha, n_items)
    return Equivalence(margin, alpha, float(estimate), float(se), float(df), float(low),
                       float(high), float(p_lower), float(max(p_lower, p_upper)), decision,
                       needed, method)


def paired_equivalence(a: np.ndarray, b: np.ndarray, *, margin: float,
                       alpha: float = 0.05) -> Equivalence:
    """Paired t version on the per-item differences d = b - a (df = n - 1).

    >>> import numpy as np
    >>> a = np.array([0.5, 0.6, 0.7, 0.4, 0.55]); b = a + np.array([.01, -.01, .02, 0, .01])
    >>> paired_equivalence(a, b, margin=0.05).decision
    'equivalent'
    """
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if d.size < 2:
        raise EvalbarsError(f"an equivalence test needs at least 2 items, got {d.size}")
    sd = float(np.std(d, ddof=1))
    return equivalence(float(d.mean()), sd / math.sqrt(d.size), d.size - 1, margin=margin,
                       alpha=alpha, sd=sd, n_items=d.size)


_SMALLEST_P = 1e-12
"""Interval-inverted p-values are searched down to this; below it they are reported as it."""


def _inverted_p(end: Callable[[float], float], other: Callable[[float], float],
                target: float, above: bool) -> float:
    """The one-sided p-value of "the gap is beyond ``target``" from a family of intervals.

    ``end(alpha)`` is the lower end (``above``: H0 gap <= target) or the upper end (H0
    gap >= target) of the (1 - 2 alpha) interval and ``other(alpha)`` the opposite end.
    The test rejects at level alpha when ``end`` is past ``target``, so the p-value is the
    alpha at which it meets it; an estimate on the H0 side gives 1 minus the p-value of
    the opposite test.
    """
    from scipy.optimize import brentq

    def past(alpha: float) -> float:
        return end(alpha) - target if above else target - end(alpha)

    top = 0.5 - 1e-12  # level ~0: both ends at the estimate
    if past(top) < 0:
        return 1.0 - _inverted_p(other, end, target, not above)
    if past(top) == 0:
        return 0.5
    if past(_SMALLEST_P) > 0:
        return _SMALLEST_P
    return float(brentq(past, _SMALLEST_P, top, xtol=1e-14))


def interval_equivalence(
    interval: Callable[[float], tuple[float, float]], estimate: float, *, margin: float,
    alpha: float = 0.05, method: str, sd: float | None = None, n_items: int | None = None,
) -> Equivalence:
    """Non-inferiority and TOST decided by a family of intervals that has no t reference.

    ``interval(level)`` gives the (low, high) interval of the gap at ``level`` (for
    ``newcombe``: :func:`evalbars.stats.intervals.paired_interval`). The tests are decided by
    the (1 - 2 alpha) interval, as in :func:`equivalence`; each p-value is the alpha at
    which the interval's end meets the margin (inverting the interval), so a p-value is
    below alpha exactly when its test decides. ``sd`` and ``n_items`` give ``n_needed``
    as in :func:`equivalence` (a normal approximation).

    Examples
    --------
    >>> import numpy as np
    >>> from evalbars.stats.intervals import paired_interval
    >>> a = np.array([1] * 400 + [0] * 100); b = a.copy(); b[:2] = 0  # 2 losses of 500
    >>> def newcombe(level):
    ...     i = paired_interval(a, b, method="newcombe", confidence_level=level)
    ...     return i.low, i.high
    >>> e = interval_equivalence(newcombe, -0.004, margin=0.01, method="newcombe")
    >>> e.decision, round(e.low, 4), round(e.non_inferiority_p, 3)
    ('inconclusive', -0.0106, 0.064)
    """
    margin = _checked_margin(margin, alpha)
    low, high = interval(1.0 - 2.0 * alpha)

    def lower(a: float) -> float:
        return interval(1.0 - 2.0 * a)[0]

    def upper(a: float) -> float:
        return interval(1.0 - 2.0 * a)[1]

    p_lower = _inverted_p(lower, upper, -margin, above=True)
    p_upper = _inverted_p(upper, lower, margin, above=False)
    decision = _decide(low, high, margin)
    needed = None
    if decision == "inconclusive" and sd is not None and n_items is not None and sd > 0:
        needed = _questions_needed(sd, margin, alpha, n_items)
    return Equivalence(margin, alpha, float(estimate), math.nan, math.nan, float(low),
                       float(high), float(p_lower), float(max(p_lower, p_upper)), decision,
                       needed, method)

