"""`simulate peeking`: the naive peek, one test at the end and the monitor, in seed 000's
setting, each rate checked against an exact computation.

The exact rates come from the distribution of the two discordant counts (B's wins, A's
wins) carried look by look: each step of ``every`` questions adds a trinomial draw
(a 2-D convolution, scipy.signal), and the paths that stop at a look are removed there.
The stopping rules are recomputed here from scipy: McNemar's exact p from the binomial
distribution (the formula checked against ``scipy.stats.binomtest``) and the monitor's
e-value as the ratio of ``scipy.stats.betabinom`` to ``scipy.stats.binom`` probabilities.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import signal, stats
from scipy.special import gammaln

from evalbars import EvalbarsError, simulate
from evalbars.stats.mixtures import concentration_for

CAP = 260
"""Discordant counts kept per model: at n = 1,000 and 11% disagreement, P(count > 260)
is below 1e-40."""


def _mcnemar_p(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Exact two-sided McNemar p: for the symmetric Binomial(m, 1/2) null, scipy's
    binomtest p is min(1, 2 P(X <= min(b, c))) (checked against it below)."""
    return np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(b, c), b + c, 0.5))


def test_the_mcnemar_formula_is_scipy_binomtest():
    for b, c in [(0, 0), (3, 9), (20, 20), (41, 60), (100, 71)]:
        assert _mcnemar_p(np.array(b), np.array(c)) == pytest.approx(
            stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0, rel=1e-9)


def _rules(alpha: float, concentration: float):
    b, c = np.meshgrid(np.arange(CAP), np.arange(CAP), indexing="ij")
    m = b + c
    log_e = stats.betabinom(m, concentration, concentration).logpmf(b) - \
        stats.binom(m, 0.5).logpmf(b)
    rejects = log_e >= math.log(1 / alpha)
    return _mcnemar_p(b, c) < alpha, rejects, rejects & (b > c)


def _exact(n: int, every: int, p_b: float, p_a: float, stops: np.ndarray) -> float:
    """P(the rule ``stops`` holds at some look), looks every ``every`` questions up to n."""
    i, j = np.meshgrid(np.arange(every + 1), np.arange(every + 1), indexing="ij")
    rest = every - i - j
    with np.errstate(divide="ignore", invalid="ignore"):
        kernel = np.where(rest >= 0, np.exp(
            math.lgamma(every + 1) - _lgamma(i + 1) - _lgamma(j + 1) - _lgamma(rest + 1)
            + i * math.log(p_b) + j * math.log(p_a) + rest * math.log(1 - p_a - p_b)), 0.0)
    state = np.zeros((CAP, CAP))
    state[0, 0] = 1.0
    stopped = 0.0
    for _ in range(n // every):
        state = np.clip(signal.fftconvolve(state, kernel)[:CAP, :CAP], 0.0, None)
        stopped += float(state[stops].sum())
        state[stops] = 0.0
    return stopped


def _lgamma(x: np.ndarray) -> np.ndarray:
    return gammaln(np.maximum(x, 1))


@pytest.fixture(scope="module")
def seed_000():
    return simulate.peeking(n=1000, every=50, disagreement=0.10, gain=0.02, experiments=20_000,
                            seed=1)


@pytest.fixture(scope="module")
def exact_rates():
    naive, monitor, monitor_for_b = _rules(0.05, concentration_for(1000 * 0.10, 0.05))
    return {
        "false_positive_peeking": _exact(1000, 50, 0.05, 0.05, naive),
        "false_positive_monitor": _exact(1000, 50, 0.05, 0.05, monitor),
        "power_monitor": _exact(1000, 50, 0.06, 0.04, monitor_for_b),
        "false_positive_once": _exact(1000, 1000, 0.05, 0.05, naive),  # one look, at n
    }


def _within(rate, expected: float) -> bool:
    error = math.sqrt(expected * (1 - expected) / 20_000)
    return abs(rate.value - expected) <= 4 * error


def test_seed_000_break_it_2(seed_000):
    # seed 000, "Break It" 2: peeking every 50 questions up to 1,000 "found" a difference
    # 16% of the time, against 4% when testing once at the end; the monitor at most 5%
    assert abs(seed_000.rate("false_positive_peeking").value - 0.16) < 0.01
    assert abs(seed_000.rate("false_positive_once").value - 0.04) < 0.005
    assert seed_000.rate("false_positive_monitor").value <= 0.05


@pytest.mark.parametrize("name", ["false_positive_peeking", "false_positive_monitor",
                                  "power_monitor", "false_positive_once"])
def test_rates_match_the_exact_computation(seed_000, exact_rates, name):
    assert _within(seed_000.rate(name), exact_rates[name])


def test_the_power_cost_against_one_test_at_n(seed_000):
    # a real 2-point gain at 10% disagreement, n = 1,000: exact McNemar at n has power
    # sum over m ~ Binomial(1000, 0.1), k ~ Binomial(m, 0.6) of [p(k, m) < 0.05, k > m/2]
    power = 0.0
    for total in range(30, 200):
        k = np.arange(total + 1)
        reject = (_mcnemar_p(k, total - k) < 0.05) & (k > total / 2)
        power += stats.binom.pmf(total, 1000, 0.1) * stats.binom.pmf(k, total, 0.6)[reject].sum()
    assert _within(seed_000.rate("power_once"), power)
    assert seed_000.rate("power_monitor").value < seed_000.rate("power_once").value
    assert 500 < seed_000.rate("questions_monitor").value < 1000


def test_settings_and_refusals():
    r = simulate.peeking(n=200, every=20, experiments=200, seed=0)
    assert r.settings["plan"] == 200 and r.settings["gain"] == 0.02
    assert r.settings["concentration"] == concentration_for(20, 0.05)
    with pytest.raises(EvalbarsError, match="plan must be an integer of at least 1"):
        simulate.peeking(plan=0, experiments=10)


def test_the_cli_passes_gain_and_plan(capsys):
    import json

    from evalbars.cli import main

    status = main(["simulate", "peeking", "--n", "200", "--every", "20", "--gain", "0.05",
                   "--plan", "500", "--experiments", "300", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0 and (doc["settings"]["gain"], doc["settings"]["plan"]) == (0.05, 500)
    assert doc == json.loads(json.dumps(simulate.peeking(
        n=200, every=20, gain=0.05, plan=500, experiments=300).to_dict()))
