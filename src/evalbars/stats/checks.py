"""Checks of per-question score arrays and resampling arguments, shared by the statistics.

:mod:`evalbars.stats.intervals` and the paired tests (:mod:`evalbars.stats.significance`,
:mod:`evalbars.stats.mcnemar`, :mod:`evalbars.stats.permutation`,
:mod:`evalbars.stats.signed_rank`) take the same inputs (one model's scores, or two
models' scores aligned by question), so they check them here and say what is wrong in
the same words; so do the tests and the cluster bootstrap that take ``n_resamples`` and
``seed``. (:mod:`evalbars.stats.cluster_inputs` has its own check of scores: it takes
items x columns arrays and keeps float input as a view.)
"""
from __future__ import annotations

import operator

import numpy as np

from ..core.errors import EvalbarsError


def scores(x: object, name: str) -> np.ndarray:
    """``x`` as a non-empty 1-D float array of finite numbers, or EvalbarsError.

    A float array is returned as is (callers never write to it), anything else converted.

    >>> scores([1, 0, 1], "x")
    array([1., 0., 1.])
    >>> scores([0.5, float("nan")], "b")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: b must contain only finite numbers; got nan at index 1
    """
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:
        raise EvalbarsError(
            f"{name} must be a 1-D array of numbers; got {type(x).__name__} ({exc})"
        ) from None
    if arr.ndim != 1:
        raise EvalbarsError(f"{name} must be a 1-D array of per-question scores; "
                            f"got shape {arr.shape}")
    if arr.size == 0:
        raise EvalbarsError(f"{name} must hold at least one question; got 0")
    if arr.dtype.kind not in "biuf":
        raise EvalbarsError(f"{name} must contain numbers (0/1 or real scores); "
                            f"got values of dtype {arr.dtype}")
    arr = arr.astype(float, copy=False)
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise EvalbarsError(f"{name} must contain only finite numbers; "
                            f"got {arr[bad[0]]} at index {bad[0]}")
    return arr


def pair(a: object, b: object) -> tuple[np.ndarray, np.ndarray]:
    """Two models' checked scores, of equal length (one per question, aligned).

    >>> try:
    ...     pair([1, 0], [1, 1, 0])
    ... except EvalbarsError as error:
    ...     print(error)
    a and b must have the same length (one score per question, aligned); got 2 and 3
    """
    a_arr, b_arr = scores(a, "a"), scores(b, "b")
    if a_arr.size != b_arr.size:
        raise EvalbarsError(
            f"a and b must have the same length (one score per question, aligned); "
            f"got {a_arr.size} and {b_arr.size}"
        )
    return a_arr, b_arr


def require_binary(a: np.ndarray, b: np.ndarray, purpose: str, hint: str = "") -> None:
    """EvalbarsError naming the first score of ``a``, then ``b``, that is not 0 or 1.

    ``purpose`` names what needs 0/1 scores; ``hint`` is appended to the message.

    >>> try:
    ...     require_binary(np.array([1.0, 0.0]), np.array([1.0, 0.5]), "method 'newcombe'")
    ... except EvalbarsError as error:
    ...     print(error)
    b must contain only 0/1 scores for method 'newcombe'; got 0.5 at index 1
    """
    for name, arr in (("a", a), ("b", b)):
        bad = np.flatnonzero((arr != 0) & (arr != 1))
        if bad.size:
            raise EvalbarsError(f"{name} must contain only 0/1 scores for {purpose}; "
                                f"got {arr[bad[0]]} at index {bad[0]}{hint}")


def checked_resamples(value: object) -> int:
    if isinstance(value, bool):
        value = None  # True is not a count
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        count = 0
    if count < 1:
        raise EvalbarsError(f"n_resamples must be a positive integer; got {value!r}")
    return count


def checked_seed(seed: object) -> np.random.SeedSequence | None:
    if seed is not None and not isinstance(seed, np.random.SeedSequence):
        raise EvalbarsError(
            f"seed must be a numpy.random.SeedSequence or None; got {seed!r}"
        )
    return seed
