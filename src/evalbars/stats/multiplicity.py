"""Multiple comparisons: adjust p-values when many tests are read together.

One test at the 5% level has a 1 in 20 chance of a false alarm; twenty independent
tests of equal models give at least one with probability 1 - 0.95^20 = 64%, and a
leaderboard of 20 models has 190 pairs.
Adjusted p-values let every test be read at the usual level while controlling the
error rate of the whole family:

- ``bonferroni``: ``min(1, m p)``; controls the family-wise error rate (the chance of
  any false alarm) under any dependence. Crude, and impossible to get wrong.
- ``holm``: Holm's step-down version of Bonferroni; the same guarantee, never less
  powerful, so it is the default.
- ``hochberg``: Hochberg's step-up version of Holm; the same guarantee for independent
  or positively dependent tests, never less powerful than Holm.
- ``hommel``: Hommel's closed Simes test; the same guarantee and dependence condition as
  Hochberg, never less powerful than it.
- ``benjamini-hochberg``: controls the false discovery rate (the expected share of
  false alarms among the rejections) for independent or positively dependent tests;
  more powerful, with a weaker promise.
- ``benjamini-yekutieli``: the false discovery rate under any dependence, at the price
  of a factor ``1 + 1/2 + ... + 1/m`` on Benjamini-Hochberg.

Methods come from :data:`METHODS` (name -> function), which also drives validation,
error messages and the CLI's ``--correction`` choices.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..core.errors import EvalbarsError

__all__ = ["METHODS", "adjust", "familywise_error"]


def _bonferroni(p: np.ndarray) -> np.ndarray:
    return np.minimum(1.0, p.size * p)


def _holm(p: np.ndarray) -> np.ndarray:
    order = np.argsort(p, kind="stable")
    factors = p.size - np.arange(p.size)
    stepped = np.maximum.accumulate(np.minimum(1.0, factors * p[order]))
    out = np.empty_like(p)
    out[order] = stepped
    return out


def _step_up(p: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """min over j >= i of min(1, factors[j] p_(j)), with p sorted ascending."""
    order = np.argsort(p, kind="stable")[::-1]  # largest first
    stepped = np.minimum.accumulate(np.minimum(1.0, factors[::-1] * p[order]))
    out = np.empty_like(p)
    out[order] = stepped
    return out


def _hochberg(p: np.ndarray) -> np.ndarray:
    return _step_up(p, p.size - np.arange(p.size, dtype=float))


def _benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    return _step_up(p, p.size / np.arange(1, p.size + 1))


def _benjamini_yekutieli(p: np.ndarray) -> np.ndarray:
    ranks = np.arange(1, p.size + 1)
    return _step_up(p, p.size * np.sum(1.0 / ranks) / ranks)


def _hommel(p: np.ndarray) -> np.ndarray:
    # Closed testing with Simes' test: the adjusted p of a test is the largest Simes p of
    # the sets containing it. For sets of size k the largest is {i} with the k - 1 largest
    # other p-values: the top k themselves when i is among them.
    m = p.size
    order = np.argsort(p, kind="stable")
    s = p[order]
    adjusted = s.copy()
    for k in range(2, m + 1):
        top = s[m - k + 1:]  # the k - 1 largest
        rest = np.min(k * top / np.arange(2, k + 1))
        simes = np.minimum(k * s, rest)
        simes[m - k + 1:] = simes[m - k]
        np.maximum(adjusted, simes, out=adjusted)
    out = np.empty_like(p)
    out[order] = np.minimum(1.0, adjusted)
    return out


METHODS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "holm": _holm,
    "bonferroni": _bonferroni,
    "hochberg": _hochberg,
    "hommel": _hommel,
    "benjamini-hochberg": _benjamini_hochberg,
    "benjamini-yekutieli": _benjamini_yekutieli,
}
"""Every correction by name; :func:`adjust` accepts exactly these."""


def adjust(p_values, *, method: str = "holm") -> np.ndarray:
    """Adjusted p-values for a family of tests read together.

    Parameters
    ----------
    p_values : array_like
        1-D raw p-values in [0, 1], one per test, in any order.
    method : str
        One of :data:`METHODS`: ``"holm"`` (default), ``"bonferroni"``, ``"hochberg"``,
        ``"hommel"``, ``"benjamini-hochberg"`` or ``"benjamini-yekutieli"``.

    Returns
    -------
    ndarray
        Adjusted p-values, in the order given; each is at least its raw p-value and at
        most 1. A test is rejected at level alpha when its adjusted p-value is below
        alpha.

    Notes
    -----
    With m tests and raw p-values sorted ascending, ``p_(1) <= ... <= p_(m)``:

    - Bonferroni: ``min(1, m p_i)``.
    - Holm: ``max over j <= i of min(1, (m - j + 1) p_(j))``.
    - Hochberg: ``min over j >= i of min(1, (m - j + 1) p_(j))``.
    - Hommel: ``max over k of min(k p_(i), min over j = 2..k of k p_(m-k+j) / j)`` for
      ``i <= m - k + 1``, and the value of ``i = m - k + 1`` for the k largest.
    - Benjamini-Hochberg: ``min over j >= i of min(1, m p_(j) / j)``.
    - Benjamini-Yekutieli: ``min over j >= i of min(1, c m p_(j) / j)``,
      ``c = 1 + 1/2 + ... + 1/m``.

    Tied p-values get the same adjusted value whatever their order. Validated against
    ``statsmodels.stats.multitest.multipletests`` (methods ``"bonferroni"``, ``"holm"``,
    ``"simes-hochberg"``, ``"hommel"``, ``"fdr_bh"``, ``"fdr_by"``) on random p-values with
    ties and p = 1 (tests/stats/test_multiplicity.py).

    Examples
    --------
    >>> adjust([0.01, 0.04, 0.03, 0.20], method="holm").round(4).tolist()
    [0.04, 0.09, 0.09, 0.2]
    >>> adjust([0.01, 0.04, 0.03, 0.20], method="benjamini-hochberg").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
    >>> adjust([0.01, 0.04, 0.03, 0.20], method="hommel").round(4).tolist()
    [0.04, 0.08, 0.06, 0.2]
    """
    if not isinstance(method, str) or method not in METHODS:
        valid = ", ".join(repr(name) for name in METHODS)
        raise EvalbarsError(f"method must be one of {valid}; got {method!r}")
    try:
        p = np.asarray(p_values, dtype=float)
    except (TypeError, ValueError):
        raise EvalbarsError(f"p_values must be numbers in [0, 1]; got {p_values!r}") from None
    if p.ndim != 1:
        raise EvalbarsError(f"p_values must be a 1-D list of p-values; got shape {p.shape}")
    bad = np.flatnonzero(~((p >= 0.0) & (p <= 1.0)))
    if bad.size:
        raise EvalbarsError(
            f"p_values must lie in [0, 1]; got {p[bad[0]]} at index {bad[0]}")
    return METHODS[method](p)


def familywise_error(n_tests: int, *, alpha: float = 0.05) -> float:
    """The chance of at least one false alarm among ``n_tests`` independent tests.

    Every test is run at level ``alpha`` and no effect is real: ``1 - (1 - alpha)^m``.
    Dependent tests (the pairs of one leaderboard share models) can do better or worse,
    but never worse than ``min(1, m alpha)``.

    Examples
    --------
    Seed 000: twenty tries at the 5% level.

    >>> round(familywise_error(20, alpha=0.05), 4)
    0.6415
    """
    if isinstance(n_tests, bool) or not isinstance(n_tests, (int, np.integer)) or n_tests < 0:
        raise EvalbarsError(f"n_tests must be a non-negative integer; got {n_tests!r}")
    if isinstance(alpha, bool) or not 0.0 < float(alpha) < 1.0:
        raise EvalbarsError(f"alpha must be between 0 and 1; got {alpha!r}")
    return float(-np.expm1(n_tests * np.log1p(-float(alpha))))
