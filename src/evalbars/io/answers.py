"""The canonical long table of answers: every score cell read, and where it came from.

A layout (:mod:`evalbars.io.layouts`) hands every answer it read to
:func:`evalbars.io.align.aligned_fields` as a :class:`AnswerParts`: its item, model, value, row and
(with a sample column) sample. :func:`equal_runs` finds the answers that share a key;
:func:`split_runs` makes each (model, run) pair a model of its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import EvalbarsError
from .table import Table, short


@dataclass(slots=True)
class AnswerParts:
    """What a layout hands to :func:`~evalbars.io.align.aligned_fields`: every answer read.

    An answer is one score cell: one row of the long layout, or one model's cell of a wide
    row. The per-answer arrays are aligned; :func:`~evalbars.io.align.aligned_fields` sorts them
    by model, item and sample.
    """

    layout: str
    fmt: str
    tables: list[Table]  # per model
    score_cols: list[str]  # per model: the column its scores came from
    models: list[str]
    items: np.ndarray  # sorted union of item ids
    columns: dict
    inputs: list[Table]
    item_of: np.ndarray  # per answer: its item's index in items
    model_of: np.ndarray  # per answer: its model's index in models
    values: np.ndarray  # per answer: the score, NaN where the cell is empty
    rows: np.ndarray  # per answer: its row in tables[model]
    samples: np.ndarray | None = None  # per answer: index in sample_names (-1: no column)
    sample_names: list[str] | None = None
    labels: dict = field(default_factory=dict)  # role -> per item: its label (None: no row)
    label_cols: dict = field(default_factory=dict)  # role -> the column named for it
    guessed_models: bool = False  # wide model columns found by auto-detection
    runs: list[tuple[str, str]] | None = None  # per model: (recipe, run), after split_runs
    arrival: np.ndarray | None = None  # per answer: its order value (None: its row)
    order_col: str | None = None  # the order column, None for the rows' order
    ordered: bool = False  # the rows are one table's, in the order results came in


PER_ANSWER = ("item_of", "model_of", "values", "rows", "samples", "arrival")
"""The fields of :class:`AnswerParts` that hold one value per answer, cut and sorted alike."""


def equal_runs(*sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and stop (in sorted order) of each run longer than one of equal key tuples."""
    same = np.logical_and.reduce([key[1:] == key[:-1] for key in sorted_keys])
    if not same.any():
        return np.empty(0, np.int64), np.empty(0, np.int64)
    edges = np.diff(np.concatenate(([False], same, [False])).astype(np.int8))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) + 1


# --------------------------------------------------------------------------- runs


def natural_key(label: str) -> list:
    """Sort key putting run '2' before run '10' (digit runs compare as numbers)."""
    return [int(part) if k % 2 else part for k, part in enumerate(re.split(r"(\d+)", label))]


def split_runs(parts: AnswerParts, run_of: np.ndarray, run_names: list[str], *,
                skip_empty: bool = False) -> AnswerParts:
    """Make each (model, run) pair a model of its own, named ``model@run``: a system.

    ``run_of`` gives each answer's index in ``run_names`` (sorted labels). Systems come
    model by model, runs in natural order ('2' before '10'); only pairs that have an
    answer exist (``skip_empty``: a score, so a wide column left empty for a run is no
    system). ``parts.runs`` records (model, run) for each system.
    """
    rank = sorted(range(len(run_names)), key=lambda k: natural_key(run_names[k]))
    position = np.empty(len(rank), np.int64)
    position[rank] = np.arange(len(rank))
    key = parts.model_of * len(rank) + position[run_of]
    answered = ~np.isnan(parts.values)
    pairs = np.unique(key[answered] if skip_empty and answered.any() else key)
    system_of = np.minimum(np.searchsorted(pairs, key), pairs.size - 1)
    keep = pairs[system_of] == key
    for name in PER_ANSWER:
        if getattr(parts, name) is not None:
            setattr(parts, name, getattr(parts, name)[keep])
    parts.model_of = system_of[keep]
    recipe_of = (pairs // len(rank)).tolist()
    parts.runs = [(parts.models[m], run_names[rank[p % len(rank)]])
                  for m, p in zip(recipe_of, pairs.tolist())]
    names = [f"{model}@{run}" for model, run in parts.runs]
    clash = sorted({name for name in names if names.count(name) > 1})
    if clash:
        pairs_of = [f"model {short(m)} run {short(r)}" for (m, r), name in zip(parts.runs, names)
                    if name == clash[0]]
        raise EvalbarsError(
            f"{' and '.join(pairs_of)} both make the name {clash[0]!r} (model@run); rename "
            f"a model or a run so that the names differ")
    parts.models = names
    parts.tables = [parts.tables[m] for m in recipe_of]
    parts.score_cols = [parts.score_cols[m] for m in recipe_of]
    return parts
