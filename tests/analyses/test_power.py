"""Power, sample size and MDE: seed numbers, statsmodels, round trips, grid, errors, CLI, docs.

Exact McNemar power is tested in tests/stats/test_mcnemar_power.py, pilot estimates and the ICC in
test_pilot.py.
"""
import dataclasses
import json
import math
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.power import NormalIndPower, TTestPower
from statsmodels.stats.proportion import proportion_effectsize

from evalbars.analyses import power as P
from evalbars.cli import build_parser, main
from evalbars.core.errors import EvalbarsError

Z_SUM_SQ = (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) ** 2
"""Seed 000's (1.96 + 0.84)**2 with exact quantiles: 7.848879734."""


# --- numbers from the seed texts and EXPECTED.md ----------------------------------------


def test_seed000_paired_one_point_at_ten_percent_disagreement():
    # seed 000: "about 7,800 questions paired"; EXPECTED.md: 7,841 with exact z
    # (= 7.848879734 * (0.10 - 0.01**2) / 0.01**2 = 7,841.03, the one-tail formula).
    r = P.solve(design="paired", gap=0.01, power=0.8, disagreement=0.10)
    assert Z_SUM_SQ * (0.10 - 0.01**2) / 0.01**2 == pytest.approx(7841.03, abs=0.005)
    assert r.n_unrounded == pytest.approx(7841.03, abs=0.03)  # both tails: 7,841.01
    assert r.n == 7842 and round(r.n, -2) == 7800
    assert r.achieved_power >= 0.8
    assert "needs about 7,842 questions" in r.statement


def test_seed000_unpaired_near_seventy_percent():
    # EXPECTED.md: 32,965 "with Var = 0.42": 2 * 0.7 * 0.3, both arms at 70%, unrounded
    # 7.848879734 * 0.42 / 1e-4 = 32,965.29 (evalbars rounds up: 32,966).
    r = P.solve(design="unpaired", gap=0.01, power=0.8, variance=0.21)
    assert r.n_unrounded == pytest.approx(32965.29, abs=0.1)
    assert r.n == 32966
    # With p_b = p_a + gap (seed 000's formula), 70% -> 71% needs 32,644: "about 33,000".
    assert P.solve(design="unpaired", gap=0.01, power=0.8, baseline=0.70).n == 32644
    assert P.solve(design="unpaired", gap=0.01, power=0.8, baseline=0.695).n == 32962


def test_seed002_cohen_h_cookbook_delta():
    # seed 002 / EXPECTED.md: 388 per arm; statsmodels NormalIndPower().solve_power(
    #   proportion_effectsize(0.615, 0.710), alpha=0.05, power=0.8) = 387.13.
    r = P.solve(design="unpaired", gap=0.710 - 0.615, power=0.8, baseline=0.615,
                method="cohen-h")
    assert r.n == 388
    assert r.n_unrounded == pytest.approx(387.1304, abs=1e-3)


def test_seed000_power_at_500_questions_for_a_two_point_gain():
    # seed 000: "Power at 500 is 25% for a real 2-point gain" (exact McNemar, simulated).
    r = P.solve(n=500, gap=0.02, disagreement=0.10)
    assert r.exact_mcnemar_power == pytest.approx(0.25, abs=0.01)
    assert r.power == pytest.approx(0.294, abs=0.001)  # the normal approximation: ~30%
    exact = P.solve(n=500, gap=0.02, disagreement=0.10, method="mcnemar-exact")
    assert exact.power == exact.exact_mcnemar_power == r.exact_mcnemar_power


def test_seed000_design_effect_and_effective_n():
    # seed 000: design effect 1 + 9 * 0.2 = 2.8; "your 500 questions were worth about 180".
    r = P.solve(design="clustered", n=500, power=0.8, disagreement=0.10, icc=0.2,
                cluster_size=10)
    assert r.design_effect == pytest.approx(2.8)
    assert r.effective_n == pytest.approx(500 / 2.8) and round(r.effective_n, -1) == 180
    assert r.n_clusters == 50
    assert "worth about 179 independent ones" in r.statement


