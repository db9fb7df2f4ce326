"""Bradley-Terry ratings from battles: logistic regression, coverage, invariances, errors."""
import json
import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from evalbars import EvalbarsError
from evalbars.analyses.battles import bradley_terry
from evalbars.cli import main
from evalbars.report.text.leaderboard import render_markdown, render_text
from evalbars.stats.bradley_terry import ELO_PER_LOG_ODDS, fit


def simulate(strengths, n_battles, *, seed=0, tie_share=0.0):
    """Battles between random pairs; i beats j with probability expit(theta_i - theta_j)."""
    rng = np.random.default_rng(seed)
    m = len(strengths)
    first = rng.integers(0, m, n_battles)
    second = (first + rng.integers(1, m, n_battles)) % m
    p = 1.0 / (1.0 + np.exp(-(np.asarray(strengths)[first] - np.asarray(strengths)[second])))
    outcome = np.where(rng.random(n_battles) < p, "model_a", "model_b")
    outcome = np.where(rng.random(n_battles) < tie_share, "tie", outcome)
    names = np.array([f"m{k}" for k in range(m)])
    return pd.DataFrame({"model_a": names[first], "model_b": names[second], "winner": outcome})


def logit_ratings(battles, names):
    """Reference: statsmodels Logit of 'model_a won' on +1/-1 model indicators.

    A tie is entered as one win and one loss (every decided battle twice), which is the
    same likelihood as half a win for each side. Model 0 is the reference; the result is
    shifted to mean 0 and put on the Elo scale.
    """
    rows, outcomes = [], []
    for a, b, w in battles.itertuples(index=False):
        x = np.zeros(len(names))
        x[names.index(a)], x[names.index(b)] = 1.0, -1.0
        pair = [1.0, 0.0] if w == "tie" else [float(w in ("model_a", a))] * 2
        rows += [x, x]
        outcomes += pair
    params = sm.Logit(np.array(outcomes), np.array(rows)[:, 1:]).fit(disp=0, tol=1e-12).params
    theta = np.r_[0.0, params]
    return ELO_PER_LOG_ODDS * (theta - theta.mean())


@pytest.mark.parametrize("tie_share", [0.0, 0.15])
def test_ratings_equal_logistic_regression(tie_share):
    battles = simulate([-0.6, -0.2, 0.0, 0.3, 0.9], 3000, seed=1, tie_share=tie_share)
    result = bradley_terry(battles, n_resamples=200)
    names = [f"m{k}" for k in range(5)]
    expected = logit_ratings(battles, names)
    ours = np.array([result.model(name).rating for name in names])
    np.testing.assert_allclose(ours, expected, atol=1e-6)
    assert sum(ours) == pytest.approx(0.0, abs=1e-9)


def test_two_models_closed_form_and_the_elo_scale():
    # 10 wins to 1 for x: the MLE log-odds is log(10), exactly 400 Elo points.
    battles = pd.DataFrame({"model_a": ["x"] * 11, "model_b": ["y"] * 11,
                            "winner": ["model_a"] * 10 + ["model_b"]})
    result = bradley_terry(battles, n_resamples=200)
    assert result.model("x").rating - result.model("y").rating == pytest.approx(400.0)
    assert result.model("x").rating == pytest.approx(200.0)  # mean 0


def test_fit_recovers_a_log_ratio():
    tables = np.array([[[0.0, 7.5], [2.5, 0.0]]])  # 7.5 of 10 battles, a tie counted half
    theta = fit(tables)
    assert theta[0, 0] - theta[0, 1] == pytest.approx(math.log(3.0), abs=1e-12)


def test_ties_count_half_a_win_for_each_side():
    # x and y tie 10 times; the same as 5 wins each in 10 battles.
    rest = (["x", "y"] * 10, ["z", "z"] * 10, ["model_a", "model_b"] * 10)
    tied = pd.DataFrame({"model_a": ["x"] * 10 + rest[0], "model_b": ["y"] * 10 + rest[1],
                         "winner": ["tie"] * 10 + rest[2]})
    split = pd.DataFrame({"model_a": ["x"] * 10 + rest[0], "model_b": ["y"] * 10 + rest[1],
                          "winner": ["model_a", "model_b"] * 5 + rest[2]})
    with_ties, with_halves = bradley_terry(tied, n_resamples=100), bradley_terry(split,
                                                                                 n_resamples=100)
    for name in "xyz":
        assert with_ties.model(name).rating == pytest.approx(with_halves.model(name).rating,
                                                             abs=1e-9)
    assert (with_ties.model("x").ties, with_ties.model("x").wins) == (10, 10)
    assert (with_halves.model("x").ties, with_halves.model("x").wins) == (0, 15)


def test_winner_by_name_equals_winner_by_keyword():
    battles = simulate([0.0, 0.5, 1.0], 600, seed=2, tie_share=0.1)
    named = battles.copy()
    named["winner"] = np.where(battles["winner"] == "model_a", battles["model_a"],
                               np.where(battles["winner"] == "model_b", battles["model_b"], "tie"))
    assert bradley_terry(named, n_resamples=300).to_dict() == \
        bradley_terry(battles, n_resamples=300).to_dict()


