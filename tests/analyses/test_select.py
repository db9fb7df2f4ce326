"""evalbars select: the winner's curse (seed 000, "Many tries"), measured and undone.

Simulated datasets follow seed 000's Break It 4 and evalbars.simulate.winners_curse:
each candidate shares the baseline's outcomes and, with cell probabilities from
``evalbars.simulate._pairs.pair_spec``, loses a question the baseline got right with
probability P(A only) / accuracy and wins one it got wrong with probability
P(B only) / (1 - accuracy). Fast simulations use 30 to 40 datasets; the slow ones (run
with ``pytest -m slow``) use 400.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import evalbars
from evalbars import EvalbarsError, simulate
from evalbars.analyses.leaderboard import leaderboard
from evalbars.analyses.select import select
from evalbars.stats.winners_curse import adjusted_gain, null_best, simultaneous_intervals
from evalbars.cli import main
from evalbars.io.ingest import load
from evalbars.report.text.select import render_markdown, render_text
from evalbars.simulate._pairs import pair_spec
from evalbars.stats import multiplicity


def prompts(rng, n, gaps, *, disagreement=0.10, accuracy=0.70, split=None):
    """A baseline and one candidate per true gap on the same n questions (0/1)."""
    base = rng.random(n) < accuracy
    frame = pd.DataFrame({"qid": [f"q{i:05d}" for i in range(n)]})
    if split is not None:
        frame["split"] = np.where(np.arange(n) < split, "dev", "test")
    frame["base"] = base.astype(int)
    for j, gap in enumerate(gaps):
        _, a_only, b_only, _ = pair_spec(accuracy, gap, disagreement, None).probabilities
        flip = rng.random(n) < np.where(base, a_only / accuracy, b_only / (1 - accuracy))
        frame[f"c{j:02d}"] = (base ^ flip).astype(int)
    return frame


def experiment(gaps, runs, *, seed, n_resamples=300):
    """Choose on 500 questions, confirm on 500 fresh ones, ``runs`` times."""
    rng = np.random.default_rng(seed)
    rows = []
    for run in range(runs):
        r = select(prompts(rng, 1000, gaps, split=500), baseline="base", split="split",
                   select_on="dev", confirm_on="test", n_resamples=n_resamples, seed=run)
        truth = gaps[int(r.winner[1:])]
        level = r.confirm.difference.interval("paired-bootstrap-percentile")
        rows.append({"best": r.candidates[0].gain, "null_mean": r.null_best.mean,
                     "p": r.null_best.p_value, "adjusted": r.adjusted_gain.estimate,
                     "confirmed": r.confirm.difference.estimate, "truth": truth,
                     "covered": level.low <= truth <= level.high})
    return pd.DataFrame(rows)


def se(values) -> float:
    return float(np.std(values, ddof=1) / math.sqrt(len(values)))


# --- seed 000: twenty prompts with no true effect ---------------------------------------


@pytest.fixture(scope="module")
def reference():
    """The simulation lab's winner's curse at seed 000's settings (20,000 experiments)."""
    return simulate.winners_curse(candidates=20, n=500, disagreement=0.10, experiments=20_000)


@pytest.fixture(scope="module")
def null_runs():
    return experiment(np.zeros(20), 40, seed=0)


def test_seed_000_best_of_twenty_null_prompts(reference, null_runs):
    # seed 000: "the best one beat the baseline by 2.5 points on average, and by at least
    # 1 point in 97% of runs"; the simulation lab: 2.46 points (mc 0.006) and 97.4%.
    assert abs(reference.rate("selected_gain").value - 0.025) < 0.001
    assert abs(reference.rate("selected_gain_at_least_1pt").value - 0.97) < 0.01
    runs = len(null_runs)
    expected = reference.rate("selected_gain").value
    assert abs(null_runs["best"].mean() - expected) < 3 * se(null_runs["best"]) + 0.001
    share = (null_runs["best"] >= 0.01 - 1e-12).mean()
    p = reference.rate("selected_gain_at_least_1pt").value
    assert abs(share - p) < 3 * math.sqrt(p * (1 - p) / runs) + 0.01


def test_null_best_is_what_the_simulation_lab_finds(reference, null_runs):
    # Each dataset's own bootstrap says what the best of 20 null prompts shows: 2.5 points.
    assert abs(null_runs["null_mean"].mean() - reference.rate("selected_gain").value) < 0.001
    assert null_runs["null_mean"].std() < 0.001


