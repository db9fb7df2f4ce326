"""Tests for evalbars.analyses.pilot (through evalbars.analyses.power): pilot estimates and the ICC."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evalbars.analyses import power as P
from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

# --- pilot --------------------------------------------------------------------------------


def test_pilot_estimates_from_the_lesson_pair(lesson_path):
    pilot = P.from_pilot(lesson_path)
    # seed 000: 21 disagreements of 500 (B only 17, A only 4); A scored 73.2%.
    assert (pilot.n_items, pilot.a_only, pilot.b_only) == (500, 4, 17)
    assert pilot.disagreement == pytest.approx(21 / 500) and pilot.baseline == pytest.approx(0.732)
    r = P.solve(n=500, power=0.8, pilot=pilot)
    assert r.gap == P.solve(n=500, power=0.8, disagreement=0.042).gap
    assert r.inputs["disagreement"] == pytest.approx(0.042)
    assert r.pilot["source"]["inputs"][0]["sha256"] and "500-question pilot" in r.statement
    unpaired = P.solve(design="unpaired", gap=0.05, power=0.8, pilot=pilot)
    assert unpaired.inputs["baseline"] == pytest.approx(0.732)
    assert P.grid(pilot=pilot).n == 500


def test_pilot_with_continuous_scores_and_a_single_model():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.5, 0.2, 60), rng.normal(0.55, 0.2, 60)
    df = pd.DataFrame({"id": [f"q{i:02d}" for i in range(60)], "a": a, "b": b})
    pilot = P.from_pilot(df)
    assert pilot.variance_d == pytest.approx(np.var(b - a, ddof=1))
    assert pilot.variance == pytest.approx((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2)
    assert P.solve(gap=0.05, power=0.8, pilot=pilot).inputs["variance"] == pilot.variance_d
    single = P.from_pilot(df[["id", "a"]])
    assert single.b is None and single.disagreement is None
    r = P.solve(design="unpaired", gap=0.05, power=0.8, pilot=single)
    assert r.inputs["variance"] == pytest.approx(np.var(a, ddof=1))


def test_pilot_on_clustered_design_uses_the_paired_estimate(cookbook_path):
    pilot = P.from_pilot(cookbook_path, item="example_id")
    assert (pilot.a_only, pilot.b_only) == (26, 45)  # seed 002
    r = P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot, icc=0.1, cluster_size=10)
    assert r.inputs["disagreement"] == pytest.approx(71 / 200)


def test_pilot_with_clusters_estimates_icc_on_the_differences(cookbook_path, cookbook):
    a, b = cookbook
    topics = pd.read_csv(cookbook_path, dtype=str)["topic_id"].to_numpy()
    pilot = P.from_pilot(cookbook_path, cluster="topic_id")
    assert pilot.icc == pytest.approx(P.icc(b - a, topics), rel=1e-12)  # row order is id order
    assert pilot.icc == pytest.approx(-0.0320348, abs=1e-7) and pilot.cluster_size == 10.0
    assert pilot.to_dict()["icc"] == pilot.icc and pilot.to_dict()["cluster_size"] == 10.0
    r = P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot)
    assert r.inputs["icc"] == 0.0 and r.inputs["cluster_size"] == 10.0  # negative -> 0
    assert r.n == P.solve(design="clustered", gap=0.05, power=0.8, disagreement=0.355,
                          icc=0.0, cluster_size=10).n
    bigger = P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot, cluster_size=20)
    assert bigger.inputs["cluster_size"] == 20 and bigger.n_clusters * 20 == bigger.n
    assert P.from_pilot(cookbook_path).icc is None


def _anova_icc(x, labels):
    """ICC = (F - 1) / (F + m0 - 1) from scipy's one-way ANOVA F."""
    groups = [x[labels == k] for k in np.unique(labels)]
    sizes = np.array([g.size for g in groups])
    m0 = (x.size - float(sizes @ sizes) / x.size) / (len(groups) - 1)
    f = stats.f_oneway(*groups).statistic
    return (f - 1) / (f + m0 - 1)


