"""Bootstrap intervals against scipy.stats.bootstrap (scipy 1.17)."""
import math
import warnings

import numpy as np
import pytest
from scipy import stats

import evalbars
from evalbars.stats.bootstrap import bca_interval, bootstrap_means, percentile_interval

pd = pytest.importorskip("pandas")


@pytest.mark.parametrize("data_seed,n", [(0, 10), (1, 100), (2, 1000)])
def test_bca_equals_scipy_on_the_same_replicates(data_seed, n):
    # Reference: scipy.stats.bootstrap(method="BCa") exposes its bootstrap_distribution;
    # fed the same replicates, our BCa must give its interval to rounding.
    x = np.random.default_rng(data_seed).exponential(size=n)
    ref = stats.bootstrap((x,), np.mean, method="BCa", n_resamples=4000,
                          confidence_level=0.9, rng=np.random.default_rng(9))
    ours = bca_interval(x, ref.bootstrap_distribution, confidence_level=0.9)
    assert ours.low == pytest.approx(ref.confidence_interval.low, rel=1e-12)
    assert ours.high == pytest.approx(ref.confidence_interval.high, rel=1e-12)


def test_percentile_equals_scipy_on_the_same_replicates():
    x = np.random.default_rng(3).normal(size=60)
    ref = stats.bootstrap((x,), np.mean, method="percentile", n_resamples=3000,
                          rng=np.random.default_rng(1))
    ours = percentile_interval(ref.bootstrap_distribution, method="bootstrap-percentile",
                               confidence_level=0.95)
    assert (ours.low, ours.high) == pytest.approx(
        (ref.confidence_interval.low, ref.confidence_interval.high), rel=1e-12)


@pytest.mark.parametrize("binary", [True, False])
def test_our_resamples_give_scipys_interval_within_monte_carlo_error(binary):
    rng = np.random.default_rng(11)
    x = (rng.random(400) < 0.7).astype(float) if binary else rng.gamma(2.0, size=400)
    replicates = bootstrap_means(x, n_resamples=20_000, seed=np.random.SeedSequence(0))[:, 0]
    for method in ("percentile", "BCa"):
        ref = stats.bootstrap((x,), np.mean, method=method, n_resamples=20_000,
                              rng=np.random.default_rng(2)).confidence_interval
        if method == "BCa":
            ours = bca_interval(x, replicates, confidence_level=0.95)
        else:
            ours = percentile_interval(replicates, method="bootstrap-percentile",
                                       confidence_level=0.95)
        se = x.std() / np.sqrt(x.size)
        # Monte Carlo sd of a 2.5% quantile with B = 20,000 is about 0.03 SE; allow 0.15 SE.
        assert ours.low == pytest.approx(ref.low, abs=0.15 * se)
        assert ours.high == pytest.approx(ref.high, abs=0.15 * se)


def test_paired_columns_share_one_resample():
    # The gap's replicates come from one set of items per round: for b = a + 1,
    # every replicate of mean(b) - mean(a) is exactly 1.
    a = np.random.default_rng(4).normal(size=200)
    means = bootstrap_means(np.column_stack([a, a + 1]), n_resamples=1000,
                            seed=np.random.SeedSequence(0))
    assert np.allclose(means[:, 1] - means[:, 0], 1.0)


def test_constant_data_gives_a_point_interval():
    x = np.ones(30)
    replicates = bootstrap_means(x, n_resamples=500, seed=np.random.SeedSequence(0))[:, 0]
    assert percentile_interval(replicates, method="bootstrap-percentile",
                               confidence_level=0.95).low == 1.0
    bca = bca_interval(x, replicates, confidence_level=0.95)
    assert (bca.low, bca.high) == (1.0, 1.0)


# --- degenerate data: defined results, no warnings -------------------------------------


@pytest.fixture
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("x", [np.full(23, 0.1), np.full(7, 1 / 3), np.full(40, 0.7),
                               np.full(2, 0.3), np.zeros(5), np.full(21, 1e-300)],
                         ids=["23x0.1", "7x1/3", "40x0.7", "2x0.3", "zeros", "tiny"])
