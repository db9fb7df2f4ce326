"""Bootstrap intervals against scipy.stats.bootstrap (scipy 1.17)."""
import numpy as np
import pytest
from scipy import stats

from evalbars.bootstrap import bca_interval, bootstrap_means, percentile_interval


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
