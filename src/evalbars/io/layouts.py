"""Map the wide, long and two-file layouts onto the canonical long table of answers.

Each layout resolves its columns, checks its labels and scores and hands every answer
(one score cell) to :func:`evalbars.io.align.aligned_fields` as an
:class:`~evalbars.io.answers.AnswerParts`: its item, model, value, row, sample, per-item
labels and arrival. Repeated ids, (item, model) pairs and (item, sample) pairs are
reported here, by their lines. With a run column, :func:`evalbars.io.answers.split_runs`
makes each (model, run) pair a model of its own, and ``aligned_fields`` reports answers
repeated within a run.
"""
from __future__ import annotations

import numpy as np

from ..core.errors import EvalbarsError
from .answers import AnswerParts, equal_runs, split_runs
from .cells import (
    at_rows,
    check_labels,
    check_values,
    column_labels,
    label_codes,
    order_values,
    parse_scores,
    str_array,
)
from .columns import ID_NAMES, auto_item, auto_score, check_distinct, resolve_column
from .messages import SAMPLE_HINT, repeated_pairs
from .table import MAX_LISTED, Table, name_list, short
from .validate import CHOOSE_MODELS, check_model_count, item_labels

_MODELS_HINT = f"; or name the model columns ({CHOOSE_MODELS})"


# --------------------------------------------------------------------------- wide


def wide_layout(table: Table, item: str | None, models: list[str] | None, labels: dict[str, str],
          sample_col: str | None, run_col: str | None = None,
          order_col: str | None = None) -> AnswerParts:
    """A column per model; ``labels`` maps per-item label roles to their columns."""
    extra = [c for c in (*labels.values(), sample_col, run_col, order_col) if c is not None]
    item_col = resolve_column(table, item, "item") if item is not None else auto_item(table, extra)
    roles = {"item": item_col, **labels, "sample": sample_col, "run": run_col,
             "order": order_col}
    check_distinct(table, roles)
    check_model_count(table, models, roles)
    if models is not None:
        for name in models:
            if name not in table.names:
                resolve_column(table, name, "models")
            role = next((k for k, v in roles.items() if v == name), None)
            if role is not None:
                raise EvalbarsError(
                    f"models= includes {name!r}, which is the "
                    f"{'item id' if role == 'item' else role} column of {table.label}")
        model_cols = list(models)
    else:
        model_cols = []
        for name in table.names:
            if name in roles.values() or name.strip().lower() in ID_NAMES:
                continue  # the item, label, sample, run, order and id-like columns
            parsed = parse_scores(table, name)
            if parsed.bad.size == 0:
                model_cols.append(name)
            elif table.n_rows - parsed.missing.sum() - parsed.bad.size >= parsed.bad.size:
                # mostly numbers: a model column with typos, not a text column
                check_values(table, name, parsed, hint=_MODELS_HINT)
        if not model_cols:
            raise EvalbarsError(
                f"found no model columns in {table.label}: no column besides the item column "
                f"{item_col!r} holds only numbers; columns: {name_list(table.names)}; "
                f"name them ({CHOOSE_MODELS})")
    ids = str_array(check_labels(table, item_col, "item id"))
    samples = sample_names = runs = run_names = None
    if sample_col is None and run_col is None:
        order = np.argsort(ids, kind="stable")
        items = ids[order]
        _check_unique_ids(table, item_col, ids, order, items)
        item_of_row = np.empty(len(ids), np.int64)
        item_of_row[order] = np.arange(len(ids))
    else:  # one row per (item, run, sample); aligned_fields reports repeats within a run
        items, item_of_row = np.unique(ids, return_inverse=True)
        item_of_row = item_of_row.reshape(-1)
        keys = [item_of_row]
        if run_col is not None:
            run_names, run_of_row = label_codes(check_labels(table, run_col, "run label"))
            keys.insert(0, run_of_row)
        if sample_col is not None:
            sample_names, sample_of_row = label_codes(
                check_labels(table, sample_col, "sample value"))
            keys.insert(0, sample_of_row)
        order = np.lexsort(keys)
        if sample_col is not None:
            samples = sample_of_row[order]
        if run_col is None:
            _check_unique_samples(table, item_col, sample_col, items, item_of_row[order],
                                  samples, sample_names, order)
        else:
            runs = run_of_row[order]
    values = []
    for name in model_cols:
        parsed = parse_scores(table, name)
        check_values(table, name, parsed)
        values.append(parsed.values[order])
    n_models = len(model_cols)
    found = {role: item_labels(role, items, [(table, col, np.arange(len(ids)), item_of_row)])
             for role, col in labels.items()}
    arrival = None if order_col is None else order_values(table, order_col, order)
    parts = AnswerParts(
        layout="wide",
        fmt=table.fmt,
        tables=[table] * n_models,
        score_cols=model_cols,
        models=model_cols,
        items=items,
        columns={"item": item_col, "model": None, "score": None, "models": list(model_cols),
                 "cluster": labels.get("cluster"), "sample": sample_col, "run": run_col},
        inputs=[table],
        item_of=np.tile(item_of_row[order], n_models),
        model_of=np.repeat(np.arange(n_models), len(order)),
        values=np.concatenate(values),
        rows=np.tile(order, n_models),
        samples=None if samples is None else np.tile(samples, n_models),
        sample_names=sample_names, labels=found, label_cols=dict(labels),
        guessed_models=models is None, ordered=True, order_col=order_col,
        arrival=None if arrival is None else np.tile(arrival, n_models))
    if run_col is None:
        return parts
    return split_runs(parts, np.tile(runs, n_models), run_names, skip_empty=True)


