"""Tests for evalbars.stats.significance, mcnemar, permutation and signed_rank: published
numbers, reference libraries, invariances, errors.

Published values are compared with a tolerance of half the last digit shown.
scipy and statsmodels serve as independent references (statsmodels is test-only);
where neither applies, an independent route is computed here (exact rational
arithmetic, brute-force enumeration of sign patterns).
"""
from __future__ import annotations

import csv
import doctest
import itertools
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.descriptivestats import sign_test as sm_sign_test

from evalbars.core.errors import EvalbarsError
from evalbars.core.types import TestResult
from evalbars.stats import mcnemar, permutation, signed_rank, significance
from evalbars.stats.mcnemar import mcnemar_chi2, mcnemar_exact, mcnemar_midp
from evalbars.stats.permutation import TIE_RTOL, sign_flip
from evalbars.stats.signed_rank import wilcoxon
from evalbars.stats.significance import (
    BINARY_TESTS,
    CONTINUOUS_TESTS,
    TESTS,
    paired_t,
    paired_test,
    sign_test,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REL = 1e-10  # agreement with reference implementations


def seed(n: int = 0) -> np.random.SeedSequence:
    return np.random.SeedSequence(n)


def columns(path: Path, *names: str) -> tuple[np.ndarray, ...]:
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    return tuple(np.array([float(row[name]) for row in rows]) for name in names)


def table(both: int, b_only: int, a_only: int, neither: int) -> tuple[np.ndarray, np.ndarray]:
    """0/1 arrays (a, b) with the given 2x2 cell counts."""
    a = np.repeat([1.0, 0.0, 1.0, 0.0], [both, b_only, a_only, neither])
    b = np.repeat([1.0, 1.0, 0.0, 0.0], [both, b_only, a_only, neither])
    return a, b


def discordant(a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    return int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))


def same_result(x: TestResult, y: TestResult) -> bool:
    """Field-by-field identity, treating nan as equal to nan."""
    def eq(u, v):
        return (u == v) or (isinstance(u, float) and isinstance(v, float)
                            and math.isnan(u) and math.isnan(v))
    return all(eq(getattr(x, f), getattr(y, f)) for f in
               ("name", "statistic", "p_value", "exact", "n_resamples", "mc_error"))


# --- datasets ----------------------------------------------------------------------


def _binary(n, p_a, p_b, s):
    rng = np.random.default_rng(s)
    a = (rng.random(n) < p_a).astype(float)
    # correlated pairs, as models on the same questions are
    b = np.where(rng.random(n) < 0.6, a, (rng.random(n) < p_b).astype(float))
    return a, b


BINARY_DATA = {
    "n10-s1": _binary(10, 0.5, 0.7, 1),
    "n10-s2": _binary(10, 0.4, 0.6, 2),
    "n37": _binary(37, 0.5, 0.5, 3),
    "n200": _binary(200, 0.6, 0.7, 4),
    "n1000-near-1": _binary(1000, 0.98, 0.99, 5),
    "n3000": _binary(3000, 0.7, 0.72, 6),
    "all-ties": (np.array([1.0, 0, 1, 1, 0, 1]), np.array([1.0, 0, 1, 1, 0, 1])),
    "one-discordant": table(5, 1, 0, 4),
    "balanced": table(3, 4, 4, 2),
}


def _continuous(n, shift, s, decimals=None, zeros=0):
    rng = np.random.default_rng(s)
    a = rng.random(n)
    b = a + rng.normal(shift, 0.3, n)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    b[:zeros] = a[:zeros]
    return a, b