def test_confirmed_gain_on_fresh_questions_is_about_zero(reference, null_runs):
    assert abs(null_runs["confirmed"].mean()) < 3 * se(null_runs["confirmed"])
    assert abs(reference.rate("confirmed_gain").value) < 4 * reference.rate(
        "confirmed_gain").mc_error


def test_adjusted_gain_removes_most_of_the_curse(null_runs):
    raw = null_runs["best"].mean()
    adjusted = null_runs["adjusted"].mean()
    assert raw > 0.02
    assert abs(adjusted) < 3 * se(null_runs["adjusted"]) + 0.004
    assert abs(adjusted) < 0.25 * raw


def test_twenty_tests_at_five_percent_raise_a_false_alarm_64_percent_of_the_time(null_runs):
    assert round(multiplicity.familywise_error(20, alpha=0.05), 2) == 0.64
    # The selection-aware p is not fooled: at a true 5%, 6 or more false alarms in 40 runs
    # happen with probability 0.014 (scipy.stats.binom.sf(5, 40, 0.05)); these runs draw 5
    # (over 3 x 80 runs: 7.5%, 3.8%, 5.0%).
    assert (null_runs["p"] < 0.05).sum() <= 5


# --- a real effect ------------------------------------------------------------------------


REAL = np.r_[0.06, np.zeros(19)]
"""One candidate truly 6 points better (it wins 8% of the questions and loses 2%)."""


@pytest.fixture(scope="module")
def real_runs():
    return experiment(REAL, 30, seed=1)


def test_a_real_effect_is_found_and_confirmed(real_runs):
    assert (real_runs["truth"] == 0.06).mean() >= 0.9  # the real candidate wins
    assert (real_runs["p"] < 0.05).mean() >= 0.75
    assert real_runs["covered"].mean() >= 0.8  # 95% intervals: most runs


def test_adjusted_gain_is_close_to_unbiased_with_a_real_effect(real_runs):
    error = real_runs["adjusted"] - real_runs["truth"]
    assert abs(error.mean()) < 3 * se(error) + 0.004


@pytest.mark.slow
def test_large_null_simulation(reference):
    runs = experiment(np.zeros(20), 400, seed=2)
    assert abs(runs["best"].mean() - reference.rate("selected_gain").value) < 3 * se(
        runs["best"]) + 0.0005
    assert abs(runs["confirmed"].mean()) < 3 * se(runs["confirmed"])
    assert abs(runs["adjusted"].mean()) < 3 * se(runs["adjusted"]) + 0.003
    # the selection-aware p-value is valid: at most 5% below 0.05 under the null
    assert (runs["p"] < 0.05).mean() <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 400)


@pytest.mark.slow
def test_large_real_effect_simulation():
    runs = experiment(REAL, 400, seed=3)
    error = runs["adjusted"] - runs["truth"]
    assert abs(error.mean()) < 3 * se(error) + 0.003
    assert abs(runs["covered"].mean() - 0.95) < 3 * math.sqrt(0.95 * 0.05 / 400)
    confirmed = runs["confirmed"] - runs["truth"]
    assert abs(confirmed.mean()) < 3 * se(confirmed)


# --- the statistics on resampled gains ------------------------------------------------------


def test_null_best_of_independent_normals_is_the_expected_maximum():
    # E[max of 20 standard normals] = 1.8675 (tables of normal order statistics)
    rng = np.random.default_rng(4)
    r = null_best(np.zeros(20), rng.normal(0, 0.01, size=(20_000, 20)))
    assert r.mean == pytest.approx(0.018675, abs=4 * 0.01 * 0.52 / math.sqrt(20_000))
    assert r.p_value == 1.0 and r.n_resamples == 20_000


def test_null_best_p_value_is_never_zero():
    r = null_best(np.array([1.0, 0.0]), np.zeros((99, 2)))
    assert r.p_value == pytest.approx(1 / 100)
    assert r.mc_error == pytest.approx(math.sqrt(0.01 * 0.99 / 99))


def test_adjusted_gain_of_one_far_ahead_candidate_is_its_gain():
    rng = np.random.default_rng(5)
    gains = np.r_[0.2, np.zeros(9)]
    r = adjusted_gain(gains, gains + rng.normal(0, 0.01, size=(4000, 10)))
    assert r.estimate == pytest.approx(0.2, abs=4 * r.mc_error + 1e-3)


