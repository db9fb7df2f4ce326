"""The sequential statistics of the monitor against independent computations.

confseq (the authors' package) does not install here from PyPI (it builds C++ with Boost,
no wheel), so each boundary is checked against the papers' definitions computed another
way: the betting sequence by a plain loop over the bets and root finding (scipy.optimize);
the normal-mixture boundary by integrating the mixture martingale numerically
(scipy.integrate.quad) and minimising over the precision (scipy.optimize); the discordant
e-value as a ratio of scipy.stats.betabinom and binom probabilities and by quad.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from evalbars.core.errors import EvalbarsError
from evalbars.stats.betting import (
    GRID_POINTS,
    betting_sequence,
    hedged_log_capital,
    plug_in_bets,
)
from evalbars.stats.mixtures import (
    best_precision,
    best_ratio,
    concentration_for,
    discordant_log_e,
    normal_mixture_radius,
    normal_mixture_sequence,
)
from evalbars.stats.sequential import fixed_n_half_width, gap_sequence

STEP = 1.0 / (GRID_POINTS - 1)


def _loop_capital(x: list[float], m: float, alpha: float) -> float:
    """Waudby-Smith & Ramdas (2023), Theorem 3 with their predictable plug-in bets, one
    observation at a time in plain Python: the hedged capital K_t(m) at the end."""
    plus = minus = 1.0
    total, squares = 0.0, 0.0
    for t, xi in enumerate(x, start=1):
        sigma2 = (0.25 + squares) / t  # from the t - 1 observations before this one
        lam = math.sqrt(2.0 * math.log(2.0 / alpha) / (sigma2 * t * math.log(1.0 + t)))
        plus *= 1.0 + min(lam, 0.5 / m) * (xi - m) if m > 0 else 1.0 + lam * xi
        minus *= 1.0 - min(lam, 0.5 / (1.0 - m)) * (xi - m) if m < 1 else 1.0 + lam * (1 - xi)
        total += xi
        mu = (0.5 + total) / (t + 1.0)
        squares += (xi - mu) ** 2
    return max(plus, minus) / 2.0


@pytest.fixture(scope="module")
def stream() -> np.ndarray:
    return np.random.default_rng(20261201).beta(4.0, 3.0, size=300)


def test_plug_in_bets_match_the_formula_by_loop(stream):
    bets = plug_in_bets(stream, 0.05)
    squares, total = 0.0, 0.0
    for t, xi in enumerate(stream[:50], start=1):
        expected = math.sqrt(2 * math.log(2 / 0.05) / ((0.25 + squares) / t * t * math.log1p(t)))
        assert bets[t - 1] == pytest.approx(expected, rel=1e-12)
        total += xi
        squares += (xi - (0.5 + total) / (t + 1)) ** 2


@pytest.mark.parametrize("m", [0.0, 0.2, 0.55, 0.6, 0.9, 1.0])
def test_hedged_capital_matches_the_loop(stream, m):
    got = hedged_log_capital(stream, [m])[-1, 0]
    assert got == pytest.approx(math.log(_loop_capital(list(stream), m, 0.05)), rel=1e-9)


def test_betting_ends_match_root_finding(stream):
    low, high = betting_sequence(stream)
    threshold = math.log(20.0)
    for t in (40, 120, 300):
        x = list(stream[:t])
        centre = float(np.mean(x))

        def excess(m):
            return math.log(_loop_capital(x, m, 0.05)) - threshold

        assert excess(centre) < 0
        true_low = optimize.brentq(excess, 1e-9, centre, xtol=1e-12)
        true_high = optimize.brentq(excess, centre, 1 - 1e-9, xtol=1e-12)
        # rounded outwards to the grid: never narrower, at most one step wider
        assert true_low - STEP <= low[t - 1] <= true_low
        assert true_high <= high[t - 1] <= true_high + STEP


def test_betting_is_symmetric_under_reflection(stream):
    low, high = betting_sequence(stream)
    low_r, high_r = betting_sequence(1.0 - stream)
    np.testing.assert_allclose(low, 1.0 - high_r, atol=1e-12)
    np.testing.assert_allclose(high, 1.0 - low_r, atol=1e-12)


def test_betting_refuses_values_outside_the_unit_interval():
    with pytest.raises(EvalbarsError, match=r"observation 1 \(0-based\) is 1\.5"):
        betting_sequence([0.5, 1.5])


def _mixture(s: float, v: float, rho: float) -> float:
    """The normal-mixture martingale integral_lambda exp(lambda s - lambda^2 v / 2) N(0, 1/rho)."""
    density = stats.norm(0.0, 1.0 / math.sqrt(rho)).pdf
    value, _ = integrate.quad(lambda lam: math.exp(lam * s - lam * lam * v / 2) * density(lam),
                              -np.inf, np.inf)
    return value


@pytest.mark.parametrize("v, rho", [(10.0, 2.0), (100.0, 12.0), (1000.0, 121.8)])
def test_normal_mixture_radius_is_where_the_mixture_reaches_one_over_alpha(v, rho):
    radius = float(normal_mixture_radius(v, rho, 0.05))
    assert _mixture(radius, v, rho) == pytest.approx(20.0, rel=1e-6)


def test_best_precision_minimises_the_radius_at_the_plan():
    plan = 500.0
    best = optimize.minimize_scalar(lambda r: float(normal_mixture_radius(plan, r, 0.05)),
                                    bounds=(1e-3, plan), method="bounded",
                                    options={"xatol": 1e-8})
    assert best_precision(plan, 0.05) == pytest.approx(best.x, rel=1e-4)
    assert best_ratio(0.05) == pytest.approx(plan / best.x, rel=1e-4)


def test_normal_mixture_sequence_by_hand():
    d = np.random.default_rng(3).normal(0.2, 1.0, size=200)
    mean, low, high, log_e = normal_mixture_sequence(d, plan=100)
    t = 150
    sigma2 = float(np.var(d[:t], ddof=1))
    rho = sigma2 * best_precision(100, 0.05)
    half = float(normal_mixture_radius(t * sigma2, rho, 0.05)) / t
    assert mean[t - 1] == pytest.approx(np.mean(d[:t]))
    assert high[t - 1] - mean[t - 1] == pytest.approx(half, rel=1e-9)
    assert math.exp(log_e[t - 1]) == pytest.approx(_mixture(float(np.sum(d[:t])), t * sigma2,
                                                            rho), rel=1e-6)
    assert np.all(np.isinf(high[:29])) and np.all(log_e[:29] == 0)


@pytest.mark.parametrize("k, j, a", [(30, 10, 0.5), (60, 40, 5.589), (3, 0, 2.0), (0, 0, 1.0)])
def test_discordant_e_value_is_the_beta_binomial_likelihood_ratio(k, j, a):
    m = k + j
    ratio = stats.betabinom(m, a, a).pmf(k) / stats.binom(m, 0.5).pmf(k) if m else 1.0
    by_quad, _ = integrate.quad(lambda th: th ** k * (1 - th) ** j * stats.beta(a, a).pdf(th)
                                / 0.5 ** m, 0, 1)
    got = math.exp(discordant_log_e([k], [j], concentration=a)[0])
    assert got == pytest.approx(ratio, rel=1e-9)
    assert got == pytest.approx(by_quad, rel=1e-6)


def test_concentration_matches_the_normal_mixture_precision():
    # Beta(a, a) gives the drift 2 theta - 1 variance 1 / (2a + 1): precision 2a + 1
    a = concentration_for(100, 0.05)
    assert 2 * a + 1 == pytest.approx(best_precision(100, 0.05))
    assert concentration_for(1, 0.05) == 0.5


def test_gap_sequence_flips_with_the_pair():
    d = np.random.default_rng(5).choice([-1.0, 0.0, 0.0, 0.0, 1.0, 1.0], size=400)
    forward = gap_sequence(d, method="discordant")
    back = gap_sequence(-d, method="discordant")
    np.testing.assert_allclose(forward.estimate, -back.estimate)
    np.testing.assert_allclose(forward.low, -back.high, atol=1e-12)
    np.testing.assert_allclose(forward.log_e, back.log_e)


def test_fixed_n_half_width_is_the_paired_wald_interval():
    d = np.random.default_rng(1).normal(size=50)
    z = 1.959963984540054  # the 97.5% normal quantile, as tabulated (Abramowitz & Stegun 26.2)
    expected = z * np.std(d, ddof=1) / math.sqrt(50)
    assert fixed_n_half_width(d, 0.95) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("method, d, message", [
    ("discordant", [0.5, 0.0], "needs one 0/1 outcome"),
    ("betting", [2.0], "needs the bounds"),
    ("mystery", [0.0], "unknown method 'mystery'"),
])
def test_methods_refuse_what_they_cannot_do(method, d, message):
    with pytest.raises(EvalbarsError, match=message):
        gap_sequence(d, method=method, bounds=None if method == "betting" else (0.0, 1.0))


@pytest.mark.parametrize("call, message", [
    (lambda: betting_sequence([0.5], confidence_level=1.0), "confidence_level must be a number strictly between"),
    (lambda: betting_sequence([0.5], grid=2), "grid must be an integer of at least 3"),
    (lambda: betting_sequence([]), "non-empty 1-D sequence"),
    (lambda: normal_mixture_sequence([0.1], confidence_level=0), "confidence_level must be"),
    (lambda: normal_mixture_sequence([0.1, float("nan")]), "finite numbers"),
    (lambda: normal_mixture_sequence([0.1], burn_in=1), "burn_in must be an integer"),
    (lambda: best_precision(0, 0.05), "plan must be a number of at least 1"),
    (lambda: discordant_log_e([1], [0], concentration=0), "concentration must be positive"),
    (lambda: gap_sequence([], method="betting"), "non-empty 1-D sequence"),
    (lambda: gap_sequence([3.0], method="betting", bounds=(0, 1)), "not all within the bounds"),
])
def test_bad_arguments_are_refused(call, message):
    with pytest.raises(EvalbarsError, match=message):
        call()


def test_one_observation_has_no_fixed_n_interval():
    assert fixed_n_half_width([0.3], 0.95) == math.inf