def test_seed000_sampled_answers_standard_error():
    # seed 000: 500 questions, 70%, Var(p_i) = 0.05: 2.0 points at K=1, 1.3 at K=5, 1.0 floor.
    se = [P.sampled_se(500, accuracy=0.7, between_variance=0.05, samples=k)
          for k in (1, 5, math.inf)]
    assert [round(100 * s, 1) for s in se] == [2.0, 1.3, 1.0]
    assert se[0] == pytest.approx(math.sqrt(0.21 / 500))
    assert se[1] == pytest.approx(math.sqrt(0.082 / 500))
    # "as if you had about 2.5 times as many questions"
    assert (se[0] / se[1]) ** 2 == pytest.approx(2.56, abs=0.01)


def test_samples_enter_the_planning_variance():
    # One answer per question: the split changes nothing; many answers shrink only the
    # within part: Var = V + (p(1-p) - V) / K per arm.
    plain = P.solve(design="unpaired", gap=0.02, power=0.8, baseline=0.7)
    one = P.solve(design="unpaired", gap=0.02, power=0.8, baseline=0.7, samples=1,
                  between_variance=0.05)
    five = P.solve(design="unpaired", gap=0.02, power=0.8, baseline=0.7, samples=5,
                   between_variance=0.05)
    assert one.n == plain.n
    var5 = sum(0.05 + (p * (1 - p) - 0.05) / 5 for p in (0.7, 0.72))
    assert five.n_unrounded == pytest.approx(plain.n_unrounded * var5 / (0.21 + 0.72 * 0.28))
    paired = P.solve(gap=0.02, power=0.8, disagreement=0.1, samples=4, between_variance=0.03)
    assert paired.exact_mcnemar_power is None
    assert paired.n_unrounded == pytest.approx(
        P.solve(gap=0.02, power=0.8, variance=0.03 + (0.1 - 0.02**2 - 0.03) / 4).n_unrounded)


def test_clustered_rounds_up_to_whole_clusters():
    base = P.solve(gap=0.01, power=0.8, disagreement=0.1)
    r = P.solve(design="clustered", gap=0.01, power=0.8, disagreement=0.1, icc=0.2,
                cluster_size=10)
    assert r.n_unrounded == pytest.approx(2.8 * base.n_unrounded)
    assert r.n % 10 == 0 and r.n_clusters == r.n // 10 and r.n - r.n_unrounded < 10
    direct = P.solve(design="clustered", gap=0.01, power=0.8, disagreement=0.1,
                     design_effect=2.8)
    assert direct.n == math.ceil(direct.n_unrounded) and direct.n_clusters is None
    unpaired = P.solve(design="clustered", gap=0.05, power=0.8, baseline=0.6, icc=0.1,
                       cluster_size=7.5, method="cohen-h")
    plain = P.solve(design="unpaired", gap=0.05, power=0.8, baseline=0.6, method="cohen-h")
    assert unpaired.n_unrounded == pytest.approx(1.65 * plain.n_unrounded)
    assert unpaired.n == math.ceil(unpaired.n_clusters * 7.5)
    assert "per model" in unpaired.statement


# --- against statsmodels ------------------------------------------------------------------


