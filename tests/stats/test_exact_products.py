"""Exact slices: weighted sums that no BLAS kernel, and no other column, can change."""
from fractions import Fraction

import numpy as np
import pytest

from evalbars.stats.exact_products import MAX_SLICES, cut, exact_product, join, slice_bits
from evalbars.stats.resample import bootstrap_sums, sign_flip_sums

_DOT = np.dot


def reversed_dot(a, b):
    """``a @ b`` added in the opposite order over the shared axis: another kernel's order."""
    return _DOT(np.ascontiguousarray(a[:, ::-1]), np.ascontiguousarray(b[::-1]))


def split_dot(a, b):
    """``a @ b`` as the sum of its odd and even terms, one column at a time."""
    columns = [_DOT(a[:, 1::2], b[1::2, j]) + _DOT(a[:, ::2], b[::2, j])
               for j in range(b.shape[1])]
    return np.column_stack(columns) if columns else _DOT(a, b)


def test_the_stand_in_kernels_add_in_another_order():
    # Without exact slices, these orders change the last bits of plain float sums.
    counts = np.random.default_rng(0).integers(0, 3, size=(50, 3000)).astype(float)
    x = np.random.default_rng(1).normal(size=(3000, 3))
    assert not np.array_equal(_DOT(counts, x), reversed_dot(counts, x))
    assert not np.array_equal(_DOT(counts, x), split_dot(counts, x))


@pytest.mark.parametrize("other_dot", [reversed_dot, split_dot])
@pytest.mark.parametrize("draw", [bootstrap_sums, sign_flip_sums])
@pytest.mark.parametrize("n", [400, 40_000])
def test_sums_do_not_depend_on_the_order_blas_adds_in(monkeypatch, other_dot, draw, n):
    x = np.random.default_rng(2).normal(size=(n, 3))
    x[:, 2] = np.random.default_rng(3).random(n) < 0.6  # 0/1 scores: one slice
    seed = np.random.SeedSequence(4)
    before = draw(x, n_resamples=40, seed=seed)
    monkeypatch.setattr(np, "dot", other_dot)
    assert np.array_equal(draw(x, n_resamples=40, seed=seed), before)
    alone = draw(x[:, 1], n_resamples=40, seed=seed)
    assert np.array_equal(alone.reshape(40, -1)[:, 0], before[:, 1])


def test_the_patterns_path_does_not_depend_on_the_order_blas_adds_in(monkeypatch):
    x = np.random.default_rng(5).normal(size=(6, 2))
    k = np.array([300, 1, 20, 7, 90, 4])
    seed = np.random.SeedSequence(6)
    before = bootstrap_sums(x, n_resamples=30, seed=seed, multiplicity=k)
    monkeypatch.setattr(np, "dot", reversed_dot)
    assert np.array_equal(bootstrap_sums(x, n_resamples=30, seed=seed, multiplicity=k), before)
    assert np.array_equal(bootstrap_sums(x[:, :1], n_resamples=30, seed=seed, multiplicity=k),
                          before[:, :1])


def test_each_slice_sum_is_exact():
    # Every piece's weighted sum, through BLAS, equals its exact rational sum.
    w = np.random.default_rng(7).multinomial(500, np.full(500, 1 / 500), size=20)
    x = np.random.default_rng(8).normal(size=(500, 4)) * [1.0, 1e-8, 1e8, 3.0]
    slices = cut(x, 500)
    blas = np.dot(w.astype(float), slices.pieces)
    for p in range(slices.pieces.shape[1]):
        exact = [sum(Fraction(int(c)) * Fraction(v) for c, v in zip(row, slices.pieces[:, p]))
                 for row in w]
        assert blas[:, p].tolist() == [float(e) for e in exact]
    joined = join(blas, slices)
    for j in range(4):
        exact = [float(sum(Fraction(int(c)) * Fraction(v) for c, v in zip(row, x[:, j])))
                 for row in w]
        assert np.allclose(joined[:, j], exact, rtol=2**-52, atol=0)


def test_whole_numbers_take_one_slice_and_sum_exactly():
    w = np.random.default_rng(9).integers(0, 4, size=(30, 1000))
    x = np.random.default_rng(10).integers(0, 2, size=(1000, 5)).astype(float)
    x[:, 4] *= 7.0
    assert cut(x, int(w.sum(axis=1).max())).pieces.shape[1] == 5
    assert np.array_equal(exact_product(w, x), w @ x.astype(np.int64))


def test_slices_hold_their_bits_and_add_back_to_the_column():
    x = np.random.default_rng(11).normal(size=(300, 2))
    slices = cut(x, 300)
    assert slice_bits(300) == 44 and slices.level.max() < MAX_SLICES
    for j in range(2):
        pieces = slices.pieces[:, slices.column == j]
        assert np.array_equal(pieces.sum(axis=1), x[:, j])
        for piece in pieces.T:  # whole multiples of a power of two, within b + 1 bits
            scaled = np.ldexp(piece, slice_bits(300) + 1 - np.frexp(np.abs(piece).max())[1])
            assert np.array_equal(scaled, np.rint(scaled))
