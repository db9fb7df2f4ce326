"""Which columns hold the item ids, model names and scores: given, or found by name.

Names are matched case-insensitively against :data:`ID_NAMES`, :data:`SCORE_NAMES` and
:data:`MODEL_NAME`; a score column may also be the only numeric column left. Every error
lists the table's columns, and a near miss (another case or spacing) is suggested.
"""
from __future__ import annotations

from typing import Sequence

from ..core.errors import EvalbarsError
from .cells import column_labels, is_numeric
from .table import Table, name_list

ID_NAMES = (
    "id", "qid", "item", "item_id", "question_id", "example_id", "doc_id", "sample_id",
    "query_id",
)
"""Column names (case-insensitive) taken as the item id column when ``item`` is not given."""

SCORE_NAMES = ("score", "correct", "accuracy", "acc", "value")
"""Column names (case-insensitive) taken as the score column when ``score`` is not given."""

MODEL_NAME = "model"
"""A column with this name (case-insensitive) selects the long layout."""


def resolve_column(table: Table, name: str, param: str) -> str:
    """``name`` if ``table`` has that column, else an error listing the columns."""
    if name in table.names:
        return name
    close = [c for c in table.names if c.strip().lower() == name.strip().lower()]
    hint = f" (did you mean {name_list(close)}?)" if close else ""
    what = f"unknown model {name!r} (models=)" if param == "models" else f"{param}={name!r}"
    raise EvalbarsError(
        f"{what}: no such column in {table.label}{hint}; columns: {name_list(table.names)}"
    )


def _named(table: Table, names: Sequence[str], exclude: Sequence[str]) -> list[str]:
    return [c for c in table.names if c not in exclude and c.strip().lower() in names]


def named_once(table: Table, names: Sequence[str], exclude: Sequence[str], what: str,
                option: str) -> str | None:
    """The one column named like ``names`` (None if none); several is an error."""
    found = _named(table, names, exclude)
    if len(found) > 1:
        raise EvalbarsError(
            f"several columns of {table.label} could hold the {what}: {name_list(found)}; "
            f"choose one with {option}= (--{option})"
        )
    return found[0] if found else None


def auto_item(table: Table, exclude: Sequence[str] = ()) -> str:
    found = named_once(table, ID_NAMES, exclude, "item ids", "item")
    if found is not None:
        return found
    raise EvalbarsError(
        f"cannot tell which column of {table.label} holds the item ids: none is named "
        f"{', '.join(ID_NAMES)}; columns: {name_list(table.names)}; pass item= (--item)"
    )


def auto_model(table: Table) -> str | None:
    return named_once(table, (MODEL_NAME,), (), "model names", "model")


def auto_score(table: Table, exclude: Sequence[str]) -> str:
    found = named_once(table, SCORE_NAMES, exclude, "scores", "score")
    if found is not None:
        return found
    numeric = [
        c for c in table.names
        if c not in exclude and c.strip().lower() not in ID_NAMES and is_numeric(table, c)
    ]
    return the_numeric_column(table, numeric)


def the_numeric_column(table: Table, numeric: Sequence[str]) -> str:
    """The one numeric column left to hold the scores when none is named as such; else an
    error naming the candidates (the in-memory reader and the engines say it alike)."""
    if len(numeric) == 1:
        return numeric[0]
    which = f"the numeric columns are {name_list(numeric)}" if numeric else "none is numeric"
    raise EvalbarsError(
        f"cannot tell which column of {table.label} holds the scores: none is named "
        f"{', '.join(SCORE_NAMES)} and {which}; columns: {name_list(table.names)}; "
        f"pass score= (--score)"
    )


def check_model_column(table: Table, model: str | None, model_col: str | None,
                        item: str | None, label_cols: list, sample_col: str | None,
                        run_col: str | None) -> None:
    """Refuse ``model=`` naming a score column of a wide table (without sample or run
    columns, which repeat the ids of both layouts).

    A long table's model column names models and repeats each item id once per model; a
    numeric ``model=`` column, one row per item and other numeric columns beside it, is
    the wide layout's score column (``models=`` chooses those), which read as model names
    would give models called '0' and '1'.
    """
    if model is None or model_col is None or sample_col is not None or run_col is not None \
            or not (item is None or isinstance(item, str)) or not is_numeric(table, model_col):
        return
    exclude = [c for c in label_cols if c is not None]  # per-item labels, order
    others = [c for c in table.names if c not in (model_col, item, *exclude)
              and c.strip().lower() not in ID_NAMES and is_numeric(table, c)]
    try:
        item_col = resolve_column(table, item, "item") if item is not None else \
            auto_item(table, (model_col, *exclude))
    except EvalbarsError:
        return  # the long layout names the problem
    ids = column_labels(table, item_col)[0]
    if not others or len(set(ids)) < len(ids):
        return
    raise EvalbarsError(
        f"model={model_col!r} names the model column of the long layout (one row per item "
        f"and model), but {model_col!r} holds numbers and {table.label} has one row per "
        f"item, with the other numeric columns {name_list(others)}: one score column per "
        f"model, the wide layout; to choose models there, pass models=[{model_col!r}] "
        f"(--models {model_col})")


def check_distinct(table: Table, roles: dict[str, str | None]) -> None:
    """Raise when two roles (item, model, score, cluster, sample) name the same column."""
    given = {role: name for role, name in roles.items() if name is not None}
    if len(set(given.values())) < len(given):
        names = list(given)
        raise EvalbarsError(
            f"the {', '.join(names[:-1])} and {names[-1]} columns of {table.label} must "
            f"differ; got " + ", ".join(f"{k}={v!r}" for k, v in given.items())
        )
