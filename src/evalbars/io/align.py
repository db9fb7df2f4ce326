"""Reduce the answers per (item, model) and align the items across models.

:func:`aligned_fields` sorts every answer by model, item and sample (so the row order never
changes a bit of the result), applies the checks of :mod:`evalbars.io.validate` (duplicate
(item, model, sample) answers, ``score_type``, missing scores and items some model lacks,
or, with ``intersect``, drops and counts them) and reduces each (item, model) cell to its
count, sum and sum of squares.
"""
from __future__ import annotations

import numpy as np

from ..core.errors import EvalbarsError
from .answers import PER_ANSWER, AnswerParts
from .files import sha256
from .labels import Arrival, label_fields
from .table import read_only, short
from .validate import check_duplicate_answers, check_missing, check_score_type


def _per_cell(cell: np.ndarray, shape: tuple[int, int], weights: np.ndarray | None = None
              ) -> np.ndarray:
    """Sum ``weights`` (or count) per (model, item) cell, as an (n_items, n_models) array."""
    n_items, n_models = shape
    total = np.bincount(cell, weights=weights, minlength=n_items * n_models)
    return total.reshape(n_models, n_items).T


def aligned_fields(parts: AnswerParts, score_type: str, intersect: bool) -> dict:
    """Check, reduce and align every answer: the fields of an
    :class:`~evalbars.io.item_scores.ItemScores`."""
    shape = (len(parts.items), len(parts.models))
    cell = parts.model_of * shape[0] + parts.item_of
    # one fixed order (model, item, sample) for every check and sum, whatever the row order
    order = np.argsort(cell, kind="stable") if parts.samples is None else \
        np.lexsort((parts.samples, cell))
    cell = cell[order]
    for name in PER_ANSWER:
        if getattr(parts, name) is not None:
            setattr(parts, name, getattr(parts, name)[order])
    if parts.samples is not None or parts.runs is not None:
        check_duplicate_answers(parts, cell)
    bounds = np.searchsorted(parts.model_of, np.arange(shape[1] + 1))
    kind = check_score_type(parts, bounds, score_type)
    if not intersect:
        check_missing(parts, bounds, _per_cell(cell, shape) > 0)
    valid = ~np.isnan(parts.values)
    answered, values = cell[valid], parts.values[valid]
    counts = _per_cell(answered, shape)
    scored = counts > 0
    keep = scored.all(axis=1)
    n_keep = int(keep.sum())
    if n_keep == 0:
        per_model = ", ".join(f"{m!r} {int(c)}" for m, c in zip(parts.models, scored.sum(axis=0)))
        raise EvalbarsError(
            f"no item has a score for every model (items scored per model: {per_model}); "
            f"check that the item ids match across models"
        )
    dropped = None
    if intersect:
        dropped = {m: int(c) - n_keep for m, c in zip(parts.models, scored.sum(axis=0))}
    counts = counts[keep]
    sums = _per_cell(answered, shape, values)[keep]
    sumsq = _per_cell(answered, shape, values * values)[keep]
    inputs = [
        {"path": t.path, "sha256": None if t.path is None else t.sha256 or sha256(t.path)}
        for t in parts.inputs
    ]
    source = {
        "layout": parts.layout,
        "format": parts.fmt,
        "columns": parts.columns,
        "inputs": inputs,
        "n_items_read": shape[0],
    }
    return dict(
        items=tuple(parts.items[keep].tolist()),
        models=tuple(parts.models),
        scores=read_only(sums / counts),
        score_type=kind,
        dropped=dropped,
        source=source,
        counts=read_only(counts.astype(np.int64)),
        sumsq=read_only(sumsq),
        runs=None if parts.runs is None else tuple(parts.runs),
        **label_fields(parts.labels, parts.label_cols, keep),
        arrival=_arrival(parts, cell, shape, keep) if parts.ordered else None,
    )


def _arrival(parts: AnswerParts, cell: np.ndarray, shape: tuple[int, int],
             keep: np.ndarray) -> Arrival:
    """When each kept (item, model) came in: the largest order value (or row) and the last
    row among its answers."""
    size = shape[0] * shape[1]
    values = np.full(size, -np.inf)
    np.maximum.at(values, cell, parts.rows.astype(np.float64) if parts.arrival is None
                  else parts.arrival)
    rows = np.full(size, -1, np.int64)
    np.maximum.at(rows, cell, parts.rows)
    table = parts.inputs[0]
    return Arrival(parts.order_col, read_only(values.reshape(shape[1], shape[0]).T[keep]),
                   read_only(rows.reshape(shape[1], shape[0]).T[keep]),
                   "the DataFrame" if table.path is None else short(table.path))
