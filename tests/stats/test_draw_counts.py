"""The compiled counting kernel draws the very counts numpy draws, bit for bit."""
import sys

import numpy as np
import pytest

from evalbars.stats import draw_counts, resample
from evalbars.stats.draw_counts import KernelCounter, counter, numpy_counter, numpy_counts

pytest.importorskip("numba")


@pytest.fixture(autouse=True)
def kernel_loaded():
    assert draw_counts.load_kernel() is not None


def both(n, seed, chunks, total=None):
    """The kernel's and numpy's counts of the same block, asked for in ``chunks``."""
    total = total or sum(chunks)
    rows = draw_counts.padded(max(chunks))
    kernel = counter(np.random.default_rng(seed), n, rows=rows, total_rows=total)
    plain = numpy_counter(np.random.default_rng(seed), n, rows=rows)
    assert isinstance(kernel, KernelCounter) and not isinstance(plain, KernelCounter)
    out = []
    for asked in chunks:
        (k, k_extra), (p, p_extra) = kernel(asked), plain(asked)
        assert k_extra is None and p_extra is None
        out.append((k[:asked].astype(float), p[:asked].astype(float)))
    return out


# Every numpy path: one bincount per chunk (< 2048 units), per row of a chunk's draw,
# per resample drawn alone (>= 65,536); a power of two (no rejection possible).
@pytest.mark.parametrize("n", [2, 3, 17, 1000, 2047, 2048, 4096, 65535, 65536, 100_003])
def test_kernel_counts_equal_numpy_counts(n):
    for kernel, plain in both(n, seed=n, chunks=[8, 13, 1, 8]):
        assert np.array_equal(kernel, plain)
        assert (kernel.sum(axis=1) == n).all()


def test_words_running_out_mid_row_resume_where_they_stopped(monkeypatch):
    # 64 words at a time: every row is cut many times; the counts do not change.
    monkeypatch.setattr(draw_counts, "_RAW_WORDS", 64)
    for kernel, plain in both(5000, seed=1, chunks=[3, 5, 8]):
        assert np.array_equal(kernel, plain)


def test_rejected_words_are_skipped_as_numpy_skips_them():
    # n = 10**6: a word is rejected when its product's low half is below
    # (2**32 - n) % n = 967,296, about 2.3 words in 10,000. Check the stream has some.
    n = 10**6
    words = np.random.default_rng(5).bit_generator.random_raw(n).view(np.uint32)[:n]
    low = (words.astype(np.uint64) * np.uint64(n)) & np.uint64(0xFFFFFFFF)
    assert int(np.sum(low < (2**32 - n) % n)) > 100
    for kernel, plain in both(n, seed=5, chunks=[1, 1]):
        assert np.array_equal(kernel, plain)


def test_bootstrap_sums_are_the_same_with_and_without_the_kernel(monkeypatch):
    x = np.random.default_rng(2).normal(size=(3001, 3))
    compiled = resample.bootstrap_sums(x, n_resamples=1100, seed=np.random.SeedSequence(4))
    monkeypatch.setattr(draw_counts, "ready_kernel", lambda: None)  # numpy counts
    plain = resample.bootstrap_sums(x, n_resamples=1100, seed=np.random.SeedSequence(4))
    assert np.array_equal(compiled, plain)


def test_the_environment_can_switch_the_kernel_off(monkeypatch):
    monkeypatch.setenv("EVALBARS_NO_NUMBA", "1")
    draw_counts.available.cache_clear()
    try:
        chosen = counter(np.random.default_rng(0), 10, rows=8, total_rows=2)
        assert not isinstance(chosen, KernelCounter)
        expected = numpy_counts(np.random.default_rng(0), 2, 10, np.empty((8, 10)))
        assert np.array_equal(chosen(2)[0][:2], expected[0][:2])
        assert draw_counts.load_kernel() is None
    finally:
        draw_counts.available.cache_clear()


