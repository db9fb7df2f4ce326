"""The compiled counting kernel draws the very counts numpy draws, bit for bit."""
import sys

import numpy as np
import pytest

from evalbars.stats import draw_counts, resample
from evalbars.stats.draw_counts import counter, kernel_counter, numpy_counter, numpy_counts

pytest.importorskip("llvmlite")


@pytest.fixture(autouse=True)
def kernel_loaded():
    assert draw_counts.load_kernel() is not None


def both(n, seed, chunks, rng=None):
    """The kernel's and numpy's counts of the same block, asked for in ``chunks``."""
    rows = draw_counts.padded(max(chunks))
    kernel = kernel_counter(rng or np.random.default_rng(seed), n, rows=rows)
    plain = numpy_counter(np.random.default_rng(seed), n, rows=rows)
    out = []
    for asked in chunks:
        (k, k_extra), (p, p_extra) = kernel(asked), plain(asked)
        assert k_extra is None and p_extra is None
        out.append((k[:asked].astype(float), p[:asked].astype(float)))
    return out


# Every numpy path: one add.at per chunk (< 16,384 units), a bincount per row of a
# chunk's draw, per resample drawn alone (>= 65,536); a power of two (no rejection).
@pytest.mark.parametrize("n", [2, 3, 17, 1000, 2048, 16383, 16384, 65535, 65536, 100_003])
def test_kernel_counts_equal_numpy_counts(n):
    for kernel, plain in both(n, seed=n, chunks=[8, 13, 1, 8]):
        assert np.array_equal(kernel, plain)
        assert (kernel.sum(axis=1) == n).all()


def test_the_generator_goes_on_as_if_numpy_had_drawn():
    # The kernel writes PCG64's state back, the held half-word included: the next
    # draws of both generators agree, whether a half-word was held before or not.
    for held in (False, True):
        mine, numpys = np.random.default_rng(8), np.random.default_rng(8)
        if held:  # one 32-bit half used, the other held for the next draw
            assert mine.integers(0, 10) == numpys.integers(0, 10)
        for kernel, plain in both(999, seed=8, chunks=[3, 5], rng=mine):
            assert np.array_equal(kernel, plain) or held
        numpys.integers(0, 999, size=(8, 999))
        assert mine.bit_generator.state == numpys.bit_generator.state
        assert mine.integers(0, 2**40, size=3).tolist() == numpys.integers(0, 2**40, size=3).tolist()


def test_counts_from_a_generator_holding_half_a_word_are_numpys():
    mine, numpys = np.random.default_rng(4), np.random.default_rng(4)
    mine.integers(0, 10), numpys.integers(0, 10)
    counts = kernel_counter(mine, 777, rows=8)(5)[0][:5]
    drawn = numpys.integers(0, 777, size=(5, 777))
    assert counts.tolist() == [np.bincount(row, minlength=777).tolist() for row in drawn]


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
    monkeypatch.setenv("EVALBARS_NO_KERNEL", "1")
    draw_counts.available.cache_clear()
    try:
        chosen = counter(np.random.default_rng(0), 10, rows=8)
        expected = numpy_counts(np.random.default_rng(0), 2, 10, np.empty((8, 10)))
        counts = chosen(2)[0]
        assert counts.dtype == float  # numpy's floats, not the kernel's bytes
        assert np.array_equal(counts[:2], expected[0][:2])
        assert draw_counts.load_kernel() is None
    finally:
        draw_counts.available.cache_clear()


def test_a_generator_other_than_pcg64_is_counted_by_numpy():
    rng = np.random.Generator(np.random.SFC64(0))
    assert counter(rng, 10, rows=8)(1)[0].dtype == float
    assert counter(np.random.default_rng(0), 10, rows=8)(1)[0].dtype == np.uint8
    with pytest.raises(ValueError, match="PCG64 only"):
        kernel_counter(rng, 10, rows=8)(1)


def stuck(state=12345678901234567890123):
    """A PCG64 generator at a fixed point of its step: every 64-bit output the same.

    ``inc = state * (1 - M)`` makes ``state * M + inc == state`` (mod 2**128); numpy's
    state setter takes it as it is, so numpy and the kernel draw the same two units
    (the output's low and high halves) over and over.
    """
    multiplier = 47026247687942121848144207491837523525
    rng = np.random.default_rng(0)
    held = rng.bit_generator.state
    held["state"] = {"state": state, "inc": state * (1 - multiplier) % 2**128}
    rng.bit_generator.state = held
    return rng


def test_a_unit_drawn_more_than_255_times_is_counted_whole():
    # 600 draws a row alternate between two units: 300 each, past a byte. The kernel
    # tallies 300 % 256 = 44 in the bytes and 256 in the row's extra floats.
    n = 600
    drawn = stuck().integers(0, n, size=(3, n))
    expected = [np.bincount(row, minlength=n) for row in drawn]
    assert max(e.max() for e in expected) == 300
    rng = stuck()
    counts = kernel_counter(rng, n, rows=8)
    tally, extra = counts(3)
    assert sorted(extra) == [0, 1, 2]
    assert [(tally[r] + extra[r]).tolist() for r in range(3)] == [e.tolist() for e in expected]
    product = resample._blocked_product(lambda low, high: tally[:3, low:high], 3, n,
                                        np.eye(n), np.empty((8, n)), extra)
    assert np.array_equal(product[:3], np.array(expected, dtype=float))
    # Filled again from an ordinary stream: the flags, the extra floats and the bytes
    # are cleared before the row is counted.
    rng.bit_generator.state = np.random.default_rng(1).bit_generator.state
    tally, extra = counts(3)
    drawn = np.random.default_rng(1).integers(0, n, size=(3, n))
    assert extra is None
    assert tally[:3].tolist() == [np.bincount(row, minlength=n).tolist() for row in drawn]


def test_numpy_agrees_on_the_stuck_generator_too():
    # The same wrap through numpy's byte path (from 16,384 units): counts kept whole.
    n = 20_000
    counts, extra = numpy_counts(stuck(), 2, n, np.empty((8, n), np.uint8))
    drawn = stuck().integers(0, n, size=(2, n))
    for row in (0, 1):
        whole = counts[row] + extra[row]
        assert whole.tolist() == np.bincount(drawn[row], minlength=n).tolist()


def test_a_kernel_that_cannot_load_leaves_numpy_counting_with_a_warning(monkeypatch):
    monkeypatch.setattr(draw_counts, "_loaded", [])
    monkeypatch.setattr(draw_counts, "_loading", [])
    monkeypatch.setitem(sys.modules, "evalbars.stats.counts_kernel", None)  # import fails
    with pytest.warns(RuntimeWarning, match="numpy counts the resamples"):
        assert draw_counts.load_kernel() is None
    assert counter(np.random.default_rng(0), 10, rows=8)(2)[0].dtype == float


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

    def watched(rng, n_units, *, rows):
        used.append(n_units)
        return kernel_counter(rng, n_units, rows=rows)

    x = np.random.default_rng(6).normal(size=(700, 2))
    monkeypatch.setattr(draw_counts, "kernel_counter", watched)
    with_kernel = resample.bootstrap_sums(x, n_resamples=600, seed=np.random.SeedSequence(2))
    assert used
    monkeypatch.setenv("EVALBARS_NO_KERNEL", "1")
    draw_counts.available.cache_clear()
    try:
        alone = resample.bootstrap_sums(x, n_resamples=600, seed=np.random.SeedSequence(2))
    finally:
        draw_counts.available.cache_clear()
    assert np.array_equal(with_kernel, alone)
