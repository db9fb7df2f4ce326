"""pass^k (all k tries pass): the unbiased estimator C(c, k) / C(n, k) against exact
arithmetic, enumeration and tau-bench's formula."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from evalbars import EvalbarsError
from evalbars.stats.pass_at_k import pass_at_k, pass_hat_k, shortcut_hat


def exact(n: int, c: int, k: int) -> Fraction:
    """tau-bench's pass^k of one task, C(c, k) / C(n, k), in rational arithmetic
    (math.comb is 0 when c < k)."""
    return Fraction(math.comb(c, k), math.comb(n, k))


def test_tau_bench_formula_on_a_worked_example():
    # tau-bench (Yao et al. 2024): pass^k = E_task[C(c, k) / C(n, k)]; n = 8 trials, c = 6
    # passes, k = 4: C(6, 4) / C(8, 4) = 15 / 70 = 0.2142857...
    assert pass_hat_k(8, 6, 4) == pytest.approx(15 / 70, rel=1e-15)
    assert pass_hat_k(8, 6, 1) == pytest.approx(6 / 8, rel=1e-15)  # pass^1 is the pass rate
    assert pass_hat_k(8, 3, 4) == 0.0 and pass_hat_k(8, 8, 8) == 1.0


def test_every_k_subset_enumerated():
    # By enumeration: the share of the k-subsets of n answers (c of them passing) that
    # hold only passing answers.
    for n in range(1, 9):
        for c in range(n + 1):
            answers = [1] * c + [0] * (n - c)
            for k in range(1, n + 1):
                subsets = list(itertools.combinations(answers, k))
                share = Fraction(sum(all(s) for s in subsets), len(subsets))
                assert pass_hat_k(n, c, k) == pytest.approx(float(share), rel=1e-14, abs=0)


def test_exact_arithmetic_up_to_n_200():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 201))
        c, k = int(rng.integers(0, n + 1)), int(rng.integers(1, n + 1))
        expected = float(exact(n, c, k))
        assert pass_hat_k(n, c, k) == pytest.approx(expected, rel=1e-12, abs=0)


def test_tiny_values_keep_their_relative_precision():
    # C(100, 50) / C(200, 50) = 1.1e-16 (math.comb, exact); a 1 - x formula would lose it.
    expected = float(exact(200, 100, 50))
    assert expected < 1e-15
    assert pass_hat_k(200, 100, 50) == pytest.approx(expected, rel=1e-12)


def test_all_pass_is_no_failure_drawn():
    # pass^k(n, c, k) = 1 - pass@k(n, n - c, k): all k pass when none of the n - c fails is drawn.
    n, c = np.meshgrid(np.arange(1, 30), np.arange(0, 30))
    ok = c <= n
    n, c = n[ok], c[ok]
    for k in (1, 2, 5):
        keep = k <= n
        np.testing.assert_allclose(pass_hat_k(n[keep], c[keep], k),
                                   1 - pass_at_k(n[keep], n[keep] - c[keep], k), atol=1e-14)


@pytest.mark.parametrize("k", [1, 3, 10])
def test_unbiased_and_the_shortcut_is_high(k):
    """E[pass_hat_k(n, C, k)] = p^k exactly for C ~ Binomial(n, p) (scipy's pmf as weights);
    the plug-in (c/n)^k is higher on average (Jensen)."""
    n, p = 10, 0.6
    c = np.arange(n + 1)
    weights = stats.binom.pmf(c, n, p)
    assert np.dot(weights, pass_hat_k(n, c, k)) == pytest.approx(p ** k, rel=1e-12)
    if k > 1:
        assert np.dot(weights, shortcut_hat(n, c, k)) > p ** k + 0.01


def test_scalars_give_floats_and_arrays_broadcast():
    assert isinstance(pass_hat_k(10, 3, 2), float)
    got = pass_hat_k([10, 20], [9, 20], 3)
    assert got.tolist() == [pass_hat_k(10, 9, 3), 1.0]


@pytest.mark.parametrize("n,c,k,message", [
    (10, 3, 0, "k must be whole numbers >= 1"),
    (10, 3, 11, "k must be at most n"),
    (10, 11, 5, "c .answers that pass. must be at most n"),
    (10, -1, 5, "c .answers that pass. must be whole numbers >= 0"),
    (10.5, 3, 5, "n .answers sampled. must be whole numbers"),
])
def test_bad_counts(n, c, k, message):
    with pytest.raises(EvalbarsError, match=message):
        pass_hat_k(n, c, k)
