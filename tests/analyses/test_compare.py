"""compare and ci with clustered questions (--cluster) and several answers (--sample).

Expected values: ../shared/fixtures/EXPECTED.md (seed 002, statsmodels) for the cookbook.
"""
import json

import numpy as np
import pytest

import evalbars
from evalbars.cli import main


@pytest.fixture(scope="module")
def clustered():
    return evalbars.compare("examples/cookbook_topics.csv", a="system_a", b="system_b",
                            cluster="topic_id", n_resamples=4000)


def test_clustered_standard_errors(clustered):
    doc = clustered.to_dict()
    a, b = doc["models"]
    # seed 002 / statsmodels OLS cov_type="cluster": CR1 0.0499 / 0.0464
    assert a["clustered"]["se"] == pytest.approx(0.0499, abs=5e-5)
    assert b["clustered"]["se"] == pytest.approx(0.0464, abs=5e-5)
    # EXPECTED.md closed form: CR0 0.04862 / 0.04522; naive 0.0345 / 0.0322
    assert a["clustered"]["se_cr0"] == pytest.approx(0.04862, abs=5e-6)
    assert b["clustered"]["se_cr0"] == pytest.approx(0.04522, abs=5e-6)
    assert a["clustered"]["se_naive"] == pytest.approx(0.0345, abs=5e-5)
    assert a["clustered"]["n_clusters"] == 20
    assert a["clustered"]["se"] / a["clustered"]["se_naive"] == pytest.approx(1.45, abs=0.005)
    # EXPECTED.md: CR0 clustered SE of the paired delta 0.03426
    assert doc["difference"]["clustered"]["se_cr0"] == pytest.approx(0.03426, abs=5e-6)