CONTINUOUS_DATA = {
    # name: (a, b, wilcoxon route scipy 1.17 "auto" takes)
    "n10-exact": (*_continuous(10, 0.1, 11), "exact"),
    "n40-exact": (*_continuous(40, 0.05, 12), "exact"),
    "n12-zeros-permutation": (*_continuous(12, 0.2, 13, zeros=3), "permutation"),
    "n13-ties-permutation": (*_continuous(13, 0.1, 14, decimals=1), "permutation"),
    "n30-ties-normal": (*_continuous(30, 0.1, 15, decimals=1), "normal"),
    "n20-zeros-normal": (*_continuous(20, 0.1, 16, zeros=2), "normal"),
    "n300-normal": (*_continuous(300, 0.03, 17), "normal"),
    "n60-no-ties-normal": (*_continuous(60, 0.05, 18), "normal"),
    "near-1": (np.minimum(1.0, 0.9 + np.round(np.random.default_rng(19).random(50) * 0.2, 2)),
               np.minimum(1.0, 0.92 + np.round(np.random.default_rng(20).random(50) * 0.2, 2)),
               "normal"),
    "binary-n200": (*_binary(200, 0.6, 0.7, 21), "normal"),
    "single-nonzero": (np.array([0.5, 0.2, 0.9, 0.4]), np.array([0.5, 0.7, 0.9, 0.4]),
                       "permutation"),
}


# --- registry ---------------------------------------------------------------------


def test_test_names():
    assert BINARY_TESTS == ("mcnemar-exact", "mcnemar-chi2", "mcnemar-midp", "sign-flip",
                            "paired-t")
    assert CONTINUOUS_TESTS == ("sign", "sign-flip", "paired-t", "wilcoxon")
    assert set(TESTS) == set(BINARY_TESTS) | set(CONTINUOUS_TESTS)
    a, b = BINARY_DATA["n200"]
    for name, function in TESTS.items():
        assert function(a, b).name == name
        assert paired_test(a, b, name=name, seed=seed()) == function(a, b)


# --- published values ---------------------------------------------------------------


def test_lesson_mcnemar_exact_matches_r_binom_test():
    a, b = columns(EXAMPLES / "lesson_pair.csv", "model_a", "model_b")
    assert discordant(a, b) == (4, 17)
    r = mcnemar_exact(a, b)
    assert r.statistic == 17
    assert r.p_value == pytest.approx(0.00720, abs=5e-6)  # R: binom.test(17, 21)
    assert r.exact and r.n_resamples is None


def test_lesson_mcnemar_chi2_matches_r_mcnemar_test():
    a, b = columns(EXAMPLES / "lesson_pair.csv", "model_a", "model_b")
    r = mcnemar_chi2(a, b)
    assert r.statistic == pytest.approx(6.857, abs=5e-4)  # R: mcnemar.test, chi2 = 6.8571
    assert r.p_value == pytest.approx(0.0088, abs=5e-5)  # R: mcnemar.test, p = 0.008829


def test_lesson_sign_flip_is_the_exact_binomial():
    # 0/1 data: the sign-flip null is Binomial(21, 1/2) on the discordant pairs.
    a, b = columns(EXAMPLES / "lesson_pair.csv", "model_a", "model_b")
    r = sign_flip(a, b)
    assert r.exact and r.p_value == pytest.approx(0.00720, abs=5e-6)  # R: binom.test(17, 21)
    assert r.statistic == pytest.approx((17 - 4) / 500)


def test_cookbook_mcnemar_exact():
    a, b = columns(EXAMPLES / "cookbook_topics.csv", "system_a", "system_b")
    assert discordant(a, b) == (26, 45)
    r = mcnemar_exact(a, b)
    assert r.statistic == 45
    assert r.p_value == pytest.approx(0.0319, abs=5e-5)  # R: binom.test(45, 71) p = 0.03193


def test_midp_fagerland_example():
    # Fagerland, Lydersen & Laake (2013, BMC Med Res Methodol 13:91), Bentur et al.
    # data (AHR before/after SCT, 21 children): discordant cells 1 and 7.
    # Reported: exact conditional P = 0.070, mid-p P = 0.039.
    a, b = table(both=1, b_only=1, a_only=7, neither=12)
    assert mcnemar_exact(a, b).p_value == pytest.approx(0.070, abs=5e-4)
    assert mcnemar_midp(a, b).p_value == pytest.approx(0.039, abs=5e-4)
    assert mcnemar_midp(a, b).p_value == pytest.approx(10 / 256, rel=1e-12)  # (2*9 - 8)/256