def test_custom_column_names():
    battles = simulate([0.0, 0.5], 100, seed=3).rename(
        columns={"model_a": "left", "model_b": "right", "winner": "vote"})
    result = bradley_terry(battles, model_a="left", model_b="right", winner="vote",
                           n_resamples=100)
    assert result.to_dict()["provenance"]["columns"] == {"model_a": "left", "model_b": "right",
                                                         "winner": "vote"}


def test_rank_intervals_cover_the_true_ranks_in_a_small_simulation():
    # Five models 0.1 log-odds (17 Elo points) apart, 1,000 battles each time, so that
    # neighbours are hard to tell apart: each model's 95% rank interval holds its true rank
    # in at least 85% of 40 simulations (measured over 200 simulations: 99% to 100% per
    # model; 100% when the models are 0.25 apart).
    strengths = [0.0, 0.1, 0.2, 0.3, 0.4]
    true_rank = {f"m{k}": 5 - k for k in range(5)}
    hits = dict.fromkeys(true_rank, 0)
    runs = 40
    for run in range(runs):
        result = bradley_terry(simulate(strengths, 1000, seed=10 + run), n_resamples=300,
                               seed=run)
        for model in result.models:
            hits[model.name] += model.rank_low <= true_rank[model.name] <= model.rank_high
    assert min(hits.values()) / runs >= 0.85, hits


@pytest.mark.slow
def test_rating_intervals_cover_the_true_strengths():
    # 95% percentile intervals of each rating (relative to the mean of the models)
    # should cover the true centred strength about 95% of the time, over 200 simulations
    # of 2,000 battles among 4 models (measured: 95%, 93%, 98%, 95%; Monte Carlo error
    # about 1.5 points each).
    strengths = np.array([-0.5, 0.0, 0.2, 0.6])
    truth = ELO_PER_LOG_ODDS * (strengths - strengths.mean())
    hits = np.zeros(4)
    runs = 200
    for run in range(runs):
        result = bradley_terry(simulate(strengths, 2000, seed=500 + run), n_resamples=1000,
                               seed=run)
        for k in range(4):
            interval = result.model(f"m{k}").intervals[0]
            hits[k] += interval.low <= truth[k] <= interval.high
    assert np.all(hits / runs >= 0.90), hits / runs


def test_chance_of_being_best_and_ranks():
    result = bradley_terry(simulate([0.0, 0.1, 1.5], 900, seed=4), n_resamples=1000)
    assert [m.name for m in result.models] == ["m2", "m1", "m0"]
    assert sum(m.p_best for m in result.models) == pytest.approx(1.0)
    assert result.models[0].p_best > 0.99 and result.models[0].rank_high == 1
    assert (result.models[1].rank_low, result.models[2].rank_high) == (2, 3)


def test_resamples_without_finite_ratings_are_counted_and_warned():
    # A cycle of three battles: a resample has finite ratings only when it draws all three.
    battles = pd.DataFrame({"model_a": ["a", "b", "c"], "model_b": ["b", "c", "a"],
                            "winner": ["model_a"] * 3})
    result = bradley_terry(battles, n_resamples=900)
    # P(all three drawn) = 3!/3^3 = 2/9, so about 700 of 900 resamples have no finite MLE.
    assert result.resamples_without_mle == pytest.approx(700, abs=60)
    assert "no finite ratings exist" in result.warnings[0]
    assert result.to_dict()["resamples_without_mle"] == result.resamples_without_mle


# --- invariances ----------------------------------------------------------------------------


def without_provenance(doc):
    return {key: value for key, value in doc.items() if key != "provenance"}


@pytest.fixture(scope="module")
def battles():
    return simulate([0.0, 0.3, 0.4, 0.9], 2000, seed=5, tie_share=0.1)


def test_same_seed_same_document(battles):
    first = bradley_terry(battles, n_resamples=700, seed=9).to_dict()
    assert json.dumps(first) == json.dumps(bradley_terry(battles, n_resamples=700, seed=9).to_dict())
    assert bradley_terry(battles, n_resamples=700, seed=10).to_dict()["models"] != first["models"]


def test_shuffled_rows_and_swapped_sides_change_nothing_but_provenance(battles):
    original = bradley_terry(battles, n_resamples=700).to_dict()
    shuffled = battles.sample(frac=1.0, random_state=3)
    assert without_provenance(bradley_terry(shuffled, n_resamples=700).to_dict()) == \
        without_provenance(original)
    swapped = pd.DataFrame({"model_a": battles["model_b"], "model_b": battles["model_a"],
                            "winner": battles["winner"].map(
                                {"model_a": "model_b", "model_b": "model_a", "tie": "tie"})})
    assert json.dumps(without_provenance(bradley_terry(swapped, n_resamples=700).to_dict())) == \
        json.dumps(without_provenance(original))