def test_with_clusters_pairing_is_measured_on_clustered_intervals(clustered, capsys):
    # statsmodels OLS cov_type="cluster" (CR1) of system_a, system_b and b - a: the unpaired
    # clustered interval is t(19) sqrt(se_a² + se_b²) wide, the paired one t(19) se_d, so
    # the ratio is the SEs'. Unclustered, paired-wald against unpaired-wald gave 1.12x.
    import csv

    import statsmodels.api as sm

    with open("examples/cookbook_topics.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    a = np.array([float(row["system_a"]) for row in rows])
    b = np.array([float(row["system_b"]) for row in rows])
    groups = np.unique([row["topic_id"] for row in rows], return_inverse=True)[1]

    def cr1(x):
        return sm.OLS(x, np.ones((len(x), 1))).fit(
            cov_type="cluster", cov_kwds={"groups": groups}).bse[0]

    expected = np.hypot(cr1(a), cr1(b)) / cr1(b - a)
    assert expected == pytest.approx(1.938, abs=5e-4)
    assert clustered.difference.width_ratio == pytest.approx(expected, rel=1e-9)
    # the figure's contrast bar is that interval: the same ratio of widths
    from evalbars.report.contrast import gap_bars

    paired, unpaired = gap_bars(clustered.to_dict())
    widths = [bar["high"] - bar["low"] for bar in (unpaired, paired)]
    assert widths[0] / widths[1] == pytest.approx(expected, rel=1e-9)
    assert main(["compare", "examples/cookbook_topics.csv", "--item", "example_id",
                 "--cluster", "topic_id", "--n-resamples", "200"]) == 0
    assert ("pairing made the interval 1.9x narrower than the unpaired one (both clustered)"
            in capsys.readouterr().out)


def test_clustered_methods_lead(clustered):
    doc = clustered.to_dict()
    assert [i["method"] for i in doc["models"][0]["intervals"][:2]] == [
        "cluster-cr1", "cluster-bootstrap-percentile"]
    assert [i["method"] for i in doc["difference"]["intervals"][:2]] == [
        "paired-cluster-cr1", "paired-cluster-bootstrap"]
    assert doc["tests"][0]["name"] == "cluster-sign-flip"
    # cluster-cr1 is mean ± t(19) · CR1 SE
    from scipy import stats
    low = 0.615 - stats.t.ppf(0.975, 19) * doc["models"][0]["clustered"]["se"]
    assert doc["models"][0]["intervals"][0]["low"] == pytest.approx(low, rel=1e-12)


def test_clustered_statement_and_warnings(clustered):
    assert "clustered CR1" in clustered.statement
    assert "clustered by topic_id (20 clusters)" in clustered.statement
    assert "no question clusters were given" not in clustered.statement
    assert any("only 20 clusters" in w for w in clustered.warnings)
    assert any("1.45x too narrow" in w for w in clustered.warnings)


def test_clustered_swap_and_shuffle_invariance(tmp_path):
    rows = open("examples/cookbook_topics.csv").read().splitlines()
    rng = np.random.default_rng(0)
    shuffled = [rows[0]] + [rows[1 + i] for i in rng.permutation(len(rows) - 1)]
    path = tmp_path / "shuffled.csv"
    path.write_text("\n".join(shuffled) + "\n")
    first = evalbars.compare("examples/cookbook_topics.csv", a="system_a", b="system_b",
                             cluster="topic_id", n_resamples=1500).to_dict()
    second = evalbars.compare(path, a="system_a", b="system_b", cluster="topic_id",
                              n_resamples=1500).to_dict()
    first.pop("provenance"), second.pop("provenance")
    assert first == second
    swapped = evalbars.compare(path, a="system_b", b="system_a", cluster="topic_id",
                               n_resamples=1500)
    for f, s in zip(first["difference"]["intervals"], swapped.to_dict()["difference"]["intervals"]):
        assert (s["low"], s["high"]) == pytest.approx((-f["high"], -f["low"]), abs=1e-12)


def test_clustered_equivalence_uses_cluster_df(clustered):
    r = evalbars.compare("examples/cookbook_topics.csv", cluster="topic_id", margin=0.02,
                         n_resamples=500)
    eq = r.equivalence
    assert eq.df == 19 and eq.se == pytest.approx(r.difference.clustered.se)


def test_ci_with_clusters_through_the_cli(capsys):
    status = main(["ci", "examples/cookbook_topics.csv", "--cluster", "topic_id",
                   "--format", "json", "--n-resamples", "500"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0
    assert doc["models"][0]["intervals"][0]["method"] == "cluster-cr1"
    assert doc["models"][0]["clustered"]["effective_n"] == pytest.approx(200 / (
        doc["models"][0]["clustered"]["design_effect"]))


def test_cli_b_alone_takes_the_other_model(capsys):
    # issue 17 item 25: --b alone on a two-model file makes the other model --a
    status = main(["compare", "examples/lesson_pair.csv", "--b", "model_a", "--format", "json",
                   "--n-resamples", "100"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0 and (doc["difference"]["a"], doc["difference"]["b"]) == ("model_b",
                                                                                 "model_a")


def test_cli_margin_shows_just_as_good_block_and_clean_json(capsys):
    # issue 17 item 21: the deciding interval, the p-values and the decision in text and
    # Markdown; alpha and the interval's level without float noise in JSON
    args = ["compare", "examples/lesson_pair.csv", "--a", "model_a", "--b", "model_b",
            "--margin", "0.01", "--n-resamples", "200"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Just as good? (margin 1.0 points; one-sided tests at alpha 0.05)" in out
    assert "deciding interval     +1.1 to +4.1 (90% paired-t)" in out
    assert "equivalence (TOST) p  0.9603" in out
    assert "model_b is not worse than model_a by more than 1.0 points (non-inferior)" in out
    assert main(args + ["--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "| decision | model_b is not worse than model_a by more than 1.0 points" in out
    assert main(args + ["--format", "json"]) == 0
    eq = json.loads(capsys.readouterr().out)["equivalence"]
    assert eq["alpha"] == 0.05 and eq["interval"]["level"] == 0.9
    assert main(args[:6] + args[8:]) == 0
    assert "Just as good?" not in capsys.readouterr().out