def test_a_generator_other_than_pcg64_or_holding_half_a_word_is_counted_by_numpy():
    rng = np.random.Generator(np.random.SFC64(0))
    assert not isinstance(counter(rng, 10, rows=8, total_rows=1), KernelCounter)
    rng = np.random.default_rng(0)
    rng.integers(0, 10)  # one 32-bit half used, the other held for the next draw
    assert not isinstance(counter(rng, 10, rows=8, total_rows=1), KernelCounter)


def test_a_unit_drawn_more_than_255_times_is_counted_whole():
    # The kernel tallies in bytes; 300 draws of unit 7 out of 300 wrap its byte once,
    # which puts 256 in the row's extra floats; the product adds them back.
    from evalbars.stats.counts_kernel import count_draws

    n = 300
    threshold = (2**32 - n) % n
    word = (7 << 32) // n + 2  # (word * n) >> 32 == 7, and the low half is above threshold
    assert (word * n) >> 32 == 7 and (word * n) % 2**32 >= threshold
    words = np.full(2 * n, word, dtype=np.uint32)
    tally, extra = np.full((2, n), 9, np.uint8), np.zeros((2, n))
    flagged = np.zeros(2, np.bool_)
    done = count_draws(words, n, n, np.uint64(threshold), tally, extra, flagged, 2, 1, 0)
    assert done == (2 * n, 2, 0) and flagged.tolist() == [False, True]
    counts = resample._blocked_product(lambda low, high: tally[:, low:high], 2, n,
                                       np.eye(n, 4 * (n // 4 + 1)), np.empty((8, n)),
                                       {1: extra[1]})
    expected = np.zeros(n)
    expected[7] = 300
    assert np.array_equal(counts[1, :n], expected)
    # Cleared when the row is filled again: the flag, the extra floats, the bytes.
    words = np.array([(unit << 32) // n + 2 for unit in range(n)], dtype=np.uint32)
    count_draws(words, 0, n, np.uint64(threshold), tally, extra, flagged, 2, 1, 0)
    assert not flagged.any() and not extra.any() and (tally[1] == 1).all()


def test_a_kernel_that_cannot_load_leaves_numpy_counting_with_a_warning(monkeypatch):
    monkeypatch.setattr(draw_counts, "_loaded", [])
    monkeypatch.setattr(draw_counts, "_loading", [])
    monkeypatch.setitem(sys.modules, "evalbars.stats.counts_kernel", None)  # import fails
    with pytest.warns(RuntimeWarning, match="numpy counts the resamples"):
        assert draw_counts.load_kernel() is None
    chosen = counter(np.random.default_rng(0), 10, rows=8, total_rows=2)
    assert not isinstance(chosen, KernelCounter)


def test_numpy_counts_past_255_are_kept_whole():
    # A generator that draws unit 0 every time: n draws of one of n units, past a byte.
    class Zeros:
        def integers(self, low, high, size):
            return np.zeros(size, dtype=np.int64)

    for n in (300, 20_000, 70_000):  # add.at a chunk, bincount a row of a chunk, a resample
        out = np.empty((8, n), dtype=float if n < draw_counts._FLAT_ADD else np.uint8)
        counts, extra = numpy_counts(Zeros(), 2, n, out)
        for row in (0, 1):
            whole = counts[row] + (extra or {}).get(row, 0)
            assert whole[0] == n and not whole[1:].any()


def test_once_loaded_the_kernel_counts_small_plans_too(monkeypatch):
    # The autouse fixture has loaded it: a plan far below KERNEL_CELLS uses it, and the
    # numbers are those of numpy alone.
    used = []
    real = draw_counts.KernelCounter

    class Watched(real):
        def __call__(self, rows):
            used.append(rows)
            return super().__call__(rows)

    x = np.random.default_rng(6).normal(size=(700, 2))
    monkeypatch.setattr(draw_counts, "KernelCounter", Watched)
    with_kernel = resample.bootstrap_sums(x, n_resamples=600, seed=np.random.SeedSequence(2))
    assert used
    monkeypatch.setenv("EVALBARS_NO_NUMBA", "1")
    draw_counts.available.cache_clear()
    try:
        alone = resample.bootstrap_sums(x, n_resamples=600, seed=np.random.SeedSequence(2))
    finally:
        draw_counts.available.cache_clear()
    assert np.array_equal(with_kernel, alone)
