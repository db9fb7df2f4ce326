"""Tests for evalbars.stats.strata_resampling: the stratified bootstrap.

References:
- a direct Monte Carlo loop: ``numpy.random.Generator.choice(n_s, n_s)`` inside every
  stratum, the weighted mean recomputed, 20,000 times;
- the exact bootstrap variance of a stratified mean, ``sum_s w_s^2 (n_s - 1) s_s^2 / n_s^2``
  (each stratum's plug-in variance over n_s; Efron and Tibshirani, An Introduction to the
  Bootstrap, 6.2 and the stratified case in 6.5).
"""
from __future__ import annotations

import numpy as np
import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.stats.strata import stratified_mean
from evalbars.stats.strata_resampling import (
    stratified_bootstrap_interval,
    stratified_bootstrap_means,
    stratum_seed,
)

B = 20_000


def _data():
    rng = np.random.default_rng(11)
    sizes = {"bio": 12, "law": 30, "math": 58}
    strata = [label for label, n in sizes.items() for _ in range(n)]
    x = np.concatenate([rng.random(12) * 0.4, rng.random(30), rng.integers(0, 2, 58)])
    return x, strata


def _monte_carlo(x, strata, weights):
    rng = np.random.default_rng(99)
    labels = sorted(set(strata))
    s = np.array(strata)
    parts = [x[s == label] for label in labels]
    n = np.array([p.size for p in parts])
    w = n / n.sum() if weights == "micro" else np.full(len(labels), 1 / len(labels))
    out = np.empty(B)
    for r in range(B):
        out[r] = sum(wi * p[rng.choice(p.size, p.size)].mean() for wi, p in zip(w, parts))
    return out


@pytest.mark.parametrize("weights", ["macro", "micro"])
def test_against_monte_carlo_loop_and_exact_variance(weights):
    x, strata = _data()
    reps = stratified_bootstrap_means(x, strata, weights=weights, n_resamples=B,
                                      seed=np.random.SeedSequence(5))[:, 0]
    mc = _monte_carlo(x, strata, weights)
    r = stratified_mean(x, strata, weights=weights)
    exact_var = float(np.sum(r.weights ** 2 * (r.sizes - 1) * r.variances / r.sizes ** 2))
    sd = np.sqrt(exact_var)
    # the means of both agree with the estimate within 4 Monte Carlo standard errors
    for draws in (reps, mc):
        assert abs(draws.mean() - r.estimate) < 4 * sd / np.sqrt(B)
        # variance of a variance estimate: about sqrt(2 / B) relative
        assert abs(draws.var() / exact_var - 1) < 4 * np.sqrt(2 / B)
    # a 2.5% quantile of B = 20,000 draws has a Monte Carlo sd of about 0.019 sd (normal
    # approximation); the difference of two such, 0.027 sd: allow 4.5 of those
    for q in (0.025, 0.5, 0.975):
        assert abs(np.quantile(reps, q) - np.quantile(mc, q)) < 0.12 * sd


def test_each_stratum_keeps_its_size():
    # a stratum of constant 1s and one of constant 0s: every replicate is exactly w_1
    x = np.array([1.0] * 5 + [0.0] * 20)
    reps = stratified_bootstrap_means(x, ["a"] * 5 + ["b"] * 20, weights="micro",
                                      n_resamples=500, seed=np.random.SeedSequence(0))
    assert np.allclose(reps, 0.2, rtol=0, atol=1e-15)


def test_paired_columns_seeded_and_stable_across_strata():
    x, strata = _data()
    y = np.column_stack([x, 1 - x])
    seed = np.random.SeedSequence(3)
    both = stratified_bootstrap_means(y, strata, n_resamples=2000, seed=seed)
    alone = stratified_bootstrap_means(x, strata, n_resamples=2000,
                                       seed=np.random.SeedSequence(3))
    assert np.array_equal(both[:, :1], alone)
    assert np.allclose(both[:, 0] + both[:, 1], 1.0)  # paired within strata
    # a stratum's draws do not depend on the other strata present
    keep = np.array(strata) != "bio"
    sub = stratified_bootstrap_means(x[keep], np.array(strata)[keep].tolist(),
                                     weights={"law": 1, "math": 0}, n_resamples=2000,
                                     seed=np.random.SeedSequence(3))
    full = stratified_bootstrap_means(x, strata, weights={"bio": 0, "law": 1, "math": 0},
                                      n_resamples=2000, seed=np.random.SeedSequence(3))
    assert np.array_equal(sub, full)


def test_interval_and_seed_keys():
    iv = stratified_bootstrap_interval(np.linspace(0, 1, 1001))
    assert (iv.low, iv.high) == pytest.approx((0.025, 0.975))
    a = stratum_seed(np.random.SeedSequence(1), "law").generate_state(4)
    b = stratum_seed(np.random.SeedSequence(1), "math").generate_state(4)
    assert not np.array_equal(a, b)


def test_errors():
    with pytest.raises(EvalbarsError, match="seed must be a numpy.random.SeedSequence"):
        stratified_bootstrap_means([1, 0], ["a", "b"], n_resamples=10, seed=None)
    with pytest.raises(EvalbarsError, match="n_resamples must be a positive integer"):
        stratified_bootstrap_means([1, 0], ["a", "b"], n_resamples=0,
                                   seed=np.random.SeedSequence(0))
    with pytest.raises(EvalbarsError, match="finite scores"):
        stratified_bootstrap_means([1, np.nan], ["a", "b"], n_resamples=10,
                                   seed=np.random.SeedSequence(0))


def test_clustered_against_monte_carlo_loop():
    rng = np.random.default_rng(21)
    strata = ["a"] * 40 + ["b"] * 60
    clusters = [f"a{i // 4}" for i in range(40)] + [f"b{i // 6}" for i in range(60)]
    x = np.concatenate([rng.random(40), rng.integers(0, 2, 60)]) + np.repeat(
        rng.normal(0, 0.3, 20), [4] * 10 + [6] * 10)  # a shared shift per cluster
    reps = stratified_bootstrap_means(x, strata, clusters=clusters, n_resamples=B,
                                      seed=np.random.SeedSequence(2))[:, 0]
    # direct loop: draw G_s clusters with replacement in each stratum, ratio of sums
    loop = np.random.default_rng(77)
    groups = {s: [x[[c == g for c in clusters]] for g in sorted(set(c for c, t in
                                                                     zip(clusters, strata)
                                                                     if t == s))]
              for s in ("a", "b")}
    mc = np.empty(B)
    for r in range(B):
        total = 0.0
        for s in ("a", "b"):
            pick = [groups[s][k] for k in loop.choice(len(groups[s]), len(groups[s]))]
            total += 0.5 * sum(p.sum() for p in pick) / sum(p.size for p in pick)
        mc[r] = total
    sd = mc.std()
    assert abs(reps.mean() - mc.mean()) < 4 * sd * np.sqrt(2 / B)
    assert abs(reps.var() / mc.var() - 1) < 4 * np.sqrt(4 / B)
    for q in (0.025, 0.5, 0.975):
        assert abs(np.quantile(reps, q) - np.quantile(mc, q)) < 0.12 * sd
    # the bootstrap SD is near the analytic clustered stratified SE (G/(G-1) apart)
    r = stratified_mean(x, strata, clusters=clusters)
    assert reps.std() == pytest.approx(r.se * np.sqrt(9 / 10), rel=0.05)