def _random_cases(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield (float(rng.uniform(0.05, 0.9)), float(rng.uniform(0.01, 0.08)),
               int(rng.integers(30, 20_000)), float(rng.choice([0.01, 0.05, 0.1])),
               float(rng.uniform(0.5, 0.95)))


@pytest.mark.parametrize("case", list(_random_cases(25, 1)))
def test_cohen_h_matches_normal_ind_power(case):
    p_a, gap, n, alpha, power = case
    h = proportion_effectsize(p_a + gap, p_a)  # statsmodels: 2 asin sqrt(p1) - 2 asin sqrt(p2)
    common = dict(design="unpaired", baseline=p_a, alpha=alpha, method="cohen-h")
    assert P.solve(n=n, gap=gap, **common).power == pytest.approx(
        NormalIndPower().power(h, n, alpha), rel=1e-9)
    assert P.solve(gap=gap, power=power, **common).n_unrounded == pytest.approx(
        NormalIndPower().solve_power(h, alpha=alpha, power=power), rel=1e-6)
    # statsmodels solves the effect size loosely (power off by up to ~3e-5), so compare the
    # gap loosely and check that statsmodels' power at our gap is the target.
    h_at_n = NormalIndPower().solve_power(None, nobs1=n, alpha=alpha, power=power)
    gap_at_n = math.sin(math.asin(math.sqrt(p_a)) + h_at_n / 2) ** 2 - p_a
    if gap_at_n <= 1 - p_a:
        ours = P.solve(n=n, power=power, **common).gap
        assert ours == pytest.approx(gap_at_n, rel=1e-4)
        h_ours = proportion_effectsize(p_a + ours, p_a)
        assert NormalIndPower().power(h_ours, n, alpha) == pytest.approx(power, rel=1e-9)


@pytest.mark.parametrize("case", list(_random_cases(25, 2)))
def test_normal_methods_match_normal_ind_power(case):
    rate, gap, n, alpha, power = case
    d = max(rate, gap)
    sd = math.sqrt(d - gap**2)  # paired: one-sample z test on d, statsmodels ratio=0
    assert P.solve(n=n, gap=gap, disagreement=d, alpha=alpha).power == pytest.approx(
        NormalIndPower().power(gap / sd, n, alpha, ratio=0), rel=1e-9)
    assert P.solve(gap=gap, power=power, disagreement=d, alpha=alpha).n_unrounded == \
        pytest.approx(NormalIndPower().solve_power(gap / sd, alpha=alpha, power=power,
                                                   ratio=0), rel=1e-6)
    p_a = min(rate, 1 - gap - 0.01)  # unpaired: two-sample z test, equal n
    sd2 = math.sqrt((p_a * (1 - p_a) + (p_a + gap) * (1 - p_a - gap)) / 2)
    assert P.solve(design="unpaired", n=n, gap=gap, baseline=p_a, alpha=alpha).power == \
        pytest.approx(NormalIndPower().power(gap / sd2, n, alpha), rel=1e-9)


@pytest.mark.parametrize("case", list(_random_cases(20, 3)))
def test_normal_paired_power_is_close_to_the_t_test(case):
    # statsmodels TTestPower (noncentral t) is the exact paired t power; the z version is
    # slightly higher, by at most about 2 / n (checked over 300 random cases, n >= 50).
    variance, _, n, alpha, power = case
    gap = 4 * (power - 0.45) * math.sqrt(variance / n)  # powers well inside (0, 1)
    ours = P.solve(n=n, gap=gap, variance=variance, alpha=alpha).power
    t = TTestPower().power(effect_size=gap / math.sqrt(variance), nobs=n, alpha=alpha)
    assert -1e-9 <= ours - t <= 2.5 / n


# --- round trips --------------------------------------------------------------------------

ROUND_TRIP_DESIGNS = [
    dict(design="paired", disagreement=0.12),
    dict(design="paired", disagreement=0.3, method="mcnemar-exact"),
    dict(design="paired", variance=0.04),
    dict(design="unpaired", baseline=0.62),
    dict(design="unpaired", baseline=0.4, method="cohen-h"),
    dict(design="clustered", disagreement=0.15, icc=0.1, cluster_size=8),
    dict(design="clustered", baseline=0.7, design_effect=1.7, method="cohen-h"),
    dict(design="paired", disagreement=0.2, samples=3, between_variance=0.05),
]


@pytest.mark.parametrize("inputs", ROUND_TRIP_DESIGNS)
@pytest.mark.parametrize("gap,power", [(0.02, 0.8), (0.05, 0.9), (0.011, 0.6)])
def test_round_trip_n_then_power_then_gap(inputs, gap, power):
    solved = P.solve(gap=gap, power=power, **inputs)
    assert solved.achieved_power >= power
    again = P.solve(n=solved.n, gap=gap, **inputs)
    assert again.power == solved.achieved_power >= power
    if "cluster_size" not in inputs:  # clusters round n up by up to a whole cluster
        assert P.solve(n=solved.n - 1, gap=gap, **inputs).power < power
    mde = P.solve(n=solved.n, power=power, **inputs)
    assert mde.gap <= gap + 1e-12 and mde.achieved_power == pytest.approx(power, abs=1e-9)
    back = P.solve(gap=mde.gap, power=power, **inputs)
    step = inputs.get("cluster_size", 1)
    assert abs(back.n - solved.n) <= step


def test_exact_n_is_at_least_the_normal_n_here():
    normal = P.solve(gap=0.01, power=0.8, disagreement=0.1)
    exact = P.solve(gap=0.01, power=0.8, disagreement=0.1, method="mcnemar-exact")
    assert exact.n > normal.n and exact.n_unrounded is None
    assert exact.achieved_power >= 0.8 > P.mcnemar_power(exact.n - 1, disagreement=0.1,
                                                        gap=0.01)


def test_results_are_frozen_json_documents():
    r = P.solve(gap=0.01, power=0.8, disagreement=0.1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.n = 3
    assert not hasattr(r, "__dict__")
    doc = r.to_dict()
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc
    assert doc["kind"] == "power" and doc["schema_version"] == 1 and doc["solved_for"] == "n"
    assert doc["inputs"] == {"alpha": 0.05, "disagreement": 0.1, "gap": 0.01, "power": 0.8}
    assert "n_clusters" not in doc and "grid" not in doc
    assert str(r).startswith(r.statement)


# --- grid ---------------------------------------------------------------------------------


def test_grid_rows_equal_solve_and_mde_at_current_n():
    g = P.grid(n=500, disagreement=0.03, power=0.8)
    assert g.solved_for == "gap" and g.gap == P.solve(n=500, power=0.8, disagreement=0.03).gap
    assert [row["gap"] for row in g.grid] == list(P.GRID_GAPS)
    for row in g.grid[:3]:
        solved = P.solve(gap=row["gap"], power=0.8, disagreement=0.03)
        assert (row["n"], row["achieved_power"], row["exact_mcnemar_power"]) == (
            solved.n, solved.achieved_power, solved.exact_mcnemar_power)
    assert g.grid[3]["n"] is None and "cannot exceed the disagreement rate" in g.grid[3]["note"]
    clustered = P.grid(design="clustered", n=400, baseline=0.6, icc=0.05, cluster_size=4)
    assert all(row["n_clusters"] * 4 == row["n"] for row in clustered.grid)


# --- one test per error message --------------------------------------------------------------

BASE = dict(gap=0.01, power=0.8, disagreement=0.1)


@pytest.mark.parametrize("kwargs,message", [
    (dict(gap=0.01, disagreement=0.1), "give exactly two of n, gap and power"),
    (dict(n=5, gap=0.01, power=0.8, disagreement=0.1), "got n=5, gap=0.01, power=0.8"),
    ({**BASE, "design": "crossed"}, "design must be one of 'paired', 'unpaired', 'clustered'"),
    ({**BASE, "method": "cohen-h"}, "method must be one of 'normal', 'mcnemar-exact' for the "
                                    "paired design; got 'cohen-h'"),
    ({**BASE, "alpha": 1.5}, "alpha must be between 0 and 1 (exclusive); got 1.5"),
    ({**BASE, "power": 0.04}, "power must be between alpha (0.05) and 1"),
    ({**BASE, "gap": -0.01}, "gap must be a positive fraction (0.01 = 1 point); got -0.01"),
    (dict(n=0, power=0.8, disagreement=0.1), "n must be a positive integer (questions); got 0"),
    (dict(n=True, power=0.8, disagreement=0.1), "n must be a positive integer"),
    ({**BASE, "gap": 0.15}, "gap 0.15 is impossible with disagreement 0.1"),
    ({**BASE, "disagreement": 0}, "disagreement must be a fraction in (0, 1]; got 0"),
    (dict(design="unpaired", gap=0.4, power=0.8, baseline=0.7), "would put model B above 100%"),
    (dict(design="unpaired", gap=0.01, power=0.8, baseline=1.0), "baseline must be a fraction"),
    (dict(gap=0.01, power=0.8, variance=-1), "variance must be a positive number; got -1"),
    ({**BASE, "baseline": 0.7}, "baseline (--baseline) is not used by a paired comparison"),
    (dict(gap=0.01, power=0.8), "a paired comparison needs disagreement"),
    ({**BASE, "variance": 0.1}, "exactly one; got disagreement=0.1, variance=0.1"),
    (dict(design="unpaired", gap=0.01, power=0.8), "an unpaired comparison needs baseline"),
    (dict(design="clustered", gap=0.01, power=0.8, baseline=0.5, disagreement=0.1,
          design_effect=2), "disagreement (--disagreement) is for paired comparisons"),
    ({**BASE, "icc": 0.2}, "icc (--icc) applies only to the clustered design (--design "
                           "clustered); got design='paired'"),
    ({**BASE, "icc": 0.2, "cluster_size": 5}, "icc (--icc) and cluster_size (--cluster-size) "
                                              "apply only to the clustered design"),
    ({**BASE, "design": "clustered"}, "the clustered design needs design_effect "
                                      "(--design-effect), or icc with cluster_size"),
    ({**BASE, "design": "clustered", "icc": 0.2}, "icc=0.2 needs cluster_size"),
    ({**BASE, "design": "clustered", "icc": 0.2, "design_effect": 2.0},
     "give design_effect, or icc with cluster_size, not both"),
    ({**BASE, "design": "clustered", "icc": 1.2, "cluster_size": 5},
     "icc must be between 0 and 1"),
    ({**BASE, "design": "clustered", "design_effect": 0.5}, "design_effect must be at least 1"),
    ({**BASE, "design": "clustered", "icc": 0.1, "cluster_size": 0.5},
     "cluster_size must be at least 1 (questions per cluster)"),
    ({**BASE, "samples": 3}, "samples and between_variance go together"),
    ({**BASE, "samples": 0, "between_variance": 0.01}, "samples must be a positive integer"),
    ({**BASE, "samples": 2, "between_variance": -0.01}, "between_variance must be a variance"),
    ({**BASE, "samples": 2, "between_variance": 0.2},
     "between_variance must be at most the per-question variance it is part of, 0.1"),
    ({**BASE, "gap": 0.09, "samples": 2, "between_variance": 0.095},
     "gap 0.09 leaves a per-question variance of 0.0919"),
    ({**BASE, "method": "mcnemar-exact", "samples": 2, "between_variance": 0.01},
     "method 'mcnemar-exact' needs 0/1 scores with one answer per question"),
    (dict(design="unpaired", gap=0.01, power=0.8, variance=0.2, method="cohen-h"),
     "method 'cohen-h' compares two independent proportions"),
    (dict(n=20, power=0.99, disagreement=0.05), "no gap reaches power 0.99 with n=20"),
    (dict(gap=1e-6, power=0.8, disagreement=0.1, method="mcnemar-exact"),
     "does not reach power 0.8 at gap 1e-06 with up to 1,000,000,000 questions"),
])
def test_solve_errors(kwargs, message):
    with pytest.raises(EvalbarsError) as error:
        P.solve(**kwargs)
    assert message in str(error.value)


def test_power_functions_errors():
    cases = [
        (lambda: P.mcnemar_power(100, disagreement=0.1, gap=0.2),
         "gap must be between 0 and the disagreement 0.1; got 0.2"),
        (lambda: P.sampled_se(500, accuracy=0.7, between_variance=0.3, samples=1),
         "between_variance must be at most accuracy * (1 - accuracy) = 0.21"),
        (lambda: P.sampled_se(500, accuracy=1.2, between_variance=0.0, samples=1),
         "accuracy must be a fraction between 0 and 1; got 1.2"),
        (lambda: P.sampled_variance(between_variance=0.1, within_variance=-1, samples=2),
         "within_variance must be a variance >= 0; got -1"),
        (lambda: P.sampled_variance(between_variance=0.1, within_variance=0.1, samples=2.5),
         "samples must be a positive integer or math.inf; got 2.5"),
        (lambda: P.icc([1, 2, 3], ["a", "b"]), "values and clusters must be 1-D"),
        (lambda: P.icc([1, 2, 3], ["a", "b", "c"]), "icc needs at least 2 clusters"),
        (lambda: P.icc([1, 1, 1, 1], ["a", "a", "b", "b"]), "every value is the same"),
        (lambda: P.grid(disagreement=0.1), "grid needs n"),
        (lambda: P.grid(n=100, disagreement=0.1, sample=3), "grid got unexpected argument(s)"),
        (lambda: P.grid(n=100, disagreement=0.1, gaps=(0.01, 0)), "gaps must be positive"),
    ]
    for call, message in cases:
        with pytest.raises(EvalbarsError) as error:
            call()
        assert message in str(error.value)


# --- the CLI --------------------------------------------------------------------------------


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv,api", [
    (["--gap", "0.01", "--power", "0.8", "--disagreement", "0.1"],
     lambda: P.solve(gap=0.01, power=0.8, disagreement=0.1)),
    (["--design", "unpaired", "--baseline", "0.615", "--gap", "0.095", "--power", "0.8",
      "--method", "cohen-h"],
     lambda: P.solve(design="unpaired", baseline=0.615, gap=0.095, power=0.8, method="cohen-h")),
    (["--design", "clustered", "--n", "500", "--power", "0.8", "--disagreement", "0.1",
      "--icc", "0.2", "--cluster-size", "10"],
     lambda: P.solve(design="clustered", n=500, power=0.8, disagreement=0.1, icc=0.2,
                     cluster_size=10)),
    (["--n", "500", "--gap", "0.02", "--disagreement", "0.1", "--samples", "5",
      "--between-variance", "0.02", "--alpha", "0.01"],
     lambda: P.solve(n=500, gap=0.02, disagreement=0.1, samples=5, between_variance=0.02,
                     alpha=0.01)),
    (["--n", "500", "--disagreement", "0.1", "--grid"],
     lambda: P.grid(n=500, disagreement=0.1)),
    (["--pilot", "examples/lesson_pair.csv", "--grid", "--power", "0.9"],
     lambda: P.grid(power=0.9, pilot=P.from_pilot("examples/lesson_pair.csv"))),
    (["--pilot", "examples/cookbook_topics.csv", "--item", "example_id", "--design",
      "unpaired", "--gap", "0.05", "--power", "0.8"],
     lambda: P.solve(design="unpaired", gap=0.05, power=0.8,
                     pilot=P.from_pilot("examples/cookbook_topics.csv", item="example_id"))),
    (["--pilot", "examples/cookbook_topics.csv", "--cluster", "topic_id", "--design",
      "clustered", "--gap", "0.05", "--power", "0.8"],
     lambda: P.solve(design="clustered", gap=0.05, power=0.8,
                     pilot=P.from_pilot("examples/cookbook_topics.csv", cluster="topic_id"))),
])
def test_cli_json_equals_the_api(capsys, argv, api):
    status, out, err = run(capsys, "power", *argv, "--format", "json")
    assert status == 0 and err == ""
    assert json.loads(out) == json.loads(json.dumps(api().to_dict()))


