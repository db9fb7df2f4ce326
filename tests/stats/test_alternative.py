"""One-sided paired tests (alternative="greater" | "less") against scipy and R."""
import math

import numpy as np
import pytest
from scipy import stats

from evalbars import EvalbarsError
from evalbars.stats import mcnemar, permutation, signed_rank, significance, tails
from evalbars.stats.significance import TESTS, paired_test

ALTERNATIVES = ("two-sided", "greater", "less")


def binary_pair(a_only: int, b_only: int, both: int = 5, neither: int = 3):
    a = [1] * a_only + [0] * b_only + [1] * both + [0] * neither
    b = [0] * a_only + [1] * b_only + [1] * both + [0] * neither
    return np.array(a, float), np.array(b, float)


@pytest.mark.parametrize("a_only,b_only", [(4, 17), (17, 4), (3, 3), (0, 6), (6, 0), (1, 0),
                                           (40, 61)])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mcnemar_exact_and_sign_equal_scipy_binomtest(a_only, b_only, alternative):
    # Reference: scipy.stats.binomtest(b_only, a_only + b_only, 0.5, alternative=...).pvalue
    a, b = binary_pair(a_only, b_only)
    expected = stats.binomtest(b_only, a_only + b_only, alternative=alternative).pvalue
    for name in ("mcnemar-exact", "sign"):
        got = paired_test(a, b, name=name, alternative=alternative).p_value
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-300)
    sign_flip = permutation.sign_flip(a, b, alternative=alternative)  # route 1: binomial
    assert sign_flip.p_value == pytest.approx(expected, rel=1e-12)


def test_r_binom_test_published_value():
    # R: binom.test(17, 21) -> p-value = 0.007197 (the cookbook recipe's McNemar, seed 002);
    # one-sided it is half of that, 0.0035987 (scipy.stats.binomtest(17, 21, alternative=
    # "greater").pvalue = 0.0035986900329589844).
    a, b = binary_pair(4, 17)
    assert round(mcnemar.mcnemar_exact(a, b).p_value, 6) == 0.007197
    assert mcnemar.mcnemar_exact(a, b, alternative="greater").p_value == pytest.approx(
        0.0035986900329589844, rel=1e-12)
    assert mcnemar.mcnemar_exact(a, b, alternative="less").p_value == pytest.approx(
        stats.binomtest(17, 21, alternative="less").pvalue, rel=1e-12)


@pytest.mark.parametrize("a_only,b_only", [(4, 17), (17, 4), (3, 3), (0, 6), (12, 20)])
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_mcnemar_midp_one_sided_is_the_exact_tail_minus_half_the_point(a_only, b_only,
                                                                       alternative):
    # Reference: binomtest's one-sided p minus half of scipy.stats.binom.pmf(b_only, m, 1/2).
    a, b = binary_pair(a_only, b_only)
    m = a_only + b_only
    expected = stats.binomtest(b_only, m, alternative=alternative).pvalue \
        - 0.5 * stats.binom.pmf(b_only, m, 0.5)
    got = mcnemar.mcnemar_midp(a, b, alternative=alternative).p_value
    assert got == pytest.approx(expected, rel=1e-12)


def test_mcnemar_midp_fagerland_one_sided():
    # Fagerland et al. 2013: 7 vs 1 discordant pairs, two-sided mid-p 0.039 = 10/256; the
    # one-sided mid-p toward the larger count is half: P(X <= 1) - P(X = 1)/2 = 5/256.
    a = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]
    b = [0, 0, 0, 0, 0, 0, 0, 1, 1, 0]
    assert mcnemar.mcnemar_midp(a, b, alternative="less").p_value == pytest.approx(5 / 256)
    # P(X >= 1) - P(X = 1)/2 = 1 - 1/256 - 4/256
    assert mcnemar.mcnemar_midp(a, b, alternative="greater").p_value == pytest.approx(251 / 256)


