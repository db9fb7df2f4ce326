"""One resample plan and one sign matrix per (item set, seed), shared by every analysis.

ci, compare, leaderboard, select and ablation read a model's bootstrap interval, a
pair's gap and its sign-flip test from the same plan (evalbars.analyses.draws), so they
agree bit for bit; adding a model, shuffling the rows, the number of threads and the
size of the chunks change nothing.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import evalbars
from evalbars.stats import resample


def frame(n=400, models=4, *, seed=0, binary=False, clusters=None):
    """``n`` items (ids q0000...), ``models`` correlated models, optional cluster column."""
    rng = np.random.default_rng(seed)
    ease = rng.random(n)
    out = pd.DataFrame({"qid": [f"q{i:04d}" for i in range(n)]})
    if clusters:
        out["topic"] = [f"t{i % clusters:02d}" for i in range(n)]
    for k in range(models):
        own = np.where(rng.random(n) < 0.7, ease, rng.random(n))
        score = np.clip(0.5 + 0.02 * k + 0.3 * (own - 0.5) + rng.normal(0, 0.05, n), 0, 1)
        out[f"m{k}"] = (own < 0.6 + 0.03 * k).astype(int) if binary else score
    return out


def intervals_of(score):
    return {interval.method: (interval.low, interval.high) for interval in score.intervals}


KINDS = {"continuous": {}, "binary": {"binary": True}, "clustered": {"clusters": 40}}


@pytest.mark.parametrize("kind", KINDS)
def test_ci_compare_leaderboard_select_ablation_give_one_interval(kind):
    data = frame(**KINDS[kind])
    load = {"cluster": "topic"} if kind == "clustered" else {}
    run = {"n_resamples": 1000, "seed": 3, **load}
    expected = intervals_of(evalbars.ci(data, models=["m1"], **run).model("m1"))
    assert "bootstrap-percentile" in expected and "bootstrap-bca" in expected
    found = {
        "ci (all models)": evalbars.ci(data, **run).model("m1"),
        "compare": evalbars.compare(data, a="m0", b="m1", **run).model("m1"),
        "leaderboard": evalbars.leaderboard(data, **run).model("m1").score,
        "select": evalbars.select(data, baseline="m0", **run).model("m1"),
        "ablation": evalbars.ablation(data, full="m3", baseline="m0", **run).model("m1"),
    }
    for where, score in found.items():
        assert intervals_of(score) == expected, where


@pytest.mark.parametrize("kind", KINDS)
def test_compare_and_leaderboard_give_one_gap_and_one_test(kind):
    data = frame(**KINDS[kind])
    load = {"cluster": "topic"} if kind == "clustered" else {}
    run = {"n_resamples": 1000, "seed": 5, **load}
    board = evalbars.leaderboard(data, **run)
    for pair in board.pairs:
        compared = evalbars.compare(data, a=pair.a, b=pair.b, **run)
        assert pair.intervals[0] == compared.difference.intervals[
            [i.method for i in compared.difference.intervals].index(pair.intervals[0].method)]
        assert pair.test == compared.tests[0]
    if kind == "continuous":  # the Monte Carlo route: the sign matrix matters
        assert not board.pairs[0].test.exact


def test_adding_a_model_changes_nothing_already_reported():
    data = frame(models=5)
    run = {"n_resamples": 1000, "seed": 1}
    small = evalbars.leaderboard(data[["qid", "m0", "m1", "m2"]], **run)
    large = evalbars.leaderboard(data, **run)
    for model in small.models:
        assert large.model(model.name).score == model.score
    for pair in small.pairs:
        other = large.pair(pair.a, pair.b)
        assert other.intervals == pair.intervals and other.test == pair.test
    few = evalbars.ci(data[["qid", "m3"]], **run).model("m3")
    assert evalbars.ci(data, **run).model("m3") == few


def without_provenance(result):
    return json.dumps({k: v for k, v in result.to_dict().items() if k != "provenance"})


@pytest.mark.parametrize("kind", KINDS)
def test_row_order_does_not_matter(kind):
    data = frame(**KINDS[kind])
    load = {"cluster": "topic"} if kind == "clustered" else {}
    run = {"n_resamples": 700, "seed": 2, **load}
    shuffled = data.sample(frac=1.0, random_state=4).reset_index(drop=True)
    for analysis in (lambda d: evalbars.compare(d, a="m0", b="m2", **run),
                     lambda d: evalbars.leaderboard(d, **run)):
        assert without_provenance(analysis(shuffled)) == without_provenance(analysis(data))


def test_threads_and_chunks_do_not_change_numbers(monkeypatch):
    data = frame(n=2500, models=3)  # 2,500 items x 512 resamples: threads are used
    run = {"n_resamples": 1100, "seed": 8}
    first = without_provenance(evalbars.leaderboard(data, **run))
    monkeypatch.setattr(resample, "_workers", lambda n_blocks, work: 1)
    assert without_provenance(evalbars.leaderboard(data, **run)) == first
    monkeypatch.setattr(resample, "_workers", lambda n_blocks, work: 3)
    monkeypatch.setattr(resample, "_MAX_CELLS", 30_000)  # 8 resamples per chunk
    assert without_provenance(evalbars.leaderboard(data, **run)) == first


def test_same_seed_same_json_and_another_seed_other_numbers():
    data = frame()
    first = evalbars.compare(data, a="m0", b="m1", n_resamples=700, seed=4).to_dict()
    assert json.dumps(first) == json.dumps(
        evalbars.compare(data, a="m0", b="m1", n_resamples=700, seed=4).to_dict())
    other = evalbars.compare(data, a="m0", b="m1", n_resamples=700, seed=5).to_dict()
    assert other["difference"] != first["difference"]


def test_continuous_gaps_add_up_resample_by_resample():
    # One plan: the gap A - C is exactly (A - B) + (B - C) in every resample, so the
    # leaderboard's ranks and its gaps are read from the same numbers.
    from evalbars.analyses.measures import draws, prepare
    from evalbars.analyses.results import Settings
    from evalbars.io.ingest import load

    scores = load(frame(models=3))
    found = draws(prepare(scores, ("m0", "m1", "m2")), Settings(0.95, 600, 0), None)
    assert np.allclose(found.gap("m0", "m2"), found.gap("m0", "m1") + found.gap("m1", "m2"),
                       rtol=0, atol=1e-15)
    assert np.array_equal(found.gap("m2", "m0"), -found.gap("m0", "m2"))