def test_simultaneous_intervals_use_the_max_t_quantile():
    # independent normals: max |Z| over 10 has 95% quantile z(1 - 0.05 / 20 ...) = Sidak's
    # 2.8001; resampled 20,000 times it is within a few Monte Carlo errors of that.
    rng = np.random.default_rng(6)
    found = simultaneous_intervals(np.zeros(10), rng.normal(0, 1.0, size=(20_000, 10)),
                                   confidence_level=0.95)
    assert [i.method for i in found] == ["simultaneous-bootstrap"] * 10
    assert np.mean([i.high / np.sqrt(1.0) for i in found]) == pytest.approx(2.8001, abs=0.05)


def test_gains_and_resamples_must_agree():
    with pytest.raises(EvalbarsError, match=r"replicates must be a \(resamples, 3\) array"):
        null_best(np.zeros(3), np.zeros((10, 2)))


# --- the document ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    return prompts(np.random.default_rng(7), 600, [0.0, 0.0, 0.04, 0.0], split=300)


def test_candidates_are_the_leaderboards_pairs_with_the_baseline(small):
    r = select(small, baseline="base", n_resamples=2000, seed=3)
    board = leaderboard(small, baseline="base", n_resamples=2000, seed=3)
    for candidate in r.candidates:
        pair = board.pair("base", candidate.name)
        assert candidate.pair.intervals[:2] == pair.intervals
        assert candidate.pair.test == pair.test
        assert candidate.pair.p_adjusted == pair.p_adjusted  # holm over the same family
    gains = [c.gain for c in r.candidates]
    assert gains == sorted(gains, reverse=True) and r.winner == r.candidates[0].name
    best = r.candidate(r.winner)
    assert best.interval("paired-wald") == board.pair("base", r.winner).interval("paired-wald")
    assert best.interval("simultaneous-bootstrap").low < best.interval(
        "paired-bootstrap-percentile").low


def test_a_winner_below_the_baseline_is_worded_as_a_loss():
    frame = pd.DataFrame({"qid": range(8), "base": [1, 1, 1, 1, 0, 1, 0, 1],
                          "x": [0, 1, 1, 1, 0, 1, 0, 1], "y": [0, 0, 1, 1, 0, 1, 0, 1]})
    r = select(frame, baseline="base", n_resamples=200)
    assert "The best, x, scores 12.5 points below it" in r.statement


def test_p_values_are_adjusted_over_the_candidates(small):
    r = select(small, baseline="base", correction="bonferroni", n_resamples=500)
    raw = [c.pair.test.p_value for c in r.candidates]
    assert [c.pair.p_adjusted for c in r.candidates] == multiplicity.adjust(
        raw, method="bonferroni").tolist()


def test_confirmation_is_compare_on_the_held_out_questions(small):
    r = select(small, baseline="base", split="split", select_on="dev", confirm_on="test",
               n_resamples=2000)
    held = small[small["split"] == "test"].drop(columns="split")
    reference = evalbars.compare(held, a="base", b=r.winner, n_resamples=2000)
    assert r.confirm.difference == reference.difference
    assert r.confirm.test == reference.tests[0]
    for ours, theirs in zip(r.confirm.models, reference.models):  # same up to summation order
        assert ours.name == theirs.name and ours.mean == theirs.mean
        for a, b in zip(ours.intervals, theirs.intervals):
            assert a.method == b.method
            assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-12)
    doc = r.to_dict()
    assert doc["split"] == {"method": "column", "column": "split", "select_on": "dev",
                            "confirm_on": "test", "n_select": 300, "n_confirm": 300,
                            "n_unused": 0}
    assert doc["confirm"]["n_items"] == 300 and doc["n_items"] == 600
    assert "This held-out comparison is the result" in doc["statement"]


def test_selection_numbers_come_from_the_selection_questions_only(small):
    r = select(small, baseline="base", split="split", select_on="dev", confirm_on="test",
               n_resamples=500)
    dev = select(small[small["split"] == "dev"].drop(columns="split"), baseline="base",
                 n_resamples=500)
    assert r.candidates == dev.candidates
    assert r.null_best == dev.null_best and r.adjusted_gain == dev.adjusted_gain


