"""Tests for evalbars.stats.strata_tests: the paired tests of a weighted gap over strata.

References:
- brute-force enumeration of every sign pattern of the items' differences (itertools),
  for the stratified sign-flip test and the exact stratified McNemar test, each
  ``alternative``; and a second enumeration over the per-stratum counts ``u_s`` with
  ``scipy.stats.binom.pmf`` probabilities;
- ``scipy.stats.binomtest`` on the pooled discordant counts (micro weights: one weight);
- statsmodels ``StratifiedTable(tables).test_null_odds(correction=False)`` on one 2x2 table
  (model x right/wrong) per item for the Mantel-Haenszel chi-square with micro weights;
  the weighted form against its formula and ``scipy.stats.chi2.sf``.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.contingency_tables import StratifiedTable

from evalbars.core.errors import EvalbarsError
from evalbars.stats import strata_tests
from evalbars.stats.strata import stratum_codes, stratum_weights
from evalbars.stats.strata_tests import (
    stratified_mantel_haenszel,
    stratified_mcnemar_exact,
    stratified_sign_flip,
)

ALTERNATIVES = ["two-sided", "greater", "less"]


def _c(strata, weights):
    codes, sizes, labels = stratum_codes(strata, len(strata))
    return (stratum_weights(sizes, labels, weights) / sizes)[codes]


def _brute(units, alternative):
    """p of the sign-flip test by listing all 2**m patterns of the nonzero units."""
    nonzero = [u for u in units if u != 0]
    observed = sum(units)
    tol = 1e-9 * sum(abs(u) for u in nonzero)
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(nonzero)):
        total = sum(s * abs(u) for s, u in zip(signs, nonzero))
        if alternative == "greater":
            hits += total >= observed - tol
        elif alternative == "less":
            hits += total <= observed + tol
        else:
            hits += abs(total) >= abs(observed) - tol
    return hits / 2 ** len(nonzero)


def _data(seed, n=14, binary=False):
    rng = np.random.default_rng(seed)
    strata = rng.choice(["x", "y", "z"], size=n, p=[0.3, 0.3, 0.4]).tolist()
    if binary:
        return rng.integers(0, 2, n), rng.integers(0, 2, n), strata
    return rng.random(n).round(2), rng.random(n).round(2), strata


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("weights", ["macro", "micro", {"x": 3, "y": 1, "z": 1}])
def test_sign_flip_against_enumeration(alternative, weights):
    a, b, s = _data(1)
    r = stratified_sign_flip(a, b, s, weights=weights, alternative=alternative)
    units = (_c(s, weights) * (b - a)).tolist()
    assert r.exact and r.p_value == pytest.approx(_brute(units, alternative), abs=1e-12)
    assert r.statistic == pytest.approx(sum(units), rel=1e-12)


def test_sign_flip_monte_carlo_near_exact_and_seeded():
    a, b, s = _data(2, n=24)
    exact = stratified_sign_flip(a, b, s, n_resamples=1 << 24)
    assert exact.exact
    seed = np.random.SeedSequence(7)
    mc = stratified_sign_flip(a, b, s, n_resamples=20_000, seed=seed)
    assert not mc.exact and mc.n_resamples == 20_000
    assert abs(mc.p_value - exact.p_value) < 4 * mc.mc_error + 1 / 20_001
    again = stratified_sign_flip(a, b, s, n_resamples=20_000, seed=np.random.SeedSequence(7))
    assert again.p_value == mc.p_value
    swapped = stratified_sign_flip(b, a, s, n_resamples=20_000, seed=np.random.SeedSequence(7))
    assert swapped.p_value == mc.p_value and swapped.statistic == -mc.statistic
    with pytest.raises(EvalbarsError, match="seed must be a numpy.random.SeedSequence"):
        stratified_sign_flip(a, b, s, n_resamples=100)


def _brute_counts(c, u, v, alternative):
    """p of the exact stratified McNemar test by listing every (u_s) with binomial probs."""
    m = [ui + vi for ui, vi in zip(u, v)]
    observed = sum(ci * (ui - vi) for ci, ui, vi in zip(c, u, v))
    tol = 1e-9 * sum(ci * mi for ci, mi in zip(c, m))
    p = 0.0
    for ks in itertools.product(*[range(mi + 1) for mi in m]):
        value = sum(ci * (2 * k - mi) for ci, k, mi in zip(c, ks, m))
        prob = math.prod(sps.binom.pmf(k, mi, 0.5) for k, mi in zip(ks, m))
        if alternative == "greater":
            p += prob * (value >= observed - tol)
        elif alternative == "less":
            p += prob * (value <= observed + tol)
        else:
            p += prob * (abs(value) >= abs(observed) - tol)
    return p


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_mcnemar_exact_against_enumerations(alternative, seed):
    a, b, s = _data(seed, n=18, binary=True)
    r = stratified_mcnemar_exact(a, b, s, alternative=alternative)
    units = (_c(s, "macro") * (b - a)).tolist()
    assert r.p_value == pytest.approx(_brute(units, alternative), abs=1e-12)
    codes, sizes, labels = stratum_codes(s, len(s))
    c = (stratum_weights(sizes, labels, "macro") / sizes).tolist()
    u = [int(np.sum((a == 0) & (b == 1) & (codes == k))) for k in range(3)]
    v = [int(np.sum((a == 1) & (b == 0) & (codes == k))) for k in range(3)]
    assert r.p_value == pytest.approx(_brute_counts(c, u, v, alternative), abs=1e-12)
    assert r.statistic == pytest.approx(sum(units), rel=1e-12)
    # the exact stratified McNemar and the stratified sign-flip test agree on 0/1 data
    assert stratified_sign_flip(a, b, s, alternative=alternative).p_value == \
        pytest.approx(r.p_value, abs=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_micro_weights_give_mcnemar_on_pooled_counts(alternative):
    rng = np.random.default_rng(6)
    s = rng.choice([f"s{k}" for k in range(11)], size=3000).tolist()  # 11 unequal strata
    a, b = rng.integers(0, 2, 3000), rng.integers(0, 2, 3000)
    r = stratified_mcnemar_exact(a, b, s, weights="micro", alternative=alternative)
    u, v = int(np.sum((a == 0) & (b == 1))), int(np.sum((a == 1) & (b == 0)))
    ref = sps.binomtest(u, u + v, 0.5, alternative=alternative).pvalue  # scipy
    assert r.p_value == pytest.approx(ref, rel=1e-10)
    flip = stratified_sign_flip(a, b, s, weights="micro", alternative=alternative)
    assert flip.exact and flip.p_value == pytest.approx(ref, rel=1e-10)


def test_mantel_haenszel_micro_against_statsmodels():
    a, b, s = _data(8, n=200, binary=True)
    tables = [np.array([[ai, 1 - ai], [bi, 1 - bi]]) for ai, bi in zip(a, b)]
    ref = StratifiedTable(tables).test_null_odds(correction=False)  # statsmodels
    r = stratified_mantel_haenszel(a, b, s, weights="micro")
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-10)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mantel_haenszel_weighted_formula_and_large_sample_agreement(alternative):
    a, _, s = _data(9, n=600, binary=True)
    flip = np.random.default_rng(0).random(600)
    b = np.where(flip < 0.15, 1 - a, np.where(flip < 0.2, 1, a))  # B a little better
    codes, sizes, labels = stratum_codes(s, len(s))
    c = stratum_weights(sizes, labels, "macro") / sizes
    u = np.bincount(codes, weights=(a == 0) & (b == 1))
    v = np.bincount(codes, weights=(a == 1) & (b == 0))
    z = np.dot(c, u - v) / math.sqrt(np.dot(c * c, u + v))
    r = stratified_mantel_haenszel(a, b, s, alternative=alternative)
    if alternative == "two-sided":
        assert r.statistic == pytest.approx(z * z, rel=1e-12)
        assert r.p_value == pytest.approx(sps.chi2.sf(z * z, 1), rel=1e-10)
    else:
        ref = sps.norm.sf(z) if alternative == "greater" else sps.norm.cdf(z)
        assert r.statistic == pytest.approx(z, rel=1e-12)
        assert r.p_value == pytest.approx(ref, rel=1e-10)
    exact = stratified_mcnemar_exact(a, b, s, alternative=alternative)
    assert abs(exact.p_value - r.p_value) < 0.02  # the large-sample form of the exact test


def test_no_discordant_pairs():
    a = b = [1, 0, 1, 0]
    s = ["x", "x", "y", "y"]
    assert stratified_mcnemar_exact(a, b, s).p_value == 1.0
    r = stratified_mantel_haenszel(a, b, s)
    assert r.p_value == 1.0 and math.isnan(r.statistic)


def test_errors(monkeypatch):
    with pytest.raises(EvalbarsError, match="0/1 scores for test 'stratified-mcnemar-exact'"):
        stratified_mcnemar_exact([0.5, 1], [1, 0], ["x", "y"])
    with pytest.raises(EvalbarsError, match="'stratified-mantel-haenszel'"):
        stratified_mantel_haenszel([0.5, 1], [1, 0], ["x", "y"])
    monkeypatch.setattr(strata_tests, "EXACT_MAX_SUPPORT", 10)
    a, b, s = _data(3, n=40, binary=True)
    assert not strata_tests.exact_fits(a, b, s)
    with pytest.raises(EvalbarsError, match="more than 10 null values.*stratified-sign-flip"):
        stratified_mcnemar_exact(a, b, s)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_cluster_sign_flip_against_enumeration(alternative):
    a, b, s = _data(12, n=30)
    order = np.argsort(s, kind="stable")
    a, b, s = a[order], b[order], [s[i] for i in order]
    clusters = [f"{t}{i // 3}" for i, t in enumerate(s)]  # runs of 3 within each stratum
    clusters = [f"{t}-{c}" for t, c in zip(s, clusters)]
    r = stratified_sign_flip(a, b, s, clusters=clusters, alternative=alternative)
    c = _c(s, "macro")
    totals = {}
    for label, value in zip(clusters, (c * (b - a)).tolist()):
        totals[label] = totals.get(label, 0.0) + value
    assert r.name == "stratified-cluster-sign-flip" and r.exact
    assert r.p_value == pytest.approx(_brute(list(totals.values()), alternative), abs=1e-12)
