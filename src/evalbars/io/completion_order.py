"""The order in which results came in: a sequence or timestamp column, or the file's rows.

:class:`~evalbars.io.item_scores.ItemScores` sorts items by id, so that the order of rows
never changes a number. A monitor needs the opposite: the order in which each question was
finished. :func:`evalbars.io.ingest.load` reads it with the scores, from one wide or long
table (:func:`evalbars.io.cells.order_values` parses an ``order=`` column: numbers or
ISO 8601 timestamps), into :attr:`ItemScores.arrival`; :func:`completion_order` then
orders the questions: a
question is complete at its last answer among the two models compared (its largest value
of the order column, or its last row), and ties keep the file's order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core.errors import EvalbarsError
from .item_scores import ItemScores
from .table import short


@dataclass(frozen=True, slots=True)
class CompletionOrder:
    """``positions[k]``: the row of :attr:`ItemScores.items` completed k-th; ``how`` says
    where the order came from, as the report prints it; ``ties`` counts questions whose
    order value equals the previous one's (kept in file order)."""

    positions: np.ndarray
    how: str
    column: str | None
    ties: int


def completion_order(scores: ItemScores, models: Sequence[str],
                     order: str | None = None) -> CompletionOrder:
    """The order in which the items of ``scores`` were completed by both ``models``.

    Parameters
    ----------
    scores : ItemScores
        Results read from one table (wide or long layout), which carry their
        :attr:`~evalbars.io.item_scores.ItemScores.arrival`.
    models : pair of str
        The models compared: only their answers count.
    order : str, optional
        The order column the results were loaded with (``load(..., order=COL)``); None
        takes the order they carry (the column they were loaded with, else file order).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from evalbars.io.ingest import load
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "stream.csv"
    >>> _ = path.write_text("qid,done,a,b\\nq2,2026-01-02T10:00:00,1,1\\n"
    ...                     "q1,2026-01-02T09:00:00,1,0\\nq3,2026-01-02T11:00:00,0,0\\n")
    >>> scores = load(path, models=["a", "b"], order="done")
    >>> seen = completion_order(scores, ("a", "b"), "done")
    >>> [scores.items[i] for i in seen.positions], seen.how
    (['q1', 'q2', 'q3'], "in the order of column 'done'")
    >>> [scores.items[i] for i in completion_order(load(path, models=["a", "b"]),
    ...                                            ("a", "b")).positions]
    ['q2', 'q1', 'q3']
    """
    arrival = scores.arrival
    if arrival is None:
        layout = scores.source.get("layout")
        raise EvalbarsError(
            f"monitoring reads the order of results from one table (CSV, JSON Lines, "
            f"Parquet or a DataFrame, wide or long); this data is {layout!r}: write the "
            "results as one table with a sequence or timestamp column")
    if order is not None and arrival.column != order:
        raise EvalbarsError(
            f"order={short(order)} names a column of the input, but these results were "
            f"loaded {'in file order' if arrival.column is None else 'with order='}"
            f"{'' if arrival.column is None else repr(arrival.column)}: load them with evalbars.load(..., order={short(order)}), or pass the file or "
            "DataFrame")
    columns = [scores.models.index(name) for name in models]
    done = arrival.values[:, columns].max(axis=1)
    last_row = arrival.rows[:, columns].max(axis=1)
    positions = np.lexsort((last_row, done))
    if arrival.column is None:
        return CompletionOrder(positions, f"in file order (the rows of {arrival.table}; no "
                                          "order column was given)", None, 0)
    ties = int(np.sum(np.diff(done[positions]) == 0))
    how = f"in the order of column {arrival.column!r}" + (
        f" ({ties:,} ties kept in file order)" if ties else "")
    return CompletionOrder(positions, how, arrival.column, ties)