def _check_unique_samples(table: Table, item_col: str, sample_col: str, items: np.ndarray,
                          item_of: np.ndarray, samples: np.ndarray, sample_names: list[str],
                          order: np.ndarray) -> None:
    """Wide layout: raise naming the (item, sample) pairs on several rows (sorted by both)."""
    starts, stops = equal_runs(item_of, samples)
    if not starts.size:
        return
    groups = sorted(zip(starts, stops), key=lambda g: min(table.numbers(order[g[0]:g[1]])))
    shown = "; ".join(
        f"item {short(str(items[item_of[a]]))} sample {short(sample_names[samples[a]])} at "
        f"{table.where(order[a:b])}" for a, b in groups[:MAX_LISTED]
    )
    more = f" (and {len(groups) - MAX_LISTED} more)" if len(groups) > MAX_LISTED else ""
    raise EvalbarsError(
        f"{len(groups)} (item, sample) pair{'s are' if len(groups) > 1 else ' is'} repeated "
        f"in columns {item_col!r}, {sample_col!r} of {table.label}: {shown}{more}; each row "
        f"holds one answer per model, so each (item, sample) pair must appear once")


def _check_unique_ids(
    table: Table,
    name: str,
    ids: np.ndarray,
    order: np.ndarray,
    sorted_ids: np.ndarray | None = None,
    hint: str = SAMPLE_HINT,
) -> None:
    """Raise when a wide or single-model column repeats an id (``ids[order]`` is sorted)."""
    starts, stops = equal_runs(ids[order] if sorted_ids is None else sorted_ids)
    if not starts.size:
        return
    groups = [order[a:b] for a, b in zip(starts, stops)]
    groups.sort(key=lambda rows: min(table.numbers(rows)))
    shown = "; ".join(f"{short(str(ids[g[0]]))} at {table.where(g)}" for g in groups[:MAX_LISTED])
    more = ""
    if len(groups) > MAX_LISTED:
        more = f" (and {len(groups) - MAX_LISTED} more repeated ids)"
    raise EvalbarsError(
        f"{len(groups)} item id{'s are' if len(groups) > 1 else ' is'} repeated in column "
        f"{name!r} of {table.label}: {shown}{more}; each item must appear once per model "
        f"({hint})")


# --------------------------------------------------------------------------- long