def test_bca_on_constant_data_is_the_point(x, warnings_are_errors):
    # The replicates may all differ from the estimate by rounding (23 x 0.1: mean
    # 0.10000000000000003, every replicate 0.1), which used to make z0 infinite and the
    # ends nan with "invalid value" RuntimeWarnings. Every quantile of a point is the point.
    replicates = bootstrap_means(x, n_resamples=199, seed=np.random.SeedSequence(0))[:, 0]
    assert np.unique(replicates).size == 1
    bca = bca_interval(x, replicates, confidence_level=0.95)
    percentile = percentile_interval(replicates, method="bootstrap-percentile",
                                     confidence_level=0.95)
    assert (bca.low, bca.high) == (percentile.low, percentile.high) == (replicates[0],) * 2


def test_bca_on_two_items_equals_scipy(warnings_are_errors):
    x = np.array([0.0, 1.0])
    ref = stats.bootstrap((x,), np.mean, method="BCa", n_resamples=999,
                          rng=np.random.default_rng(5))
    ours = bca_interval(x, ref.bootstrap_distribution, confidence_level=0.95)
    assert (ours.low, ours.high) == pytest.approx(
        (ref.confidence_interval.low, ref.confidence_interval.high), rel=1e-12)


def test_bca_is_undefined_when_no_replicate_lies_on_one_side(warnings_are_errors):
    # z0 = Phi^-1(0) or Phi^-1(1): scipy's formula gives nan here too.
    x = np.array([0.0, 1.0, 1.0])
    for replicates in (np.array([0.7, 0.8, 1.0]), np.array([0.0, 0.3, 0.6])):
        bca = bca_interval(x, replicates, confidence_level=0.95)
        assert math.isnan(bca.low) and math.isnan(bca.high)


def test_bca_is_undefined_when_the_level_map_folds(warnings_are_errors):
    # a = 0.166 (one 1 among 999 zeros) and z0 = Phi^-1(0.9999) = 3.72: at 99%,
    # 1 - a (z0 + 2.576) = -0.048 < 0, and scipy's formula (same replicates) would give
    # the interval [0.4993, 0.0], upper end below the lower one.
    x = np.r_[np.zeros(999), 1.0]
    replicates = np.r_[np.linspace(0.0, 0.0009, 9999), 0.5]
    bca = bca_interval(x, replicates, confidence_level=0.99)
    assert math.isnan(bca.low) and math.isnan(bca.high)
    assert math.isfinite(bca_interval(x, replicates, confidence_level=0.95).low)


@pytest.mark.parametrize("a, b", [
    ([0.1] * 23, [0.1] * 23),                                 # constant, identical models
    ([0.1] * 23, list(np.linspace(0, 1, 23))),                # one constant model
    ([1] * 12, [1] * 11 + [0]),                               # 0/1, one model constant
    ([0.0, 1.0], [1.0, 0.5]),                                 # two items
    ([0, 1], [1, 1]),                                         # two 0/1 items
    (list(np.linspace(0, 1, 15)), list(np.linspace(0, 1, 15))),  # identical models
], ids=["constant-identical", "one-constant", "binary-constant", "two-items",
        "two-binary-items", "identical"])
@pytest.mark.parametrize("cluster", [None, "topic"])
def test_compare_on_degenerate_data_warns_nothing(a, b, cluster, warnings_are_errors):
    n = len(a)
    frame = pd.DataFrame({"id": [f"q{i}" for i in range(n)], "a": a, "b": b,
                          "topic": [f"t{i % 2}" for i in range(n)]})
    doc = evalbars.compare(frame, a="a", b="b", cluster=cluster, n_resamples=199).to_dict()
    for model in doc["models"]:  # a constant model's bootstrap intervals are a point
        if np.ptp(frame[model["name"]]) == 0:
            ends = [(iv["low"], iv["high"]) for iv in model["intervals"]
                    if iv["method"] in ("bootstrap-percentile", "bootstrap-bca")]
            assert len(ends) == 2 and ends[0] == ends[1]
            assert ends[0][0] == ends[0][1] == pytest.approx(model["mean"], rel=1e-15)
    if a == b:  # identical models: the paired bootstrap gap is exactly 0
        gap = doc["difference"]["intervals"][0 if cluster is None else 1]
        assert gap["method"].startswith("paired") and (gap["low"], gap["high"]) == (0.0, 0.0)
        assert {test["p_value"] for test in doc["tests"]} == {1.0}
