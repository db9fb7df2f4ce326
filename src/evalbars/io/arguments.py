"""The checks on :func:`evalbars.io.ingest.load`'s arguments, before anything is read.

>>> _check_item(("qid", "question_id"), "b.csv")
('qid', 'question_id')
>>> _check_arguments(None, None, None, ["a", "a"], "auto", False, None, None, None)
Traceback (most recent call last):
...
evalbars.core.errors.EvalbarsError: models= names 'a' more than once
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import EvalbarsError
from .table import name_list, not_unicode, short, surrogate

SCORE_TYPES = ("auto", "binary", "continuous")
"""Accepted values of ``score_type``."""


def _check_item(item: Any, data2: Any) -> tuple[str, ...] | None:
    """``item`` as a tuple: one column name, or with two inputs one per input."""
    if item is None or isinstance(item, str):
        return None if item is None else (item,)
    if not isinstance(item, (list, tuple)) or len(item) != 2 or data2 is None:
        raise EvalbarsError(
            f"item= must be a column name, or with two inputs a pair of names, one per "
            f"input (item=('qid', 'question_id'), --item qid --item question_id); got {short(item)}")
    for name in item:
        if not isinstance(name, str) or name == "":
            raise EvalbarsError(f"item= must hold non-empty column names; got {short(name)}")
    return tuple(item)


def _check_arguments(
    item, model, score, models, score_type, intersect, cluster, sample, run
) -> list[str] | None:
    if score_type not in SCORE_TYPES:
        raise EvalbarsError(
            f"score_type={score_type!r} is not one of {', '.join(map(repr, SCORE_TYPES))}"
        )
    for param, value in (("item", item), ("model", model), ("score", score),
                         ("cluster", cluster), ("sample", sample), ("run", run)):
        if value is not None and (not isinstance(value, str) or value == ""):
            raise EvalbarsError(f"{param}= must be a column name (a non-empty str); got {value!r}")
    if not isinstance(intersect, (bool, np.bool_)):
        raise EvalbarsError(f"intersect= must be True or False; got {intersect!r}")
    if models is None:
        return None
    if isinstance(models, str):
        raise EvalbarsError(
            f"models= must be a list of names, not the string {models!r}; "
            f"write models=[{models!r}]"
        )
    models = list(models)
    if not models:
        raise EvalbarsError("models= is empty; give at least one model name, or leave it out")
    for name in models:
        if not isinstance(name, str) or name == "":
            raise EvalbarsError(f"models= must hold non-empty strings; got {name!r}")
        if surrogate(name) is not None:
            raise not_unicode("the model name", name, "given with models=")
    dups = sorted({m for m in models if models.count(m) > 1})
    if dups:
        raise EvalbarsError(f"models= names {name_list(dups)} more than once")
    return models
