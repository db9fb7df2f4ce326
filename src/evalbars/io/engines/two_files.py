"""Two files, one model each (or each a model's runs), read and reduced by DuckDB.

Each file is reduced on its own, as a long table of one model (an item column, a score
column named like one, the per-item label, sample and run columns where the file has them), and
the two reduced tables are aligned by item id as :func:`evalbars.io.layouts.two_files_layout`
aligns the files. As for the wide layout (:mod:`~evalbars.io.engines.wide`), the checks
are counts of the reduction, and on the first sign of a problem (a repeated id, a missing
or bad score, items one file lacks, ...) the in-memory reader reads both files and its
message is raised: the same words by construction. A score column found only by being the
one numeric column is left to that reader too.

>>> import pathlib, tempfile
>>> from evalbars.io.engines.duck import open_source
>>> from evalbars.io.engines.sources import describe
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "base.csv").write_text("id,score\\nq1,1\\nq2,0\\n")
>>> _ = (folder / "tuned.csv").write_text("id,score\\nq2,1\\nq1,1\\n")
>>> pair = [describe(str(folder / name)) for name in ("base.csv", "tuned.csv")]
>>> fields = reduce_two(pair, [open_source(s) for s in pair], lambda: None, item=None,
...                     score=None, models=None, score_type="auto", intersect=False,
...                     labels={}, sample=None, run=None)
>>> fields["models"], fields["items"], fields["scores"].tolist()
(('base', 'tuned'), ('q1', 'q2'), [[1.0, 1.0], [0.0, 1.0]])
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import EvalbarsError
from ..columns import SCORE_NAMES, auto_item, check_distinct, named_once, resolve_column
from ..labels import label_fields
from .aligned import Flawed, finish, one_label, systems
from .assemble import LABEL_ENDS, arrow_labels, arrow_numbers, sorted_codes, ends
from .sources import header
from .sql import canonical, reduction


def _file_roles(table, backend, item, score, labels, sample, run, one_name) -> dict:
    """The columns of one file, resolved as ``_two_files`` resolves them."""
    mine = {role: column for role, column in labels.items() if column in table.names}
    sample_col = sample if sample in table.names else None
    extra = [c for c in (*mine.values(), sample_col, run) if c is not None]
    if one_name and item not in table.names:
        raise Flawed
    item_col = resolve_column(table, item, "item") if item is not None else auto_item(table, extra)
    score_col = resolve_column(table, score, "score") if score is not None else \
        named_once(table, SCORE_NAMES, [item_col, *extra], "scores", "score")
    if score_col is None:
        raise Flawed  # the only numeric column: the in-memory reader finds it
    roles = {"item": item_col, "model": None, "score": score_col, **mine,
             "sample": sample_col, "run": run}
    check_distinct(table, roles)
    for role, name in roles.items():
        kind = None if name is None else backend.kinds[name]
        if kind is not None and (kind == "other" or role != "score" and kind not in ("text",
                                                                                    "int")):
            raise Flawed
    return roles


def _reduce_file(source, backend, roles: dict) -> tuple[dict, Any]:
    """The reduced rows of one file (its model's name left NULL) and their labels."""
    canon = canonical(roles, backend.kinds, backend.dialect, backend.src)
    reduced = backend.table(
        f"WITH canon AS ({canon}) {reduction(roles, 'canon', backend.dialect, exact=True)}",
        label=f"reading {source.label} with {backend.name}")
    got = {name: arrow_numbers(reduced.column(name)) for name in reduced.column_names
           if name not in ("model", "run", "item") and name not in LABEL_ENDS}
    got.setdefault("n_samples", got["n_rows"])
    once = roles["sample"] is None and roles["run"] is None
    if not got["n_rows"].sum() or got["odd"].any() or (got["n_rows"] > got["n_samples"]).any() \
            or (once or roles["sample"] is None) and (got["n_rows"] > 1).any():
        raise Flawed
    return got, reduced


def _names(sources, models) -> list[str]:
    if models is not None:
        if len(models) != 2:
            raise Flawed
        return list(models)
    stems = [Path(s.files[0]).stem for s in sources]
    if stems[0] == stems[1]:
        raise Flawed
    return stems


def _reduce(sources, backends, item, score, models, score_type, intersect, labels,
            sample, run) -> dict:
    tables = [header(s.label, s.fmt, b.names) for s, b in zip(sources, backends)]
    one_name = item is not None and (isinstance(item, str) or len(item) == 1)
    items = [item, item] if item is None or isinstance(item, str) else [item[0], item[-1]]
    names = _names(sources, models)
    for name in (*labels.values(), sample):
        if name is not None and all(name not in t.names for t in tables):
            raise Flawed
    if run is not None and any(run not in t.names for t in tables):
        raise Flawed
    roles = [_file_roles(t, b, i, score, labels, sample, run, one_name)
             for t, b, i in zip(tables, backends, items)]
    parts = [_reduce_file(s, b, r) for s, b, r in zip(sources, backends, roles)]
    got = {k: np.concatenate([g[k] for g, _ in parts]) for k in ("n_rows", "n", "s", "ss",
                                                                "n01", "nint", "n_empty")}
    per_file_ids = [arrow_labels(reduced, "item") for _, reduced in parts]
    offset = len(per_file_ids[0][1])
    if any((codes < 0).any() or "" in values for codes, values in per_file_ids):
        raise Flawed
    item_values, item_codes = _merged(
        per_file_ids[0][1] + per_file_ids[1][1],
        np.concatenate([per_file_ids[0][0], per_file_ids[1][0] + offset]))
    ids, item_of = sorted_codes(item_codes, item_values)
    model_of = np.repeat([0, 1], [len(per_file_ids[0][0]), len(per_file_ids[1][0])])
    per_item = {}
    for role in labels:
        low, high, values = [], [], []
        mine = []
        for (_, reduced), r, k in zip(parts, roles, (0, 1)):
            if r.get(role) is not None:
                lo, hi, found = ends(reduced, role)
                low.append(lo + len(values))
                high.append(hi + len(values))
                values += found
                mine.append(item_of[model_of == k])
        values, codes = _merged(values, np.concatenate(low + high))
        low, high = np.split(codes, 2)
        per_item[role] = one_label(low, high, values, np.concatenate(mine), len(ids))
    run_codes, run_values = None, []
    if run is not None:
        runs = [arrow_labels(reduced, "run") for _, reduced in parts]
        run_values = runs[0][1] + runs[1][1]
        run_codes = np.concatenate([runs[0][0], runs[1][0] + len(runs[0][1])])
        run_values, run_codes = _merged(run_values, run_codes)
    found, system_of = systems(names, model_of, run_codes, run_values,
                               np.ones(model_of.size, bool))
    fields = finish(got, item_of, system_of, len(ids), found, score_type, intersect, False)
    kept = fields.pop("kept")
    rows_reduced = fields.pop("rows_reduced")
    fmts = [s.fmt for s in sources]
    per_file = {role: [r.get(role) for r in roles] for role in ("item", "score", "cluster",
                                                                "sample")}
    return dict(
        fields, items=tuple(ids[kept].tolist()),
        **label_fields(per_item, labels, kept),
        source={"layout": "two-files",
                "format": fmts[0] if fmts[0] == fmts[1] else "+".join(fmts),
                "columns": {"item": per_file["item"], "model": None, "score": per_file["score"],
                            "models": names,
                            "cluster": None if "cluster" not in labels
                            else per_file["cluster"],
                            "sample": None if sample is None else per_file["sample"],
                            "run": run},
                "inputs": [s.inputs()[0] for s in sources], "n_items_read": len(ids),
                "engine": {"name": backends[0].name, "version": backends[0].version,
                           "rows_read": int(got["n_rows"].sum()),
                           "rows_reduced": rows_reduced}})


def _merged(values: list, codes: np.ndarray) -> tuple[list, np.ndarray]:
    """Labels of two files (``codes`` into ``values``, which may repeat a label) as codes
    into one list of distinct labels."""
    distinct = list(dict.fromkeys(values))
    where = {v: k for k, v in enumerate(distinct)}
    index = np.array([where[v] for v in values] + [-1], np.int64)
    return distinct, index[codes]


def reduce_two(sources, backends, memory: Callable[[], Any], *, item, score, models,
               score_type, intersect, labels, sample, run) -> dict:
    """Read, check and reduce two files on their backends: the fields of an ItemScores.
    On any problem, ``memory()`` (the in-memory reader) raises its message; should it find
    none, its fields are the answer."""
    try:
        return _reduce(sources, backends, item, score, None if models is None else
                       list(models), score_type, intersect, labels, sample, run)
    except (Flawed, EvalbarsError):
        return memory()