def long_layout(table: Table, item: str | None, model_col: str, score: str | None,
          models: list[str] | None, labels: dict[str, str], sample_col: str | None,
          run_col: str | None = None, order_col: str | None = None, *,
          ordered: bool = True) -> AnswerParts:
    """One row per (item, model); ``labels`` maps per-item label roles to their columns;
    ``ordered``: the rows are in the order results came in (not a harness log's)."""
    extra = [c for c in (*labels.values(), sample_col, run_col, order_col) if c is not None]
    item_col = resolve_column(table, item, "item") if item is not None else None
    taken = [model_col, *extra] + ([item_col] if item_col else [])
    score_col = resolve_column(table, score, "score") if score is not None else \
        auto_score(table, taken)
    if item_col is None:
        item_col = auto_item(table, exclude=(model_col, score_col, *extra))
    check_distinct(table, {"item": item_col, "model": model_col, "score": score_col,
                      **labels, "sample": sample_col, "run": run_col, "order": order_col})
    names = column_labels(table, model_col)[0]
    if models is None:
        check_labels(table, model_col, "model name")
    index = {name: code for code, name in enumerate(dict.fromkeys(names))}  # file order
    codes = np.fromiter(map(index.__getitem__, names), np.int64, len(names))
    present = [m for m in index if m != ""]
    if models is None:
        models = present
    else:
        unknown = [m for m in models if m not in index]
        if unknown:
            raise EvalbarsError(
                f"unknown model{'s' if len(unknown) > 1 else ''} {name_list(unknown)} (models=): "
                f"not in column {model_col!r} of {table.label}, which holds {name_list(present)}")
    column_of = np.full(len(index), -1, dtype=np.int64)
    column_of[[index[m] for m in models]] = np.arange(len(models))
    model_of_row = column_of[codes]
    rows = np.flatnonzero(model_of_row >= 0)
    model_of_row = model_of_row[rows]

    ids = str_array(check_labels(table, item_col, "item id", rows))[rows]
    items, item_of_row = np.unique(ids, return_inverse=True)
    item_of_row = item_of_row.reshape(-1)
    n_models = len(models)
    samples = sample_names = None
    if sample_col is None and run_col is None:
        where = np.full((len(items), n_models), -1, dtype=np.int64)
        where[item_of_row, model_of_row] = rows
        if np.count_nonzero(where >= 0) < rows.size:  # a later row overwrote an earlier one
            _duplicate_pairs(table, ids, item_of_row * n_models + model_of_row, rows, models,
                             model_of_row)
    elif sample_col is not None:
        sample_names, samples = label_codes(
            at_rows(check_labels(table, sample_col, "sample value", rows), rows))
    parsed = parse_scores(table, score_col)
    check_values(table, score_col, parsed, rows)
    found = {role: item_labels(role, items, [(table, col, rows, item_of_row)])
             for role, col in labels.items()}
    parts = AnswerParts(
        layout="long",
        fmt=table.fmt,
        tables=[table] * n_models,
        score_cols=[score_col] * n_models,
        models=list(models),
        items=items,
        columns={"item": item_col, "model": model_col, "score": score_col,
                 "models": list(models), "cluster": labels.get("cluster"),
                 "sample": sample_col, "run": run_col},
        inputs=[table],
        item_of=item_of_row,
        model_of=model_of_row,
        values=parsed.values[rows],
        rows=rows,
        samples=samples, sample_names=sample_names, labels=found, label_cols=dict(labels),
        ordered=ordered, order_col=order_col,
        arrival=None if order_col is None else order_values(table, order_col, rows))
    if run_col is None:
        return parts
    run_names, runs = label_codes(at_rows(check_labels(table, run_col, "run label", rows), rows))
    return split_runs(parts, runs, run_names)


def _duplicate_pairs(table: Table, ids: np.ndarray, key: np.ndarray, rows: np.ndarray,
                     models: list[str], model_of_row: np.ndarray) -> None:
    """Raise naming the (item, model) pairs that have more than one row."""
    order = np.argsort(key, kind="stable")
    starts, stops = equal_runs(key[order])
    pairs = [(order[a], rows[order[a:b]]) for a, b in zip(starts, stops)]
    pairs.sort(key=lambda pair: min(table.numbers(pair[1])))
    said = [f"item {short(str(ids[k]))} model {short(models[model_of_row[k]])} at "
            f"{table.where(g)}" for k, g in pairs[:MAX_LISTED]]
    raise repeated_pairs(table.label, said, len(pairs))


# --------------------------------------------------------------------------- two files


