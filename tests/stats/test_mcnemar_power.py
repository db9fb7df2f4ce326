"""evalbars.stats.power.mcnemar_power (through evalbars.analyses.power): exact McNemar power."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from evalbars.analyses import power as P


def _brute_force_mcnemar(n, d, gap, alpha):
    """Enumerate every (a_only, b_only) count; reject when scipy's binomtest p <= alpha."""
    probs = [(d - gap) / 2, (d + gap) / 2, 1 - d]
    total = 0.0
    for i in range(n + 1):
        for j in range(n + 1 - i):
            if i + j and stats.binomtest(j, i + j, 0.5).pvalue <= alpha:
                total += stats.multinomial.pmf([i, j, n - i - j], n, probs)
    return total


@pytest.mark.parametrize("n,d,gap,alpha", [
    (12, 0.3, 0.1, 0.05), (25, 0.5, 0.2, 0.05), (30, 0.2, 0.0, 0.05), (18, 1.0, 0.4, 0.1),
    (20, 0.4, 0.4, 0.01), (40, 0.15, 0.05, 0.2), (5, 0.9, 0.5, 0.05),
])
def test_exact_mcnemar_power_equals_brute_force(n, d, gap, alpha):
    assert P.mcnemar_power(n, disagreement=d, gap=gap, alpha=alpha) == pytest.approx(
        _brute_force_mcnemar(n, d, gap, alpha), abs=1e-12)


def _simulated_power(n, d, gap, alpha, reps, seed):
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, [(d - gap) / 2, (d + gap) / 2, 1 - d], size=reps)
    a_only, b_only = counts[:, 0], counts[:, 1]
    m = a_only + b_only
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(a_only, b_only), m, 0.5))
    return float(np.mean((m > 0) & (p <= alpha)))


@pytest.mark.parametrize("n,d,gap", [(500, 0.10, 0.02), (2000, 0.05, 0.01)])
def test_exact_mcnemar_power_matches_a_seeded_simulation(n, d, gap):
    reps = 20_000
    sim = _simulated_power(n, d, gap, 0.05, reps, seed=7)
    exact = P.mcnemar_power(n, disagreement=d, gap=gap)
    assert abs(sim - exact) < 4 * math.sqrt(exact * (1 - exact) / reps)


@pytest.mark.slow
@pytest.mark.parametrize("n,d,gap,alpha", [
    (500, 0.10, 0.02, 0.05), (3000, 0.2, 0.015, 0.01), (150, 0.6, 0.1, 0.1),
    (20_000, 0.08, 0.004, 0.05),
])
def test_exact_mcnemar_power_matches_a_long_simulation(n, d, gap, alpha):
    reps = 2_000_000
    sim = _simulated_power(n, d, gap, alpha, reps, seed=11)
    exact = P.mcnemar_power(n, disagreement=d, gap=gap, alpha=alpha)
    assert abs(sim - exact) < 4 * math.sqrt(exact * (1 - exact) / reps)


def test_exact_mcnemar_power_is_fast_and_truncation_is_a_tiny_lower_bound():
    import time

    start = time.perf_counter()
    big = P.mcnemar_power(100_000, disagreement=0.1, gap=0.002)
    assert time.perf_counter() - start < 0.5
    assert 0 < big < 1
    # the full sum over every m agrees with the truncated one to MCNEMAR_TAIL
    n, d, gap = 3000, 0.1, 0.01
    m = np.arange(n + 1)
    c = stats.binom.ppf(0.025, m, 0.5)
    c = np.where(2 * stats.binom.cdf(c, m, 0.5) <= 0.05, c, c - 1)
    q = (d + gap) / (2 * d)
    full = stats.binom.pmf(m, n, d) @ (stats.binom.cdf(c, m, q) + stats.binom.sf(m - c - 1, m, q))
    truncated = P.mcnemar_power(n, disagreement=d, gap=gap)
    assert 0 <= full - truncated <= P.MCNEMAR_TAIL


def test_exact_mcnemar_size_is_at_most_alpha_and_power_grows_with_the_gap():
    powers = [P.mcnemar_power(400, disagreement=0.2, gap=g) for g in np.linspace(0, 0.2, 21)]
    assert powers[0] <= 0.05
    assert all(np.diff(powers) >= 0) and powers[10] > powers[5] > powers[0]
    assert powers[-1] == pytest.approx(1.0)