def test_holdout_is_seeded_and_depends_only_on_the_rows(small):
    data = small.drop(columns="split")
    first = select(data, baseline="base", holdout=0.3, n_resamples=500, seed=4).to_dict()
    again = select(data, baseline="base", holdout=0.3, n_resamples=500, seed=4).to_dict()
    assert first == again
    assert first["split"] == {"method": "holdout", "holdout": 0.3, "unit": "items",
                              "n_select": 420, "n_confirm": 180}
    shuffled = data.sample(frac=1.0, random_state=1).reset_index(drop=True)
    moved = select(shuffled[["qid", "c03", "base", "c01", "c00", "c02"]], baseline="base",
                   holdout=0.3, n_resamples=500, seed=4).to_dict()
    for key in first:
        if key != "provenance":
            assert moved[key] == first[key], key
    # New ids put the questions in another canonical order (the resample plan's): these
    # 0/1 draws are over values, so only the analytic intervals move, by rounding.
    shuffled["qid"] = [f"x{i}" for i in range(len(shuffled))]
    renamed = select(shuffled[["qid", "c03", "base", "c01", "c00", "c02"]], baseline="base",
                     holdout=0.3, n_resamples=500, seed=4).to_dict()
    def rounded(value):
        return json.loads(json.dumps(value), parse_float=lambda v: round(float(v), 12))

    for key in first:
        if key != "provenance":
            assert rounded(renamed[key]) == rounded(first[key]), key
    other = select(data, baseline="base", holdout=0.3, n_resamples=500, seed=5).to_dict()
    assert other["confirm"] != first["confirm"]


def test_holdout_splits_whole_clusters():
    frame = prompts(np.random.default_rng(8), 400, [0.0, 0.02])
    frame["doc"] = [f"d{i // 10}" for i in range(400)]
    r = select(frame, baseline="base", cluster="doc", holdout=0.25, n_resamples=300)
    assert r.split["unit"] == "clusters" and r.split["n_confirm"] == 100
    assert r.candidates[0].pair.intervals[0].method == "paired-cluster-bootstrap"
    assert r.confirm.test.name == "cluster-sign-flip"


def test_a_numeric_split_column_is_not_a_model(small):
    data = small.assign(split=np.where(small["split"] == "dev", 0, 1))
    r = select(data, baseline="base", split="split", select_on=0, confirm_on=1,
               n_resamples=300)
    assert sorted(c.name for c in r.candidates) == ["c00", "c01", "c02", "c03"]
    assert r.split["select_on"] == "0" and r.confirm.n_items == 300


def test_other_split_values_are_counted_unused(small):
    data = small.assign(split=["dev", "test", "spare"] * 200)
    r = select(data, baseline="base", split="split", select_on="dev", confirm_on="test",
               n_resamples=300)
    assert (r.split["n_select"], r.split["n_confirm"], r.split["n_unused"]) == (200, 200, 200)


def test_same_seed_same_document_and_the_json_round_trips(small):
    first = select(small, baseline="base", holdout=0.5, n_resamples=500, seed=9).to_dict()
    assert first == select(small, baseline="base", holdout=0.5, n_resamples=500,
                           seed=9).to_dict()
    assert json.loads(json.dumps(first, allow_nan=False)) == first
    assert first["kind"] == "select" and first["winner"] == first["candidates"][0]["name"]
    assert set(first["null_best"]) >= {"mean", "p95", "p_value"}
    assert set(first["confirm"]) >= {"winner", "n_items", "estimate", "intervals", "test"}


def test_progress_does_not_change_the_numbers(small):
    quiet = select(small, baseline="base", holdout=0.5, n_resamples=300).to_dict()
    assert select(small, baseline="base", holdout=0.5, n_resamples=300,
                  progress=True).to_dict() == quiet


def test_a_tie_for_the_best_gain_is_reported():
    frame = pd.DataFrame({"qid": range(6), "base": [0, 0, 1, 1, 0, 1],
                          "x": [1, 0, 1, 1, 0, 1], "a": [0, 1, 1, 1, 0, 1]})
    r = select(frame, baseline="base", n_resamples=200)
    assert r.winner == "a" and "2 candidates tie for the best gain" in r.warnings[-1]


def test_continuous_scores():
    rng = np.random.default_rng(10)
    base = rng.random(300)
    frame = pd.DataFrame({"qid": range(300), "base": base,
                          **{f"c{j}": np.clip(base + rng.normal(0.01 * j, 0.1, 300), 0, 1)
                             for j in range(4)}})
    r = select(frame, baseline="base", n_resamples=500)
    assert r.score_type == "continuous" and r.winner == "c3"
    assert r.candidates[0].pair.test.name == "sign-flip"