def _midp_rational(a_only: int, b_only: int) -> Fraction:
    """Independent route: Fagerland et al.'s supplement formulas in exact arithmetic."""
    m, k = a_only + b_only, min(a_only, b_only)
    pmf = [Fraction(math.comb(m, x), 2**m) for x in range(m + 1)]
    if a_only == b_only:
        return 1 - pmf[k] / 2
    return 2 * sum(pmf[: k + 1]) - pmf[k]


@pytest.mark.parametrize("a_only, b_only", [
    (1, 0), (0, 1), (1, 1), (2, 2), (0, 5), (3, 9), (7, 1), (10, 10), (26, 45), (4, 17),
    (40, 61), (120, 150), (0, 30),
])
def test_midp_matches_exact_rational_arithmetic(a_only, b_only):
    a, b = table(3, b_only, a_only, 2)
    r = mcnemar_midp(a, b)
    assert r.statistic == b_only
    assert r.p_value == pytest.approx(float(_midp_rational(a_only, b_only)), rel=1e-12)
    assert r.p_value <= mcnemar_exact(a, b).p_value


# --- agreement with scipy and statsmodels: 0/1 data ---------------------------------


@pytest.mark.parametrize("key", list(BINARY_DATA))
def test_binary_against_references(key):
    a, b = BINARY_DATA[key]
    a_only, b_only = discordant(a, b)
    m = a_only + b_only
    both = int(np.sum((a == 1) & (b == 1)))
    sm_table = np.array([[both, a_only], [b_only, a.size - both - m]])

    exact = mcnemar_exact(a, b)
    assert exact.statistic == b_only
    if m:
        assert exact.p_value == pytest.approx(stats.binomtest(b_only, m).pvalue, rel=REL)
    assert exact.p_value == pytest.approx(sm_mcnemar(sm_table, exact=True).pvalue, rel=REL)

    chi2 = mcnemar_chi2(a, b)
    if m == 0:
        assert math.isnan(chi2.statistic) and chi2.p_value == 1.0
    elif a_only == b_only:
        # R mcnemar.test drops the correction here (statistic 0, p 1); statsmodels
        # would give 1/m, a larger p for |b-a| = 1 than for |b-a| = 0.
        assert chi2.statistic == 0.0 and chi2.p_value == 1.0
    else:
        ref = sm_mcnemar(sm_table, exact=False, correction=True)
        assert chi2.statistic == pytest.approx(ref.statistic, rel=REL)
        assert chi2.p_value == pytest.approx(ref.pvalue, rel=REL)

    flip = sign_flip(a, b)  # closed form for any n
    assert flip.exact and flip.p_value == exact.p_value
    assert flip.statistic == pytest.approx(np.mean(b - a), abs=1e-15)

    assert sign_test(a, b).p_value == exact.p_value
    assert mcnemar_midp(a, b).p_value == pytest.approx(
        float(_midp_rational(a_only, b_only)) if m else 1.0, rel=1e-12)

    t = paired_t(a, b)
    if m:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            ref = stats.ttest_rel(b, a)
        assert t.statistic == pytest.approx(float(ref.statistic), rel=REL)
        assert t.p_value == pytest.approx(float(ref.pvalue), rel=REL)
    else:
        assert math.isnan(t.statistic) and t.p_value == 1.0

    w = wilcoxon(a, b)
    if m:
        ref = stats.wilcoxon(b - a, zero_method="wilcox", correction=True, method="auto")
        assert w.statistic == ref.statistic
        assert w.p_value == pytest.approx(float(ref.pvalue), rel=REL)
    else:
        assert w.statistic == 0.0 and w.p_value == 1.0


