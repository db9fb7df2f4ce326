"""Small frozen records shared by every statistics module."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Interval:
    """A confidence interval: ``method`` name, ends ``low``/``high``, and its level.

    Ends are full precision and never clipped (a Wald interval may leave [0, 1]).
    """

    method: str
    low: float
    high: float
    confidence_level: float

    def to_dict(self) -> dict:
        return {"method": self.method, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class TestResult:
    """A hypothesis test: ``name``, its ``statistic`` and two-sided ``p_value``.

    ``n_resamples`` and ``mc_error`` are set for Monte Carlo tests; ``exact`` says
    whether the p-value was computed exactly (enumeration or a closed form).
    """

    name: str
    statistic: float
    p_value: float
    exact: bool = True
    n_resamples: int | None = None
    mc_error: float | None = None

    __test__ = False  # not a pytest test class

    def to_dict(self) -> dict:
        out = {"name": self.name, "statistic": self.statistic, "p_value": self.p_value}
        if self.n_resamples is not None:
            out["n_resamples"] = self.n_resamples
            out["mc_error"] = self.mc_error
        return out


__all__ = ["Interval", "TestResult"]
