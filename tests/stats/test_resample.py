"""The resampling engine: determinism, batch and order invariance, exact structure."""
import numpy as np
import pytest

from evalbars.stats import draw_counts
from evalbars.stats import resample as _resample
from evalbars.stats.resample import BLOCK, bootstrap_sums, sign_flip_sums


def seed(n=0):
    return np.random.SeedSequence(n)


def test_same_seed_same_numbers():
    x = np.random.default_rng(1).normal(size=(300, 2))
    first = bootstrap_sums(x, n_resamples=1500, seed=seed())
    second = bootstrap_sums(x, n_resamples=1500, seed=seed())
    assert np.array_equal(first, second)
    assert not np.array_equal(first, bootstrap_sums(x, n_resamples=1500, seed=seed(1)))


def test_more_resamples_extend_fewer():
    # Blocks draw from their own child streams, so B resamples are a prefix of 2B.
    x = np.random.default_rng(2).normal(size=(50, 1))
    short = bootstrap_sums(x, n_resamples=BLOCK + 7, seed=seed())
    long = bootstrap_sums(x, n_resamples=3 * BLOCK, seed=seed())
    assert np.array_equal(short, long[: BLOCK + 7])


CASES = [(400, b, draw) for b in (1, 7, 700) for draw in (bootstrap_sums, sign_flip_sums)] + [
    (3000, 520, bootstrap_sums), (3000, 520, sign_flip_sums)]  # 3000 units: a bincount per row


@pytest.mark.parametrize("n, b, draw", CASES, ids=[f"{n}-{b}-{d.__name__}" for n, b, d in CASES])
def test_a_column_does_not_depend_on_the_other_columns(n, b, draw):
    # One plan of counts (and one sign matrix) per (number of units, seed): column j of
    # counts @ x is the same bits whatever else is multiplied with it, at any position,
    # for any number of resamples (exact slices, tests/stats/test_exact_products.py).
    x = np.random.default_rng(3).normal(size=(n, 20))
    full = draw(x, n_resamples=b, seed=seed())
    for columns in ([5], [5, 0], [3, 5, 9], list(range(13)), [19, 5]):
        part = draw(x[:, columns], n_resamples=b, seed=seed())
        assert np.array_equal(part, full[:, columns]), columns
    alone = draw(x[:, 5], n_resamples=b, seed=seed())
    assert np.array_equal(alone.reshape(b, -1)[:, 0], full[:, 5])


def test_the_patterns_path_does_not_depend_on_row_order():
    x = np.array([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    k = np.array([30, 50, 20])
    order = [2, 0, 1]
    assert np.array_equal(bootstrap_sums(x, n_resamples=700, seed=seed(), multiplicity=k),
                          bootstrap_sums(x[order], n_resamples=700, seed=seed(),
                                         multiplicity=k[order]))


def test_threads_do_not_change_numbers(monkeypatch):
    x = np.random.default_rng(5).normal(size=(2000, 2))
    threaded = bootstrap_sums(x, n_resamples=4 * BLOCK, seed=seed())
    monkeypatch.setattr(_resample, "_workers", lambda n_blocks, work: 1)
    single = bootstrap_sums(x, n_resamples=4 * BLOCK, seed=seed())
    assert np.array_equal(threaded, single)


def test_chunking_does_not_change_numbers(monkeypatch):
    x = np.random.default_rng(6).normal(size=(100, 1))
    whole = bootstrap_sums(x, n_resamples=600, seed=seed())
    monkeypatch.setattr(_resample, "_MAX_CELLS", 250)  # 2 resamples per chunk
    assert np.array_equal(whole, bootstrap_sums(x, n_resamples=600, seed=seed()))


def test_multinomial_patterns_match_the_binomial_law():
    # 0/1 data grouped into two patterns: the resampled sum is Binomial(n, p) exactly.
    n, k, b = 200, 130, 40_000
    sums = bootstrap_sums(np.array([[0.0], [1.0]]), n_resamples=b, seed=seed(),
                          multiplicity=np.array([n - k, k]))[:, 0]
    p = k / n
    assert sums.mean() == pytest.approx(n * p, abs=4 * np.sqrt(n * p * (1 - p) / b))
    assert sums.var() == pytest.approx(n * p * (1 - p), rel=0.03)


def test_index_path_has_bootstrap_variance():
    # Var of a bootstrap sum of n draws = n * population variance (ddof=0) of the units.
    x = np.random.default_rng(7).exponential(size=(500, 1))
    sums = bootstrap_sums(x, n_resamples=20_000, seed=seed())[:, 0]
    assert sums.mean() == pytest.approx(x.sum(), rel=0.002)
    assert sums.var() == pytest.approx(500 * x.var(), rel=0.03)


def test_sign_flip_sums_are_uniform_over_sign_patterns():
    d = np.array([1.0, 2.0, 4.0])
    sums = sign_flip_sums(d, n_resamples=16_000, seed=seed())
    values, counts = np.unique(sums, return_counts=True)
    assert values.tolist() == [-7, -5, -3, -1, 1, 3, 5, 7]
    assert np.all(np.abs(counts / 16_000 - 1 / 8) < 4 * np.sqrt(1 / 8 * 7 / 8 / 16_000))


def test_blas_runs_on_one_thread_inside_the_engine_and_is_restored_after():
    """The blocks are the parallelism; BLAS threads inside them spin against each other
    on a busy machine (benchmarks/bench_blas_threads.py: 10x slower)."""
    from threadpoolctl import threadpool_info

    def blas_threads() -> list[int]:
        return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]

    before = blas_threads()
    seen = []

    def draw(rng, size):
        seen.append(blas_threads())
        return np.zeros((size, 1))

    _resample.run_blocks(1024, 1, np.random.SeedSequence(0), draw, 10**6, None)
    assert seen and all(threads == [1] * len(before) for threads in seen)
    assert blas_threads() == before


@pytest.mark.parametrize("draw", [bootstrap_sums, sign_flip_sums])
@pytest.mark.parametrize("n", [100, 2500])
def test_reused_chunk_buffers_do_not_change_numbers(monkeypatch, draw, n):
    # 13 resamples per chunk leave a last chunk of 5 in each block of 512 (and a block of
    # 21 for the last 21 resamples): partial chunks reuse the buffer of the full ones.
    x = np.random.default_rng(8).normal(size=(n, 3))
    whole = draw(x, n_resamples=BLOCK + 21, seed=seed())
    monkeypatch.setattr(_resample, "_rows_per_chunk", lambda n_units, n_columns: 13)
    assert np.array_equal(whole, draw(x, n_resamples=BLOCK + 21, seed=seed()))


def test_drawing_one_resample_at_a_time_draws_the_same_counts(monkeypatch):
    # Large item sets draw each resample's indices alone: the same stream as one call.
    x = np.random.default_rng(9).normal(size=(3000, 2))
    whole = bootstrap_sums(x, n_resamples=40, seed=seed())
    monkeypatch.setattr(draw_counts, "_ROW_DRAWS", 2048)
    assert np.array_equal(whole, bootstrap_sums(x, n_resamples=40, seed=seed()))