def test_mcnemar_chi2_is_monotone_in_the_imbalance():
    # The floor at |b - a| - 1 >= 0 keeps p non-increasing as the imbalance grows.
    ps = [mcnemar_chi2(*table(0, 10 + k, 10, 0)).p_value for k in range(8)]
    assert ps[0] == ps[1] == 1.0
    assert all(x >= y for x, y in zip(ps, ps[1:]))


@pytest.mark.parametrize("s", range(6))
def test_sign_flip_closed_form_equals_brute_force(s):
    rng = np.random.default_rng(100 + s)
    n = int(rng.integers(1, 13))
    a, b = (rng.random(n) < 0.5).astype(float), (rng.random(n) < 0.6).astype(float)
    d = (b - a).astype(int)
    observed = abs(int(d.sum()))
    hits = sum(abs(int(np.dot(signs, d))) >= observed
               for signs in itertools.product((-1, 1), repeat=n))
    assert sign_flip(a, b).p_value == pytest.approx(hits / 2**n, rel=1e-12)


# --- agreement with scipy and statsmodels: continuous data ---------------------------


@pytest.mark.parametrize("key", list(CONTINUOUS_DATA))
def test_continuous_against_references(key):
    a, b, route = CONTINUOUS_DATA[key]
    d = b - a
    nonzero = d[d != 0]

    t = paired_t(a, b)
    ref = stats.ttest_rel(b, a)
    assert t.statistic == pytest.approx(float(ref.statistic), rel=REL)
    assert t.p_value == pytest.approx(float(ref.pvalue), rel=REL, abs=1e-300)

    w = wilcoxon(a, b)
    ranked = np.abs(nonzero)
    assert signed_rank._wilcoxon_route(d.size, nonzero.size,
                                        np.unique(ranked).size < ranked.size) == route
    ref = stats.wilcoxon(d, zero_method="wilcox", correction=True, method="auto")
    assert w.statistic == ref.statistic
    assert w.p_value == pytest.approx(float(ref.pvalue), rel=REL)
    assert w.exact == (route != "normal")

    k, m = int(np.sum(d > 0)), nonzero.size
    s = sign_test(a, b)
    assert s.statistic == k
    assert s.p_value == pytest.approx(stats.binomtest(k, m).pvalue, rel=REL)
    assert s.p_value == pytest.approx(sm_sign_test(d)[1], rel=REL)


def test_wilcoxon_routes_are_all_exercised():
    assert {route for *_, route in CONTINUOUS_DATA.values()} == {"exact", "permutation", "normal"}


def _perm_mean(d):
    return stats.permutation_test((d,), np.mean, permutation_type="samples",
                                  n_resamples=np.inf, alternative="two-sided").pvalue