# --- the command line -----------------------------------------------------------------


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_json_equals_the_api(capsys):
    status, out, _ = run(capsys, "select", "examples/prompts.csv", "--baseline", "baseline",
                         "--split", "split", "--select-on", "dev", "--confirm-on", "test",
                         "--n-resamples", "500", "--format", "json")
    assert status == 0
    api = select("examples/prompts.csv", baseline="baseline", split="split", select_on="dev",
                 confirm_on="test", n_resamples=500).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_example_file_is_seed_000s_twenty_null_prompts():
    data = load("examples/prompts.csv")
    assert data.models[0] == "baseline" and len(data.models) == 21 and len(data.items) == 1000
    r = select(data, baseline="baseline", n_resamples=500)
    assert np.mean([c.disagreement for c in r.candidates]) == pytest.approx(0.10, abs=0.01)


def test_text_and_markdown(capsys):
    status, out, _ = run(capsys, "select", "examples/prompts.csv", "--baseline", "baseline",
                         "--holdout", "0.5", "--n-resamples", "500")
    assert status == 0
    for piece in ("evalbars select: 1,000 questions", "split: 0.5 of the items held out",
                  "simultaneous-bootstrap", "The winner's curse (20 candidates)",
                  "best of 20 with no true effect", "Held-out confirmation, the result",
                  "This held-out comparison is the result", "seed 0"):
        assert piece in out
    doc = select("examples/prompts.csv", baseline="baseline", n_resamples=300).to_dict()
    assert render_text(doc).startswith("evalbars select:")
    markdown = render_markdown(doc)
    assert markdown.startswith("### evalbars select:") and "| prompt" in markdown
    assert "confirm it once on questions not used for choosing" in doc["statement"]


@pytest.mark.parametrize("argv,message", [
    (["--candidates", "prompt01"], "select needs the baseline's name"),
    (["--baseline", "baseline", "--candidates", "prompt01", "baseline"],
     "candidates must not include the baseline"),
    (["--baseline", "baseline", "--candidates", "prompt01", "prompt01"],
     "'prompt01' is listed twice"),
    (["--baseline", "baseline", "--holdout", "0.5", "--split", "split"], "not both"),
    (["--baseline", "baseline", "--select-on", "dev"], "need split= (--split COL)"),
    (["--baseline", "baseline", "--split", "split", "--select-on", "dev"],
     "needs select_on= and confirm_on="),
    (["--baseline", "baseline", "--split", "split", "--select-on", "dev", "--confirm-on",
      "dev"], "select_on and confirm_on must differ"),
    (["--baseline", "baseline", "--holdout", "1.5"], "holdout must be the share"),
    (["--baseline", "baseline", "--holdout", "0.001"], "each side needs at least 2"),
    (["--baseline", "nobody"], "unknown model 'nobody' (--baseline); the data has 'baseline', "),
    (["--baseline", "baseline", "--split", "split", "--select-on", "dev", "--confirm-on",
      "prod"], "confirm_on='prod' matches 0 question(s)"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "select", "examples/prompts.csv", *argv)
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error:") and message in err
    assert err.count("\n") == 1


def test_a_lone_baseline_has_no_candidates(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("qid,base\nq1,1\nq2,0\n")
    with pytest.raises(EvalbarsError, match="at least one candidate besides the baseline"):
        select(path, baseline="base")


def test_split_works_on_loaded_results():
    # Read once: results loaded with their split give the document the file gives.
    options = {"baseline": "baseline", "split": "split", "select_on": "dev",
               "confirm_on": "test", "n_resamples": 500}
    assert select(load("examples/prompts.csv", split="split"), **options).to_dict() == \
        select("examples/prompts.csv", **options).to_dict()
    with pytest.raises(EvalbarsError, match="split='split' names a column of the input, but "
                                            "these results were loaded without it"):
        select(load("examples/prompts.csv"), **options)


def test_unknown_correction():
    with pytest.raises(EvalbarsError, match="correction must be one of"):
        select("examples/prompts.csv", baseline="baseline", correction="sidak")


def test_reads_a_harness_log_through_the_log_options(capsys):
    logs = "tests/data/logs/lm-eval/"
    options = dict(baseline="org/model-a", input_format="lm-eval", metric="acc",
                   intersect=True, n_resamples=500)
    r = select(logs + "model_a", logs + "model_b", **options)
    source = r.provenance["source"]
    assert (source["format"], source["columns"]["score"]) == ("lm-eval", "acc")
    assert (r.winner, r.n_items) == ("org/model-b", 5)
    status = main(["select", logs + "model_a", logs + "model_b", "--baseline", "org/model-a",
                   "--input-format", "lm-eval", "--metric", "acc", "--intersect",
                   "--n-resamples", "500", "--format", "json"])
    assert status == 0 and json.loads(capsys.readouterr().out) == json.loads(
        json.dumps(r.to_dict()))
