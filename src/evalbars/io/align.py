"""Group the answers per (item, model), reduce them and align the items across models.

:func:`_finish` sorts every answer by model, item and sample (so the row order never
changes a bit of the result), rejects duplicate (item, model, sample) answers, applies
``score_type``, rejects missing scores and items some model lacks (or, with
``intersect``, drops and counts them) and reduces each (item, model) cell to its count,
sum and sum of squares. :func:`_item_clusters` gives each item its one cluster label;
:func:`_split_runs` makes each (model, run) pair a model of its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .cells import _check_labels, _check_score_type, _codes, _pick
from ..core.errors import EvalbarsError
from .files import sha256
from .table import MAX_LISTED, Table, name_list, short


_INTERSECT_HINT = "pass intersect=True (--intersect) to compare on the items every model has"


@dataclass(slots=True)
class _Parts:
    """What a layout hands to :func:`_finish`: every answer read and where it came from.

    An answer is one score cell: one row of the long layout, or one model's cell of a wide
    row. The per-answer arrays are aligned; :func:`_finish` sorts them by model, item and
    sample.
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
    clusters: np.ndarray | None = None  # per item: its cluster label (None if no row gives one)
    guessed_models: bool = False  # wide model columns found by auto-detection
    runs: list[tuple[str, str]] | None = None  # per model: (recipe, run), after _split_runs


