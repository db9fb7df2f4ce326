"""From reduced (model, run, item) rows to the fields of an ItemScores, for the wide and
two-file layouts, which any problem sends back to the in-memory reader.

Each function raises :class:`Flawed` where :mod:`evalbars.io.validate` (or
:func:`evalbars.io.answers.split_runs`) would raise: the caller then lets the in-memory
reader word the message, and uses its answer should it find nothing wrong.

>>> systems(["a", "b"], np.array([0, 0, 1]), np.array([0, 1, 0]), ["10", "2"],
...         np.array([True, True, True]))
([('a', '2'), ('a', '10'), ('b', '10')], array([1, 0, 2]))
"""
from __future__ import annotations

import numpy as np

from ..answers import natural_key
from ..validate import STRAY_SHARE
from ..table import read_only
from .assemble import sorted_codes


class Flawed(Exception):
    """The engine saw a problem; the in-memory reader words it."""


def systems(models: list[str], model_of: np.ndarray, run_codes: np.ndarray | None,
            run_values: list, present: np.ndarray) -> tuple[list, np.ndarray]:
    """The (model, run) systems among the reduced rows ``present`` (those with a score, or
    a row), model by model, runs in natural order, and the system of each reduced row (-1:
    a pair that is no system)."""
    if run_codes is None:
        return [(m, None) for m in models], model_of
    if not present.any() or (run_codes < 0).any():
        raise Flawed
    width = len(run_values)
    order = sorted(sorted(range(width), key=lambda k: run_values[k]),
                   key=lambda k: natural_key(run_values[k]))
    rank = np.empty(width, np.int64)
    rank[order] = np.arange(width)
    key = model_of * width + rank[run_codes]
    pairs = np.unique(key[present])
    found = [(models[p // width], run_values[order[p % width]]) for p in pairs.tolist()]
    names = [f"{m}@{r}" for m, r in found]
    if len(set(names)) < len(names):
        raise Flawed
    position = np.minimum(np.searchsorted(pairs, key), pairs.size - 1)
    return found, np.where(pairs[position] == key, position, -1)


def score_type(n, n01, nint, wanted: str, guessed: bool) -> str:
    """The type of every system's scores, as ``_check_score_type`` finds it."""
    binary = n01 == n
    for j in np.flatnonzero(~binary):
        stray = nint[j] == n[j] and n01[j] / n[j] >= STRAY_SHARE
        if wanted == "binary" or wanted == "auto" and stray:
            raise Flawed
    if guessed and wanted == "auto" and not binary.all() and binary.any():
        raise Flawed  # columns on two scales: the in-memory reader says which
    if wanted == "auto":
        return "binary" if binary.all() else "continuous"
    return wanted


def one_label(low: np.ndarray, high: np.ndarray, labels: list, item_of: np.ndarray,
              n_items: int) -> np.ndarray:
    """Each item's label of a per-item role (None where no row gives one), from the least
    and greatest label codes of its rows; :class:`Flawed` where an item has two."""
    names, rank = sorted_codes(np.concatenate([low, high]), labels)
    low, high = np.split(rank, 2)
    lo = np.full(n_items, names.size, np.int64)
    hi = np.full(n_items, -1, np.int64)
    np.minimum.at(lo, item_of, low)
    np.maximum.at(hi, item_of, high)
    known = hi >= 0
    if (lo[known] != hi[known]).any():
        raise Flawed
    out = np.full(n_items, None, dtype=object)
    out[known] = names[lo[known]].tolist()
    return out


def finish(got: dict, item_of: np.ndarray, system_of: np.ndarray, n_items: int,
           found: list, wanted: str, intersect: bool, guessed: bool) -> dict:
    """The aligned fields (items kept as a mask ``kept``) of the reduced rows ``got``."""
    mine = system_of >= 0
    shape = (n_items, len(found))

    def per_cell(values: np.ndarray) -> np.ndarray:
        out = np.zeros(shape)
        out[item_of[mine], system_of[mine]] = values[mine]
        return out

    n, n01, nint = (np.bincount(system_of[mine], got[k][mine], len(found))
                    for k in ("n", "n01", "nint"))
    kind = score_type(n, n01, nint, wanted, guessed)
    if not intersect and (got["n_empty"][mine].any() or not (per_cell(got["n_rows"]) > 0).all()):
        raise Flawed
    counts = per_cell(got["n"])
    scored = counts > 0
    kept = scored.all(axis=1)
    if not kept.any():
        raise Flawed
    names = [m if r is None else f"{m}@{r}" for m, r in found]
    dropped = {m: int(c) - int(kept.sum()) for m, c in zip(names, scored.sum(axis=0))} \
        if intersect else None
    sums, sumsq, counts = per_cell(got["s"])[kept], per_cell(got["ss"])[kept], counts[kept]
    return {"kept": kept, "models": tuple(names), "scores": read_only(sums / counts),
            "score_type": kind, "dropped": dropped,
            "counts": read_only(counts.astype(np.int64)), "sumsq": read_only(sumsq),
            "runs": None if found[0][1] is None else tuple(found),
            "rows_reduced": int(mine.sum())}
