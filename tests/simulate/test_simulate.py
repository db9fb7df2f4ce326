"""evalbars.simulate and `evalbars simulate`: seed 000's figures within Monte Carlo error.

Fast tests use a few thousand experiments and allow 4 Monte Carlo errors (of a share of
E experiments, sqrt(p (1 - p) / E) at the reference p) plus the rounding of the figure
quoted. Where a closed form exists the reference is computed here independently, by
exact summation over the binomial counts. Full-size runs (20,000 experiments) are marked
slow: ``pytest -m slow tests/simulate/test_simulate.py``.
"""
from __future__ import annotations

import inspect
import json
import math

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, read_columns
from scipy import stats

import evalbars
from evalbars import EvalbarsError, simulate
from evalbars.cli import build_parser, main
from evalbars.cli.simulate import SIMULATIONS as CLI_TABLE
from evalbars.io.inputs import LOAD_OPTIONS
from evalbars.simulate._pairs import (
    bars_do_not_overlap,
    mcnemar_exact_p,
    pair_spec,
    paired_wald,
    z_for,
)
from evalbars.simulate.units import _percentile_interval, mean_variances
from evalbars.stats import intervals, significance

FAST = 4000


def near(rate, expected: float, experiments: int, slack: float = 0.0) -> bool:
    """A share within 4 Monte Carlo errors (at the expected p) plus ``slack``."""
    error = math.sqrt(expected * (1 - expected) / experiments)
    return abs(rate.value - expected) <= slack + 4 * error


def near_mean(rate, expected: float, slack: float = 0.0) -> bool:
    """A mean within 4 of its reported Monte Carlo errors plus ``slack``."""
    return abs(rate.value - expected) <= slack + 4 * rate.mc_error


def exact_paired_rates(n: int, accuracy: float, gap: float, disagreement: float,
                       alpha: float = 0.05, threshold: float = 0.008) -> dict:
    """Exact probabilities for one experiment, by summing over the discordant count
    m ~ Binomial(n, D) and B's share of it k ~ Binomial(m, P(B only) / D)."""
    m = np.arange(n + 1)[:, None]
    k = np.arange(n + 1)[None, :]
    weight = stats.binom.pmf(m, n, disagreement) * stats.binom.pmf(
        k, m, (disagreement + gap) / 2 / disagreement)
    diff = 2 * k - m
    sd = np.sqrt(np.maximum(m - diff ** 2 / n, 0) / (n - 1))
    wald = np.abs(diff / n) > stats.norm.ppf(1 - alpha / 2) * sd / math.sqrt(n)
    p = np.minimum(1, 2 * stats.binom.cdf(np.minimum(k, m - k), m, 0.5))
    need = round(threshold * n)
    return {"gap_at_least_threshold": float(np.sum(weight * (diff >= need))),
            "gap_at_least_threshold_either": float(np.sum(weight * (abs(diff) >= need))),
            "paired-wald": float(np.sum(weight * wald)),
            "mcnemar-exact": float(np.sum(weight * (p < alpha)))}


# --- seed 000 figures ------------------------------------------------------------------


def test_aa_figures():
    r = simulate.aa(n=500, disagreement=0.10, experiments=FAST, seed=1)
    exact = exact_paired_rates(500, 0.70, 0.0, 0.10)
    # exact: 0.3099, 0.6198, 0.0493, 0.0366
    for name in ("gap_at_least_threshold", "gap_at_least_threshold_either"):
        assert near(r.rate(name), exact[name], FAST)
    assert near(r.rate("paired_ci_excludes_zero"), exact["paired-wald"], FAST)
    assert near(r.rate("mcnemar_p_below_alpha"), exact["mcnemar-exact"], FAST)
    # seed 000 "Measure": B "wins" by >= 0.8 points about a third of the time, in either
    # direction about two-thirds; "Play with it" 2: the paired interval excludes zero about 5%
    assert abs(exact["gap_at_least_threshold"] - 1 / 3) < 0.03
    assert abs(exact["gap_at_least_threshold_either"] - 2 / 3) < 0.05
    assert near(r.rate("paired_ci_excludes_zero"), 0.05, FAST, slack=0.005)
    assert r.rate("bars_do_not_overlap").value < 0.005


