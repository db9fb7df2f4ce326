"""Power of the z test, two-sided or one-sided, and the effect it needs for a given power.

A two-sided test at level alpha rejects when ``|Z| >= z``, ``z = Phi^-1(1 - alpha/2)``, so
at standardized effect delta its power counts both tails; a one-sided test (``"greater"``
or ``"less"``, :mod:`evalbars.stats.tails`) puts all of alpha on the asked side,
``z = Phi^-1(1 - alpha)``, and a gap in that direction is found with fewer questions.
The effect delta is the size of the gap in the asked direction, so ``"greater"`` and
``"less"`` plan the same n. Used by :mod:`evalbars.stats.power_plan`.
"""
from __future__ import annotations

from scipy.special import ndtr, ndtri

__all__ = ["required_delta", "z_power"]


def z_power(delta: float, alpha: float, alternative: str = "two-sided") -> float:
    """Power of the z test at standardized effect ``delta``.

    Two-sided: ``Phi(delta - z) + Phi(-delta - z)`` (both tails, as statsmodels);
    one-sided: ``Phi(delta - z)`` with ``z = Phi^-1(1 - alpha)``.

    >>> round(z_power(2.8016, 0.05), 3), round(z_power(2.4865, 0.05, "greater"), 3)
    (0.8, 0.8)
    """
    if alternative == "two-sided":
        z = -ndtri(alpha / 2)
        return float(ndtr(delta - z) + ndtr(-z - delta))
    return float(ndtr(delta + ndtri(alpha)))


def required_delta(power: float, alpha: float, alternative: str = "two-sided") -> float:
    """The standardized effect at which the z test has this power.

    One-sided it is ``Phi^-1(1 - alpha) + Phi^-1(power)`` exactly (1.645 + 0.842 for 5% and
    80%); two-sided the root of :func:`z_power`, just below ``1.96 + 0.842``.

    >>> round(required_delta(0.8, 0.05), 4), round(required_delta(0.8, 0.05, "greater"), 4)
    (2.8016, 2.4865)
    """
    if alternative != "two-sided":
        return float(-ndtri(alpha) + ndtri(power))
    from scipy.optimize import brentq  # imported when a plan is solved, not with the module

    top = -ndtri(alpha / 2) + ndtri(power)
    return brentq(lambda d: z_power(d, alpha) - power, 0.0, top, xtol=1e-14)
