"""Paired non-inferiority and TOST against statsmodels' ttost_paired (statsmodels 0.15)."""
import math

import numpy as np
import pytest
from statsmodels.stats.weightstats import ttost_paired

import evalbars
from evalbars import EvalbarsError
from evalbars.stats.equivalence import equivalence, paired_equivalence


@pytest.mark.parametrize("data_seed", range(6))
@pytest.mark.parametrize("margin", [0.02, 0.05])
def test_tost_p_equals_statsmodels(data_seed, margin):
    rng = np.random.default_rng(data_seed)
    n = [10, 40, 200][data_seed % 3]
    a = rng.random(n)
    b = np.clip(a + rng.normal(rng.uniform(-0.03, 0.03), 0.05, n), 0, 1)
    ours = paired_equivalence(a, b, margin=margin)
    # statsmodels: ttost_paired(x1, x2, low, upp) tests mean(x1 - x2) inside (low, upp)
    p, lower, upper = ttost_paired(b, a, -margin, margin)
    assert ours.tost_p == pytest.approx(p, rel=1e-9)
    assert ours.non_inferiority_p == pytest.approx(lower[1], rel=1e-9)


def test_decisions_follow_the_ninety_percent_interval():
    assert equivalence(0.0, 0.002, math.inf, margin=0.01).decision == "equivalent"
    assert equivalence(0.02, 0.002, math.inf, margin=0.01).decision == "non-inferior"
    assert equivalence(-0.03, 0.002, math.inf, margin=0.01).decision == "inferior"
    undecided = equivalence(0.0, 0.01, math.inf, margin=0.01, sd=0.3, n_items=900)
    assert undecided.decision == "inconclusive"
    # normal approximation: n = ((z_.95 + z_.8) * sd / M)^2 = (2.486475 * 30)^2 = 5,564.3
    assert undecided.n_needed == 5565
    interval = equivalence(0.01, 0.004, math.inf, margin=0.05)
    assert (interval.low, interval.high) == pytest.approx((0.01 - 1.644854 * 0.004,
                                                            0.01 + 1.644854 * 0.004), rel=1e-6)


def test_a_non_significant_gap_is_not_called_equivalent(tmp_path):
    # 200 questions, 10 vs 12 discordant: no significant gap, and far too few questions
    # to show equivalence within 1 point.
    path = tmp_path / "close.csv"
    a = [1] * 130 + [0] * 48 + [1] * 10 + [0] * 12
    b = [1] * 130 + [0] * 48 + [0] * 10 + [1] * 12
    path.write_text("id,a,b\n" + "".join(f"q{i},{x},{y}\n" for i, (x, y) in enumerate(zip(a, b))))
    r = evalbars.compare(path, a="a", b="b", margin=0.01)
    assert r.equivalence.decision == "inconclusive"
    assert "equivalent" not in r.statement.replace("not evidence that the models are equivalent", "")
    assert "cannot rule out a loss of up to" in r.statement
    assert "questions would be needed" in r.statement


def test_lesson_b_is_not_worse(lesson_path):
    r = evalbars.compare(lesson_path, a="model_a", b="model_b", margin=0.01, n_resamples=1000)
    doc = r.to_dict()["equivalence"]
    assert doc["decision"] == "non-inferior"
    assert doc["interval"]["level"] == pytest.approx(0.9)
    assert "model_b is not worse than model_a by more than 1.0 points" in r.statement


@pytest.mark.parametrize("margin", [0, -0.01, float("nan"), "1"])
def test_bad_margin(margin):
    with pytest.raises(EvalbarsError, match="margin must be a positive number"):
        equivalence(0.0, 0.01, 10, margin=margin)


def test_bad_alpha():
    with pytest.raises(EvalbarsError, match="alpha must be between 0 and 0.5"):
        equivalence(0.0, 0.01, 10, margin=0.01, alpha=0.7)


def test_one_item_is_too_few():
    with pytest.raises(EvalbarsError, match="at least 2 items"):
        paired_equivalence(np.array([1.0]), np.array([0.0]), margin=0.1)


# --- decided by Newcombe's interval where it is the headline (few discordant 0/1) --------


def _pair(n: int, a_only: int, b_only: int):
    """0/1 scores of two models on n questions with the given discordant counts."""
    a = np.array([1] * (n // 2) + [0] * (n - n // 2))
    b = a.copy()
    b[:a_only] = 0  # right for a only
    b[n // 2:n // 2 + b_only] = 1  # right for b only
    return a, b


def _newcombe(a, b):
    from evalbars.stats.intervals import paired_interval

    def interval(level):
        found = paired_interval(a, b, method="newcombe", confidence_level=level)
        return found.low, found.high
    return interval


@pytest.mark.parametrize("a_only,b_only", [(2, 0), (0, 3), (4, 1), (1, 1), (0, 0), (6, 2)])
@pytest.mark.parametrize("margin", [0.002, 0.01, 0.03])
def test_newcombe_p_values_invert_the_interval(a_only, b_only, margin):
    """Each p-value is the alpha at which the (1 - 2 alpha) interval's end meets the margin
    (checked by recomputing the interval there), so p < alpha exactly when the interval
    decides; the decision is the 90% interval's."""
    from evalbars.stats.equivalence import interval_equivalence

    a, b = _pair(500, a_only, b_only)
    interval = _newcombe(a, b)
    result = interval_equivalence(interval, float(np.mean(b - a)), margin=margin,
                                  method="newcombe")
    low, high = interval(0.9)
    assert (result.low, result.high) == (low, high)
    assert (result.non_inferiority_p < 0.05) == (low > -margin)
    assert (result.tost_p < 0.05) == (-margin < low and high < margin)
    p = result.non_inferiority_p
    if 1e-12 < p < 0.5:
        assert interval(1 - 2 * p)[0] == pytest.approx(-margin, abs=1e-9)
    elif p > 0.5:  # the estimate is at or below -margin: 1 - the opposite test's p
        assert interval(1 - 2 * (1 - p))[1] == pytest.approx(-margin, abs=1e-9)


def test_few_discordant_questions_are_decided_by_newcombe_not_t():
    """2 losses in 500 questions: the paired t 90% interval (-0.87 to +0.07 points) calls
    the models equivalent within 1 point; Newcombe's (-1.06 to +0.24), the headline with
    so few discordant questions, cannot rule out a 1-point loss. The gate says so."""
    a = np.array([1] * 400 + [0] * 100)  # 80% right
    b = a.copy()
    b[:2] = 0
    t = paired_equivalence(a, b, margin=0.01)
    assert t.decision == "equivalent" and t.low == pytest.approx(-0.008656, abs=1e-6)
    frame = {"id": [f"q{i}" for i in range(500)], "base": a, "cand": b}
    pd = pytest.importorskip("pandas")
    result = evalbars.compare(pd.DataFrame(frame), a="base", b="cand", margin=0.01,
                              n_resamples=500)
    eq = result.equivalence
    assert (eq.method, eq.decision, eq.n_needed) == ("newcombe", "inconclusive", None)
    assert eq.low == pytest.approx(-0.010622, abs=1e-6)
    assert result.to_dict()["equivalence"]["interval"]["method"] == "newcombe"
    assert "(90% Newcombe CI of the gap" in result.statement
    gate = evalbars.gate(pd.DataFrame(frame), baseline="base", candidate="cand",
                         max_regression=0.01, n_resamples=500)
    assert (gate.decision, gate.exit_status) == ("inconclusive", 3)
    assert "90% Newcombe CI" in gate.message
