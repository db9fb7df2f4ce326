"""The checks on :func:`evalbars.io.ingest.load`'s arguments, before anything is read.

>>> check_item(("qid", "question_id"), "b.csv")
('qid', 'question_id')
>>> check_arguments(None, None, None, ["a", "a"], "auto", False, None, None, None)
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


def listed_inputs(data: Any, data2: Any) -> tuple[Any, Any]:
    """``data, data2`` with a list or tuple of one or two inputs as ``data`` unpacked.

    >>> listed_inputs(["a.csv", "b.csv"], None)
    ('a.csv', 'b.csv')
    >>> listed_inputs(("a.csv",), None)
    ('a.csv', None)
    """
    if not isinstance(data, (list, tuple)):
        return data, data2
    if any(isinstance(d, (int, float)) for d in data):
        raise EvalbarsError(
            "data is a list of scores, which load does not read: pass it to an analysis, "
            "evalbars.ci([1, 0, 1, ...]) (one model's scores, question by question), or give "
            "load a file or a DataFrame with an id column")
    if data2 is not None:
        raise EvalbarsError(
            f"data is a {type(data).__name__} of {len(data)} inputs and data2 is given as "
            f"well: pass both inputs in the list, load([data, data2]), or as load(data, data2)")
    if len(data) in (1, 2):
        return (*data, None)[:2]
    if not data:
        raise EvalbarsError("data is an empty list: give one or two files, folders or "
                            "DataFrames, load('a.csv') or load(['a.csv', 'b.csv'])")
    raise EvalbarsError(
        f"data is a {type(data).__name__} of {len(data)} inputs, but load reads one or two "
        f"(load(data) or load([data, data2])); for more, put harness logs in one folder and "
        f"load('folder/'), or write the scores as one long table (id, model, score; "
        f"pandas.concat) or, for files of one long layout, load a glob with DuckDB: "
        f"load('runs/*.parquet', engine='duckdb') (docs/scale.md)")


def check_item(item: Any, data2: Any) -> tuple[str, ...] | None:
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


def check_arguments(
    item, model, score, models, score_type, intersect, cluster, sample, run, stratum=None,
    split=None, order=None,
) -> list[str] | None:
    if score_type not in SCORE_TYPES:
        raise EvalbarsError(
            f"score_type={score_type!r} is not one of {', '.join(map(repr, SCORE_TYPES))}"
        )
    for param, value in (("item", item), ("model", model), ("score", score),
                         ("cluster", cluster), ("sample", sample), ("run", run),
                         ("stratum", stratum), ("split", split), ("order", order)):
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