@pytest.mark.parametrize("s", range(8))
def test_sign_flip_enumeration_equals_scipy_permutation_test(s):
    rng = np.random.default_rng(200 + s)
    n = int(rng.integers(2, 15))
    a = rng.random(n)
    b = a + rng.normal(0.15, 0.3, n)
    if s % 2:
        b[: n // 4] = a[: n // 4]  # some zero differences
    r = sign_flip(a, b)
    assert r.exact and r.n_resamples is None and r.mc_error is None
    assert r.p_value == pytest.approx(float(_perm_mean(b - a)), rel=1e-12)


def test_sign_flip_counts_rounding_ties_as_ties():
    # d = -0.2, -0.1, 0.2, 0, 0.1 sums to 0 in decimal arithmetic; the floats give a sum
    # of -8e-17, and without a tolerance p would be 0.875 (scipy's relative tolerance
    # of 100 eps * |observed| is too small here). With TIE_RTOL * sum|d| it is 1.
    a = np.array([0.3, 0.4, 0.1, 0.5, 0.6])
    b = np.array([0.1, 0.3, 0.3, 0.5, 0.7])
    assert sign_flip(a, b).p_value == 1.0
    # Monte Carlo too: six copies (24 nonzero differences, more than enumeration takes)
    # sum to -3.3e-16 in floats; every draw counts, so p = (B + 1) / (B + 1).
    mc = sign_flip(np.tile(a, 6), np.tile(b, 6), n_resamples=4, seed=seed())
    assert not mc.exact and mc.p_value == 1.0
    assert TIE_RTOL == 1e-9


def test_sign_flip_monte_carlo_agrees_with_exact():
    rng = np.random.default_rng(300)
    a = rng.random(22)
    b = a + rng.normal(0.12, 0.35, 22)
    exact = sign_flip(a, b, n_resamples=2**22)
    assert exact.exact and 0.01 < exact.p_value < 0.5
    mc = sign_flip(a, b, n_resamples=20_000, seed=seed(7))
    assert not mc.exact and mc.n_resamples == 20_000
    assert mc.mc_error == pytest.approx(math.sqrt(mc.p_value * (1 - mc.p_value) / 20_000))
    assert abs(mc.p_value - exact.p_value) < 4 * mc.mc_error
    assert mc.to_dict() == {"name": "sign-flip", "statistic": mc.statistic,
                            "p_value": mc.p_value, "n_resamples": 20_000,
                            "mc_error": mc.mc_error}


def test_sign_flip_monte_carlo_is_never_zero():
    d = np.linspace(1.0, 2.0, 40)  # every difference positive: exact p = 2 / 2**40
    r = sign_flip(np.zeros(40), d, n_resamples=500, seed=seed())
    assert r.p_value == 1 / 501 and r.mc_error > 0


def test_sign_flip_route_boundary():
    # Enumeration up to SIGN_FLIP_EXACT_MAX = 20 nonzero differences whatever
    # n_resamples, and beyond that while 2**m <= n_resamples.
    assert permutation.SIGN_FLIP_EXACT_MAX == 20
    rng = np.random.default_rng(301)
    a, b = rng.random(21), rng.random(21)
    twenty = sign_flip(a[:20], b[:20], n_resamples=1)
    assert twenty.exact and twenty.n_resamples is None and twenty.mc_error is None
    assert sign_flip(a, b, n_resamples=2**21).exact
    assert permutation._enumerates(21, 2**21) and not permutation._enumerates(21, 2**21 - 1)
    r = sign_flip(a, b, n_resamples=1000, seed=seed())
    assert not r.exact and r.n_resamples == 1000


def test_sign_flip_enumerates_up_to_20_differences_whatever_n_resamples():
    # 2**17 patterns, more than the default 10,000 resamples: exact all the same, and
    # equal to scipy.stats.permutation_test enumerating every pattern.
    rng = np.random.default_rng(302)
    a = rng.random(17)
    b = a + rng.normal(0.2, 0.4, 17)
    r = sign_flip(a, b)
    assert r.exact and r.n_resamples is None
    assert r.to_dict() == {"name": "sign-flip", "statistic": r.statistic, "p_value": r.p_value}
    assert r.p_value == pytest.approx(float(_perm_mean(b - a)), rel=1e-12)


# --- degenerate data ------------------------------------------------------------------


@pytest.mark.parametrize("name", list(TESTS))
def test_no_evidence_gives_p_one(name):
    a = np.array([1.0, 0.0, 1.0, 1.0, 0.0] * 4)
    r = paired_test(a, a.copy(), name=name)
    assert r.p_value == 1.0 and isinstance(r.p_value, float)
    expected = {"mcnemar-chi2": math.nan, "paired-t": math.nan}.get(name, 0.0)
    assert (math.isnan(r.statistic) if math.isnan(expected) else r.statistic == expected)


def test_single_question():
    for name in TESTS:
        r = paired_test([0.0], [1.0], name=name)
        assert 0.0 <= r.p_value <= 1.0
    assert math.isnan(paired_t([0.0], [1.0]).statistic)
    assert paired_t([0.0], [1.0]).p_value == 1.0
    assert mcnemar_exact([0], [1]).p_value == 1.0  # R: binom.test(1, 1)


def test_paired_t_constant_difference_matches_scipy():
    a, b = np.array([0.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0])
    r = paired_t(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy: "catastrophic cancellation"
        ref = stats.ttest_rel(b, a)
    assert r.statistic == ref.statistic == math.inf and r.p_value == ref.pvalue == 0.0
    assert paired_t(b, a).statistic == -math.inf


def test_wilcoxon_all_zero_large_n():
    # scipy returns nan here (normal route with se = 0); no evidence means p = 1.
    x = np.linspace(0, 1, 20)
    r = wilcoxon(x, x.copy())
    assert r.statistic == 0.0 and r.p_value == 1.0


# --- invariances ----------------------------------------------------------------------

_SIGNED = {"sign-flip", "paired-t"}
_SYMMETRIC = {"mcnemar-chi2", "wilcoxon"}


def _all_cases():
    for key, (a, b) in BINARY_DATA.items():
        for name in BINARY_TESTS + ("sign", "wilcoxon"):
            yield key, name, a, b
    for key, (a, b, _) in CONTINUOUS_DATA.items():
        for name in CONTINUOUS_TESTS:
            yield key, name, a, b


CASES = list(_all_cases())


@pytest.mark.parametrize("key, name, a, b", CASES, ids=[f"{k}-{n}" for k, n, *_ in CASES])
def test_swapping_a_and_b(key, name, a, b):
    # n_resamples=500 puts sign-flip on continuous data on the Monte Carlo path.
    forward = paired_test(a, b, name=name, n_resamples=500, seed=seed(3))
    backward = paired_test(b, a, name=name, n_resamples=500, seed=seed(3))
    assert backward.p_value == forward.p_value
    if name == "sign-flip" and key == "n300-normal":
        assert not forward.exact  # the Monte Carlo p is swap-invariant too
    if name in _SIGNED:
        assert backward.statistic == -forward.statistic or (
            math.isnan(forward.statistic) and math.isnan(backward.statistic))
    elif name in _SYMMETRIC:
        assert same_result(backward, forward)
    else:  # counts: b_only <-> a_only, positives <-> negatives
        m = int(np.count_nonzero(b != a))
        assert backward.statistic == m - forward.statistic


@pytest.mark.parametrize("key, name, a, b", CASES, ids=[f"{k}-{n}" for k, n, *_ in CASES])
def test_row_order_does_not_matter(key, name, a, b):
    # The Monte Carlo sign-flip test draws one sign per row in the order given (the
    # analyses pass items sorted by id, tests/analyses/test_one_plan.py): there a shuffle
    # changes the draws, not the law.
    order = np.random.default_rng(400).permutation(a.size)
    first = paired_test(a, b, name=name, n_resamples=500, seed=seed(4))
    shuffled = paired_test(a[order], b[order], name=name, n_resamples=500, seed=seed(4))
    if name == "sign-flip" and not first.exact:
        assert abs(first.p_value - shuffled.p_value) <= 5 * first.mc_error
    else:
        assert same_result(first, shuffled)


def test_same_seed_same_monte_carlo_p():
    a, b, _ = CONTINUOUS_DATA["n300-normal"]
    first = sign_flip(a, b, n_resamples=3000, seed=seed(5))
    again = sign_flip(a, b, n_resamples=3000, seed=seed(5))
    assert not first.exact and same_result(first, again)
    other = sign_flip(a, b, n_resamples=3000, seed=seed(6))
    assert abs(other.p_value - first.p_value) < 5 * math.hypot(first.mc_error, other.mc_error)


# --- properties -----------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=30),
       st.integers(1, 2000))
def test_p_values_are_floats_in_unit_interval(pairs, n_resamples):
    a = np.array([x for x, _ in pairs], dtype=float)
    b = np.array([y for _, y in pairs], dtype=float)
    binary = bool(np.all(a <= 1) and np.all(b <= 1))
    for name in TESTS:
        if name.startswith("mcnemar") and not binary:
            continue
        r = paired_test(a, b, name=name, n_resamples=n_resamples, seed=seed())
        assert type(r.p_value) is float and 0.0 <= r.p_value <= 1.0, (name, r)
        if not r.exact:
            assert r.p_value > 0.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=60))
