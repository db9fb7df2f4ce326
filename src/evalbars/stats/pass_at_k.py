"""pass@k and pass^k: the chance that at least one, or all, of k sampled answers pass.

Code benchmarks sample n answers per problem and count the c that pass. The unbiased
estimator of Chen et al. (2021, "Evaluating Large Language Models Trained on Code",
section 2.1) is ``1 - C(n - c, k) / C(n, k)`` per problem, averaged over problems;
:func:`pass_at_k` computes it as a product, without binomial coefficients. The tempting
shortcut ``1 - (1 - c/n)^k`` plugs the estimated pass rate into a curved formula and comes
out low on average; it is reported next to the estimate, labelled, for contrast only.

pass^k asks the reliability question instead: do *all* k tries pass? tau-bench (Yao et al.
2024, "tau-bench: A Benchmark for Tool-Agent-User Interaction", section 3) estimates it per
task as ``C(c, k) / C(n, k)``, the chance that k answers drawn without replacement from
the n all pass, unbiased for ``p^k``; :func:`pass_hat_k` computes it. Its plug-in
``(c/n)^k`` is biased high (Jensen's inequality: ``x^k`` is convex).

The analysis that reads answers and gives each model's pass@k with intervals over
problems, and the paired gap of two models, is :func:`evalbars.passk`
(:mod:`evalbars.analyses.passk`).
"""
from __future__ import annotations

import numpy as np

from ..core.errors import EvalbarsError

SHORTCUT = "1 - (1 - c/n)^k"
"""The biased plug-in formula shown next to the estimate."""

SHORTCUT_HAT = "(c/n)^k"
"""The biased plug-in of pass^k shown next to its estimate."""


def whole_numbers(value, name: str, minimum: int) -> np.ndarray:
    array = np.asarray(value)
    if array.dtype == bool or array.dtype.kind not in "iuf" or not np.all(np.isfinite(array)) \
            or not np.all(array == np.rint(array)) or np.any(array < minimum):
        raise EvalbarsError(f"{name} must be whole numbers >= {minimum}; got {value!r}")
    return array.astype(np.int64)


def _log_none(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``log C(n - c, k) / C(n, k)`` (k draws all miss the c), and where it is -inf."""
    n, c, k = (np.asarray(v, dtype=float) for v in np.broadcast_arrays(n, c, k))
    sure = n - c < k  # every k-subset holds one of the c
    terms = np.where(sure, 0.0, np.minimum(c, k))
    larger = np.maximum(c, k)
    log_none = np.zeros(n.shape)
    for j in range(int(terms.max(initial=0))):
        active = j < terms
        log_none += np.log1p(-np.where(active, larger / np.where(active, n - j, 1.0), 0.0))
    return log_none, sure


def pass_at_k_unchecked(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """pass@k for broadcastable integer arrays with 0 <= c <= n and 1 <= k <= n."""
    log_none, sure = _log_none(n, c, k)
    return np.where(sure, 1.0, 0.0 - np.expm1(log_none))  # 0.0 - x: never -0.0


def pass_hat_k_unchecked(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """pass^k for broadcastable integer arrays with 0 <= c <= n and 1 <= k <= n."""
    log_all, never = _log_none(n, np.asarray(n) - np.asarray(c), k)  # all pass = no fail drawn
    return np.where(never, 0.0, np.exp(log_all))


def pass_at_k(n, c, k):
    """The unbiased pass@k estimate from n sampled answers of which c pass.

    Parameters
    ----------
    n, c, k : int or array of int
        Answers sampled, answers that pass, and tries; broadcast against each other.
        Need ``0 <= c <= n`` and ``1 <= k <= n``.

    Returns
    -------
    float, or an ndarray when any input is an array.

    Notes
    -----
    ``1 - C(n - c, k) / C(n, k)``: one minus the chance that k answers drawn without
    replacement from the n all fail (Chen et al. 2021). Computed as
    ``1 - prod_{j<t} (1 - s / (n - j))`` with ``t = min(c, k)`` and ``s = max(c, k)``, equal
    to Chen et al.'s ``1 - prod_{i=n-c+1}^{n} (1 - k/i)`` (the ratio is symmetric in c and k),
    summed as logarithms (``log1p``, ``expm1``) so that no binomial coefficient is formed
    and small values keep their relative precision; 1 when ``n - c < k``. Validated against
    exact rational arithmetic with ``math.comb`` (tests/analyses/test_passk.py).

    Examples
    --------
    Seed 000's example, 10 answers of which 3 pass:

    >>> round(pass_at_k(10, 3, 5), 3)
    0.917
    >>> pass_at_k([200, 200], [1, 150], 100).round(4)
    array([0.5, 1. ])
    """
    out = pass_at_k_unchecked(*_checked(n, c, k))
    return float(out) if out.ndim == 0 else out


def pass_hat_k(n, c, k):
    """The unbiased pass^k estimate (all k tries pass) from n answers of which c pass.

    Parameters
    ----------
    n, c, k : int or array of int
        Answers sampled, answers that pass, and tries; broadcast against each other.
        Need ``0 <= c <= n`` and ``1 <= k <= n``.

    Returns
    -------
    float, or an ndarray when any input is an array.

    Notes
    -----
    ``C(c, k) / C(n, k)``: the chance that k answers drawn without replacement from the n
    all pass (tau-bench, Yao et al. 2024); unbiased for ``p^k`` when c ~ Binomial(n, p).
    It is the "none drawn" ratio of :func:`pass_at_k` with the failures in the place of
    the passes, ``C(n - f, k) / C(n, k)`` with ``f = n - c``, computed the same way as a
    sum of ``log1p`` terms (never a binomial coefficient), so small values keep their
    relative precision; 0 when ``c < k``. Validated against exact rational arithmetic with
    ``math.comb`` and by enumerating every k-subset (tests/stats/test_pass_at_k.py).

    Examples
    --------
    8 runs of a task of which 6 pass: C(6, 4) / C(8, 4) = 15 / 70.

    >>> round(pass_hat_k(8, 6, 4), 4)
    0.2143
    >>> pass_hat_k([10, 10, 10], [3, 10, 9], 5).round(4)
    array([0. , 1. , 0.5])
    """
    out = pass_hat_k_unchecked(*_checked(n, c, k))
    return float(out) if out.ndim == 0 else out


def _checked(n, c, k) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = whole_numbers(n, "n (answers sampled)", 1)
    c = whole_numbers(c, "c (answers that pass)", 0)
    k = whole_numbers(k, "k", 1)
    n_b, c_b, k_b = np.broadcast_arrays(n, c, k)
    if np.any(c_b > n_b):
        raise EvalbarsError(f"c (answers that pass) must be at most n (answers sampled); got "
                            f"c = {c!r} and n = {n!r}")
    if np.any(k_b > n_b):
        raise EvalbarsError(f"k must be at most n (answers sampled); got k = {k!r} and n = {n!r}")
    return n_b, c_b, k_b


def shortcut(n, c, k) -> np.ndarray:
    """The biased plug-in ``1 - (1 - c/n)^k``, low on average; for contrast only."""
    return 1.0 - (1.0 - np.asarray(c) / np.asarray(n)) ** np.asarray(k)


def shortcut_hat(n, c, k) -> np.ndarray:
    """The biased plug-in ``(c/n)^k`` of pass^k, high on average; for contrast only."""
    return (np.asarray(c) / np.asarray(n)) ** np.asarray(k)