@pytest.mark.parametrize("a_only,b_only", [(4, 17), (17, 4), (3, 3), (10, 11)])
def test_mcnemar_chi2_one_sided_is_the_corrected_normal_tail(a_only, b_only):
    # Reference: scipy.stats.norm.sf((b_only - a_only - 1) / sqrt(m)) ("greater"), and the
    # mirror for "less"; leaning the asked way it is half of the two-sided chi-square p.
    a, b = binary_pair(a_only, b_only)
    m = a_only + b_only
    greater = mcnemar.mcnemar_chi2(a, b, alternative="greater")
    less = mcnemar.mcnemar_chi2(a, b, alternative="less")
    assert greater.p_value == pytest.approx(stats.norm.sf((b_only - a_only - 1) / m ** 0.5))
    assert less.p_value == pytest.approx(stats.norm.sf((a_only - b_only - 1) / m ** 0.5))
    if abs(b_only - a_only) >= 1:
        two = mcnemar.mcnemar_chi2(a, b).p_value
        assert min(greater.p_value, less.p_value) == pytest.approx(two / 2, rel=1e-12)
    # near the exact tail: R binom.test(17, 21, alternative = "greater") = 0.0036
    if (a_only, b_only) == (4, 17):
        assert greater.p_value == pytest.approx(0.0036, abs=0.001)


def continuous_pairs():
    rng = np.random.default_rng(7)
    for n, shift in ((8, 0.3), (12, -0.2), (30, 0.15), (80, 0.05)):
        a = rng.random(n)
        yield a, a + shift + rng.normal(0, 0.4, n)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_t_equals_scipy_ttest_rel(alternative):
    # Reference: scipy.stats.ttest_rel(b, a, alternative=...) and ttest_1samp(b - a, 0).
    for a, b in continuous_pairs():
        got = significance.paired_t(a, b, alternative=alternative)
        ref = stats.ttest_rel(b, a, alternative=alternative)
        assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert got.p_value == pytest.approx(ref.pvalue, rel=1e-10)
        one = stats.ttest_1samp(b - a, 0.0, alternative=alternative)
        assert got.p_value == pytest.approx(one.pvalue, rel=1e-10)


def test_r_t_test_published_value():
    # R's sleep data (Cushny & Peebles), t.test(extra ~ group, paired = TRUE) as printed in
    # R's documentation: t = -4.0621, df = 9, p-value = 0.002833; group 2 minus group 1 is
    # positive, so the one-sided "greater" p is half: 0.0014165.
    g1 = np.array([0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0])
    g2 = np.array([1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4])
    two = significance.paired_t(g2, g1)
    assert round(two.statistic, 4) == -4.0621 and round(two.p_value, 6) == 0.002833
    assert significance.paired_t(g1, g2, alternative="greater").p_value == pytest.approx(
        two.p_value / 2, rel=1e-12)
    assert significance.paired_t(g1, g2, alternative="less").p_value == pytest.approx(
        1 - two.p_value / 2, rel=1e-12)


def test_paired_t_with_every_difference_the_same():
    a, b = np.zeros(5), np.full(5, 0.5)
    assert significance.paired_t(a, b, alternative="greater").p_value == 0.0
    assert significance.paired_t(a, b, alternative="less").p_value == 1.0


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_wilcoxon_equals_scipy_on_each_route(alternative):
    # Reference: scipy.stats.wilcoxon(d, zero_method="wilcox", correction=True,
    # method="auto", alternative=...): exact (n <= 50, no ties), permutation (ties, n <= 13),
    # normal (n > 50).
    rng = np.random.default_rng(3)
    cases = [rng.normal(0.3, 1, 12), rng.normal(-0.2, 1, 40),
             np.round(rng.normal(0.5, 1, 11)), np.r_[0.0, 0.0, np.round(rng.normal(0, 2, 10))],
             rng.normal(0.1, 1, 90), np.round(rng.normal(0.2, 1, 70))]
    for d in cases:
        got = signed_rank.wilcoxon(np.zeros(d.size), d, alternative=alternative)
        ref = stats.wilcoxon(d, zero_method="wilcox", correction=True, method="auto",
                             alternative=alternative)
        assert got.p_value == pytest.approx(ref.pvalue, rel=1e-9), d
        assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_sign_flip_enumeration_equals_scipy_permutation_test(alternative):
    # Reference: scipy.stats.permutation_test((d,), mean, permutation_type="samples",
    # n_resamples=inf, alternative=...) enumerates every sign pattern.
    rng = np.random.default_rng(11)
    for n in (6, 9, 14):
        a, b = rng.random(n), rng.random(n) + 0.2
        ref = stats.permutation_test((b - a,), np.mean, permutation_type="samples",
                                     n_resamples=np.inf, alternative=alternative)
        got = permutation.sign_flip(a, b, alternative=alternative)
        assert got.exact and got.p_value == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_sign_flip_monte_carlo_is_near_the_exact_tail(alternative):
    rng = np.random.default_rng(5)
    a, b = rng.random(22), rng.random(22) + 0.1
    exact = permutation.sign_flip(a, b, n_resamples=1 << 22, alternative=alternative)
    mc = permutation.sign_flip(a, b, n_resamples=20_000, seed=np.random.SeedSequence(1),
                               alternative=alternative)
    assert exact.exact and not mc.exact
    assert abs(mc.p_value - exact.p_value) < 4 * mc.mc_error + 1e-4
    assert mc.p_value >= 1 / 20_001