def test_binary_sign_flip_and_sign_equal_mcnemar_exact(pairs):
    a = np.array([x for x, _ in pairs], dtype=float)
    b = np.array([y for _, y in pairs], dtype=float)
    p = mcnemar_exact(a, b).p_value
    assert sign_flip(a, b, n_resamples=1).p_value == p == sign_test(a, b).p_value
    assert mcnemar_midp(a, b).p_value <= p


# --- errors: one per message ------------------------------------------------------------


def test_error_unknown_name_lists_valid_ones():
    with pytest.raises(EvalbarsError, match=r"name must be one of 'mcnemar-exact', .*"
                                            r"'wilcoxon'; got 'mcnemar'"):
        paired_test([1, 0], [0, 1], name="mcnemar")


def test_error_name_not_a_string():
    with pytest.raises(EvalbarsError, match=r"name must be one of .*; got \['sign'\]"):
        paired_test([1, 0], [0, 1], name=["sign"])


def test_error_unreadable_array():
    with pytest.raises(EvalbarsError, match=r"a must be a 1-D array of numbers; got list"):
        sign_test([[1, 2], [3]], [1, 2])


def test_error_not_one_dimensional():
    with pytest.raises(EvalbarsError, match=r"b must be a 1-D array of per-question scores; "
                                            r"got shape \(2, 2\)"):
        paired_t([1, 2, 3, 4], [[1, 2], [3, 4]])


