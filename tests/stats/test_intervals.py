"""Tests for evalbars.stats.intervals: published numbers, reference libraries, properties, errors.

Published values are compared with a tolerance of half the last digit shown.
statsmodels and scipy serve as independent references (statsmodels is test-only).
"""
from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

from evalbars.core.errors import EvalbarsError
from evalbars.stats.intervals import (
    BINOMIAL_METHODS,
    MEAN_METHODS,
    PAIRED_METHODS,
    binomial_interval,
    mean_interval,
    paired_interval,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)


def assert_ends(iv, low, high, tol):
    assert iv.low == pytest.approx(low, abs=tol), (iv, low, high)
    assert iv.high == pytest.approx(high, abs=tol), (iv, low, high)


def table(both, b_only, a_only, neither):
    """0/1 arrays (a, b) with the given 2x2 cell counts."""
    a = np.repeat([1, 0, 1, 0], [both, b_only, a_only, neither])
    b = np.repeat([1, 1, 0, 0], [both, b_only, a_only, neither])
    return a, b


@pytest.fixture(scope="module")
def lesson():
    return pd.read_csv(EXAMPLES / "lesson_pair.csv")


@pytest.fixture(scope="module")
def cookbook():
    return pd.read_csv(EXAMPLES / "cookbook_topics.csv")


# --- registries ---------------------------------------------------------------------


def test_method_names():
    assert BINOMIAL_METHODS == ("wald", "wilson", "clopper-pearson", "agresti-coull", "jeffreys")
    assert MEAN_METHODS == ("clt", "t")
    assert PAIRED_METHODS == ("paired-wald", "paired-t", "newcombe", "unpaired-wald")


def test_interval_records_method_and_level():
    iv = binomial_interval(7, 10, method="jeffreys", confidence_level=0.9)
    assert (iv.method, iv.confidence_level) == ("jeffreys", 0.9)


# --- published numbers --------------------------------------------------------------


def test_lesson_pair_clt(lesson):
    a = mean_interval(lesson["model_a"].to_numpy(), method="clt")
    b = mean_interval(lesson["model_b"].to_numpy(), method="clt")
    assert (a.low + a.high) / 2 == pytest.approx(0.732, abs=5e-4)  # lesson: A = 73.2%
    assert_ends(a, 0.693, 0.771, 5e-4)  # lesson: A 69.3 to 77.1
    assert (b.low + b.high) / 2 == pytest.approx(0.758, abs=5e-4)  # lesson: B = 75.8%
    assert_ends(b, 0.720, 0.796, 5e-4)  # lesson: B 72.0 to 79.6


def test_lesson_pair_paired_wald(lesson):
    iv = paired_interval(lesson["model_a"], lesson["model_b"], method="paired-wald")
    assert_ends(iv, 0.0082, 0.0438, 5e-5)  # lesson (scipy): B - A +0.82 to +4.38 points


def test_cookbook_marginals(cookbook):
    n = len(cookbook)
    k_a, k_b = int(cookbook["system_a"].sum()), int(cookbook["system_b"].sum())
    # cookbook: Wilson 95% A [0.546, 0.680], B [0.644, 0.768]
    assert_ends(binomial_interval(k_a, n, method="wilson"), 0.546, 0.680, 5e-4)
    assert_ends(binomial_interval(k_b, n, method="wilson"), 0.644, 0.768, 5e-4)
    # cookbook: Clopper-Pearson A [0.5438, 0.6828], B [0.6418, 0.7718]
    assert_ends(binomial_interval(k_a, n, method="clopper-pearson"), 0.5438, 0.6828, 5e-5)
    assert_ends(binomial_interval(k_b, n, method="clopper-pearson"), 0.6418, 0.7718, 5e-5)
    # cookbook: Jeffreys A [0.5463, 0.6804], B [0.6444, 0.7695]
    assert_ends(binomial_interval(k_a, n, method="jeffreys"), 0.5463, 0.6804, 5e-5)
    assert_ends(binomial_interval(k_b, n, method="jeffreys"), 0.6444, 0.7695, 5e-5)