def test_play_with_it_defaults():
    # seed 000 "Play with it" 1: correlation 0.7, gap 3 points, 1,000 questions: the paired
    # test finds the gap in roughly three runs out of four, non-overlapping bars about 1 in 100
    r = simulate.power(gap=0.03, n=1000, correlation=0.7, experiments=FAST, seed=1)
    disagreement = simulate.disagreement_from_correlation(0.70, 0.03, 0.7)
    assert disagreement == pytest.approx(0.123173, abs=1e-6)
    exact = exact_paired_rates(1000, 0.70, 0.03, disagreement)
    assert near(r.rate("paired-wald"), exact["paired-wald"], FAST)  # exact 0.7789
    assert near(r.rate("mcnemar-exact"), exact["mcnemar-exact"], FAST)  # exact 0.7488
    assert abs(exact["paired-wald"] - 0.75) < 0.05
    assert near(r.rate("bars_do_not_overlap"), 0.01, FAST, slack=0.005)


def test_power_for_a_two_point_gain():
    # seed 000 "Measure": power at 500 questions for a real 2-point gain is about 25%
    # (exact McNemar, simulated); the issue: about 25-30% (paired-wald is the 30%)
    r = simulate.power(gap=0.02, n=500, disagreement=0.10, experiments=FAST, seed=1)
    exact = exact_paired_rates(500, 0.70, 0.02, 0.10)
    assert near(r.rate("mcnemar-exact"), exact["mcnemar-exact"], FAST)  # exact 0.2496
    assert near(r.rate("paired-wald"), exact["paired-wald"], FAST)  # exact 0.2911
    assert near(r.rate("mcnemar-exact"), 0.25, FAST, slack=0.005)
    assert r.rate("sign-flip").value == r.rate("mcnemar-exact").value
    assert [rate.name for rate in r.rates] == list(simulate.TESTS)


def test_peeking():
    # seed 000 "Break It" 2: peeking every 50 questions up to 1,000 "found" a difference
    # 16% of the time, against 4% testing once at the end (exact McNemar)
    r = simulate.peeking(n=1000, every=50, experiments=FAST, seed=1)
    assert r.settings["looks"] == 20
    assert near(r.rate("false_positive_peeking"), 0.16, FAST, slack=0.005)
    assert near(r.rate("false_positive_once"), 0.04, FAST, slack=0.005)


def test_winners_curse():
    # seed 000 "Many tries": best of 20 null prompts beats the baseline by 2.5 points on
    # average and by at least 1 point in 97% of runs; confirmed on fresh data about zero
    r = simulate.winners_curse(candidates=20, n=500, disagreement=0.10, experiments=2000,
                               seed=1)
    assert near_mean(r.rate("selected_gain"), 0.025, slack=0.0005)
    assert near(r.rate("selected_gain_at_least_1pt"), 0.97, 2000, slack=0.005)
    assert near_mean(r.rate("confirmed_gain"), 0.0)
    # 20 tests at 5%: 1 - 0.95**20 = 64% if independent; the shared baseline and the
    # conservative exact test make it lower. Bonferroni lets a few percent through.
    assert 0.4 < r.rate("any_significant").value < 0.64
    assert r.rate("any_significant_bonferroni").value < 0.05


def test_clustering():
    # seed 000 "Clustered questions": 50 documents x 10 questions, accuracy 70%, rho about
    # 0.2: the naive 95% interval covered 76%, the clustered one 94%; design effect 2.8
    r = simulate.clustering(clusters=50, per_cluster=10, accuracy=0.70, icc=0.2,
                            experiments=FAST, seed=1)
    assert near(r.rate("coverage_naive"), 0.76, FAST, slack=0.005)
    assert near(r.rate("coverage_clustered"), 0.94, FAST, slack=0.005)
    assert r.rate("design_effect").value == pytest.approx(2.8, abs=0.1)