def test_error_not_numbers():
    with pytest.raises(EvalbarsError, match=r"a must contain numbers .*; got values of dtype <U1"):
        wilcoxon(["1", "0"], [1, 0])


def test_error_not_finite():
    with pytest.raises(EvalbarsError, match=r"b must contain only finite numbers; "
                                            r"got nan at index 2"):
        sign_flip([0.1, 0.2, 0.3], [0.2, 0.3, float("nan")])


def test_error_lengths_differ():
    with pytest.raises(EvalbarsError, match=r"a and b must have the same length .*; "
                                            r"got 3 and 2"):
        paired_test([1, 0, 1], [1, 0], name="mcnemar-exact")


def test_error_empty():
    with pytest.raises(EvalbarsError, match=r"^a must hold at least one question; got 0$"):
        paired_test([], [], name="sign")


@pytest.mark.parametrize("name", ["mcnemar-exact", "mcnemar-chi2", "mcnemar-midp"])
def test_error_mcnemar_needs_binary(name):
    with pytest.raises(EvalbarsError, match=rf"b must contain only 0/1 scores for test "
                                            rf"'{name}'; got 0.5 at index 1"):
        paired_test([1, 0, 1], [1, 0.5, 1], name=name)


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "100", None])
def test_error_n_resamples(bad):
    with pytest.raises(EvalbarsError, match=r"n_resamples must be a positive integer; got"):
        paired_test([1, 0], [0, 1], name="sign-flip", n_resamples=bad)


def test_error_seed_type():
    with pytest.raises(EvalbarsError, match=r"seed must be a numpy.random.SeedSequence or "
                                            r"None; got 42"):
        paired_test([1, 0], [0, 1], name="paired-t", seed=42)


def test_error_seed_missing_for_monte_carlo():
    rng = np.random.default_rng(500)
    a, b = rng.random(21), rng.random(21)
    with pytest.raises(EvalbarsError, match=r"^seed must be a numpy.random.SeedSequence for "
                                            r"the Monte Carlo sign-flip test \(21 nonzero "
                                            r"differences give 2\*\*21 sign patterns, too "
                                            r"many to enumerate: more than 2\*\*20 and more "
                                            r"than n_resamples=10000\); got None$"):
        sign_flip(a, b)


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        paired_test([1], [1], name="nope")


# --- docstrings ---------------------------------------------------------------------


def test_docstring_examples_run():
    for module in (significance, mcnemar, permutation, signed_rank):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0
