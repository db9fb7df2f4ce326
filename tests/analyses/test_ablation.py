"""evalbars ablation: leaderboard pairs for every cell of the table, and honest shares."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from evalbars import EvalbarsError
from evalbars.analyses.ablation import ablation
from evalbars.analyses.leaderboard import leaderboard, shared_means
from evalbars.analyses.measures import draws, prepare
from evalbars.analyses.results import Settings
from evalbars.cli import main
from evalbars.io.ingest import load
from evalbars.report import plots
from evalbars.report.text.ablation import render_markdown, render_text
from evalbars.stats import multiplicity


def systems(n, accuracies, *, seed=0, agreement=0.8):
    """n questions, one 0/1 column per system; systems share a question difficulty."""
    rng = np.random.default_rng(seed)
    ease = rng.random(n)
    frame = pd.DataFrame({"qid": [f"q{i:04d}" for i in range(n)]})
    for name, accuracy in accuracies.items():
        own = np.where(rng.random(n) < agreement, ease, rng.random(n))
        frame[name] = (own < accuracy).astype(int)
    return frame


def parts(n, *, needs_both, seed=0):
    """A baseline, and a full system that also solves a set of questions through parts A
    and B: either one suffices (redundant parts) or it needs both (parts that need each
    other). no_a and no_b are the full system without A and without B."""
    rng = np.random.default_rng(seed)
    base = rng.random(n) < 0.6
    fixed = ~base & (rng.random(n) < 0.5)
    full = base | fixed
    without = base if needs_both else full
    return pd.DataFrame({"qid": range(n), "base": base.astype(int), "full": full.astype(int),
                         "no_a": without.astype(int), "no_b": without.astype(int)})


ACCURACIES = {"base": 0.55, "full": 0.70, "no_retrieval": 0.60, "no_rerank": 0.68,
              "no_cache": 0.70}


@pytest.fixture(scope="module")
def data():
    return systems(1000, ACCURACIES)


@pytest.fixture(scope="module")
def table(data):
    return ablation(data, full="full", baseline="base", n_resamples=4000, seed=2)


def test_every_cell_is_a_leaderboard_pair(data, table):
    board = leaderboard(data, n_resamples=4000, seed=2)  # the same shared resample
    cells = [table.gain] + [v.drop for v in table.variants] + [v.vs_baseline
                                                               for v in table.variants]
    for cell in cells:
        pair = board.pair(cell.a, cell.b)
        assert cell.test == pair.test
        if (pair.a, pair.b) == (cell.a, cell.b):
            assert cell.estimate == pair.estimate and cell.intervals == pair.intervals
        else:  # the leaderboard puts the higher place second
            assert cell.estimate == -pair.estimate
            for ours, theirs in zip(cell.intervals, pair.intervals):
                assert (ours.low, ours.high) == pytest.approx((-theirs.high, -theirs.low))


def test_p_values_are_adjusted_over_the_whole_table(table):
    cells = [table.gain] + [v.drop for v in table.variants] + [v.vs_baseline
                                                               for v in table.variants]
    # the table's order: gain, then each variant's drop, then each variant against the base
    raw = [c.test.p_value for c in cells]
    adjusted = multiplicity.adjust(raw, method="holm")
    assert sorted(c.p_adjusted for c in cells) == sorted(adjusted.tolist())
    doc = table.to_dict()
    assert doc["correction"] == {"method": "holm", "alpha": pytest.approx(0.05), "n_tests": 7,
                                 "family": "every comparison in the table"}


def test_variants_in_order_of_drop_and_the_gain_comes_from_retrieval(table):
    assert [v.name for v in table.variants] == ["no_retrieval", "no_rerank", "no_cache"]
    retrieval = table.variant("no_retrieval")
    assert retrieval.drop.estimate == pytest.approx(table.gain.estimate * retrieval.share.estimate)
    assert retrieval.drop.p_adjusted < 0.05 and retrieval.share.estimate > 0.5
    cache = table.variant("no_cache")
    assert cache.drop.p_adjusted > 0.05
    assert "the data cannot tell it from no change" in table.statement


def test_share_intervals_come_from_the_shared_resample(data, table):
    scores = load(data)
    prepared = prepare(scores, tuple(sorted(scores.models)))
    replicates = shared_means(draws(prepared, Settings(0.95, 4000, 2), None))
    column = {name: replicates[:, j] for j, name in enumerate(prepared.names)}
    gain = column["full"] - column["base"]
    for variant in table.variants:
        keep = gain > 0
        ratios = (column["full"] - column[variant.name])[keep] / gain[keep]
        low, high = np.quantile(ratios, [0.025, 0.975])
        assert (variant.share.low, variant.share.high) == pytest.approx((low, high), rel=1e-12)
        assert variant.share.estimate == variant.drop.estimate / table.gain.estimate


def test_shares_are_not_additive():
    redundant = ablation(parts(600, needs_both=False), full="full", baseline="base",
                         n_resamples=500)
    assert redundant.to_dict()["shares_total"] == 0.0  # each part alone costs nothing
    both = ablation(parts(600, needs_both=True), full="full", baseline="base",
                    n_resamples=500)
    assert both.to_dict()["shares_total"] == pytest.approx(2.0)  # each part costs it all
    assert "The shares add up to 200%. They are not additive in general" in both.statement


def test_no_share_interval_when_the_gain_may_be_zero():
    frame = systems(300, {"base": 0.6, "full": 0.6, "no_x": 0.5}, seed=3)
    r = ablation(frame, full="full", baseline="base", n_resamples=500)
    share = r.variants[0].share
    assert share.low is None and share.high is None
    assert any("cannot be told from zero" in w for w in r.warnings)


def test_each_variant_is_plot_ready(table):
    doc = table.to_dict()
    for variant in doc["variants"]:
        model = next(m for m in doc["models"] if m["name"] == variant["name"])
        assert variant["mean"] == model["mean"] and variant["interval"] == model["intervals"][0]
        assert variant["drop"]["a"] == variant["name"] and variant["drop"]["b"] == "full"
        assert set(variant["share"]) == {"estimate", "low", "high", "method"}
    assert [m["name"] for m in doc["models"]][:2] == ["full", "base"]


def test_same_seed_same_document_and_order_does_not_matter(data, table):
    again = ablation(data, full="full", baseline="base", n_resamples=4000, seed=2)
    assert again.to_dict() == table.to_dict()
    shuffled = data.sample(frac=1.0, random_state=4)[["no_cache", "qid", "no_rerank", "full",
                                                       "base", "no_retrieval"]]
    moved = ablation(shuffled, full="full", baseline="base", n_resamples=4000, seed=2).to_dict()
    doc = table.to_dict()
    for key in doc:
        if key != "provenance":
            assert moved[key] == doc[key], key


def test_variants_can_be_chosen(data):
    r = ablation(data, full="full", baseline="base", variants=["no_cache"], n_resamples=500)
    assert [v.name for v in r.variants] == ["no_cache"] and r.to_dict()["correction"][
        "n_tests"] == 3


def test_clusters_resample_whole_clusters(data):
    frame = data.assign(doc=[f"d{i // 20}" for i in range(len(data))])
    r = ablation(frame, full="full", baseline="base", cluster="doc", n_resamples=500)
    assert r.gain.intervals[0].method == "paired-cluster-bootstrap"
    assert r.gain.test.name == "cluster-sign-flip"


# --- the command line, the report and the figure -------------------------------------------


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def path(tmp_path_factory, data):
    file = tmp_path_factory.mktemp("ablation") / "ablation.csv"
    data.to_csv(file, index=False)
    return file


def test_cli_json_equals_the_api(capsys, path):
    status, out, _ = run(capsys, "ablation", str(path), "--full", "full", "--baseline", "base",
                         "--correction", "bonferroni", "--n-resamples", "1000", "--format",
                         "json")
    assert status == 0
    api = ablation(path, full="full", baseline="base", correction="bonferroni",
                   n_resamples=1000).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_text_and_markdown(capsys, path, table):
    status, out, _ = run(capsys, "ablation", str(path), "--full", "full", "--baseline", "base",
                         "--n-resamples", "1000")
    assert status == 0
    for piece in ("evalbars ablation: 1,000 questions", "Gain of the full system: full",
                  "drop from full", "share of gain", "shares add up to",
                  "not additive in general", "Result", "seed 0"):
        assert piece in out
    doc = table.to_dict()
    assert render_text(doc).startswith("evalbars ablation:")
    assert render_markdown(doc).startswith("### evalbars ablation:")


@pytest.mark.parametrize("argv,message", [
    (["--baseline", "base"], "ablation needs the full system's name: full="),
    (["--full", "full"], "ablation needs the baseline's name: baseline="),
    (["--full", "full", "--baseline", "full"], "full and baseline must be different"),
    (["--full", "full", "--baseline", "base", "--variants", "base"],
     "variants must not include the full system"),
    (["--full", "full", "--baseline", "base", "--variants", "no_cache", "no_cache"],
     "'no_cache' is listed twice"),
    (["--full", "nobody", "--baseline", "base"], "unknown model 'nobody' (--full); the data has"),
])
def test_bad_input_exits_2_with_one_line(capsys, path, argv, message):
    status, out, err = run(capsys, "ablation", str(path), *argv)
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error:") and message in err
    assert err.count("\n") == 1


def test_there_must_be_a_variant(tmp_path):
    file = tmp_path / "two.csv"
    file.write_text("qid,full,base\nq1,1,0\nq2,1,1\n")
    with pytest.raises(EvalbarsError, match="at least one variant besides the full system"):
        ablation(file, full="full", baseline="base")


def test_the_figure_draws_the_documents_numbers(table):
    doc = table.to_dict()
    figure = plots.plot(doc)
    lines = {line.get_gid(): line for ax in figure.axes for line in ax.get_lines()}
    gain = lines["interval:gain: full \u2212 base"].get_xdata()
    head = doc["gain"]["intervals"][0]
    assert list(gain) == pytest.approx([100 * head["low"], 100 * head["high"]])
    for variant in doc["variants"]:
        drop = lines[f"interval:drop: full \u2212 {variant['name']}"].get_xdata()
        ends = variant["drop"]["intervals"][0]
        assert list(drop) == pytest.approx([100 * ends["low"], 100 * ends["high"]])
        score = lines[f"interval:{variant['name']}"].get_xdata()
        assert list(score) == pytest.approx([100 * variant["interval"]["low"],
                                             100 * variant["interval"]["high"]])
    wald = plots.ablation(doc, method="paired-wald")
    assert wald.axes[1].get_xlabel().endswith("paired-wald)")


def test_the_figure_refuses_other_documents_and_methods(table):
    with pytest.raises(EvalbarsError, match="the ablation plot needs an ablation document"):
        plots.ablation({"kind": "ci"})
    with pytest.raises(EvalbarsError, match="method must be one of the document's intervals"):
        plots.ablation(table.to_dict(), method="newcombe")


def test_plot_ablation_from_json(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from evalbars.cli import main

    doc_path = tmp_path / "ablation.json"
    assert main(["ablation", "examples/prompts.csv", "--item", "qid", "--full", "prompt01",
                 "--baseline", "baseline", "--variants", "prompt02", "prompt03",
                 "--n-resamples", "300", "--format", "json"]) == 0
    doc_path.write_text(capsys.readouterr().out)
    figure = tmp_path / "ablation.png"
    assert main(["plot", "ablation", "--from-json", str(doc_path), "-o", str(figure)]) == 0
    assert figure.stat().st_size > 1000
