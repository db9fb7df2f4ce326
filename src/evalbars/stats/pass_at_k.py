"""pass@k: the chance that at least one of k sampled answers passes, with honest intervals.

Code benchmarks sample n answers per problem and count the c that pass. The unbiased
estimator of Chen et al. (2021, "Evaluating Large Language Models Trained on Code",
section 2.1) is ``1 - C(n - c, k) / C(n, k)`` per problem, averaged over problems;
:func:`pass_at_k` computes it as a product, without binomial coefficients. The tempting
shortcut ``1 - (1 - c/n)^k`` plugs the estimated pass rate into a curved formula and comes
out low on average; it is reported next to the estimate, labelled, for contrast only.

The analysis that reads answers and gives each model's pass@k with intervals over
problems, and the paired gap of two models, is :func:`evalbars.passk`
(:mod:`evalbars.analyses.passk`).
"""
from __future__ import annotations

import numpy as np

from ..core.errors import EvalbarsError

SHORTCUT = "1 - (1 - c/n)^k"
"""The biased plug-in formula shown next to the estimate."""

def whole_numbers(value, name: str, minimum: int) -> np.ndarray:
    array = np.asarray(value)
    if array.dtype == bool or array.dtype.kind not in "iuf" or not np.all(np.isfinite(array)) \
            or not np.all(array == np.rint(array)) or np.any(array < minimum):
        raise EvalbarsError(f"{name} must be whole numbers >= {minimum}; got {value!r}")
    return array.astype(np.int64)


def pass_at_k_unchecked(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """pass@k for broadcastable integer arrays with 0 <= c <= n and 1 <= k <= n."""
    n, c, k = (np.asarray(v, dtype=float) for v in np.broadcast_arrays(n, c, k))
    sure = n - c < k  # every k-subset holds a passing answer
    terms = np.where(sure, 0.0, np.minimum(c, k))
    larger = np.maximum(c, k)
    log_none = np.zeros(n.shape)
    for j in range(int(terms.max(initial=0))):
        active = j < terms
        log_none += np.log1p(-np.where(active, larger / np.where(active, n - j, 1.0), 0.0))
    return np.where(sure, 1.0, 0.0 - np.expm1(log_none))  # 0.0 - x: never -0.0


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
    n = whole_numbers(n, "n (answers sampled)", 1)
    c = whole_numbers(c, "c (answers that pass)", 0)
    k = whole_numbers(k, "k", 1)
    n_b, c_b, k_b = np.broadcast_arrays(n, c, k)
    if np.any(c_b > n_b):
        raise EvalbarsError(f"c (answers that pass) must be at most n (answers sampled); got "
                            f"c = {c!r} and n = {n!r}")
    if np.any(k_b > n_b):
        raise EvalbarsError(f"k must be at most n (answers sampled); got k = {k!r} and n = {n!r}")
    out = pass_at_k_unchecked(n_b, c_b, k_b)
    return float(out) if out.ndim == 0 else out


def shortcut(n, c, k) -> np.ndarray:
    """The biased plug-in ``1 - (1 - c/n)^k``, low on average; for contrast only."""
    return 1.0 - (1.0 - np.asarray(c) / np.asarray(n)) ** np.asarray(k)