def _runs(*sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and stop (in sorted order) of each run longer than one of equal key tuples."""
    same = np.logical_and.reduce([key[1:] == key[:-1] for key in sorted_keys])
    if not same.any():
        return np.empty(0, np.int64), np.empty(0, np.int64)
    edges = np.diff(np.concatenate(([False], same, [False])).astype(np.int8))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) + 1


# --------------------------------------------------------------------------- clusters, samples


def _item_clusters(items: np.ndarray,
                   sources: list[tuple[Table, str, np.ndarray, np.ndarray]]) -> np.ndarray:
    """Each item's cluster label (None where no row gives one), as an object array.

    ``sources`` holds (table, cluster column, rows (sorted), item index of each row).
    Raises on an empty label and on an item given two different labels.
    """
    labels: list[str] = []
    for table, column, rows, _ in sources:
        labels += _pick(_check_labels(table, column, "cluster label", rows), rows)
    names, codes = _codes(labels)
    item_of = np.concatenate([mine for *_, mine in sources])
    cluster_of = np.full(len(items), -1, np.int64)
    cluster_of[item_of] = codes
    clash = codes != cluster_of[item_of]
    if clash.any():
        _cluster_clash(items, sources, names, codes, item_of, clash)
    out = np.full(len(items), None, dtype=object)
    known = cluster_of >= 0
    out[known] = np.array(names, dtype=object)[cluster_of[known]]
    return out


def _cluster_clash(items: np.ndarray, sources: list, names: list[str], codes: np.ndarray,
                   item_of: np.ndarray, clash: np.ndarray) -> None:
    """Raise naming the first items with two or more cluster labels, the labels and lines."""
    source = np.concatenate([np.full(len(rows), k) for k, (_, _, rows, _) in enumerate(sources)])
    rows = np.concatenate([rows for _, _, rows, _ in sources])
    bad = np.unique(item_of[clash])
    said = []
    for i in bad[:MAX_LISTED]:
        mine = np.flatnonzero(item_of == i)
        places_of = []
        for code in np.unique(codes[mine]):
            these = mine[codes[mine] == code]
            where = " and ".join(sources[k][0].at(rows[these[source[these] == k]])
                                 for k in np.unique(source[these]))
            places_of.append(f"{short(names[code])} {where}")
        said.append(f"item {short(str(items[i]))} is in {' and in '.join(places_of)}")
    more = f" (and {bad.size - MAX_LISTED} more)" if bad.size > MAX_LISTED else ""
    raise EvalbarsError(
        f"{bad.size} item{'s are' if bad.size > 1 else ' is'} assigned to more than one "
        f"cluster (column {sources[0][1]!r}): {'; '.join(said)}{more}; each item belongs to "
        f"one cluster"
    )


def _check_duplicate_answers(parts: _Parts, cell: np.ndarray) -> None:
    """With a sample or run column: raise naming the answers given on several rows.

    The answers are sorted by ``cell`` (model and item) and sample. An answer is an (item,
    model, sample) triple, with a run column (item, model, run[, sample]).
    """
    keys = (cell,) if parts.samples is None else (cell, parts.samples)
    starts, stops = _runs(*keys)
    if not starts.size:
        return

    def first_line(group: tuple[int, int]) -> tuple[int, int]:
        table = parts.tables[parts.model_of[group[0]]]
        return parts.inputs.index(table), min(table.numbers(parts.rows[group[0]:group[1]]))

    def system(j: int) -> str:
        if parts.runs is None:
            return f"model {short(parts.models[j])}"
        return f"model {short(parts.runs[j][0])} run {short(parts.runs[j][1])}"

    groups = sorted(zip(starts, stops), key=first_line)
    shown = "; ".join(
        f"item {short(str(parts.items[parts.item_of[a]]))} {system(parts.model_of[a])}"
        + ("" if parts.samples is None else
           f" sample {short(parts.sample_names[parts.samples[a]])}")
        + f" {parts.tables[parts.model_of[a]].at(parts.rows[a:b])}"
        for a, b in groups[:MAX_LISTED]
    )
    more = f" (and {len(groups) - MAX_LISTED} more)" if len(groups) > MAX_LISTED else ""
    what = "(item, model" + (", run" if parts.runs is not None else "") + \
        (", sample)" if parts.samples is not None else ")")
    fix = ("each answer to a question needs its own sample value" if parts.samples is not None
           else "each run answers each question once (pass sample= (--sample COL) if these "
                "are several sampled answers per question)")
    raise EvalbarsError(
        f"{len(groups)} {what} answer{'s are' if len(groups) > 1 else ' is'} given on more "
        f"than one row: {shown}{more}; {fix}"
    )


# --------------------------------------------------------------------------- runs


def _natural(label: str) -> list:
    """Sort key putting run '2' before run '10' (digit runs compare as numbers)."""
    return [int(part) if k % 2 else part for k, part in enumerate(re.split(r"(\d+)", label))]


def _split_runs(parts: _Parts, run_of: np.ndarray, run_names: list[str], *,
                skip_empty: bool = False) -> _Parts:
    """Make each (model, run) pair a model of its own, named ``model@run``: a system.

    ``run_of`` gives each answer's index in ``run_names`` (sorted labels). Systems come
    model by model, runs in natural order ('2' before '10'); only pairs that have an
    answer exist (``skip_empty``: a score, so a wide column left empty for a run is no
    system). ``parts.runs`` records (model, run) for each system.
    """
    rank = sorted(range(len(run_names)), key=lambda k: _natural(run_names[k]))
    position = np.empty(len(rank), np.int64)
    position[rank] = np.arange(len(rank))
    key = parts.model_of * len(rank) + position[run_of]
    answered = ~np.isnan(parts.values)
    pairs = np.unique(key[answered] if skip_empty and answered.any() else key)
    system_of = np.minimum(np.searchsorted(pairs, key), pairs.size - 1)
    keep = pairs[system_of] == key
    for name in ("item_of", "values", "rows", "samples"):
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


# --------------------------------------------------------------------------- checks, reduction


def _check_missing(parts: _Parts, bounds: np.ndarray, has_row: np.ndarray) -> None:
    """Without intersect: raise on empty score cells, then on items some model has no row for."""
    empty = np.isnan(parts.values)
    if empty.any():
        noun = "item" if parts.samples is None else "answer"
        said = []
        for j, name in enumerate(parts.models):
            cells = np.flatnonzero(empty[bounds[j]:bounds[j + 1]])
            if cells.size:
                table = parts.tables[j]
                rows = parts.rows[bounds[j]:bounds[j + 1]][cells]
                said.append(
                    f"model {name!r} has no score for {cells.size} {noun}"
                    f"{'s' if cells.size > 1 else ''} (empty cell{'s' if cells.size > 1 else ''}"
                    f" in column {parts.score_cols[j]!r} {table.at(rows)})"
                )
        raise EvalbarsError(f"missing scores: {'; '.join(said)}; fill them, or {_INTERSECT_HINT}")
    absent = ~has_row
    if absent.any():
        common = int(has_row.all(axis=1).sum())
        said = []
        for j, name in enumerate(parts.models):
            lacking = np.flatnonzero(absent[:, j])
            if lacking.size:
                ids = name_list(parts.items[lacking[:MAX_LISTED]].tolist())
                more = ""
                if lacking.size > MAX_LISTED:
                    more = f" and {lacking.size - MAX_LISTED} more"
                said.append(
                    f"{name!r} has no row for {lacking.size} item"
                    f"{'s' if lacking.size > 1 else ''} that "
                    f"{'the other model has' if len(parts.models) == 2 else 'other models have'} "
                    f"({ids}{more})"
                )
        raise EvalbarsError(
            f"items are not scored by every model: {'; '.join(said)}; {common} "
            f"item{' is' if common == 1 else 's are'} common to all; {_INTERSECT_HINT}"
        )


def _per_cell(cell: np.ndarray, shape: tuple[int, int], weights: np.ndarray | None = None
              ) -> np.ndarray:
    """Sum ``weights`` (or count) per (model, item) cell, as an (n_items, n_models) array."""
    n_items, n_models = shape
    total = np.bincount(cell, weights=weights, minlength=n_items * n_models)
    return total.reshape(n_models, n_items).T


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.setflags(write=False)
    return array


def _finish(parts: _Parts, score_type: str, intersect: bool) -> dict:
    """Check, reduce and align every answer: the fields of :class:`~evalbars.io.ingest.ItemScores`."""
    shape = (len(parts.items), len(parts.models))
    cell = parts.model_of * shape[0] + parts.item_of
    # one fixed order (model, item, sample) for every check and sum, whatever the row order
    order = np.argsort(cell, kind="stable") if parts.samples is None else \
        np.lexsort((parts.samples, cell))
    cell = cell[order]
    for name in ("item_of", "model_of", "values", "rows", "samples"):
        if getattr(parts, name) is not None:
            setattr(parts, name, getattr(parts, name)[order])
    if parts.samples is not None or parts.runs is not None:
        _check_duplicate_answers(parts, cell)
    bounds = np.searchsorted(parts.model_of, np.arange(shape[1] + 1))
    kind = _check_score_type(parts, bounds, score_type)
    if not intersect:
        _check_missing(parts, bounds, _per_cell(cell, shape) > 0)
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
        {"path": t.path, "sha256": sha256(t.path) if t.path is not None else None}
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
        scores=_read_only(sums / counts),
        score_type=kind,
        dropped=dropped,
        source=source,
        counts=_read_only(counts.astype(np.int64)),
        sumsq=_read_only(sumsq),
        clusters=None if parts.clusters is None else tuple(parts.clusters[keep].tolist()),
        runs=None if parts.runs is None else tuple(parts.runs),
    )
