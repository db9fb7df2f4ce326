"""Tests for stratum= / --stratum in the leaderboard (evalbars.analyses.strata_leaderboard).

References: each model's aggregate equals ci's and each pair's stratified gap and tests equal
compare's for that pair, bit for bit (the numbers themselves are checked against R's survey
package, statsmodels, scipy and brute force in tests/stats/test_strata*.py); here the gap's
SE against a plain loop over strata, the micro-weighted exact stratified McNemar test
against scipy.stats.binomtest on the pooled discordant counts (docs/strata.md), and the
adjusted p-values against statsmodels' multipletests.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.report.text.render import render

NAMES = ("m1", "m2", "m3", "m4")
SIZES = {"algebra": 15, "biology": 40, "history": 80}


def _write(path, *, binary: bool = True, seed: int = 7):
    """Four models on 135 questions in 3 strata of unequal size (seeded)."""
    rng = np.random.default_rng(seed)
    labels = [label for label, n in SIZES.items() for _ in range(n)]
    skill = {"m1": 0.0, "m2": 0.3, "m3": 0.5, "m4": 0.55}
    base = {"algebra": 0.3, "biology": 0.6, "history": 0.8}
    columns = {}
    for name in NAMES:
        p = np.array([min(0.95, base[s] + 0.3 * skill[name]) for s in labels])
        columns[name] = (rng.random(len(labels)) < p).astype(float) if binary \
            else np.round(p + rng.normal(0, 0.2, len(labels)), 3)
    with open(path, "w") as f:
        f.write("id,subject,doc," + ",".join(NAMES) + "\n")
        for i, label in enumerate(labels):
            values = ",".join(f"{columns[n][i]:g}" for n in NAMES)
            f.write(f"q{i:03d},{label},{label}-{i // 5},{values}\n")
    return labels, columns


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "four.csv"
    labels, columns = _write(path)
    return path, labels, columns


@pytest.mark.parametrize("weights", ["micro", "macro", {"algebra": 1, "biology": 1,
                                                        "history": 2}])
def test_each_pair_is_compare_bit_for_bit(data, weights):
    path, _, _ = data
    r = evalbars.leaderboard(path, stratum="subject", weights=weights, n_resamples=400)
    assert len(r.strata.pairs) == 6
    for pair in r.strata.pairs:
        c = evalbars.compare(path, a=pair.a, b=pair.b, stratum="subject", weights=weights,
                             n_resamples=400)
        assert pair.difference == c.strata.difference
        assert pair.tests == c.strata.tests
    alone = evalbars.ci(path, stratum="subject", weights=weights, n_resamples=400)
    by_name = {m.name: m for m in alone.strata.models}
    assert all(m == by_name[m.name] for m in r.strata.models)
    for row, same in zip(r.strata.rows, alone.strata.rows):
        order = [alone.strata.names.index(name) for name in r.strata.names]
        assert row.means == tuple(same.means[k] for k in order)
        assert row.intervals == tuple(same.intervals[k] for k in order)


def test_order_gaps_and_correction_against_references(data):
    from scipy.stats import binomtest
    from statsmodels.stats.multitest import multipletests
    path, labels, columns = data
    r = evalbars.leaderboard(path, stratum="subject", weights="macro", correction="holm",
                             n_resamples=400)
    estimates = [m.estimate for m in r.strata.models]
    assert estimates == sorted(estimates, reverse=True)
    for pair in r.strata.pairs:
        assert pair.difference.estimate >= 0  # a is the lower place
        d = columns[pair.b] - columns[pair.a]
        var = 0.0
        for label in SIZES:
            part = d[[s == label for s in labels]]
            var += (1 / 3) ** 2 * np.var(part, ddof=1) / len(part)  # a plain loop
        assert pair.difference.se == pytest.approx(math.sqrt(var), rel=1e-12)
        assert pair.difference.estimate == pytest.approx(
            np.mean([d[[s == label for s in labels]].mean() for label in SIZES]), rel=1e-12)
    p = [pair.tests[0].p_value for pair in r.strata.pairs]
    holm = multipletests(p, method="holm")[1]  # statsmodels 0.14
    assert [pair.p_adjusted for pair in r.strata.pairs] == pytest.approx(holm, rel=1e-12)
    # micro weights: the exact stratified McNemar test is binomtest on the pooled counts
    micro = evalbars.leaderboard(path, stratum="subject", n_resamples=400)
    for pair in micro.strata.pairs:
        assert pair.tests[0].name == "stratified-mcnemar-exact"
        a, b = columns[pair.a], columns[pair.b]
        b_only, a_only = int(((b == 1) & (a == 0)).sum()), int(((a == 1) & (b == 0)).sum())
        ref = binomtest(b_only, b_only + a_only, 0.5).pvalue  # scipy 1.x
        assert pair.tests[0].p_value == pytest.approx(ref, rel=1e-10)


def test_baseline_and_clusters(data):
    from statsmodels.stats.multitest import multipletests
    path, _, _ = data
    r = evalbars.leaderboard(path, stratum="subject", cluster="doc", baseline="m2",
                             correction="bonferroni", n_resamples=300)
    assert [(p.a, p.b) for p in r.strata.pairs] == [("m2", n) for n in r.strata.names
                                                    if n != "m2"]
    for pair in r.strata.pairs:
        c = evalbars.compare(path, a="m2", b=pair.b, stratum="subject", cluster="doc",
                             n_resamples=300)
        assert pair.difference == c.strata.difference and pair.tests == c.strata.tests
        assert pair.tests[0].name == "stratified-cluster-sign-flip"
    p = [pair.tests[0].p_value for pair in r.strata.pairs]
    assert [pair.p_adjusted for pair in r.strata.pairs] == pytest.approx(
        multipletests(p, method="bonferroni")[1], rel=1e-12)


def test_continuous_scores_use_the_sign_flip(tmp_path):
    path = tmp_path / "cont.csv"
    _write(path, binary=False)
    r = evalbars.leaderboard(path, stratum="subject", weights="macro", n_resamples=300)
    assert {pair.tests[0].name for pair in r.strata.pairs} == {"stratified-sign-flip"}
    assert r.to_dict()["strata"]["pairs"][0]["test"] == "stratified-sign-flip"


def test_document_statement_and_renderers(data, capsys):
    path, _, _ = data
    code = main(["leaderboard", str(path), "--stratum", "subject", "--weights", "macro",
                 "--n-resamples", "300", "--format", "json"])
    assert code in (0, None)
    doc = json.loads(capsys.readouterr().out)
    api = evalbars.leaderboard(path, stratum="subject", weights="macro", n_resamples=300)
    assert doc["strata"] == json.loads(json.dumps(api.to_dict()["strata"]))
    strata = doc["strata"]
    assert strata["weighting"] == "macro" and strata["n_strata"] == 3
    assert set(strata["pairs"][0]) == {"a", "b", "difference", "tests", "test", "p_value",
                                       "p_adjusted"}
    first = strata["models"][0]["name"]
    assert (f"Over 3 strata of 'subject' (a macro average, each stratum weighted equally), "
            f"{first} is first with") in doc["statement"]
    assert "pairs are separated (stratified-mcnemar-exact, Holm-adjusted)" in doc["statement"]
    text, markdown = render(doc, "text"), render(doc, "markdown")
    assert "Pairs, paired within strata (p-values holm-adjusted over 6 tests)" in text
    assert text.index("Each stratum") < text.index("\nResult\n")
    assert "| algebra | 15 | 0.333 |" in markdown


def test_no_strata_changes_nothing(data):
    path, _, _ = data
    plain = evalbars.leaderboard(path, n_resamples=300).to_dict()
    strata = evalbars.leaderboard(path, stratum="subject", n_resamples=300).to_dict()
    assert "strata" not in plain
    for key in ("models", "pairs", "groups"):
        assert plain[key] == strata[key]


def test_errors(data, capsys):
    path, _, _ = data
    with pytest.raises(EvalbarsError, match="weights= \\(--weights\\) weighs strata"):
        evalbars.leaderboard(path, weights="macro")
    assert main(["leaderboard", str(path), "--stratum", "nope"]) == 2
    assert "stratum='nope'" in capsys.readouterr().err
    assert main(["leaderboard", str(path), "--battles", "--stratum", "subject"]) == 2
    assert "--stratum applies only to per-question scores" in capsys.readouterr().err
    assert main(["leaderboard", str(path), "--battles", "--weights", "macro"]) == 2
    assert "--weights applies only" in capsys.readouterr().err


def test_lm_eval_group_read_line_points_to_stratum_task():
    a, b = "tests/data/logs/lm-eval/model_a", "tests/data/logs/lm-eval/model_b"
    described = evalbars.load(a, b, intersect=True).describe()
    assert "--stratum task weighs them as strata (--weights macro" in described
    r = evalbars.leaderboard(a, b, intersect=True, stratum="task", weights="macro",
                             n_resamples=200)
    assert [row.label for row in r.strata.rows] == ["mmlu_mini_anatomy", "mmlu_mini_astronomy"]
    for model, k in zip(r.strata.models, range(2)):
        per_task = [row.means[k] for row in r.strata.rows]
        assert model.estimate == pytest.approx(sum(per_task) / 2, rel=1e-12)


def test_docs_leaderboard_and_gate_excerpts_are_printed(capsys):
    import shlex
    from pathlib import Path
    lines = (Path(__file__).resolve().parents[2] / "docs" / "strata.md").read_text().split("\n")
    blocks, current, info = [], None, ""
    for line in lines:
        if line.startswith("```"):
            if current is None:
                current, info = [], line[3:].strip()
            else:
                blocks.append((info, current))
                current = None
        elif current is not None:
            current.append(line)
    checked = 0
    for (_, first), (info, second) in zip(blocks, blocks[1:]):
        if len(first) == 1 and first[0].startswith("$ evalbars ") and info == "text":
            main(shlex.split(first[0])[2:])
            printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
            for line in second:
                assert line.rstrip() in printed, (first[0], line)
            checked += 1
    assert checked == 2
