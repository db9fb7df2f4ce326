"""From the engine's reduced table to the fields of an ItemScores, checking on the way.

:func:`reduce_in_engine` resolves the columns as the in-memory reader does
(:mod:`evalbars.io.columns`), runs the one-pass reduction of :mod:`evalbars.io.engines.sql`
and applies the checks of the long layout in the order :mod:`evalbars.io.layouts` and
:mod:`evalbars.io.validate` apply them, each failure worded by
:mod:`evalbars.io.engines.checks`. What comes back is one row per (model, run, item): the
items x systems table every analysis reads, aligned by sorted item id.

>>> from evalbars.io.engines.duck import open_source
>>> from evalbars.io.engines.sources import describe
>>> source = describe("examples/passk_samples.csv")
>>> fields = reduce_in_engine(source, open_source(source), item=None, model=None,
...                           score=None, models=None, score_type="auto", intersect=False,
...                           labels={"cluster": "topic"}, sample="sample", run=None)
>>> fields["models"], fields["counts"].shape, fields["source"]["engine"]["rows_reduced"]
(('small', 'large'), (50, 2), 100)
"""
from __future__ import annotations

import numpy as np

from ...core.errors import EvalbarsError
from ..answers import natural_key
from ..cells import str_array
from ..labels import ROLES, label_fields
from ..columns import (
    ID_NAMES,
    SCORE_NAMES,
    auto_item,
    auto_model,
    check_distinct,
    named_once,
    resolve_column,
    the_numeric_column,
)
from ..table import Table, name_list, read_only, short
from ..validate import STRAY_SHARE
from . import checks
from .headers import no_rows
from .sources import header
from .sql import BAD, canonical, diagnosis, first_seen, flags, reduction, score_status

_WIDE = ("the {engine} engine reads the long layout (one row per item and model: columns such "
         "as id, model, score), but {label} has no 'model' column: name it with model= "
         "(--model), or read a wide table (one column per model) with engine='memory'")


def _roles(table: Table, backend, item, model, score, labels, sample, run) -> dict:
    """Resolve the columns as :func:`evalbars.io.layouts.long_layout` does."""
    label_cols = {role: resolve_column(table, column, role) for role, column in labels.items()}
    sample_col = resolve_column(table, sample, "sample") if sample is not None else None
    run_col = resolve_column(table, run, "run") if run is not None else None
    model_col = resolve_column(table, model, "model") if model is not None else auto_model(table)
    if model_col is None:
        raise EvalbarsError(_WIDE.format(engine=backend.name, label=table.label))
    extra = [c for c in (*label_cols.values(), sample_col, run_col) if c is not None]
    item_col = resolve_column(table, item, "item") if item is not None else None
    taken = [model_col, *extra] + ([item_col] if item_col else [])
    score_col = resolve_column(table, score, "score") if score is not None else \
        named_once(table, SCORE_NAMES, taken, "scores", "score") or \
        _only_numeric(table, backend, taken)
    if item_col is None:
        item_col = auto_item(table, exclude=(model_col, score_col, *extra))
    roles = {"item": item_col, "model": model_col, "score": score_col, **label_cols,
             "sample": sample_col, "run": run_col}
    check_distinct(table, roles)
    what = {"item": "item id", "model": "model name", "sample": "sample value",
            "run": "run label", **{role: f"{ROLES[role].one} label" for role in label_cols}}
    for role, name in roles.items():
        kind = backend.kinds[name] if name is not None else None
        if role != "score" and kind not in (None, "text", "int"):
            raise EvalbarsError(f"{what[role]}s in column {name!r} must be strings or "
                                f"integers, but {table.label} stores them as {kind} values; "
                                f"convert the column to strings")
    if backend.kinds[score_col] == "other":
        raise EvalbarsError(f"column {score_col!r} of {table.label} does not hold numbers; "
                            f"scores must be numbers or true/false")
    return roles


def _only_numeric(table: Table, backend, exclude: list[str]) -> str:
    """The score column when none is named like one: the only numeric column left."""
    candidates = [c for c in table.names if c not in exclude and c.strip().lower() not in ID_NAMES
                  and backend.kinds[c] != "other"]
    text = [c for c in candidates if backend.kinds[c] == "text"]
    numeric = [c for c in candidates if backend.kinds[c] != "text"]
    if text:
        counts = backend.rows("SELECT " + ", ".join(
            f"sum(CASE WHEN ({score_status(backend.dialect.q(c), 'text', backend.dialect)}) = "
            f"{BAD} THEN 1 ELSE 0 END)" for c in text) + f" FROM {backend.src}")[0]
        numeric = [c for c in candidates if c in numeric or not counts[text.index(c)]]
    return the_numeric_column(table, numeric)


