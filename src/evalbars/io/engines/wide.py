"""The wide layout (an id column, one score column per model) read and reduced by DuckDB.

:func:`reduce_wide` finds the model columns as :func:`evalbars.io.layouts.wide_layout` does (the
columns left besides the item, cluster, sample, run and id-like ones whose cells are all
numbers), unpivots them in SQL into the canonical long table (one row per score cell) and
reduces it per (model, run, item) in the one pass of :mod:`evalbars.io.engines.sql`. The
checks are counts in that pass: a repeated id or (item, sample) pair, a cell that is not a
number, an empty cell, an empty label, an item in two clusters, a stray value in a 0/1
column. On the first sign of any of them the file is read once more by the in-memory
reader, whose message (file, line, ids) is the one raised: the same words by construction.

>>> from evalbars.io.engines.duck import open_source
>>> from evalbars.io.engines.sources import describe
>>> source = describe("examples/cookbook_topics.csv")
>>> fields = reduce_wide(source, open_source(source), lambda: None, item=None, score=None,
...                      models=None, score_type="auto", intersect=False,
...                      labels={"cluster": "topic_id"},
...                      sample=None, run=None)
>>> fields["models"], fields["counts"].shape, fields["source"]["layout"]
(('system_a', 'system_b'), (200, 2), 'wide')
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.errors import EvalbarsError
from ..columns import ID_NAMES, auto_item, check_distinct, resolve_column
from ..validate import check_model_count
from ..labels import ROLES, label_fields
from .aligned import Flawed, finish, one_label, systems
from .assemble import LABEL_ENDS, arrow_labels, arrow_numbers, sorted_codes, ends, label_cols_of
from .sources import header
from .sql import BAD, EMPTY, reduction, score_status, score_value


def _model_columns(table, backend, roles: dict, models: list[str] | None) -> list[str]:
    """The score columns, named (``models``) or found as the in-memory reader finds them."""
    if models is not None:
        if any(m not in table.names or m in roles.values() for m in models):
            raise Flawed
        return list(models)
    candidates = [c for c in table.names
                  if c not in roles.values() and c.strip().lower() not in ID_NAMES]
    if any(backend.kinds[c] == "other" for c in candidates):
        raise Flawed
    text = [c for c in candidates if backend.kinds[c] == "text"]
    counts = {}
    if text:
        q = backend.dialect.q
        row = backend.rows("SELECT count(*), " + ", ".join(
            f"sum(CASE WHEN ({score_status(q(c), 'text', backend.dialect)}) = {s} THEN 1 "
            f"ELSE 0 END)" for c in text for s in (BAD, EMPTY)) + f" FROM {backend.src}")[0]
        for k, c in enumerate(text):
            bad, empty = int(row[1 + 2 * k] or 0), int(row[2 + 2 * k] or 0)
            if bad and row[0] - empty - bad >= bad:
                raise Flawed  # mostly numbers: a model column with typos
            counts[c] = bad
    found = [c for c in candidates if not counts.get(c)]
    if not found:
        raise Flawed
    return found


def _canonical(roles: dict, columns: list[str], kinds: dict, dialect, src: str) -> str:
    """The canonical long table: one row per score cell of each model column."""
    q = dialect.q
    keys = []
    for role in ("item", *ROLES, "sample", "run"):
        name = roles.get(role)
        keys.append(f"CAST({q(name)} AS STRING) AS {role}" if name else f"NULL AS {role}")
    parts = []
    for name in columns:
        col, kind = q(name), kinds[name]
        status = score_status(col, kind, dialect)
        parts.append(f"SELECT {', '.join(keys)}, {dialect.literal(name)} AS model, "
                     f"{status} AS st, CASE WHEN ({status}) = 0 THEN "
                     f"{score_value(col, kind)} END AS v, __file, __row FROM {src}")
    return " UNION ALL ".join(parts)


def _roles(table, item, models, labels, sample, run) -> dict:
    """Resolve the columns as :func:`evalbars.io.ingest.load` and ``_wide`` do."""
    label_cols = {role: resolve_column(table, column, role) for role, column in labels.items()}
    sample_col = resolve_column(table, sample, "sample") if sample is not None else None
    run_col = resolve_column(table, run, "run") if run is not None else None
    extra = [c for c in (*label_cols.values(), sample_col, run_col) if c is not None]
    item_col = resolve_column(table, item, "item") if item is not None else auto_item(table, extra)
    roles = {"item": item_col, **label_cols, "sample": sample_col, "run": run_col}
    check_distinct(table, roles)
    check_model_count(table, models, roles)
    return roles


def _reduce(source, backend, item, models, score_type, intersect, labels, sample,
            run) -> dict:
    table = header(source.label, source.fmt, backend.names)
    roles = _roles(table, item, models, labels, sample, run)
    for name in roles.values():
        if name is not None and backend.kinds[name] not in ("text", "int"):
            raise Flawed
    columns = _model_columns(table, backend, roles, models)
    canon = _canonical(roles, columns, backend.kinds, backend.dialect, backend.src)
    sql_roles = {**roles, "model": "model"}
    reduced = backend.table(f"WITH canon AS ({canon}) "
                            f"{reduction(sql_roles, 'canon', backend.dialect, exact=True)}",
                            label=f"reading {source.label} with {backend.name}")
    model_codes, model_values = arrow_labels(reduced, "model")
    item_codes, item_values = arrow_labels(reduced, "item")
    run_codes, run_values = arrow_labels(reduced, "run") if roles["run"] else (None, [])
    label_codes = {role: ends(reduced, role) for role in labels}
    got = {name: arrow_numbers(reduced.column(name)) for name in reduced.column_names
           if name not in ("model", "run", "item") and name not in LABEL_ENDS}
    del reduced
    got.setdefault("n_samples", got["n_rows"])
    if not got["n_rows"].sum() or got["odd"].any() or (item_codes < 0).any() \
            or "" in item_values or (got["n_rows"] > got["n_samples"]).any() \
            or roles["sample"] is None and (got["n_rows"] > 1).any():
        raise Flawed
    index = {m: j for j, m in enumerate(columns)}
    model_of = np.array([index[v] for v in model_values], np.int64)[model_codes]
    items, item_of = sorted_codes(item_codes, item_values)
    per_item = {role: one_label(*codes, item_of, len(items))
                for role, codes in label_codes.items()}
    found, system_of = systems(columns, model_of, run_codes, run_values, got["n"] > 0)
    fields = finish(got, item_of, system_of, len(items), found, score_type, intersect,
                    models is None)
    kept = fields.pop("kept")
    rows_reduced = fields.pop("rows_reduced")
    return dict(
        fields, items=tuple(items[kept].tolist()),
        **label_fields(per_item, label_cols_of(roles), kept),
        source={"layout": "wide", "format": source.fmt,
                "columns": {"item": roles["item"], "model": None, "score": None,
                            "models": list(columns), "cluster": roles.get("cluster"),
                            **{k: roles[k] for k in ("sample", "run")}},
                "inputs": source.inputs(), "n_items_read": len(items),
                "engine": {"name": backend.name, "version": backend.version,
                           "rows_read": int(got["n_rows"].sum()) // len(columns),
                           "rows_reduced": rows_reduced}})


def reduce_wide(source, backend, memory: Callable[[], Any], *, item, score, models,
                score_type, intersect, labels, sample, run) -> dict:
    """Read, check and reduce the wide table ``source`` on ``backend``: the fields of an
    ItemScores. On any problem, ``memory()`` (the in-memory reader) raises its message;
    should it find none, its fields are the answer."""
    try:
        if score is not None:  # the long layout's option: the in-memory reader says so
            raise Flawed
        return _reduce(source, backend, item, None if models is None else list(models),
                       score_type, intersect, labels, sample, run)
    except (Flawed, EvalbarsError):
        return memory()
