"""The one-plan engine draws the same laws as independent implementations.

The engine's bootstrap (counts of the units per resample, ``counts @ unit_sums``) and its
sign-flip null (one sign matrix, ``S @ x``) replaced one index draw per statistic and one
sign draw per pair; the change is a pure speed-up when the quantiles and p-values agree,
within Monte Carlo error, with scipy's resampling on several data sets:

- ``scipy.stats.bootstrap(..., method="percentile" | "BCa", n_resamples=20000)``;
- ``scipy.stats.bootstrap((a, b), ..., paired=True)`` for the gap;
- ``scipy.stats.permutation_test(..., permutation_type="samples", n_resamples=200000)``;
- a cluster bootstrap written out here (draw clusters, take the ratio of sums).

The tolerance for a quantile is 6 Monte Carlo standard errors of the difference of two
independent estimates, ``sqrt(2 q (1 - q) / B) / f(x_q)`` with the density ``f`` of a
normal with the replicates' sd; for a p-value, 6 times the combined ``sqrt(p (1-p) / B)``.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from evalbars.analyses.draws import Draws
from evalbars.analyses.measures import Prepared
from evalbars.stats.bootstrap import bca_interval, bootstrap_means
from evalbars.stats.cluster_resampling import cluster_bootstrap_means
from evalbars.stats.permutation import sign_flip

B = 20_000
rng = np.random.default_rng(2024)
DATASETS = {
    "normal-200": rng.normal(0.6, 0.2, 200),
    "exponential-120": rng.exponential(1.0, 120),
    "ratings-300": rng.integers(1, 6, 300).astype(float),  # repeats: drawn over its 5 values
    "near-ceiling-500": np.clip(1 - rng.exponential(0.05, 500), 0, 1),
}


def quantile_tolerance(replicates: np.ndarray, q: float, draws: int) -> float:
    sd = float(np.std(replicates))
    z = stats.norm.ppf(q)
    return 6 * math.sqrt(2 * q * (1 - q) / draws) * sd / stats.norm.pdf(z)


@pytest.mark.parametrize("name", DATASETS)
def test_percentile_and_bca_ends_match_scipy_bootstrap(name):
    x = DATASETS[name]
    replicates = bootstrap_means(x, n_resamples=B, seed=np.random.SeedSequence(1))[:, 0]
    ours = np.quantile(replicates, [0.025, 0.975])
    for method, got in (("percentile", ours),
                        ("BCa", (lambda iv: (iv.low, iv.high))(
                            bca_interval(x, replicates, confidence_level=0.95)))):
        reference = stats.bootstrap((x,), np.mean, method=method, n_resamples=B,
                                    random_state=np.random.default_rng(7)).confidence_interval
        tolerance = quantile_tolerance(replicates, 0.025, B)
        assert got[0] == pytest.approx(reference.low, abs=tolerance), method
        assert got[1] == pytest.approx(reference.high, abs=tolerance), method
    assert np.std(replicates) == pytest.approx(np.std(x) / math.sqrt(x.size), rel=0.03)


@pytest.mark.parametrize("shift", [0.0, 0.02, 0.05])
def test_paired_gap_from_the_plan_matches_scipy_paired_bootstrap(shift):
    n = 400
    a = np.random.default_rng(3).random(n)
    b = np.clip(a + np.random.default_rng(4).normal(shift, 0.1, n), 0, 1)
    x = np.column_stack([a, b])
    data = Prepared(("a", "b"), x, np.ones_like(x), x**2, None, "continuous")
    gaps = Draws(data, seed=0, n_resamples=B).gap("a", "b")
    reference = stats.bootstrap((a, b), lambda u, v, axis: np.mean(v - u, axis=axis),
                                paired=True, method="percentile", n_resamples=B,
                                random_state=np.random.default_rng(5)).confidence_interval
    tolerance = quantile_tolerance(gaps, 0.025, B)
    low, high = np.quantile(gaps, [0.025, 0.975])
    assert low == pytest.approx(reference.low, abs=tolerance)
    assert high == pytest.approx(reference.high, abs=tolerance)


def test_cluster_plan_matches_a_written_out_cluster_bootstrap():
    g = np.random.default_rng(6)
    sizes = g.integers(2, 30, 40)
    labels = np.repeat(np.arange(40), sizes)
    x = g.normal(0.5, 0.2, 40)[labels] + g.normal(0, 0.1, labels.size)
    ours = cluster_bootstrap_means(x, labels, n_resamples=B, seed=np.random.SeedSequence(2))[:, 0]
    sums, counts = np.bincount(labels, weights=x), np.bincount(labels)
    picks = g.integers(0, 40, size=(B, 40))
    theirs = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    for q in (0.025, 0.5, 0.975):
        assert np.quantile(ours, q) == pytest.approx(np.quantile(theirs, q),
                                                     abs=quantile_tolerance(ours, q, B))
    assert np.std(ours) == pytest.approx(np.std(theirs), rel=0.03)


SIGN_CASES = {
    "no-gap": (0.0, 40, False),
    "small-gap": (0.03, 60, False),
    "clear-gap": (0.06, 80, False),
    "ties": (0.2, 50, True),  # integer ratings: sums tie exactly
}


@pytest.mark.parametrize("name", SIGN_CASES)
def test_sign_flip_p_values_match_scipy_permutation_test(name):
    shift, n, ratings = SIGN_CASES[name]
    g = np.random.default_rng(9)
    if ratings:
        a = g.integers(1, 6, n).astype(float)
        b = np.clip(a + g.integers(-1, 2, n) + (g.random(n) < shift), 1, 5)
    else:
        a = g.random(n)
        b = a + g.normal(shift, 0.15, n)
    ours = sign_flip(a, b, n_resamples=B, seed=np.random.SeedSequence(3))
    assert not ours.exact
    reference = stats.permutation_test(
        (b - a,), lambda d, axis: np.mean(d, axis=axis), permutation_type="samples",
        n_resamples=200_000, alternative="two-sided",
        random_state=np.random.default_rng(11)).pvalue
    error = math.sqrt(ours.p_value * (1 - ours.p_value) / B
                      + reference * (1 - reference) / 200_000)
    assert ours.p_value == pytest.approx(reference, abs=6 * error + 1 / B)