def arrow_labels(table, name: str) -> tuple[np.ndarray, list]:
    """A string column of the reduced table as codes into its distinct values (-1: null),
    encoded by Arrow: no Python string per row."""
    import pyarrow as pa
    import pyarrow.compute as pc

    column = table.column(name)
    if pa.types.is_null(column.type):
        return np.full(len(column), -1, np.int64), []
    encoded = pc.dictionary_encode(column).combine_chunks()
    codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, encoded.dictionary.to_pylist()


def _blank(codes: np.ndarray, values: list) -> bool:
    """True when a label is null or empty."""
    empty = [k for k, v in enumerate(values) if v == ""]
    return bool((codes < 0).any() or np.isin(codes, empty).any())


def sorted_codes(codes: np.ndarray, values: list) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values among ``codes``, sorted (as the in-memory reader sorts ids), and
    each code's position among them."""
    present = np.flatnonzero(np.bincount(codes, minlength=len(values))) \
        if codes.size and codes.min() >= 0 else np.unique(codes)  # bincount: no sort
    names = str_array([values[k] for k in present.tolist()])
    order = np.argsort(names, kind="stable")
    position = np.full(len(values), -1, np.int64)
    position[present[order]] = np.arange(present.size)
    return names[order], position[codes]


def reduce_in_engine(source, backend, *, item, model, score, models, score_type, intersect,
                     labels, sample, run) -> dict:
    """Read, check and reduce ``source`` on ``backend``: the fields of an ItemScores
    (``labels``: the per-item label columns, by role)."""
    table = header(source.label, source.fmt, backend.names)
    roles = _roles(table, backend, item, model, score, labels, sample, run)
    canon = canonical(roles, backend.kinds, backend.dialect, backend.src,
                      nan_missing=source.fmt == "pandas", nan_text=source.fmt == "duckdb")
    label = f"reading {source.label} with {backend.name}"
    ctx = checks.Context(source, backend, roles, None if models is None else tuple(models))
    reduced = backend.table(f"WITH canon AS ({canon}) "
                            f"{reduction(roles, 'canon', backend.dialect)}", label=label)
    if roles["sample"] is not None and pc_sum(reduced, "odd") and \
            _diagnose(ctx, canon, "TRUE", exact=False)["s_odd"]:  # samples other than 0-62
        reduced = backend.table(f"WITH canon AS ({canon}) "
                                f"{reduction(roles, 'canon', backend.dialect, True)}", label)
    # encode the labels, take the counts and sums as NumPy arrays, and let the table go
    model_codes, model_values = arrow_labels(reduced, "model")
    item_codes, item_values = arrow_labels(reduced, "item")
    run_codes, run_values = arrow_labels(reduced, "run") if roles["run"] is not None else (None, [])
    label_codes = {role: ends(reduced, role) for role in labels}
    got = {name: arrow_numbers(reduced.column(name)) for name in reduced.column_names
           if name not in ("model", "run", "item") and name not in LABEL_ENDS}
    del reduced
    got.setdefault("n_samples", got["n_rows"])
    rows_read = int(got["n_rows"].sum())
    if rows_read == 0:
        raise no_rows(source)
    if models is None and _blank(model_codes, model_values):
        checks.empty_label(ctx, "model", "model name", among_chosen=False)
    seen: dict = {}  # models in the order they first appear (a Spark DataFrame: by name)
    for name, file, row in ctx.query(first_seen("canon")) if backend.positions else ():
        seen[name] = min(seen.get(name, (file, row)), (file, row))
    present = sorted((v for v in model_values if v not in (None, "")),
                     key=lambda v: (*seen.get(v, (0, 0)), v))
    if models is None:
        models = present
    else:
        unknown = [m for m in models if m not in set(present)]
        if unknown:
            raise EvalbarsError(
                f"unknown model{'s' if len(unknown) > 1 else ''} {name_list(unknown)} "
                f"(models=): not in column {roles['model']!r} of {source.label}, which holds "
                f"{name_list(present)}")
    index = {m: j for j, m in enumerate(models)}
    model_of = np.array([index.get(v, -1) for v in model_values] + [-1], np.int64)[model_codes]
    keep = model_of >= 0
    if not keep.all():  # models= leaves some out
        model_of, item_codes = model_of[keep], item_codes[keep]
        run_codes = None if run_codes is None else run_codes[keep]
        label_codes = {role: (low[keep], high[keep], values)
                       for role, (low, high, values) in label_codes.items()}
        got = {name: values[keep] for name, values in got.items()}
    if _blank(item_codes, item_values):
        checks.empty_label(ctx, "item", "item id")
    if roles["sample"] is None and roles["run"] is None and (got["n_rows"] > 1).any():
        checks.duplicates(ctx)
    odd = _diagnose(ctx, canon, ctx.chosen_sql()) if got["odd"].sum() else {}
    if odd.get("s_empty"):
        checks.empty_label(ctx, "sample", "sample value")
    if odd.get("n_bad"):
        checks.bad_scores(ctx)
    items, item_of = sorted_codes(item_codes, item_values)
    per_item = {role: _item_labels(ctx, role, codes, odd, items, item_of)
                for role, codes in label_codes.items()}
    if odd.get("r_empty"):
        checks.empty_label(ctx, "run", "run label")
    systems, system_of = _systems(model_of, models, run_codes, run_values)
    if roles["sample"] is not None and (got["n_rows"] > got["n_samples"]).any() or \
            roles["sample"] is None and roles["run"] is not None and (got["n_rows"] > 1).any():
        checks.duplicates(ctx)
    names = [m if r is None else f"{m}@{r}" for m, r in systems]
    shape = (len(items), len(systems))

    def per_cell(values: np.ndarray) -> np.ndarray:  # one reduced row per (item, system)
        out = np.zeros(shape)
        out[item_of, system_of] = values
        return out

    n, n01, nint = (np.bincount(system_of, got[k], len(systems)) for k in ("n", "n01", "nint"))
    kind = _score_type(ctx, names, systems, n, n01, nint, score_type)
    if not intersect:
        empty = np.bincount(system_of, got["n_empty"], len(systems))
        if empty.any():
            checks.missing_scores(ctx, [(names[j], *systems[j], int(empty[j]))
                                        for j in np.flatnonzero(empty)])
        has_row = per_cell(got["n_rows"]) > 0
        if not has_row.all():
            checks.absent_items(names, items, has_row, roles["item"])
    counts = per_cell(got["n"])
    scored = counts > 0
    kept = scored.all(axis=1)
    n_keep = int(kept.sum())
    if n_keep == 0:
        per_model = ", ".join(f"{m!r} {int(c)}" for m, c in zip(names, scored.sum(axis=0)))
        raise EvalbarsError(
            f"no item has a score for every model (items scored per model: {per_model}); "
            f"check that the item ids match across models")
    dropped = {m: int(c) - n_keep for m, c in zip(names, scored.sum(axis=0))} \
        if intersect else None
    sums, sumsq, counts = per_cell(got["s"])[kept], per_cell(got["ss"])[kept], counts[kept]
    fmt = "dataframe" if source.fmt == "pandas" else source.fmt
    return dict(
        items=tuple(items[kept].tolist()), models=tuple(names),
        scores=read_only(sums / counts), score_type=kind, dropped=dropped,
        source={"layout": "long", "format": fmt,
                "columns": {**{k: roles[k] for k in ("item", "model", "score")},
                            "models": list(models), "cluster": roles.get("cluster"),
                            **{k: roles[k] for k in ("sample", "run")}},
                "inputs": source.inputs(), "n_items_read": len(items),
                "engine": {"name": backend.name, "version": backend.version,
                           "rows_read": rows_read, "rows_reduced": int(keep.sum())}},
        counts=read_only(counts.astype(np.int64)), sumsq=read_only(sumsq),
        **label_fields(per_item, label_cols_of(roles), kept),
        runs=None if roles["run"] is None else tuple(systems))