def test_wrong_unit_standard_errors_match_the_lesson():
    # seed 000 "Two kinds of noise": 500 questions, accuracy 70%, Var(p_i) = 0.05:
    # SE 2.0 points with one answer per question, 1.3 with K = 5 (resampling questions)
    icc = 0.05 / 0.21
    for k, se in ((1, 0.020), (5, 0.013)):
        r = simulate.wrong_unit(units=500, per_unit=k, icc=icc, experiments=300, seed=1)
        assert r.rate("width_right_unit").value / (2 * 1.96) == pytest.approx(se, abs=0.0006)


def test_wrong_unit_coverage():
    # seed 000 "Break It" 3: 100 questions x 5 answers; resampling answers gives an
    # interval much too narrow. Clusters: resampling questions shrinks back to the naive
    # width (naive coverage 76% above).
    answers = simulate.wrong_unit(mode="answers", experiments=FAST, seed=1)
    assert answers.rate("coverage_wrong_unit").value < 0.88
    assert near(answers.rate("coverage_right_unit"), 0.95, FAST, slack=0.01)
    ratio = answers.rate("width_right_unit").value / answers.rate("width_wrong_unit").value
    assert ratio == pytest.approx(math.sqrt(0.082 / 100) / math.sqrt(0.21 / 500), rel=0.03)
    clusters = simulate.wrong_unit(mode="clusters", experiments=FAST, seed=1)
    assert near(clusters.rate("coverage_wrong_unit"), 0.76, FAST, slack=0.02)
    assert near(clusters.rate("coverage_right_unit"), 0.94, FAST, slack=0.01)


def test_misaligned_on_the_lesson_data(lesson_path, lesson):
    r = simulate.misaligned(lesson_path, experiments=FAST, seed=1)
    a, b = lesson
    k_a, k_b, n = int(a.sum()), int(b.sum()), a.size
    assert r.cells == {"both": 362, "a_only": 4, "b_only": 17, "neither": 117}  # seed 000
    assert r.rate("disagreement_joined").value == pytest.approx(0.042)  # seed 000: 4%
    assert r.rate("mcnemar_p_joined").value == pytest.approx(0.00720, abs=5e-6)  # R binom.test
    assert r.rate("ci_width_joined").value == pytest.approx(0.0438 - 0.0082, abs=1e-4)  # scipy
    assert r.rate("gap").value == pytest.approx(0.026)
    # Shuffled: expected disagreement (k_a (n - k_b) + (n - k_a) k_b) / n^2 = 38.0%, sd of
    # one shuffle from the hypergeometric variance of the both-right count. Seed 000
    # "Break It" 1 saw 42% and McNemar p 0.41 in its one shuffle: within 3 sd.
    expected = (k_a * (n - k_b) + (n - k_a) * k_b) / n ** 2
    sd = 2 / n * math.sqrt(stats.hypergeom(n, k_b, k_a).var())
    assert near_mean(r.rate("disagreement_shuffled"), expected)
    assert abs(0.42 - expected) < 3 * sd
    assert r.rate("mcnemar_p_shuffled").value > 0.3
    assert r.rate("significant_shuffled").value == 0.0
    assert r.rate("ci_width_shuffled").value > 2.5 * r.rate("ci_width_joined").value
    assert abs(r.rate("correlation_shuffled").value) < 0.01


def test_hypergeometric_shuffle_matches_real_shuffles(lesson):
    a, b = lesson
    rng = np.random.default_rng(5)
    shuffled = np.array([np.mean(a != rng.permutation(b)) for _ in range(3000)])
    r = simulate.misaligned(evalbars.load(EXAMPLES / "lesson_pair.csv"), experiments=FAST)
    mean = r.rate("disagreement_shuffled")
    assert abs(shuffled.mean() - mean.value) < 4 * math.hypot(
        shuffled.std() / math.sqrt(shuffled.size), mean.mc_error)


# --- the vectorized statistics against the project's own functions --------------------