def test_cli_text_says_the_answer_first_then_the_inputs(capsys):
    status, out, _ = run(capsys, "power", "--gap", "0.01", "--power", "0.8", "--disagreement",
                         "0.1")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("To detect a 1-point gain with 80% power")
    assert "needs about 7,842 questions" in lines[0] and lines[2] == "Inputs"
    assert "disagreement  10.0%" in out and "exact McNemar power      79.0%" in out


def test_cli_markdown_and_grid(capsys):
    status, out, _ = run(capsys, "power", "--pilot", "examples/lesson_pair.csv", "--grid",
                         "--format", "markdown")
    assert status == 0 and out.startswith("### evalbars power: solved for gap")
    assert "| 1 point | 3,289 |" in out and "| 5 points | impossible |" in out
    assert "Pilot of 500 questions (model_b vs model_a, 0/1 scores)" in out


@pytest.mark.parametrize("argv,message", [
    (["--n", "100", "--disagreement", "0.1"], "power=0.8 is the usual target"),
    (["--gap", "1", "--disagreement", "0.1"],
     "did you mean 0.01 (1 point)? gaps are fractions"),
    (["--gap", "5", "--power", "0.8", "--design", "unpaired", "--baseline", "0.5"],
     "did you mean 0.05 (5 points)?"),
    (["--gap", "0.01", "--power", "0.8", "--design", "unpaired"],
     "needs baseline (--baseline), model A's accuracy, or variance (--variance)"),
    (["--gap", "0.01", "--power", "0.8", "--design", "unpaired", "--disagreement", "0.1"],
     "disagreement (--disagreement) is for paired comparisons and baseline (--baseline)"),
    (["--gap", "0.2", "--power", "0.8", "--disagreement", "0.1"], "cannot exceed"),
    (["--pilot", "a.csv", "b.csv", "c.csv", "--gap", "0.01", "--power", "0.8"],
     "--pilot takes one or two files; got 3"),
    (["--a", "x", "--gap", "0.01", "--power", "0.8", "--disagreement", "0.1"],
     "--a describe the --pilot file"),
    (["--cluster", "topic_id", "--gap", "0.01", "--power", "0.8", "--disagreement", "0.1"],
     "--cluster describe the --pilot file"),
    (["--sample", "epoch", "--gap", "0.01", "--power", "0.8", "--disagreement", "0.1"],
     "--sample describe the --pilot file"),
    (["--grid", "--gap", "0.01", "--n", "100", "--disagreement", "0.1"], "leave out --gap"),
    (["--pilot", "does/not/exist.csv", "--grid"], "does/not/exist.csv"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "power", *argv)
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error:") and message in err and err.count("\n") == 1


def test_cli_help_lists_every_design_and_method():
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices["power"]
    text = " ".join(sub.format_help().split())
    for name in (*P.DESIGNS, *{m for methods in P.METHODS.values() for m in methods}):
        assert name in text


# --- docs/power.md runs as written ------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "power.md"


def _blocks(kind):
    text = DOCS.read_text()
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)


def test_docs_python_examples_run():
    import doctest

    source = "\n".join(_blocks("python"))
    test = doctest.DocTestParser().get_doctest(source, {}, "power.md", str(DOCS), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and test.examples


@pytest.mark.parametrize("block", _blocks("console"))
def test_docs_console_examples_run(capsys, block):
    command, *expected = block.splitlines()
    assert command.startswith("$ evalbars power ")
    status = main(shlex.split(command)[2:])
    out, _ = capsys.readouterr()
    assert status == 0
    if expected:  # all but the footer, which carries the version
        assert out.splitlines()[:-1] == expected[:-1]
        assert expected[-1].startswith("evalbars ")
        assert out.splitlines()[-1].startswith("evalbars ")


def test_cli_readme_command_defaults_power_and_says_so(capsys):
    # issue 17 item 20: the README's command, with no --power, solves n at power 0.8
    status, out, _ = run(capsys, "power", "--design", "paired", "--gap", "0.01",
                         "--disagreement", "0.1")
    assert status == 0
    assert out.startswith("To detect a 1-point gain with 80% power (the default; set it with "
                          "--power) at alpha 0.05")
    assert "7,842 questions" in out
    status, out, _ = run(capsys, "power", "--gap", "0.01", "--disagreement", "0.1",
                         "--power", "0.8")
    assert status == 0 and "with 80% power at alpha" in out and "the default" not in out