def _diagnose(ctx, canon: str, where: str, exact: bool = True) -> dict[str, int]:
    """How many rows meeting ``where`` have each problem that makes a row odd."""
    backend = ctx.backend
    query = diagnosis(ctx.roles, "canon", where, backend.dialect, exact)
    row = backend.rows(f"WITH canon AS ({canon}) {query}")[0]
    names = flags(ctx.roles, backend.dialect, exact)
    return {name: int(value or 0) for name, value in zip(names, row)}


def pc_sum(table, name: str) -> int:
    """The sum of a count column of the reduced table."""
    import pyarrow.compute as pc

    return int(pc.sum(table.column(name)).as_py() or 0)


def arrow_numbers(column) -> np.ndarray:
    """A count or sum column as a NumPy array, nulls (sums of no answer) as 0."""
    import pyarrow.compute as pc

    if column.null_count:
        column = pc.fill_null(column, 0)
    return column.to_numpy()


LABEL_ENDS = frozenset(f"{role}_{end}" for role in ROLES for end in ("lo", "hi"))
"""The reduced table's columns of per-item labels (:func:`evalbars.io.engines.sql.reduction`)."""


def label_cols_of(roles: dict) -> dict[str, str]:
    """The per-item label columns among ``roles``, by role."""
    return {role: roles[role] for role in ROLES if roles.get(role) is not None}