def test_clustered_pilot_scores_icc_is_the_unpaired_design_effect(cookbook_path, cookbook):
    a, b = cookbook
    topics = pd.read_csv(cookbook_path, dtype=str)["topic_id"].to_numpy()
    pilot = P.from_pilot(cookbook_path, cluster="topic_id")
    iccs = [_anova_icc(x, topics) for x in (a, b)]
    weights = [np.var(a), np.var(b)]
    assert pilot.score_icc == pytest.approx(np.dot(weights, iccs) / sum(weights), rel=1e-10)
    assert pilot.score_icc == pytest.approx(0.119439, abs=1e-6)
    # EXPECTED.md (seed 002, statsmodels): clustered / naive SE x1.45 (A) and x1.44 (B); their
    # squares are design effects by another estimator (sandwich, not ANOVA), hence the slack.
    for rho, ratio in zip(iccs, (1.45, 1.44)):
        assert 1 + 9 * rho == pytest.approx(ratio ** 2, abs=0.03)
    assert pilot.to_dict()["score_icc"] == pilot.score_icc
    assert P.from_pilot(cookbook_path).score_icc is None


def test_clustered_pilot_refuses_designs_that_plan_independent_questions(cookbook_path):
    pilot = P.from_pilot(cookbook_path, cluster="topic_id")
    with pytest.raises(EvalbarsError) as error:
        P.solve(gap=0.05, power=0.8, pilot=pilot)  # the default design, paired
    assert str(error.value) == (  # negatives written with U+2212, as the reports write them
        "the pilot's questions are clustered: ICC \u22120.03203 of the differences 'system_b' "
        "\u2212 'system_a' (planned as 0), about 10 questions per cluster, design effect 1; "
        "the paired design would plan them as independent questions. Plan for the clusters "
        "with design='clustered' (--design clustered), or read the pilot without cluster= "
        "(--cluster) to plan for independent questions")
    with pytest.raises(EvalbarsError, match="the paired design would plan them as independent"):
        P.grid(pilot=pilot)
    # the paired comparison is not hurt by the topics: design effect 1, whole topics
    clustered = P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot)
    independent = P.solve(gap=0.05, power=0.8, pilot=P.from_pilot(cookbook_path))
    assert (clustered.n, clustered.n_clusters, independent.n) == (1110, 111, 1107)
    assert clustered.n_unrounded == independent.n_unrounded

    with pytest.raises(EvalbarsError) as error:
        P.solve(design="unpaired", gap=0.05, power=0.8, pilot=pilot)
    assert ("ICC 0.1194 of the models' own scores, about 10 questions per cluster, design "
            "effect 2.075; the unpaired design would plan them as independent questions. Plan "
            "for the clusters without the pilot: design='clustered', baseline=0.615, "
            "icc=0.1194, cluster_size=10 (--design clustered --baseline 0.615 --icc 0.1194 "
            "--cluster-size 10)") in str(error.value)
    planned = P.solve(design="clustered", gap=0.05, power=0.8, baseline=0.615, icc=0.1194,
                      cluster_size=10)
    unclustered = P.solve(design="unpaired", gap=0.05, power=0.8, pilot=P.from_pilot(
        cookbook_path))
    assert (planned.n, planned.n_clusters, unclustered.n) == (3000, 300, 1443)
    assert planned.n_unrounded == pytest.approx(2.0746 * unclustered.n_unrounded, rel=1e-9)


