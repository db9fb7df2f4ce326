"""Small frozen records shared by every statistics module."""
from __future__ import annotations

from dataclasses import dataclass

from .records import Record, entry


@dataclass(frozen=True, slots=True)
class Interval(Record):
    """A confidence interval: ``method`` name, ends ``low``/``high``, and its level.

    Ends are full precision and never clipped (a Wald interval may leave [0, 1]).
    """

    method: str
    low: float
    high: float
    confidence_level: float = entry(hidden=True)


@dataclass(frozen=True, slots=True)
class TestResult(Record):
    """A hypothesis test: ``name``, its ``statistic`` and two-sided ``p_value``.

    ``n_resamples`` and ``mc_error`` are set for Monte Carlo tests; ``exact`` says
    whether the p-value was computed exactly (enumeration or a closed form).
    """

    name: str
    statistic: float
    p_value: float
    exact: bool = entry(True, hidden=True)
    n_resamples: int | None = entry(None, omit=lambda test: test.n_resamples is None)
    mc_error: float | None = entry(None, omit=lambda test: test.n_resamples is None)

    __test__ = False  # not a pytest test class


__all__ = ["Interval", "TestResult"]
