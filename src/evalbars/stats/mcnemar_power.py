"""Exact power of the exact McNemar test (two-sided or one-sided) on paired 0/1 questions."""
from __future__ import annotations

import numpy as np

from .power_checks import checked_count, checked_real
from .tails import check_alternative

MCNEMAR_TAIL = 1e-12
"""Binomial mass of discordant-pair counts left out of the exact McNemar power sum: the
computed power is at most this much below the exact value (never above it)."""


def mcnemar_exact_power(n: int, disagreement: float, gap: float, alpha: float,
             alternative: str = "two-sided") -> float:
    """Exact McNemar power (validated inputs); see :func:`mcnemar_power`."""
    from scipy import stats  # imported when a plan is solved: a report never needs it
    lo = int(stats.binom.ppf(MCNEMAR_TAIL / 2, n, disagreement))
    hi = int(stats.binom.isf(MCNEMAR_TAIL / 2, n, disagreement))
    m = np.arange(lo, max(lo, hi) + 1)
    tail = alpha / 2 if alternative == "two-sided" else alpha
    c = stats.binom.ppf(tail, m, 0.5)
    c = np.where(stats.binom.cdf(c, m, 0.5) <= tail, c, c - 1)
    q = (disagreement + gap) / (2 * disagreement)
    reject = stats.binom.sf(m - c - 1, m, q)  # B's share reaches m - c: "greater"
    if alternative == "two-sided":
        reject = reject + stats.binom.cdf(c, m, q)
    return float(stats.binom.pmf(m, n, disagreement) @ reject)


def mcnemar_power(n: int, *, disagreement: float, gap: float, alpha: float = 0.05,
                  alternative: str = "two-sided") -> float:
    """Exact power of the exact McNemar test on n paired 0/1 questions.

    Parameters
    ----------
    n : int
        Questions, each answered by both models.
    disagreement : float
        Chance D that the two models differ on a question.
    gap : float
        True accuracy gap, ``0 <= gap <= D``: B alone is right with chance ``(D + gap)/2``.
    alpha : float
        Level; the test rejects when its p-value is at most alpha.
    alternative : str
        ``"two-sided"`` (default), or one-sided (``"greater"``: B better; ``"less"``
        plans a loss of ``gap`` the same way): the test then puts all of alpha on the
        asked side.

    Notes
    -----
    The discordant count is ``m ~ Binomial(n, D)`` and, given m, B's share of it is
    ``Binomial(m, (D + gap) / (2D))``. The test rejects when ``min(b_only, a_only) <= c_m``,
    the largest c with ``2 P(Binomial(m, 1/2) <= c) <= alpha``, so::

        power = sum_m P(m) [F(c_m; m, q) + 1 - F(m - c_m - 1; m, q)]

    The sum is vectorized over the m with ``P(m)`` inside the central ``1 - MCNEMAR_TAIL``
    of its distribution: the result is within :data:`MCNEMAR_TAIL` below the exact sum.
    One-sided, the test rejects when ``b_only >= m - c_m`` with ``c_m`` the largest c with
    ``P(Binomial(m, 1/2) <= c) <= alpha``, and the power is the second term alone
    (about 10 ms at n = 100,000). Validated by enumerating every outcome for small n and
    by simulation: about 25% for a 2-point gain at 500 questions with 10% disagreement
    (tests/analyses/test_power.py).

    Examples
    --------
    >>> round(mcnemar_power(500, disagreement=0.10, gap=0.02), 3)
    0.25
    >>> round(mcnemar_power(500, disagreement=0.10, gap=0.02, alternative="greater"), 3)
    0.359
    """
    n = checked_count(n, "n", "a positive integer (questions)")
    alpha = checked_real(alpha, "alpha", "between 0 and 1 (exclusive)", lambda x: 0 < x < 1)
    d = checked_real(disagreement, "disagreement", "a fraction in (0, 1]", lambda x: 0 < x <= 1)
    gap = checked_real(gap, "gap", f"between 0 and the disagreement {d}", lambda x: 0 <= x <= d)
    return mcnemar_exact_power(n, d, gap, alpha, check_alternative(alternative))