def test_clustered_pilot_refusal_through_the_cli(capsys):
    from evalbars.cli import main

    argv = ["power", "--pilot", "examples/cookbook_topics.csv", "--cluster", "topic_id",
            "--gap", "0.05", "--power", "0.8", "--format", "json"]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "design effect 1; the paired design" in err and "(--design clustered)" in err
    assert main(argv + ["--design", "clustered"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["n"], doc["inputs"]["icc"], doc["design_effect"]) == (1110, 0.0, 1.0)
    assert doc["pilot"]["icc"] == pytest.approx(-0.0320348, abs=1e-7)
    assert doc["pilot"]["score_icc"] == pytest.approx(0.119439, abs=1e-6)
    assert main(argv[:-2] + ["--design", "clustered"]) == 0
    text = capsys.readouterr().out
    assert ("ICC of the differences \u22120.03203 in clusters of 10 questions on average, ICC of the "
            "models' own scores 0.1194") in text


def one_model_clustered_pilot():
    """(pilot, frame, scores, labels, rng): one model, continuous scores, 40 clusters of 5;
    between variance 0.09, within 0.16: ICC 0.36 by construction."""
    rng = np.random.default_rng(2)
    labels = np.repeat([f"doc{k:02d}" for k in range(40)], 5)
    x = 0.5 + rng.normal(0, 0.3, 40).repeat(5) + rng.normal(0, 0.4, 200)
    df = pd.DataFrame({"id": [f"q{i:03d}" for i in range(200)], "doc": labels, "a": x})
    return P.from_pilot(df, cluster="doc"), df, x, labels, rng


def test_clustered_continuous_pilot_suggests_the_inflated_variance():
    # 40 clusters of 5 for one model, continuous scores; the unpaired design is refused
    pilot, df, x, labels, rng = one_model_clustered_pilot()
    effect = 1 + 4 * pilot.icc
    with pytest.raises(EvalbarsError) as error:
        P.solve(design="unpaired", gap=0.05, power=0.8, pilot=pilot)
    message = str(error.value)
    assert (f"ICC {pilot.icc:.4g} of model 'a', about 5 questions per cluster, design effect "
            f"{effect:.4g}") in message
    assert (f"with the pilot's variances times the design effect: design='unpaired', "
            f"variance={pilot.variance * effect:.4g} (--design unpaired --variance "
            f"{pilot.variance * effect:.4g})") in message
    independent = P.solve(design="unpaired", gap=0.05, power=0.8, variance=pilot.variance)
    inflated = P.solve(design="unpaired", gap=0.05, power=0.8, variance=pilot.variance * effect)
    assert inflated.n_unrounded == pytest.approx(effect * independent.n_unrounded, rel=1e-12)
    # with samples, the between-question variance is inflated alike: n grows by the DE again
    long = pd.DataFrame({"id": np.repeat(df["id"], 2), "doc": np.repeat(labels, 2),
                         "epoch": np.tile([0, 1], 200),
                         "a": np.repeat(x, 2) + rng.normal(0, 0.2, 400)})
    sampled = P.from_pilot(long, cluster="doc", sample="epoch")
    effect = 1 + 4 * sampled.icc
    with pytest.raises(EvalbarsError) as error:
        P.solve(design="unpaired", gap=0.05, power=0.8, samples=4, pilot=sampled)
    v, between = sampled.variance, sampled.between_variance
    assert (f"variance={v * effect:.4g}, between_variance={between * effect:.4g}"
            in str(error.value))
    plain = P.solve(design="unpaired", gap=0.05, power=0.8, samples=4, variance=v,
                    between_variance=between)
    inflated = P.solve(design="unpaired", gap=0.05, power=0.8, samples=4, variance=v * effect,
                       between_variance=between * effect)
    assert inflated.n_unrounded == pytest.approx(effect * plain.n_unrounded, rel=1e-12)


def test_clustered_sampled_pilot_suggests_the_between_variance():
    # two models, 30 clusters of 4 questions, 3 sampled answers each
    rng = np.random.default_rng(4)
    q = np.arange(120)
    ease = rng.normal(0, 1, 30).repeat(4)[q] + rng.normal(0, 1, 120)
    rows = [{"id": f"q{i:03d}", "doc": f"d{i // 4:02d}", "epoch": e,
             "a": int(rng.random() < 1 / (1 + np.exp(-ease[i]))),
             "b": int(rng.random() < 1 / (1 + np.exp(-ease[i] - 0.3)))}
            for i in q for e in range(3)]
    pilot = P.from_pilot(pd.DataFrame(rows), cluster="doc", sample="epoch")
    assert pilot.answers == 3.0 and pilot.score_icc is not None
    with pytest.raises(EvalbarsError) as error:
        P.solve(design="unpaired", gap=0.05, power=0.8, samples=5, pilot=pilot)
    assert (f"baseline={pilot.baseline:.4g}, icc={max(pilot.score_icc, 0):.4g}, cluster_size=4, "
            f"between_variance={pilot.between_variance:.4g}") in str(error.value)


def test_clustered_design_needs_a_source_for_the_clustering(cookbook_path):
    pilot = P.from_pilot(cookbook_path)
    with pytest.raises(EvalbarsError) as error:
        P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot)
    assert ("the clustered design needs the clustering, and the pilot was read without "
            "clusters: read it with cluster= (--cluster COL)") in str(error.value)
    given = P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot, design_effect=2.0)
    assert given.n == P.solve(design="clustered", gap=0.05, power=0.8, disagreement=0.355,
                              design_effect=2.0).n


