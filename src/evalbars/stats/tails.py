"""One-sided and two-sided questions: the ``alternative`` of every paired test and interval.

Every paired test compares model B with model A on the same questions through the
differences ``d = b - a``. ``alternative`` says which departure from "no difference" the
question is about, in the words of scipy (``scipy.stats.ttest_rel(..., alternative=)``):

- ``"two-sided"``: B differs from A, either way (the default);
- ``"greater"``: B is better than A (the gap ``b - a`` is above 0);
- ``"less"``: B is worse than A (the gap is below 0).

A one-sided p-value is the tail of the null distribution on the asked side only, so when
the data lean that way it is about half the two-sided one, and when they lean the other
way it is large (near 1). The matching interval is one-sided too: for ``"greater"`` the
gap is at least its lower bound (``[low, +inf)``), the lower end of the two-sided interval
at level ``2 L - 1``; for ``"less"`` it is at most its upper bound. The helpers here turn a
statistic and its null law into the p-value of each alternative.
"""
from __future__ import annotations

import math

from scipy import special

from ..core.errors import EvalbarsError

__all__ = ["ALTERNATIVES", "binomial_p", "check_alternative", "normal_p", "one_sided_ends",
           "student_p", "two_sided_level"]

ALTERNATIVES: tuple[str, ...] = ("two-sided", "greater", "less")
"""Every alternative by name; "greater" and "less" are about the gap ``b - a``."""


def check_alternative(alternative: object) -> str:
    """``alternative`` if it is one of :data:`ALTERNATIVES`, else EvalbarsError.

    >>> check_alternative("greater")
    'greater'
    >>> check_alternative("larger")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: alternative must be one of 'two-sided', ...; got 'larger'
    """
    if not isinstance(alternative, str) or alternative not in ALTERNATIVES:
        valid = ", ".join(repr(name) for name in ALTERNATIVES)
        raise EvalbarsError(f"alternative must be one of {valid}; got {alternative!r}")
    return alternative


def binomial_p(k: int, m: int, alternative: str) -> float:
    """p-value of ``k`` successes out of ``m`` under ``Binomial(m, 1/2)``; 1 when m = 0.

    ``"greater"``: ``P(X >= k)``; ``"less"``: ``P(X <= k)``; two-sided:
    ``min(1, 2 P(X <= min(k, m - k)))``. The same as ``scipy.stats.binomtest(k, m,
    alternative=...)`` (the two-sided rule is the doubled smaller tail, which for p = 1/2
    equals scipy's).

    >>> round(binomial_p(17, 21, "greater"), 7), round(binomial_p(17, 21, "two-sided"), 7)
    (0.0035987, 0.0071974)
    """
    if m == 0:
        return 1.0
    if alternative == "greater":
        return float(special.bdtrc(k - 1, m, 0.5)) if k > 0 else 1.0
    if alternative == "less":
        return float(special.bdtr(k, m, 0.5))
    return float(min(1.0, 2.0 * special.bdtr(min(k, m - k), m, 0.5)))


def student_p(t: float, df: float, alternative: str) -> float:
    """p-value of a t statistic with ``df`` degrees of freedom (t positive: B higher).

    >>> round(student_p(2.0, 10, "greater"), 5), round(student_p(2.0, 10, "two-sided"), 5)
    (0.03669, 0.07339)
    """
    if alternative == "greater":
        return float(special.stdtr(df, -t))
    if alternative == "less":
        return float(special.stdtr(df, t))
    return float(min(1.0, 2.0 * special.stdtr(df, -abs(t))))


def normal_p(z: float, alternative: str) -> float:
    """p-value of a standard normal statistic (z positive: B higher).

    >>> round(normal_p(1.6448536, "greater"), 6), round(normal_p(1.6448536, "less"), 6)
    (0.05, 0.95)
    """
    if alternative == "greater":
        return float(special.ndtr(-z))
    if alternative == "less":
        return float(special.ndtr(z))
    return float(min(1.0, 2.0 * special.ndtr(-abs(z))))


def two_sided_level(confidence_level: float, alternative: str) -> float:
    """The two-sided level whose one end is the one-sided bound at ``confidence_level``.

    A one-sided 95% bound is an end of the two-sided 90% interval: ``2 L - 1``.

    >>> two_sided_level(0.95, "greater"), two_sided_level(0.95, "two-sided")
    (0.9, 0.95)
    """
    if alternative == "two-sided":
        return confidence_level
    if not confidence_level > 0.5:
        raise EvalbarsError(f"a one-sided interval ({alternative!r}) needs a confidence level "
                            f"above 0.5; got {confidence_level!r}")
    return float(f"{2.0 * confidence_level - 1.0:.12g}")


def one_sided_ends(low: float, high: float, alternative: str) -> tuple[float, float]:
    """The ends of a one-sided interval from a two-sided one at level ``2 L - 1``.

    >>> one_sided_ends(0.01, 0.05, "greater"), one_sided_ends(0.01, 0.05, "less")
    ((0.01, inf), (-inf, 0.05))
    """
    if alternative == "greater":
        return low, math.inf
    if alternative == "less":
        return -math.inf, high
    return low, high