def test_document_and_renderers(battles):
    result = bradley_terry(battles, n_resamples=300)
    doc = result.to_dict()
    assert doc["kind"] == "bradley-terry" and doc["schema_version"] == 1
    assert doc["n_battles"] == 2000 and doc["n_models"] == 4
    assert set(doc["models"][0]) == {"name", "rating", "intervals", "battles", "wins", "ties",
                                     "rank", "rank_low", "rank_high", "p_best"}
    assert set(doc["provenance"]) >= {"version", "seed", "inputs"}
    json.dumps(doc, allow_nan=False)
    text = render_text(doc)
    assert str(result) == text
    assert text.startswith("evalbars bradley-terry: 2,000 battles, 4 models")
    assert "Bradley-Terry ratings (Elo scale" in text and "rank interval" in text
    assert render_markdown(doc).startswith("### evalbars bradley-terry")
    assert "a tie counts as half a win" in doc["statement"]


# --- one test per error message -------------------------------------------------------------


def test_unknown_column(battles):
    with pytest.raises(EvalbarsError, match="winner='vote': no such column"):
        bradley_terry(battles, winner="vote")


def test_a_model_cannot_battle_itself():
    frame = pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "y"],
                          "winner": ["tie", "tie"]})
    with pytest.raises(EvalbarsError, match=r"cannot battle itself: 'model_a' and 'model_b' "
                                            r"are both 'y' at row 1 \(0-based\)"):
        bradley_terry(frame)


def test_bad_winner(tmp_path):
    path = tmp_path / "battles.csv"
    path.write_text("model_a,model_b,winner\nx,y,model_a\nx,y,z\n")
    with pytest.raises(EvalbarsError, match=r"winner 'z' in column 'winner' at line 3 of .* is "
                                            "neither one of 'model_a', 'model_b', 'tie', "
                                            r"'tie \(bothbad\)' nor one of the row's two models"):
        bradley_terry(path)


def test_a_model_that_never_lost_has_no_finite_rating():
    frame = pd.DataFrame({"model_a": ["x", "x", "y"], "model_b": ["y", "z", "z"],
                          "winner": ["model_a", "model_a", "tie"]})
    with pytest.raises(EvalbarsError, match="not finite here: models 'x' never lost to, or tied "
                                            r"with, any of the other models \('y', 'z'\)"):
        bradley_terry(frame)


def test_models_that_never_met_cannot_share_a_scale():
    frame = pd.DataFrame({"model_a": ["a", "b", "c", "d"], "model_b": ["b", "a", "d", "c"],
                          "winner": ["model_a"] * 4})
    with pytest.raises(EvalbarsError, match=r"models 'a', 'b' never played the other models "
                                            r"\('c', 'd'\)"):
        bradley_terry(frame)


def test_no_resample_with_finite_ratings():
    # A cycle of 12 wins: finite only when a resample keeps all 12 battles, 12!/12^12 = 5e-5.
    names = [f"m{i}" for i in range(12)]
    battles = pd.DataFrame({"model_a": names, "model_b": names[1:] + names[:1],
                            "winner": ["model_a"] * 12})
    with pytest.raises(EvalbarsError, match="in none of the 100 bootstrap resamples of the 12 "
                                            "battles are the ratings finite"):
        bradley_terry(battles, n_resamples=100, seed=1)


def test_settings_are_checked(battles):
    with pytest.raises(EvalbarsError, match="n_resamples must be a positive integer"):
        bradley_terry(battles, n_resamples=0)


# --- the CLI ---------------------------------------------------------------------------------


def test_cli_battles_json_equals_the_api(capsys, battles, tmp_path):
    path = tmp_path / "battles.csv"
    battles.rename(columns={"winner": "vote"}).to_csv(path, index=False)
    status = main(["leaderboard", str(path), "--battles", "--winner", "vote", "--format", "json",
                   "--n-resamples", "400", "--seed", "1"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    api = bradley_terry(path, winner="vote", n_resamples=400, seed=1).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_memory_bound_does_not_change_the_numbers(battles, monkeypatch):
    import evalbars.analyses.battles as resampling
    import evalbars.stats.bradley_terry as fitting

    original = bradley_terry(battles, n_resamples=600).to_dict()
    monkeypatch.setattr(resampling, "_MAX_CELLS", 40)
    monkeypatch.setattr(fitting, "_MAX_CELLS", 40)  # one pair column and a few tables at a time
    assert bradley_terry(battles, n_resamples=600).to_dict() == original


def test_cli_battles_text(capsys, battles, tmp_path):
    path = tmp_path / "battles.csv"
    battles.to_csv(path, index=False)
    status = main(["leaderboard", str(path), "--battles", "--n-resamples", "200"])
    out, _ = capsys.readouterr()
    assert status == 0 and out.startswith("evalbars bradley-terry: 2,000 battles")