def random_pairs(count: int):
    rng = np.random.default_rng(11)
    for _ in range(count):
        n = int(rng.integers(2, 80))
        probabilities = rng.dirichlet(np.ones(4))
        cell = rng.choice(4, size=n, p=probabilities)
        a = (cell <= 1).astype(float)
        b = ((cell == 0) | (cell == 2)).astype(float)
        yield a, b, np.bincount(cell, minlength=4)


def test_mcnemar_and_sign_flip_match_significance():
    for a, b, (_, a_only, b_only, _) in random_pairs(40):
        p = float(mcnemar_exact_p(np.array([a_only]), np.array([b_only]))[0])
        assert p == pytest.approx(
            significance.paired_test(a, b, name="mcnemar-exact").p_value, abs=1e-12)
        assert p == pytest.approx(significance.paired_test(
            a, b, name="sign-flip", seed=np.random.SeedSequence(0)).p_value, abs=1e-12)


def test_paired_wald_and_bars_match_intervals():
    z = z_for(0.05)
    for a, b, (both, a_only, b_only, _) in random_pairs(40):
        n = a.size
        gap, half = (float(x[0]) for x in paired_wald(np.array([a_only]), np.array([b_only]),
                                                      n, z))
        interval = intervals.paired_interval(a, b, method="paired-wald")
        assert (gap - half, gap + half) == pytest.approx((interval.low, interval.high),
                                                         abs=1e-12)
        bar_a = intervals.mean_interval(a, method="clt")
        bar_b = intervals.mean_interval(b, method="clt")
        apart = bar_a.high < bar_b.low or bar_b.high < bar_a.low
        assert bool(bars_do_not_overlap(np.array([both + a_only]), np.array([both + b_only]),
                                        n, z)[0]) == apart


def test_clustered_variance_reproduces_the_cookbook(cookbook_path):
    # EXPECTED.md (seed 002): naive SE 0.0345 / 0.0322; CR0 clustered SE 0.04862 / 0.04522
    a, b = read_columns(cookbook_path, "system_a", "system_b")
    for x, naive, clustered in ((a, 0.0345, 0.04862), (b, 0.0322, 0.04522)):
        counts = x.reshape(20, 10).sum(axis=1)  # 20 topics of 10 examples, in file order
        _, v_naive, v_clustered = mean_variances(counts, 10)
        assert math.sqrt(v_naive) == pytest.approx(naive, abs=5e-5)
        assert math.sqrt(v_clustered) == pytest.approx(clustered, abs=5e-6)


def test_clustered_variance_matches_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(3)
    x = rng.binomial(1, rng.beta(2, 1, size=30).repeat(7)).astype(float)
    fit = sm.OLS(x, np.ones_like(x)).fit(
        cov_type="cluster", cov_kwds={"groups": np.arange(30).repeat(7), "use_correction": False})
    _, _, clustered = mean_variances(x.reshape(30, 7).sum(axis=1), 7)
    assert math.sqrt(clustered) == pytest.approx(fit.bse[0], rel=1e-10)


def test_exact_bootstrap_law_and_percentiles():
    shares = np.array([[0.1, 0.2, 0.3, 0.4]])
    law = np.array([1.0])
    for _ in range(6):
        law = np.convolve(law, shares[0])
    cdf = np.cumsum(law)
    low, high = _percentile_interval(shares, 6, 0.05)
    assert low[0] == np.argmax(cdf >= 0.025) and high[0] == np.argmax(cdf >= 0.975)
    # against a brute-force bootstrap of 12 units: resample indices, sum their values
    values = np.array([0, 1, 1, 2, 3, 3, 3, 1, 0, 2, 3, 3])
    shares = np.bincount(values, minlength=4)[None, :] / values.size
    rng = np.random.default_rng(0)
    totals = values[rng.integers(0, values.size, size=(200_000, values.size))].sum(axis=1)
    low, high = _percentile_interval(shares, values.size, 0.05)
    assert (low[0], high[0]) == tuple(np.quantile(totals, [0.025, 0.975], method="inverted_cdf"))