def two_files_layout(first: Table, second: Table, item: str | tuple[str, ...] | None,
               score: str | None, models: list[str] | None, labels: dict[str, str],
               sample: str | None, run: str | None = None) -> AnswerParts:
    """One model per file; ``item`` names the id column of both, or one per file;
    ``labels`` maps per-item label roles to their columns, in one file or both."""
    tables = [first, second]
    one_name = item is not None and (isinstance(item, str) or len(item) == 1)
    if item is None or isinstance(item, str):
        item_names = [item, item]
    else:  # a tuple: one name for both files, or one per file
        item_names = [item[0], item[-1]]
    if models is not None:
        if len(models) != 2:
            raise EvalbarsError(
                f"with two inputs, models= must give exactly 2 names (one per input); "
                f"got {len(models)}: {name_list(models)}")
        names = list(models)
    else:
        stems = [t.stem for t in tables]
        if None in stems:
            raise EvalbarsError(
                "a DataFrame has no file name to call its model by: name the two models "
                "with models=['a', 'b']")
        if stems[0] == stems[1]:
            raise EvalbarsError(
                f"both inputs are named {stems[0]!r} ({first.label} and {second.label}): "
                f"name the two models with models=['a', 'b'] (--models)")
        names = stems
    for param, name in (*labels.items(), ("sample", sample)):
        if name is not None and name not in first.names and name not in second.names:
            raise EvalbarsError(
                f"{param}={name!r}: no such column in {first.label} nor in {second.label}; "
                f"columns: {name_list(first.names)} and {name_list(second.names)}")
    for table in tables if run is not None else ():
        if run not in table.names:
            raise EvalbarsError(
                f"run={run!r}: no such column in {table.label}; with two inputs each file "
                f"needs the run column (one value for a single run); columns: "
                f"{name_list(table.names)}")
    item_cols, score_cols, label_cols, sample_cols, id_lists, values = [], [], [], [], [], []
    sample_labels: list[str] = []
    run_labels: list[str] = []
    for table, item in zip(tables, item_names):
        mine = {role: col for role, col in labels.items() if col in table.names}
        sample_col = sample if sample in table.names else None
        extra = [c for c in (*mine.values(), sample_col, run) if c is not None]
        if one_name and item not in table.names:
            raise EvalbarsError(
                f"item={item!r}: no such column in {table.label}; columns: "
                f"{name_list(table.names)}; with two files whose id columns differ, name "
                f"one per file: item=({item!r}, 'COL') (--item {item} COL)")
        item_col = resolve_column(table, item, "item") if item is not None else \
            auto_item(table, extra)
        if score is not None:
            score_col = resolve_column(table, score, "score")
        else:
            score_col = auto_score(table, [item_col, *extra])
        check_distinct(table, {"item": item_col, "score": score_col, **mine,
                          "sample": sample_col, "run": run})
        these = check_labels(table, item_col, "item id")
        if run is not None:
            run_labels += check_labels(table, run, "run label")
        if sample_col is None and run is None:
            ids = str_array(these)
            order = np.argsort(ids, kind="stable")
            hint = SAMPLE_HINT if sample is None else \
                f"{table.label} has no sample column {sample!r}"
            _check_unique_ids(table, item_col, ids, order, hint=hint)
        elif sample_col is not None:
            sample_labels += check_labels(table, sample_col, "sample value")
        parsed = parse_scores(table, score_col)
        check_values(table, score_col, parsed)
        item_cols.append(item_col)
        score_cols.append(score_col)
        label_cols.append(mine)
        sample_cols.append(sample_col)
        id_lists.append(these)
        values.append(parsed.values)
    sizes = [len(these) for these in id_lists]
    items, item_of = np.unique(str_array(id_lists[0] + id_lists[1]), return_inverse=True)
    item_of = item_of.reshape(-1)
    per_file = np.split(item_of, [sizes[0]])
    samples = sample_names = None
    if sample is not None:
        sample_names, codes = label_codes(sample_labels)
        samples = np.full(sum(sizes), -1, np.int64)
        samples[np.repeat([col is not None for col in sample_cols], sizes)] = codes
    found = {role: item_labels(role, items, [
        (table, mine[role], np.arange(size), rows_item)
        for table, mine, size, rows_item in zip(tables, label_cols, sizes, per_file)
        if role in mine]) for role in labels}
    fmt = first.fmt if first.fmt == second.fmt else f"{first.fmt}+{second.fmt}"
    parts = AnswerParts(
        layout="two-files",
        fmt=fmt,
        tables=tables,
        score_cols=score_cols,
        models=names,
        items=items,
        columns={"item": item_cols, "model": None, "score": score_cols, "models": names,
                 "cluster": None if "cluster" not in labels
                 else [mine.get("cluster") for mine in label_cols],
                 "sample": None if sample is None else sample_cols, "run": run},
        inputs=tables,
        item_of=item_of,
        model_of=np.repeat([0, 1], sizes),
        values=np.concatenate(values),
        rows=np.concatenate([np.arange(size) for size in sizes]),
        samples=samples,
        sample_names=sample_names, labels=found, label_cols=dict(labels))
    if run is None:
        return parts
    run_names, runs = label_codes(run_labels)
    return split_runs(parts, runs, run_names)