def test_cookbook_paired_wald(cookbook):
    iv = paired_interval(cookbook["system_a"], cookbook["system_b"], method="paired-wald")
    assert_ends(iv, 0.0133, 0.1767, 5e-5)  # cookbook: paired CLT CI of delta B - A


def test_seven_of_ten():
    assert_ends(binomial_interval(7, 10, method="wald"), 0.416, 0.984, 5e-4)  # lesson
    assert_ends(binomial_interval(7, 10, method="wilson"), 0.397, 0.892, 5e-4)  # lesson


def test_nineteen_of_twenty_clt_passes_one():
    iv = mean_interval(np.array([1] * 19 + [0]), method="clt")
    assert_ends(iv, 0.852, 1.048, 5e-4)  # lesson: upper end passes 100%, reported as is
    assert iv.high > 1


# --- binomial methods against statsmodels ------------------------------------------

STATSMODELS_NAME = {
    "wald": "normal",
    "wilson": "wilson",
    "clopper-pearson": "beta",
    "agresti-coull": "agresti_coull",
    "jeffreys": "jeffreys",
}
GRID = [(0, 1), (1, 1)] + [(k, 10) for k in range(11)] + [
    (0, 20), (19, 20), (20, 20), (366, 500), (999, 1000), (1000, 1000), (1, 1000), (0, 12345),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("method", BINOMIAL_METHODS)
def test_binomial_matches_statsmodels(method, level):
    for k, n in GRID:
        iv = binomial_interval(k, n, method=method, confidence_level=level)
        low, high = proportion_confint(k, n, alpha=1 - level, method=STATSMODELS_NAME[method])
        if method == "wald":  # statsmodels clips "normal" to [0, 1]; evalbars does not
            assert np.clip([iv.low, iv.high], 0, 1) == pytest.approx([low, high], abs=1e-10)
        else:
            assert (iv.low, iv.high) == pytest.approx((low, high), abs=1e-10), (k, n)


def test_wald_is_not_clipped():
    iv = binomial_interval(1, 10, method="wald")
    p, half = 0.1, stats.norm.ppf(0.975) * math.sqrt(0.1 * 0.9 / 10)  # textbook formula
    assert (iv.low, iv.high) == pytest.approx((p - half, p + half), abs=1e-12)
    assert iv.low < 0


def test_binomial_edges():
    # Clopper-Pearson pins the ends at 0 and 1; Jeffreys (as in statsmodels) does not.
    assert binomial_interval(0, 10, method="clopper-pearson").low == 0.0
    assert binomial_interval(10, 10, method="clopper-pearson").high == 1.0
    assert 0 < binomial_interval(0, 10, method="jeffreys").low < 1e-3
    assert binomial_interval(0, 10, method="agresti-coull").low == 0.0  # clipped
    assert binomial_interval(0, 10, method="wilson").low == 0.0


def test_binomial_accepts_numpy_and_whole_float_counts():
    iv = binomial_interval(np.int64(7), 10.0, method="wilson")
    assert iv == binomial_interval(7, 10, method="wilson")


# --- means against scipy / statsmodels ---------------------------------------------


@pytest.mark.parametrize("n", [2, 10, 57, 400])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_t_matches_scipy(seed, n):
    x = np.random.default_rng(seed).gamma(2.0, size=n)
    for level in (0.9, 0.95, 0.99):
        ref = stats.ttest_1samp(x, 0).confidence_interval(confidence_level=level)
        iv = mean_interval(x, method="t", confidence_level=level)
        assert (iv.low, iv.high) == pytest.approx((ref.low, ref.high), abs=1e-12)


@pytest.mark.parametrize("n", [2, 10, 400])
def test_clt_matches_statsmodels(n):
    x = np.random.default_rng(n).random(n)
    for level in (0.9, 0.95, 0.99):
        ref = DescrStatsW(x).zconfint_mean(alpha=1 - level)  # z * sd(ddof=1) / sqrt(n)
        iv = mean_interval(x, method="clt", confidence_level=level)
        assert (iv.low, iv.high) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("method", MEAN_METHODS)
def test_single_value_gives_nan_without_warning(method):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        iv = mean_interval([0.7], method=method)
    assert math.isnan(iv.low) and math.isnan(iv.high)


# --- paired methods -----------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 10, 57, 400])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paired_t_matches_scipy(seed, n):
    rng = np.random.default_rng(seed)
    a = rng.random(n)
    b = a + rng.normal(0.05, 0.2, n)
    for level in (0.9, 0.95, 0.99):
        ref = stats.ttest_rel(b, a).confidence_interval(confidence_level=level)
        iv = paired_interval(a, b, method="paired-t", confidence_level=level)
        assert (iv.low, iv.high) == pytest.approx((ref.low, ref.high), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_paired_and_unpaired_wald_match_statsmodels(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.random(30), rng.random(30) + 0.1
    ref = DescrStatsW(b - a).zconfint_mean(alpha=0.1)
    iv = paired_interval(a, b, method="paired-wald", confidence_level=0.9)
    assert (iv.low, iv.high) == pytest.approx(ref, abs=1e-12)
    # statsmodels: sqrt(var_b/(n-1) + var_a/(n-1)) with ddof=0 variances, i.e. ddof=1 over n
    ref = CompareMeans(DescrStatsW(b), DescrStatsW(a)).zconfint_diff(alpha=0.1, usevar="unequal")
    iv = paired_interval(a, b, method="unpaired-wald", confidence_level=0.9)
    assert (iv.low, iv.high) == pytest.approx(ref, abs=1e-12)


def test_pairing_narrows_the_lesson_interval(lesson):
    a, b = lesson["model_a"], lesson["model_b"]
    paired = paired_interval(a, b, method="paired-wald")
    unpaired = paired_interval(a, b, method="unpaired-wald")
    assert (paired.low + paired.high) / 2 == pytest.approx((unpaired.low + unpaired.high) / 2)
    assert paired.high - paired.low < 0.5 * (unpaired.high - unpaired.low)


@pytest.mark.parametrize("method", PAIRED_METHODS)
def test_swapping_models_negates_and_swaps_ends(method):
    rng = np.random.default_rng(3)
    a, b = (rng.random(40) < 0.6).astype(float), (rng.random(40) < 0.7).astype(float)
    forward = paired_interval(a, b, method=method, confidence_level=0.9)
    backward = paired_interval(b, a, method=method, confidence_level=0.9)
    assert backward.low == pytest.approx(-forward.high, abs=1e-14)
    assert backward.high == pytest.approx(-forward.low, abs=1e-14)


@pytest.mark.parametrize("method", ["paired-wald", "paired-t"])
def test_all_ties_give_zero_width(method):
    a = np.array([1, 0, 1, 1, 0, 1, 1, 1], dtype=float)
    iv = paired_interval(a, a.copy(), method=method)
    assert (iv.low, iv.high) == (0.0, 0.0)


def test_all_ties_newcombe_straddles_zero():
    a, b = table(5, 0, 0, 5)
    iv = paired_interval(a, b, method="newcombe")
    assert iv.low < 0 < iv.high
    assert iv.low == pytest.approx(-iv.high, abs=1e-15)


def test_single_discordant_pair():
    a, b = table(5, 1, 0, 4)  # B right, A wrong on exactly one of 10 questions
    z = stats.norm.ppf(0.975)
    se = math.sqrt(0.1 * 0.9 * 10 / 9) / math.sqrt(10)  # sd(d) of one 1 and nine 0s
    iv = paired_interval(a, b, method="paired-wald")
    assert (iv.low, iv.high) == pytest.approx((0.1 - z * se, 0.1 + z * se), abs=1e-12)
    for method in PAIRED_METHODS:
        iv = paired_interval(a, b, method=method)
        assert iv.low < 0.1 < iv.high, method
    newcombe = paired_interval(a, b, method="newcombe")
    assert -1 <= newcombe.low and newcombe.high <= 1


@pytest.mark.parametrize("method", ["paired-wald", "paired-t", "unpaired-wald"])
def test_single_question_gives_nan(method):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        iv = paired_interval([1.0], [0.0], method=method)
    assert math.isnan(iv.low) and math.isnan(iv.high)


# --- Newcombe (1998) method 10 ------------------------------------------------------

# Tables are (both right, only B right, only A right, both wrong); the published
# difference is condition 1 minus condition 2, with condition 1 = B here.
NEWCOMBE_PUBLISHED = [
    # Newcombe (1998) Stat Med 17:2635 worked example, method 10, as reproduced in R
    # ratesci tests/testthat/test3.R: pairbinci(c(20, 12, 2, 16), method_RD = "MOVER_newc",
    # moverbase = "wilson") -> 0.0562, 0.3292
    ((20, 12, 2, 16), 0.0562, 0.3292, 5e-5),
    # Fagerland, Lydersen & Laake (2014) Stat Med 33:2850, Bentur et al. data,
    # Newcombe square-and-add (method 10) -> -0.507, -0.026 (ratesci test3.R)
    ((1, 1, 7, 12), -0.507, -0.026, 5e-4),
    # Fagerland, Lydersen & Laake (2017) "Statistical Analysis of Contingency Tables",
    # ch. 8, Cavo et al. data: R contingencytables Newcombe_square_and_add_CI_paired_2x2
    # (tests/testthat/test-ch8.R) -> -0.1186 to -0.0046
    ((59, 6, 16, 80), -0.1186, -0.0046, 5e-5),
    # Tang, Li & Tang (2010) SMMR 21:361 example, hybrid Wilson with Newcombe's
    # correlation correction (ratesci test3.R) -> -0.1574, 0.4136
    ((8, 3, 1, 2), -0.1574, 0.4136, 5e-5),
    # Chang et al. (2024) J Appl Stat 51:139 example, as matched in ratesci test3.R
    ((7, 25, 2, 68), 0.133, 0.318, 5e-4),
]


@pytest.mark.parametrize("cells, low, high, tol", NEWCOMBE_PUBLISHED)
def test_newcombe_published(cells, low, high, tol):
    a, b = table(*cells)
    assert_ends(paired_interval(a, b, method="newcombe"), low, high, tol)


def newcombe_second_route(a, b, level):
    """Newcombe method 10 by another route (written for this test from the paper).

    Wilson limits come from statsmodels; phi is the Pearson correlation of the 0/1
    vectors (np.corrcoef), and the paper's correction of a positive AD - BC by n/2
    becomes phi - 1 / (2 n sd_a sd_b) with ddof=0 sds, floored at 0.
    """
    n = len(a)
    p_a, p_b = a.mean(), b.mean()
    l_a, u_a = proportion_confint(a.sum(), n, alpha=1 - level, method="wilson")
    l_b, u_b = proportion_confint(b.sum(), n, alpha=1 - level, method="wilson")
    if a.std() == 0 or b.std() == 0:
        phi = 0.0
    else:
        phi = np.corrcoef(a, b)[0, 1]
        if phi > 0:
            phi = max(phi - 1 / (2 * n * a.std() * b.std()), 0.0)

    # x² - 2·phi·x·y + y² completed as a square: (x - phi·y)² + (1 - phi²)·y²
    def spread(x, y):
        return math.sqrt((x - phi * y) ** 2 + (1 - phi**2) * y**2)

    low = p_b - p_a - spread(p_b - l_b, u_a - p_a)
    high = p_b - p_a + spread(u_b - p_b, p_a - l_a)
    return low, high


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_newcombe_matches_second_route_on_every_small_table(level):
    n = 7
    for both in range(n + 1):
        for b_only in range(n + 1 - both):
            for a_only in range(n + 1 - both - b_only):
                a, b = table(both, b_only, a_only, n - both - b_only - a_only)
                iv = paired_interval(a, b, method="newcombe", confidence_level=level)
                ref = newcombe_second_route(a.astype(float), b.astype(float), level)
                assert (iv.low, iv.high) == pytest.approx(ref, abs=1e-10), (both, b_only, a_only)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60))
def test_newcombe_brackets_the_gap_within_bounds(pairs):
    a = np.array([p[0] for p in pairs], dtype=float)
    b = np.array([p[1] for p in pairs], dtype=float)
    iv = paired_interval(a, b, method="newcombe")
    gap = b.mean() - a.mean()
    assert -1 - 1e-12 <= iv.low <= gap + 1e-12
    assert gap - 1e-12 <= iv.high <= 1 + 1e-12


# --- errors: one per message --------------------------------------------------------


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: binomial_interval(7, 10, method="exact"), BINOMIAL_METHODS),
        (lambda: mean_interval([1.0, 0.0], method="wald"), MEAN_METHODS),
        (lambda: paired_interval([1.0], [0.0], method="mcnemar"), PAIRED_METHODS),
    ],
)
def test_unknown_method_lists_valid_ones(call, names):
    with pytest.raises(EvalbarsError, match="method") as err:
        call()
    assert all(repr(name) in str(err.value) for name in names)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, float("nan"), "high"])
