"""p-value adjustment: Holm, Bonferroni, Hochberg, Hommel, Benjamini-Hochberg and
Benjamini-Yekutieli against statsmodels."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from evalbars import EvalbarsError
from evalbars.stats.multiplicity import METHODS, adjust, familywise_error

STATSMODELS = {"holm": "holm", "bonferroni": "bonferroni", "hochberg": "simes-hochberg",
               "hommel": "hommel", "benjamini-hochberg": "fdr_bh",
               "benjamini-yekutieli": "fdr_by"}
"""Our name -> statsmodels.stats.multitest.multipletests(p, method=...) name."""

# A few values drawn often, so that ties (and p = 0, p = 1) are common.
P_VALUES = st.one_of(st.sampled_from([0.0, 0.001, 0.01, 0.02, 0.05, 0.5, 1.0]),
                     st.floats(0.0, 1.0))


def test_every_method_has_a_reference():
    assert set(STATSMODELS) == set(METHODS)


def test_the_cli_offers_every_method():
    from evalbars.cli._options import CORRECTIONS
    assert CORRECTIONS == tuple(METHODS)


@pytest.mark.parametrize("method", list(METHODS))
def test_equals_statsmodels_on_random_p_values_with_ties_and_ones(method):
    # Reference: statsmodels.stats.multitest.multipletests(p, method=STATSMODELS[method])[1]
    rng = np.random.default_rng(0)
    for _ in range(60):  # statsmodels' holm takes about 60 ms a call
        m = int(rng.integers(1, 40))
        pool = np.r_[rng.random(4), rng.random(4) ** 6, 1.0, 1.0, 0.05]
        p = rng.choice(pool, size=m)
        expected = multipletests(p, method=STATSMODELS[method])[1]
        np.testing.assert_allclose(adjust(p, method=method), expected, rtol=0, atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.lists(P_VALUES, min_size=1, max_size=30), st.sampled_from(list(METHODS)))
def test_equals_statsmodels_property(p, method):
    expected = multipletests(np.array(p), method=STATSMODELS[method])[1]
    np.testing.assert_allclose(adjust(p, method=method), expected, rtol=0, atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.lists(P_VALUES, min_size=1, max_size=30), st.sampled_from(list(METHODS)))
def test_adjusted_is_at_least_raw_keeps_the_order_and_ignores_input_order(p, method):
    p = np.array(p)
    adjusted = adjust(p, method=method)
    assert np.all(adjusted >= p) and np.all(adjusted <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= 0)  # a smaller raw p never gets a larger one
    shuffle = np.random.default_rng(len(p)).permutation(len(p))
    np.testing.assert_array_equal(adjust(p[shuffle], method=method), adjusted[shuffle])


def test_holm_never_exceeds_bonferroni_and_bh_never_exceeds_holm():
    p = np.random.default_rng(3).random(50) ** 3
    holm = adjust(p, method="holm")
    assert np.all(holm <= adjust(p, method="bonferroni"))
    assert np.all(adjust(p, method="benjamini-hochberg") <= holm)


def test_step_up_and_closed_tests_are_at_least_as_powerful_as_holm():
    p = np.random.default_rng(4).random(50) ** 3
    holm, hochberg = adjust(p, method="holm"), adjust(p, method="hochberg")
    assert np.all(hochberg <= holm)
    assert np.all(adjust(p, method="hommel") <= hochberg + 1e-15)  # k p / j rounding
    assert np.all(adjust(p, method="benjamini-yekutieli") >= adjust(p, method="benjamini-hochberg"))


# statsmodels 0.15.0: multipletests(P, method=M)[1] for the vectors below, printed with
# repr(); ties, a p of exactly 1 and a single test included.
FIXED = {
    (0.01, 0.04, 0.03, 0.20): {
        "hochberg": [0.04, 0.08, 0.08, 0.2],
        "hommel": [0.04, 0.08, 0.06, 0.2],
        "benjamini-yekutieli": [0.08333333333333331, 0.1111111111111111,
                                0.1111111111111111, 0.41666666666666663]},
    (0.02, 0.02, 0.02, 1.0, 1.0): {
        "hochberg": [0.06, 0.06, 0.06, 1.0, 1.0],
        "hommel": [0.06, 0.06, 0.06, 1.0, 1.0],
        "benjamini-yekutieli": [0.07611111111111112] * 3 + [1.0, 1.0]},
    (0.3,): {"hochberg": [0.3], "hommel": [0.3], "benjamini-yekutieli": [0.3]},
    (0.001, 0.012, 0.012, 0.04, 0.049, 0.5, 1.0): {
        "hochberg": [0.007, 0.06, 0.06, 0.14700000000000002, 0.14700000000000002, 1.0, 1.0],
        "hommel": [0.007, 0.06, 0.06, 0.12, 0.14700000000000002, 1.0, 1.0],
        "benjamini-yekutieli": [0.01815, 0.0726, 0.0726, 0.17786999999999997,
                                0.17786999999999997, 1.0, 1.0]},
}


@pytest.mark.parametrize("p", list(FIXED))
@pytest.mark.parametrize("method", ["hochberg", "hommel", "benjamini-yekutieli"])
def test_new_methods_equal_printed_statsmodels_values(p, method):
    np.testing.assert_allclose(adjust(p, method=method), FIXED[p][method], rtol=0, atol=1e-15)


def test_hommel_is_fast_on_a_big_family():
    # 1225 pairs: a 50-model leaderboard; O(m^2) work.
    p = np.random.default_rng(5).random(1225) ** 4
    np.testing.assert_allclose(adjust(p, method="hommel"),
                               multipletests(p, method="hommel")[1], rtol=0, atol=1e-14)


def test_small_worked_example():
    # By hand: sorted 0.01, 0.03, 0.04, 0.20 (m = 4); Holm factors 4, 3, 2, 1 give
    # 0.04, 0.09, 0.08 -> 0.09 (running max), 0.20.
    assert adjust([0.01, 0.04, 0.03, 0.20]).tolist() == pytest.approx([0.04, 0.09, 0.09, 0.2])


def test_empty_family_gives_empty():
    assert adjust([]).shape == (0,)


def test_seed_000_twenty_tries_give_a_false_alarm_64_percent_of_the_time():
    # Seed 000, "Many tries and the winner's curse": 1 - 0.95^20 = 64%.
    assert familywise_error(20, alpha=0.05) == pytest.approx(1 - 0.95**20, rel=1e-14)
    assert round(familywise_error(20, alpha=0.05), 2) == 0.64
    assert familywise_error(190, alpha=0.05) > 0.9999  # a 20-model leaderboard's pairs
    assert familywise_error(0) == 0.0


def test_bonferroni_keeps_twenty_tries_at_five_percent():
    # Seed 000: Bonferroni divides the threshold by the number of tries (0.0025 each).
    # For independent tests the family-wise error is then 1 - (1 - 0.05/20)^20 < 5%.
    assert familywise_error(20, alpha=0.05 / 20) < 0.05


# --- one test per error message ----------------------------------------------------------


def test_unknown_method_lists_the_valid_names():
    with pytest.raises(EvalbarsError, match="method must be one of 'holm', 'bonferroni', "
                                            "'hochberg', 'hommel', 'benjamini-hochberg', "
                                            "'benjamini-yekutieli'; got 'fdr_bh'"):
        adjust([0.1], method="fdr_bh")


def test_p_values_must_be_numbers():
    with pytest.raises(EvalbarsError, match="p_values must be numbers in"):
        adjust(["a"])


def test_p_values_must_be_one_dimensional():
    with pytest.raises(EvalbarsError, match=r"must be a 1-D list of p-values; got shape \(2, 2\)"):
        adjust([[0.1, 0.2], [0.3, 0.4]])


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan")])
def test_p_values_must_lie_in_0_1(bad):
    with pytest.raises(EvalbarsError, match=r"p_values must lie in \[0, 1\]; got .* at index 1"):
        adjust([0.5, bad])


@pytest.mark.parametrize("bad", [-1, 2.5, True])
def test_n_tests_must_be_a_count(bad):
    with pytest.raises(EvalbarsError, match="n_tests must be a non-negative integer"):
        familywise_error(bad)


@pytest.mark.parametrize("bad", [0.0, 1.0, 5])
def test_alpha_must_be_a_probability(bad):
    with pytest.raises(EvalbarsError, match="alpha must be between 0 and 1"):
        familywise_error(20, alpha=bad)