def ends(reduced, role: str) -> tuple[np.ndarray, np.ndarray, list]:
    """The least and greatest label of ``role`` of each reduced row, as codes into one list
    of the labels."""
    import pyarrow as pa

    both = pa.chunked_array(reduced.column(f"{role}_lo").chunks
                            + reduced.column(f"{role}_hi").chunks)
    codes, values = arrow_labels(pa.table({"c": both}), "c")
    low, high = np.split(codes, 2)
    return low, high, values


def _item_labels(ctx, role: str, label_codes: tuple, odd: dict, items: np.ndarray,
                 item_of: np.ndarray) -> np.ndarray:
    """Each item's one label of ``role``; raise on an empty label or an item given two."""
    if odd.get(f"{role}_empty"):
        checks.empty_label(ctx, role, f"{ROLES[role].one} label")
    low, high, values = label_codes
    names, rank = sorted_codes(np.concatenate([low, high]), values)
    low, high = np.split(rank, 2)
    lo = np.full(len(items), names.size, np.int64)
    hi = np.full(len(items), -1, np.int64)
    np.minimum.at(lo, item_of, low)
    np.maximum.at(hi, item_of, high)
    clash = np.flatnonzero(lo != hi)
    if clash.size:
        checks.label_clash(ctx, role, items[clash].tolist())
    return np.array(names.tolist() + [None], dtype=object)[lo]


def _systems(model_of: np.ndarray, models: list[str], run_codes: np.ndarray | None,
             run_values: list) -> tuple[list, np.ndarray]:
    """The scored systems, (model, run) model by model (runs in natural order), and the
    system of each reduced row."""
    if run_codes is None:
        return [(m, None) for m in models], model_of
    width = len(run_values) + 1
    pairs = np.unique(model_of * width + run_codes).tolist()
    systems = [(m, r) for j, m in enumerate(models)
               for r in sorted({run_values[p % width] for p in pairs if p // width == j},
                               key=natural_key)]
    names = [f"{m}@{r}" for m, r in systems]
    clash = sorted({name for name in names if names.count(name) > 1})
    if clash:
        pairs_of = [f"model {short(m)} run {short(r)}" for (m, r), name in zip(systems, names)
                    if name == clash[0]]
        raise EvalbarsError(
            f"{' and '.join(pairs_of)} both make the name {clash[0]!r} (model@run); rename "
            f"a model or a run so that the names differ")
    index = {pair: j for j, pair in enumerate(systems)}
    lookup = np.array([[index.get((m, r), -1) for r in run_values] for m in models], np.int64)
    return systems, lookup[model_of, run_codes]


def _score_type(ctx, names, systems, n, n01, nint, score_type: str) -> str:
    """Apply ``score_type`` to each system's answers, as
    :func:`evalbars.io.validate.check_score_type` does; the type of them all."""
    all_binary = True
    for j, name in enumerate(names):
        if n01[j] == n[j]:
            continue
        all_binary = False
        if score_type == "continuous":
            continue
        if score_type == "auto" and not (nint[j] == n[j] and n01[j] / n[j] >= STRAY_SHARE):
            continue
        checks.not_binary(ctx, name, *systems[j], binary=score_type == "binary")
    if score_type == "auto":
        return "binary" if all_binary else "continuous"
    return score_type