def test_bad_confidence_level(level):
    with pytest.raises(EvalbarsError, match="confidence_level must be .* between 0 and 1"):
        binomial_interval(7, 10, method="wilson", confidence_level=level)


def test_n_below_one():
    with pytest.raises(EvalbarsError, match="n must be at least 1; got 0"):
        binomial_interval(0, 0, method="wilson")


@pytest.mark.parametrize("successes", [-1, 11])
def test_successes_out_of_range(successes):
    message = f"successes must be between 0 and n = 10; got {successes}"
    with pytest.raises(EvalbarsError, match=message):
        binomial_interval(successes, 10, method="wilson")


def test_non_whole_count():
    with pytest.raises(EvalbarsError, match="successes must be a whole number; got 7.5"):
        binomial_interval(7.5, 10, method="wilson")


def test_mismatched_lengths():
    with pytest.raises(EvalbarsError, match="same length .*got 3 and 2"):
        paired_interval([1, 0, 1], [1, 1], method="paired-wald")


def test_non_binary_for_newcombe():
    with pytest.raises(EvalbarsError, match="b must contain only 0/1 scores .*got 0.5 at index 1"):
        paired_interval([1, 0, 1], [1, 0.5, 1], method="newcombe")


def test_nan_in_data():
    message = "x must contain only finite numbers; got nan at index 2"
    with pytest.raises(EvalbarsError, match=message):
        mean_interval([1.0, 0.0, float("nan")], method="clt")


def test_not_one_dimensional():
    with pytest.raises(EvalbarsError, match=r"^a must be a 1-D array of per-question scores; "
                                            r"got shape \(2, 2\)$"):
        paired_interval([[1, 0], [0, 1]], [1, 0, 0, 1], method="paired-t")


def test_empty_array():
    with pytest.raises(EvalbarsError, match=r"^x must hold at least one question; got 0$"):
        mean_interval([], method="t")


def test_not_numbers():
    with pytest.raises(EvalbarsError, match=r"^x must contain numbers \(0/1 or real scores\); "
                                            r"got values of dtype <U3$"):
        mean_interval(["yes", "no"], method="t")
