"""The order in which results came in: a sequence or timestamp column, or the file's rows.

:class:`~evalbars.io.item_scores.ItemScores` sorts items by id, so that the order of rows
never changes a number. A monitor needs the opposite: the order in which each question was
finished. :func:`completion_order` reads it from the same table again: a question is
complete at its last row among the two models compared (its largest value of the order
column, or its last line), and ties keep the file's order.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Sequence

import numpy as np

from ..core.errors import EvalbarsError
from .cells import _check_labels, _parse_scores, _raw
from .files import read
from .item_scores import ItemScores
from .table import Table, name_list, short


@dataclass(frozen=True, slots=True)
class CompletionOrder:
    """``positions[k]``: the row of :attr:`ItemScores.items` completed k-th; ``how`` says
    where the order came from, as the report prints it; ``ties`` counts questions whose
    order value equals the previous one's (kept in file order)."""

    positions: np.ndarray
    how: str
    column: str | None
    ties: int


def _timestamps(table: Table, name: str, rows: np.ndarray) -> np.ndarray:
    """ISO 8601 timestamps (``2026-12-01T15:13:38Z``, with or without a zone) as seconds."""
    col = table.column(name)
    out = np.empty(rows.size)
    zoned = None
    for k, row in enumerate(rows.tolist()):
        value = col.values[row]
        try:
            if not isinstance(value, str):
                raise ValueError
            stamp = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise EvalbarsError(
                f"the order column {name!r} must hold numbers (a sequence number, Unix "
                f"time) or ISO 8601 timestamps; {_raw(col, row)} {table.at([row])} is "
                "neither") from None
        if zoned is None:
            zoned = stamp.tzinfo is not None
        elif zoned != (stamp.tzinfo is not None):
            raise EvalbarsError(
                f"the order column {name!r} mixes timestamps with and without a time zone "
                f"({_raw(col, row)} {table.at([row])}); they cannot be ordered")
        out[k] = (stamp if zoned else stamp.replace(tzinfo=timezone.utc)).timestamp()
    return out


def _order_values(table: Table, name: str, rows: np.ndarray) -> np.ndarray:
    if name not in table.names:
        raise EvalbarsError(f"no order column {short(name)} in {table.label}; its columns are "
                            f"{name_list(table.names)}")
    parsed = _parse_scores(table, name)
    missing = rows[parsed.missing[rows]]
    if missing.size:
        raise EvalbarsError(f"empty order value in column {name!r} {table.at(missing)}; every "
                            "row of the compared models needs one")
    bad = rows[np.isin(rows, parsed.bad)]
    if bad.size == rows.size:
        return _timestamps(table, name, rows)
    odd = bad if bad.size else rows[np.isin(rows, parsed.nonfinite)]
    if odd.size:
        first = odd[np.argsort(table.numbers(odd), kind="stable")[:1]]
        raise EvalbarsError(
            f"the order column {name!r} must hold numbers (a sequence number, Unix time) or "
            f"ISO 8601 timestamps; {_raw(table.column(name), int(first[0]))} "
            f"{table.at(first)} is {'not a number' if bad.size else 'not finite'}, while "
            "other rows hold numbers")
    return parsed.values[rows]


def completion_order(data: Any, scores: ItemScores, models: Sequence[str],
                     order: str | None = None) -> CompletionOrder:
    """The order in which the items of ``scores`` were completed by both ``models``.

    Parameters
    ----------
    data : path or pandas.DataFrame
        The table ``scores`` was read from (one file: wide or long layout).
    scores : ItemScores
        What :func:`evalbars.io.ingest.load` read from it.
    models : pair of str
        The models compared: in the long layout only their rows count.
    order : str, optional
        A column of numbers (sequence number, Unix time) or ISO 8601 timestamps; without
        it, the order of the rows in the file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from evalbars.io.ingest import load
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "stream.csv"
    >>> _ = path.write_text("qid,done,a,b\\nq2,2026-01-02T10:00:00,1,1\\n"
    ...                     "q1,2026-01-02T09:00:00,1,0\\nq3,2026-01-02T11:00:00,0,0\\n")
    >>> scores = load(path, models=["a", "b"])
    >>> seen = completion_order(path, scores, ("a", "b"), "done")
    >>> [scores.items[i] for i in seen.positions], seen.how
    (['q1', 'q2', 'q3'], "in the order of column 'done'")
    >>> [scores.items[i] for i in completion_order(path, scores, ("a", "b")).positions]
    ['q2', 'q1', 'q3']
    """
    if isinstance(data, ItemScores):
        raise EvalbarsError("monitoring needs the results file or DataFrame, not loaded "
                            "ItemScores: they are sorted by item id, and the order in which "
                            "results came in is read from the file")
    layout = scores.source.get("layout")
    if layout not in ("wide", "long"):
        raise EvalbarsError(
            f"monitoring reads the order of results from one table (CSV, JSON Lines, "
            f"Parquet or a DataFrame, wide or long); this data is {layout!r}: write the "
            "results as one table with a sequence or timestamp column")
    columns = scores.source["columns"]
    table = read(data)
    rows = np.arange(table.n_rows)
    if layout == "long":
        names = np.array(_check_labels(table, columns["model"], "model name"), dtype=object)
        rows = rows[np.isin(names, list(models))]
    labels = _check_labels(table, columns["item"], "item id", rows)
    index = {item: i for i, item in enumerate(scores.items)}
    kept = np.array([labels[r] in index for r in rows.tolist()], dtype=bool)
    rows = rows[kept]
    where = np.fromiter((index[labels[r]] for r in rows.tolist()), np.int64, rows.size)
    values = rows.astype(np.float64) if order is None else _order_values(table, order, rows)
    done = np.full(len(scores.items), -np.inf)
    np.maximum.at(done, where, values)
    last_row = np.full(len(scores.items), -1)
    np.maximum.at(last_row, where, rows)
    positions = np.lexsort((last_row, done))
    if order is None:
        shown = "the DataFrame" if table.path is None else short(table.path)
        return CompletionOrder(positions, f"in file order (the rows of {shown}; no order "
                                          "column was given)", None, 0)
    ties = int(np.sum(np.diff(done[positions]) == 0))
    how = f"in the order of column {order!r}" + (
        f" ({ties:,} ties kept in file order)" if ties else "")
    return CompletionOrder(positions, how, order, ties)