def test_greater_for_a_b_is_less_for_b_a():
    # For every test, greater(a, b) == less(b, a).
    rng = np.random.default_rng(2)
    a, b = (rng.random(60) < 0.6).astype(float), (rng.random(60) < 0.75).astype(float)
    for name in TESTS:
        kwargs = {"seed": np.random.SeedSequence(0)} if name == "sign-flip" else {}
        g = paired_test(a, b, name=name, alternative="greater", **kwargs)
        swapped = paired_test(b, a, name=name, alternative="less", **kwargs)
        assert g.p_value == pytest.approx(swapped.p_value, rel=1e-12), name
        assert 0.0 < g.p_value <= 1.0


def test_bad_alternative_names_the_choices():
    with pytest.raises(EvalbarsError, match="alternative must be one of 'two-sided', 'greater', "
                                            "'less'; got 'larger'"):
        paired_test([0, 1], [1, 1], name="sign", alternative="larger")


def test_one_sided_level_needs_more_than_a_half():
    assert tails.two_sided_level(0.95, "less") == 0.9
    with pytest.raises(EvalbarsError, match="needs a confidence level above 0.5"):
        tails.two_sided_level(0.5, "greater")
    assert tails.one_sided_ends(1.0, 2.0, "greater") == (1.0, math.inf)


def test_the_cli_offers_every_alternative():
    from evalbars.cli._options import ALTERNATIVES as CLI
    assert CLI == tails.ALTERNATIVES == ALTERNATIVES


# --- one-sided intervals -------------------------------------------------------------------

from evalbars.stats import intervals  # noqa: E402


@pytest.mark.parametrize("k,n", [(7, 10), (0, 12), (12, 12), (380, 500)])
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_binomial_bounds_equal_scipy_proportion_ci(k, n, alternative):
    # Reference: scipy.stats.binomtest(k, n, alternative=...).proportion_ci(0.95, method=
    # "exact" (Clopper-Pearson) | "wilson"); the open end is +-inf here, the scale's edge there.
    side = "low" if alternative == "greater" else "high"
    for ours, theirs in (("clopper-pearson", "exact"), ("wilson", "wilson")):
        got = intervals.binomial_interval(k, n, method=ours, alternative=alternative)
        ref = stats.binomtest(k, n, alternative=alternative).proportion_ci(0.95, method=theirs)
        assert getattr(got, side) == pytest.approx(getattr(ref, side), rel=1e-9, abs=1e-12)
        assert math.isinf(got.high if side == "low" else got.low)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_t_bounds_equal_scipy_confidence_intervals(alternative):
    # Reference: scipy.stats.ttest_1samp(x, 0, alternative=...).confidence_interval(0.95) and
    # ttest_rel(b, a, alternative=...).confidence_interval(0.95).
    side = "low" if alternative == "greater" else "high"
    for a, b in continuous_pairs():
        got = intervals.mean_interval(b, method="t", alternative=alternative)
        ref = stats.ttest_1samp(b, 0.0, alternative=alternative).confidence_interval(0.95)
        assert getattr(got, side) == pytest.approx(getattr(ref, side), rel=1e-10)
        got = intervals.paired_interval(a, b, method="paired-t", alternative=alternative)
        ref = stats.ttest_rel(b, a, alternative=alternative).confidence_interval(0.95)
        assert getattr(got, side) == pytest.approx(getattr(ref, side), rel=1e-10)


def test_one_sided_bound_is_the_end_of_the_90_percent_interval():
    a = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1] * 3
    b = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1] * 3
    ninety = intervals.paired_interval(a, b, method="newcombe", confidence_level=0.9)
    bound = intervals.paired_interval(a, b, method="newcombe", alternative="greater")
    assert (bound.low, bound.high, bound.confidence_level) == (ninety.low, math.inf, 0.95)
    assert intervals.paired_interval(a, b, method="newcombe") == intervals.paired_interval(
        a, b, method="newcombe", alternative="two-sided")