def test_pilot_with_clusters_and_one_model():
    pilot, df, x, labels, rng = one_model_clustered_pilot()
    assert pilot.icc == pytest.approx(P.icc(x, labels), rel=1e-12)
    assert 0.2 < pilot.icc < 0.5 and pilot.cluster_size == 5.0
    # The clustered design plans continuous scores as pairs (variance of differences),
    # which one model cannot give: refused, with the unpaired plan that accounts for the
    # clusters (it used to plan var(a) as var(b - a): 1,490 questions instead of ~2,970).
    effect = 1 + 4 * pilot.icc
    with pytest.raises(EvalbarsError, match=r"a one-model pilot \('a'\) gives only the variance"
                       ) as info:
        P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot)
    assert f"design effect {effect:.4g}" in str(info.value)
    assert f"--variance {pilot.variance * effect:.4g}" in str(info.value)
    independent = P.solve(design="unpaired", gap=0.05, power=0.8, variance=pilot.variance).n
    clustered = P.solve(design="unpaired", gap=0.05, power=0.8,
                        variance=pilot.variance * effect).n
    assert clustered == pytest.approx(independent * effect, rel=0.01)  # ~2,970 vs 1,477


def test_clustered_pilot_errors(cookbook_path):
    pilot = P.from_pilot(cookbook_path, cluster="topic_id")
    singletons = pd.DataFrame({"id": ["x", "y", "z"], "c": ["1", "2", "3"], "a": [1, 0, 1],
                               "b": [0, 0, 1]})
    cases = [
        (lambda: P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot, icc=0.1),
         "icc was given and is also estimated from the pilot; give one"),
        (lambda: P.solve(design="clustered", gap=0.05, power=0.8, pilot=pilot,
                         design_effect=2.0),
         "design_effect was given and the clustered pilot estimates icc"),
        (lambda: P.from_pilot(load(cookbook_path), cluster="topic_id"),
         "cluster='topic_id' says how to read a file, but data is already loaded ItemScores"),
        (lambda: P.from_pilot(singletons, cluster="c"),
         "cannot estimate the pilot's ICC of the differences 'b' \u2212 'a': icc needs at least 2 "
         "clusters and a cluster with 2 or more questions"),
    ]
    for call, message in cases:
        with pytest.raises(EvalbarsError) as error:
            call()
        assert message in str(error.value)