def test_correlation_mapping_gives_that_correlation():
    spec = pair_spec(0.70, 0.03, None, 0.7)
    both, a_only, b_only, _ = spec.probabilities
    p_a, p_b = both + a_only, both + b_only
    correlation = (both - p_a * p_b) / math.sqrt(p_a * (1 - p_a) * p_b * (1 - p_b))
    assert (p_a, p_b, correlation) == pytest.approx((0.70, 0.73, 0.7), abs=1e-12)
    # independent models: D = p_a (1 - p_b) + p_b (1 - p_a)
    assert simulate.disagreement_from_correlation(0.6, 0.1, 0.0) == pytest.approx(
        0.6 * 0.3 + 0.7 * 0.4)


def test_fake_pair_cells_follow_seed_000_form():
    r = simulate.fake_pair(n=200_000, accuracy=0.7, gap=0.03, disagreement=0.1, seed=4)
    # seed 000 noise.py: P(A only) = (d - gap)/2, P(B only) = (d + gap)/2, both = p - P(A only)
    for cell, p in (("both", 0.665), ("a_only", 0.035), ("b_only", 0.065), ("neither", 0.235)):
        assert abs(r.cells[cell] / 200_000 - p) < 4 * math.sqrt(p * (1 - p) / 200_000)
    assert r.rate("accuracy_a").value == pytest.approx(np.mean(r.a))


def test_fake_pair_file_is_read_by_compare(tmp_path):
    r = simulate.fake_pair(n=300, seed=2)
    path = tmp_path / "pair.csv"
    r.write_csv(path)
    agreement = evalbars.compare(path, a="model_a", b="model_b", n_resamples=100).agreement
    assert (agreement.both, agreement.a_only, agreement.b_only, agreement.neither) == \
        tuple(r.cells.values())


# --- determinism, documents, CLI ------------------------------------------------------

