"""The arguments every layer shares, each checked by one function with one wording.

A value of any type (a string, None, NaN, a bool, a list) is one
:class:`~evalbars.core.errors.EvalbarsError` naming the argument, never a raw
``ValueError`` or ``TypeError`` from deeper down (scipy's ``_xxx_iv`` pattern: each entry
point checks its inputs first).
"""
from __future__ import annotations

import math
import numbers

from .errors import EvalbarsError

LEVEL = "a number strictly between 0 and 1 (0.95 for 95%)"
"""What ``confidence_level`` must be."""


def check_between(value: object, parameter: str, low: float, high: float,
                  expected: str) -> float:
    """``value`` as a float strictly between ``low`` and ``high`` (``expected`` says so).

    >>> check_between(0.05, "alpha", 0.0, 0.5, "a number strictly between 0 and 0.5")
    0.05
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or math.isnan(value) or not low < value < high:
        raise EvalbarsError.argument(parameter, value, expected)
    return float(value)


def check_confidence_level(value: object, parameter: str = "confidence_level") -> float:
    """``value`` as a float strictly between 0 and 1.

    >>> check_confidence_level(0.9)
    0.9
    >>> check_confidence_level("x")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: confidence_level must be a number strictly between \
0 and 1 (0.95 for 95%), got 'x'
    """
    return check_between(value, parameter, 0.0, 1.0, LEVEL)