def test_pilot_errors(lesson_path):
    pilot = P.from_pilot(lesson_path)
    one = P.from_pilot(pd.DataFrame({"id": ["x", "y"], "a": [1, 0]}))
    agree = P.from_pilot(pd.DataFrame({"id": ["x", "y"], "a": [1, 0], "b": [1, 0]}))
    cases = [
        (lambda: P.solve(gap=0.01, power=0.8, pilot=one), "a paired design needs two models"),
        (lambda: P.solve(gap=0.01, power=0.8, pilot=agree), "agree on all 2 questions"),
        (lambda: P.solve(gap=0.01, power=0.8, disagreement=0.1, pilot=pilot),
         "disagreement was given and is also estimated from the pilot"),
        (lambda: P.from_pilot(pd.DataFrame({"id": ["x"], "a": [1], "b": [0]})),
         "a pilot needs at least 2 questions; got 1"),
    ]
    for call, message in cases:
        with pytest.raises(EvalbarsError) as error:
            call()
        assert message in str(error.value)


# --- intraclass correlation ---------------------------------------------------------------


def test_icc_matches_one_way_anova_f():
    rng = np.random.default_rng(5)
    sizes = rng.integers(2, 12, 30)
    labels = np.repeat(np.arange(30), sizes)
    x = rng.normal(size=30)[labels] * 0.6 + rng.normal(size=labels.size)
    f = stats.f_oneway(*[x[labels == k] for k in range(30)]).statistic
    total = labels.size
    m0 = (total - float(sizes @ sizes) / total) / 29
    assert P.icc(x, labels) == pytest.approx((f - 1) / (f + m0 - 1), rel=1e-10)


def test_icc_recovers_a_simulated_value():
    # 400 clusters of 10, between sd^2 = 0.25, within 1: ICC = 0.25 / 1.25 = 0.2.
    rng = np.random.default_rng(9)
    labels = np.repeat(np.arange(400), 10)
    x = rng.normal(0, 0.5, 400)[labels] + rng.normal(size=4000)
    assert P.icc(x, labels) == pytest.approx(0.2, abs=0.03)


def test_icc_rejects_non_finite_values():
    with pytest.raises(EvalbarsError) as error:
        P.icc([1.0, np.nan, 0.0, 1.0], ["a", "a", "b", "b"])
    assert "values must be finite numbers; got nan at index 1" in str(error.value)


def test_sampled_pilot_estimates_the_variance_split():
    # examples/passk_samples.csv: 50 questions, 10 answers each, for 'small' and 'large'
    from evalbars.io import ingest
    from evalbars.stats import samples

    pilot = P.from_pilot("examples/passk_samples.csv", sample="sample", a="small",
                             b="large")
    scores = ingest.load("examples/passk_samples.csv", sample="sample")
    expected = np.mean([
        samples.variance_split(scores.column(m), scores.counts[:, scores.models.index(m)],
                               scores.sumsq[:, scores.models.index(m)], binary=True
                               ).between_variance for m in ("small", "large")])
    assert pilot.between_variance == pytest.approx(expected, rel=1e-12)
    assert pilot.answers == 10.0 and pilot.disagreement is None
    assert pilot.variance_d == pytest.approx(np.var(scores.column("large")
                                                    - scores.column("small"), ddof=1))
    planned = P.solve(design="unpaired", gap=0.05, power=0.8, samples=5, pilot=pilot)
    direct = P.solve(design="unpaired", gap=0.05, power=0.8, samples=5,
                         baseline=pilot.baseline, between_variance=pilot.between_variance)
    assert planned.n == direct.n
    assert planned.to_dict()["pilot"]["between_variance"] == pilot.between_variance


def test_sampled_pilot_through_the_cli(capsys):
    from evalbars.cli import main

    status = main(["power", "--design", "unpaired", "--gap", "0.05", "--power", "0.8",
                   "--samples", "5", "--pilot", "examples/passk_samples.csv",
                   "--sample", "sample", "--a", "small", "--b", "large", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0 and doc["inputs"]["between_variance"] == pytest.approx(
        doc["pilot"]["between_variance"])