SMALL = {
    "fake-pair": {"n": 100},
    "aa": {"experiments": 300},
    "power": {"experiments": 300},
    "peeking": {"n": 200, "experiments": 300},
    "wrong-unit": {"experiments": 300},
    "winners-curse": {"experiments": 300},
    "clustering": {"experiments": 300},
    "misaligned": {"experiments": 300},
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_same_seed_same_json(name):
    function = simulate.SIMULATIONS[name]
    first = json.dumps(function(**SMALL[name], seed=7).to_dict())
    assert json.dumps(function(**SMALL[name], seed=7).to_dict()) == first
    assert json.dumps(function(**SMALL[name], seed=8).to_dict()) != first
    doc = json.loads(first)
    assert (doc["kind"], doc["schema_version"], doc["name"], doc["seed"]) == (
        "simulate", 1, name, 7)
    assert all(set(rate) in ({"rate", "mc_error"}, {"mean", "mc_error"})
               for rate in doc["rates"].values())


def test_progress_does_not_change_the_numbers():
    assert simulate.aa(experiments=600, progress=True).to_dict() == \
        simulate.aa(experiments=600).to_dict()


def cli_argv(name: str) -> list[str]:
    argv = ["simulate", name]
    for key, value in SMALL[name].items():
        argv += ["--" + key.replace("_", "-"), str(value)]
    return argv


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", sorted(set(SMALL) - {"fake-pair"}))
def test_cli_json_equals_the_api(capsys, name):
    status, out, err = run(capsys, *cli_argv(name), "--seed", "3", "--format", "json")
    assert status == 0 and err == ""
    api = simulate.SIMULATIONS[name](**SMALL[name], seed=3).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_cli_fake_pair_writes_the_file(capsys, tmp_path):
    path = tmp_path / "pair.csv"
    status, out, err = run(capsys, "simulate", "fake-pair", "--n", "50", "--gap", "0.04",
                           "--correlation", "0.8", "-o", str(path), "--format", "json")
    assert status == 0 and err == f"evalbars: wrote 50 questions to {path}\n"
    assert json.loads(out) == simulate.fake_pair(n=50, gap=0.04, correlation=0.8).to_dict()
    lines = path.read_text().splitlines()
    assert lines[0] == "qid,model_a,model_b" and len(lines) == 51


def test_cli_misaligned_reads_data(capsys, lesson_path):
    status, out, _ = run(capsys, "simulate", "misaligned", str(lesson_path), "--a", "model_a",
                         "--b", "model_b", "--experiments", "300", "--format", "json")
    assert status == 0
    api = simulate.misaligned(lesson_path, a="model_a", b="model_b", experiments=300)
    assert json.loads(out) == json.loads(json.dumps(api.to_dict()))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_text_and_markdown(capsys, tmp_path, name):
    argv = cli_argv(name) + (["-o", str(tmp_path / "x.csv")] if name == "fake-pair" else [])
    status, out, _ = run(capsys, *argv)
    assert status == 0 and out.startswith(f"evalbars simulate {name}: ")
    assert "seed 0" in out and ("\u00b1" in out or "exact" in out)
    status, out, _ = run(capsys, *argv, "--format", "markdown")
    assert status == 0 and out.startswith(f"### evalbars simulate {name}: ")
    assert "|---|" in out


def test_aa_text_reads_like_the_lesson(capsys):
    status, out, _ = run(capsys, "simulate", "aa", "--experiments", "2000")
    assert "B ahead of A by at least 0.8 points" in out
    assert "paired 95% interval of the gap excludes zero" in out


def test_cli_defaults_are_the_api_defaults():
    assert set(CLI_TABLE) == set(simulate.SIMULATIONS)
    for name, (_, _, _, defaults) in CLI_TABLE.items():
        signature = inspect.signature(simulate.SIMULATIONS[name]).parameters
        assert {key: signature[key].default for key in defaults} == defaults, name
        # the loading options of a simulation that reads data come from add_column_options
        hidden = set(signature) - set(defaults) - {"progress", "data", "data2", *LOAD_OPTIONS}
        assert not hidden, (name, hidden)


def test_every_simulation_has_help_and_docs():
    docs = (ROOT / "docs" / "simulate.md").read_text()
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    names = commands["simulate"]._subparsers._group_actions[0].choices
    assert set(names) == set(simulate.SIMULATIONS)
    for name, sub in names.items():
        assert sub.description and f"evalbars simulate {name}" in sub.epilog
        assert f"evalbars simulate {name}" in docs, name


@pytest.mark.parametrize("argv,message", [
    (["aa", "--n", "0"], "n must be an integer of at least 2, got 0"),
    (["aa", "--experiments", "0"], "experiments must be an integer of at least 1"),
    (["aa", "--seed", "-1"], "seed must be a non-negative integer"),
    (["aa", "--accuracy", "70"], "accuracy must be a fraction in [0, 1] (0.7 = 70%), got 70.0"),
    (["power", "--gap", "3"], "gap must be a fraction in [-1, 1] (0.03 = 3 points)"),
    (["power", "--gap", "0.2"], "the gap cannot exceed the disagreement rate"),
    (["power", "--disagreement", "1.5"], "disagreement must be a fraction in [0, 1]"),
    (["aa", "--disagreement", "0.1", "--correlation", "0.5"],
     "give disagreement or correlation, not both"),
    (["aa", "--correlation", "1.5"], "correlation must be a fraction in [-1, 1]"),
    (["power", "--gap", "0.05", "--correlation", "0.99"], "correlation must be between"),
    (["aa", "--accuracy", "1", "--correlation", "0.5"], "correlation is undefined"),
    (["aa", "--accuracy", "0.02"], "accuracy 0.02 is too low for disagreement 0.1"),
    (["aa", "--accuracy", "0.98"], "accuracy 0.98 is too high for disagreement 0.1"),
    (["aa", "--alpha", "0"], "alpha must be a fraction in (0, 1)"),
    (["aa", "--threshold", "-0.01"], "threshold must be a fraction in [0, 1]"),
    (["peeking", "--n", "100", "--every", "200"], "every must be at most n=100"),
    (["peeking", "--every", "0"], "every must be an integer of at least 1"),
    (["winners-curse", "--candidates", "0"], "candidates must be an integer of at least 1"),
    (["clustering", "--clusters", "1"], "clusters must be an integer of at least 2"),
    (["clustering", "--per-cluster", "0"], "per_cluster must be an integer of at least 1"),
    (["clustering", "--icc", "1"], "icc must be a fraction in [0, 1)"),
    (["clustering", "--accuracy", "0"], "accuracy must be a fraction in (0, 1)"),
    (["wrong-unit", "--units", "1"], "units must be an integer of at least 2"),
    (["misaligned", "examples/lesson_pair.csv", "--n", "100"],
     "n describe a simulated pair; give them without data"),
    (["misaligned", "--a", "model_a"], "data2, a and b describe the data"),
    (["misaligned", "examples/cookbook_topics.csv", "--a", "system_a", "--b", "topic_id"],
     "topic_id"),
    (["fake-pair", "-o", "no/such/dir/x.csv"], "cannot write the results file"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "simulate", *argv)
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error:") and message in err
    assert err.count("\n") == 1


def test_api_errors_name_the_parameter(tmp_path):
    with pytest.raises(EvalbarsError, match="mode must be one of 'answers', 'clusters'"):
        simulate.wrong_unit(mode="samples")
    with pytest.raises(EvalbarsError, match="experiments must be an integer"):
        simulate.aa(experiments=True)
    path = tmp_path / "continuous.csv"
    path.write_text("id,a,b\nq1,0.5,0.2\nq2,0.1,0.9\nq3,0.3,0.3\n")
    with pytest.raises(EvalbarsError, match="misaligned needs 0/1 scores"):
        simulate.misaligned(path)
    path.write_text("id,a,b\nq1,1,0\nq2,1,1\nq3,1,0\n")
    with pytest.raises(EvalbarsError, match="model a is right on 3 of 3"):
        simulate.misaligned(path)


# --- full size (20,000 experiments): pytest -m slow ------------------------------------

FULL = 20_000


@pytest.mark.slow
def test_full_size_reproductions(lesson_path):
    aa = simulate.aa(experiments=FULL)
    exact = exact_paired_rates(500, 0.70, 0.0, 0.10)
    assert near(aa.rate("gap_at_least_threshold"), exact["gap_at_least_threshold"], FULL)
    assert near(aa.rate("gap_at_least_threshold_either"),
                exact["gap_at_least_threshold_either"], FULL)
    assert near(aa.rate("paired_ci_excludes_zero"), exact["paired-wald"], FULL)
    play = simulate.power(gap=0.03, n=1000, correlation=0.7, experiments=FULL)
    assert near(play.rate("paired-wald"), 0.75, FULL, slack=0.03)  # "three runs out of four"
    assert near(play.rate("bars_do_not_overlap"), 0.01, FULL, slack=0.005)  # "once in a hundred"
    power = simulate.power(gap=0.02, n=500, experiments=FULL)
    assert near(power.rate("mcnemar-exact"), 0.25, FULL, slack=0.005)  # "25%"
    peek = simulate.peeking(experiments=FULL)
    assert near(peek.rate("false_positive_peeking"), 0.16, FULL, slack=0.005)  # "16%"
    assert near(peek.rate("false_positive_once"), 0.04, FULL, slack=0.005)  # "4%"
    curse = simulate.winners_curse(experiments=FULL)
    assert near_mean(curse.rate("selected_gain"), 0.025, slack=0.0005)  # "2.5 points"
    assert near(curse.rate("selected_gain_at_least_1pt"), 0.97, FULL, slack=0.005)  # "97%"
    assert near_mean(curse.rate("confirmed_gain"), 0.0)  # "around zero"
    cluster = simulate.clustering(experiments=FULL)
    assert near(cluster.rate("coverage_naive"), 0.76, FULL, slack=0.005)  # "76%"
    assert near(cluster.rate("coverage_clustered"), 0.94, FULL, slack=0.005)  # "94%"
    wrong = simulate.wrong_unit(mode="clusters", experiments=FULL)
    assert near(wrong.rate("coverage_right_unit"), 0.94, FULL, slack=0.01)
    shuffle = simulate.misaligned(lesson_path, experiments=FULL)
    assert shuffle.rate("significant_shuffled").value < 0.001
