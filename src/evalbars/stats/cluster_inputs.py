"""Clustered inputs: per-item scores checked, and cluster labels coded ``0..G-1``.

The clustered methods (:mod:`evalbars.stats.clustering`,
:mod:`evalbars.stats.cluster_resampling`) take aligned arrays: scores (one per item) and
``clusters`` (one label per item: str, int, or any hashable). Integer labels in a range
of at most a few times n, such as precomputed codes ``0..G-1``, are the fast path (no
sort, no hashing): pass them when the same clustering is used many times on a million
items. Codes follow the sorted distinct labels, so they never depend on the row order.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.errors import EvalbarsError


def score_matrix(x: object, name: str, *, columns: bool = False) -> np.ndarray:
    """``x`` as an (n, m) float array of finite numbers (m = 1 unless ``columns``).

    A float array is used as is (a view, never written to), anything else converted."""
    arr = np.asarray(x)
    shape = "1-D or 2-D (items x columns)" if columns else "1-D"
    if arr.ndim not in ((1, 2) if columns else (1,)):
        raise EvalbarsError(f"{name} must be a {shape} array of per-item scores; "
                            f"got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise EvalbarsError(f"{name} must contain numbers (0/1 or real scores); "
                            f"got values of dtype {arr.dtype}")
    arr = arr.astype(float, copy=False)
    arr = arr[:, None] if arr.ndim == 1 else arr
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))
        raise EvalbarsError(f"{name} must contain only finite numbers; "
                            f"got {arr[tuple(bad[0])]} at item index {bad[0][0]}")
    return arr


_DENSE_RANGE = 4
"""Integer labels spanning at most this many times n (+ 1024) are coded by offset."""


def cluster_codes(clusters: object, n: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(code per item, items per cluster, distinct labels); codes follow the sorted labels.

    At least two clusters and no missing labels. Codes are ``0..G-1`` in the order of the
    sorted distinct labels (first appearance when labels of mixed types do not sort), so
    they depend only on the set of labels, never on the row order. Three routes, fastest
    first: integer labels in a range of at most a few times n (precomputed codes
    ``0..G-1`` among them) by offset and counting, O(n) with no sort; labels that are
    Python objects or strings through a dict, O(n) hashing, and a sort of the G distinct
    labels; anything else (floats, bools, sparse integers) through ``np.unique``.
    """
    arr = np.asarray(clusters)
    if arr.dtype.kind == "U" and not isinstance(clusters, np.ndarray) and any(
            not isinstance(v, str) for v in clusters):  # numpy would turn 1 into "1"
        arr = np.fromiter(clusters, dtype=object)
    if arr.ndim != 1:
        raise EvalbarsError(f"clusters must be a 1-D array of labels, one per item; "
                            f"got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise EvalbarsError(f"clusters must have one label per item ({n} items); "
                            f"got {arr.size} labels")
    found = _integer_codes(arr)
    if found is None and arr.dtype.kind in "OUS":
        found = _hashed_codes(arr)
    if found is None:
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            _missing(arr.tolist(), np.isnan(arr))
        uniques, codes, sizes = np.unique(arr, return_inverse=True, return_counts=True)
        found = codes.reshape(-1).astype(np.intp, copy=False), sizes, uniques
    codes, sizes, uniques = found
    if sizes.size < 2:
        raise EvalbarsError(
            f"clusters must hold at least 2 distinct labels (a clustered standard error "
            f"needs at least 2 clusters); got {sizes.size}"
            + (f" ({uniques[:1].tolist()[0]!r})" if sizes.size else ""))
    return codes, sizes, uniques


def _integer_codes(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Codes by offset from the smallest label, for integers in a dense enough range."""
    if arr.dtype.kind not in "iu" or arr.size == 0:
        return None
    low, high = int(arr.min()), int(arr.max())
    if high - low > _DENSE_RANGE * arr.size + 1024 or high > np.iinfo(np.int64).max:
        return None
    if arr.dtype.kind == "u":
        offsets = (arr - arr.dtype.type(low)).astype(np.intp)  # arr >= low: no wrap-around
    else:
        offsets = arr.astype(np.intp, copy=False)
        offsets = offsets - low if low else offsets
    counts = np.bincount(offsets)
    used = counts > 0
    if used.all():  # already codes 0..G-1 (after the offset)
        return offsets, counts, np.arange(low, high + 1)
    present = np.flatnonzero(used)
    remap = np.cumsum(used, dtype=np.intp) - 1
    return remap[offsets], counts[present], present + low


def _hashed_codes(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Codes of hashable labels through a dict (first appearance), then relabelled in the
    sorted order of the distinct labels when they sort."""
    values = arr.tolist()
    try:
        index = dict.fromkeys(values)
    except TypeError:  # unhashable labels: leave them to np.unique
        return None
    keys = list(index)
    if arr.dtype.kind == "O":
        missing = [k for k in keys if k is None or (isinstance(k, float) and math.isnan(k))]
        if missing:
            _missing(values, None)
    try:
        keys = sorted(keys)
    except TypeError:  # labels of mixed types that do not sort together
        pass
    for code, key in enumerate(keys):
        index[key] = code
    codes = np.fromiter(map(index.__getitem__, values), dtype=np.intp, count=len(values))
    return codes, np.bincount(codes, minlength=len(keys)), np.fromiter(keys, dtype=object,
                                                                      count=len(keys))


def _missing(values: list, missing: np.ndarray | None) -> None:
    """Raise the error naming the first missing label (None or nan)."""
    if missing is None:
        missing = np.array([v is None or (isinstance(v, float) and math.isnan(v))
                            for v in values], dtype=bool)
    at = int(np.flatnonzero(missing)[0])
    raise EvalbarsError(f"clusters must not contain missing labels; "
                        f"got {values[at]!r} at index {at}")


def paired_differences(a: object, b: object) -> np.ndarray:
    """``b - a`` as an (n, 1) array, for equal-length validated scores."""
    a_arr, b_arr = score_matrix(a, "a"), score_matrix(b, "b")
    if a_arr.shape[0] != b_arr.shape[0]:
        raise EvalbarsError(f"a and b must have the same length (one score per item, "
                            f"aligned); got {a_arr.shape[0]} and {b_arr.shape[0]}")
    return b_arr - a_arr
