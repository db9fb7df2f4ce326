"""Result records: frozen, slotted dataclasses whose ``to_dict()`` comes from their fields.

A record's JSON document is its fields, in their order, each turned into plain JSON
values (records by their own ``to_dict()``, tuples as lists). What a plain walk cannot
know is said on the field, once, with :func:`entry`: another key, a field left out (a big
array, or a value not worth printing, such as ``alternative="two-sided"``), a non-finite
number written as null. A constant of the document (``"method": "bootstrap-percentile"``)
is a field with ``init=False``, so it stands in its place among the others.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Gap(Record):
...     estimate: float
...     se: float = entry(finite=True)
...     method: str = entry("paired-t", init=False)
...     level: float = entry(0.95, hidden=True)
>>> Gap(0.026, float("nan")).to_dict()
{'estimate': 0.026, 'se': None, 'method': 'paired-t'}
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

_HOW = "evalbars.record"


def entry(default: Any = dataclasses.MISSING, *, key: str | None = None,
          omit: Callable[[Any], bool] | None = None, hidden: bool = False,
          finite: bool = False, init: bool = True, repr: bool = True) -> Any:
    """A field of a :class:`Record`, saying how its ``to_dict()`` writes it.

    ``key`` names it in the document; ``omit(record)`` leaves it out when true; ``hidden``
    always leaves it out; ``finite`` writes a NaN or an infinity as null.
    """
    how = {"key": key, "omit": omit, "hidden": hidden, "finite": finite}
    return dataclasses.field(default=default, init=init, repr=repr, metadata={_HOW: how})


class Record:
    """The base of every result record: ``to_dict()`` from the fields (see :func:`entry`)."""

    __slots__ = ()

    def to_dict(self) -> dict:
        out = {}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            how = field.metadata.get(_HOW, {})
            if how.get("hidden") or (how.get("omit") is not None and how["omit"](self)):
                continue
            value = plain(getattr(self, field.name))
            if how.get("finite") and isinstance(value, float) and not math.isfinite(value):
                value = None
            out[how.get("key") or field.name] = value
        return out


def plain(value: Any) -> Any:
    """``value`` as plain JSON values: records by their ``to_dict()``, tuples as lists."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value
