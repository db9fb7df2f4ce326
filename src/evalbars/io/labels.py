"""Per-item labels and arrival order: what the loaded data carries beside the scores.

A per-item label gives each question one value: its **cluster** (document, topic,
session: the unit a clustered analysis resamples), its **stratum** (subject, task: fixed
parts a stratified analysis weighs) or its **split** (the part of the questions a
selection chooses on or confirms on). Every reader (:mod:`evalbars.io.layouts`, the
DuckDB and Spark engines, the harness logs) reads each of them in the same pass as the
scores and checks it the same way: an empty label, or an item given two, is an error
worded with the role's own nouns (:data:`ROLES`). :class:`ItemLabels` holds one such
column as codes into its sorted values; :class:`Arrival` holds when each answer came in,
for :func:`evalbars.monitor`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .table import read_only


class Role(NamedTuple):
    """How messages name one kind of per-item label: ``one`` and ``many`` of it, and what
    grouping items by it is (``"clustered"``)."""

    one: str
    many: str
    grouped: str


ROLES = {"cluster": Role("cluster", "clusters", "clustered"),
         "stratum": Role("stratum", "strata", "stratified"),
         "split": Role("split", "splits", "split")}
"""The per-item label roles :func:`evalbars.load` reads, in the order it reads them."""


@dataclass(frozen=True, slots=True, eq=False)
class ItemLabels:
    """One per-item label column, aligned with :attr:`ItemScores.items`.

    Attributes
    ----------
    column : str
        The column (or log field) the labels were read from, as given.
    names : tuple of str
        The distinct labels, sorted.
    codes : ndarray of int64
        Read-only: each item's label as its position in :attr:`names`; -1 where no row
        gave the item one (two files, only one of which has the column).

    Examples
    --------
    >>> labels = ItemLabels.of("topic", ["t2", "t1", "t2"])
    >>> labels.names, labels.codes.tolist(), labels.per_item()
    (('t1', 't2'), [1, 0, 1], ('t2', 't1', 't2'))
    """

    column: str
    names: tuple[str, ...]
    codes: np.ndarray

    @classmethod
    def of(cls, column: str, per_item) -> ItemLabels:
        """The labels ``per_item`` (str, or None for none) of column ``column``."""
        given = [label for label in per_item if label is not None]
        names = tuple(sorted(set(given)))
        index = {name: code for code, name in enumerate(names)}
        codes = np.fromiter((-1 if label is None else index[label] for label in per_item),
                            np.int64)
        return cls(column, names, read_only(codes))

    def per_item(self) -> tuple[str | None, ...]:
        """Each item's label (None where it has none)."""
        lookup = np.array([*self.names, None], dtype=object)
        return tuple(lookup[self.codes].tolist())

    def subset(self, keep: np.ndarray) -> ItemLabels:
        """The labels of the items ``keep`` selects (a boolean mask or positions)."""
        return ItemLabels(self.column, self.names, read_only(self.codes[keep]))


def label_fields(per_item: dict[str, np.ndarray], columns: dict[str, str],
                 keep: np.ndarray) -> dict:
    """The ``clusters`` and ``labels`` fields of an ItemScores from each role's label per
    item read (``per_item``, object arrays, None for none) and the column of each role
    (``columns``), on the items ``keep`` selects.

    >>> fields = label_fields({"cluster": np.array(["d1", "d2"], dtype=object),
    ...                        "stratum": np.array(["law", "law"], dtype=object)},
    ...                       {"cluster": "doc", "stratum": "subject"}, np.array([True, True]))
    >>> fields["clusters"], fields["labels"]["stratum"].names
    (('d1', 'd2'), ('law',))
    """
    clusters = per_item.get("cluster")
    return {"clusters": None if clusters is None else tuple(clusters[keep].tolist()),
            "labels": {role: ItemLabels.of(columns[role], labels[keep].tolist())
                       for role, labels in per_item.items() if role != "cluster"}}


@dataclass(frozen=True, slots=True, eq=False)
class Arrival:
    """When each answer came in: the order a monitor watches the results in.

    Attributes
    ----------
    column : str or None
        The order column (sequence numbers, Unix times or ISO 8601 timestamps); None for
        the order of the rows in the file.
    values : ndarray, shape (n_items, n_models)
        float64, read-only: the largest order value among each (item, model)'s rows (its
        last row number without an order column).
    rows : ndarray of int64, shape (n_items, n_models)
        Read-only: each (item, model)'s last row, which keeps ties in file order.
    table : str
        How the report names the table: its path as given, or ``"the DataFrame"``.
    """

    column: str | None
    values: np.ndarray
    rows: np.ndarray
    table: str

    def subset(self, keep: np.ndarray) -> Arrival:
        """The arrival of the items ``keep`` selects."""
        return Arrival(self.column, read_only(self.values[keep]),
                       read_only(self.rows[keep]), self.table)
