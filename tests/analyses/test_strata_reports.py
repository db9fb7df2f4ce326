"""Tests for stratum= / --stratum in ci and compare (evalbars.analyses.strata, io.strata,
report.text.strata): the section equals the stats functions it is built from, the CLI's
JSON equals the API's, and every bad input is one clear error (exit 2 from the CLI).

References: the numbers themselves are checked against R's survey package, statsmodels,
scipy and brute force in tests/stats/test_strata*.py; here a plain-Python loop over
strata checks the wiring on the example file.
"""
from __future__ import annotations

import doctest
import json
import math
import shlex
from pathlib import Path

import numpy as np
import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.report.text.render import render
from evalbars.stats.strata import stratified_mean
from evalbars.stats.strata_tests import stratified_mcnemar_exact

DATA = "examples/strata_subjects.csv"
WEIGHTS = "examples/strata_weights.csv"


def _columns():
    import csv
    with open(DATA, newline="") as f:
        rows = list(csv.DictReader(f))
    return ([r["subject"] for r in rows], np.array([float(r["model_a"]) for r in rows]),
            np.array([float(r["model_b"]) for r in rows]))


def test_ci_macro_against_a_loop():
    s, a, _ = _columns()
    r = evalbars.ci(DATA, stratum="subject", weights="macro", n_resamples=2000)
    agg = r.strata.models[0]
    labels = sorted(set(s))
    means = [a[[t == lab for t in s]].mean() for lab in labels]
    assert agg.name == "model_a" and agg.estimate == pytest.approx(np.mean(means), rel=1e-12)
    var = sum(np.var(a[[t == lab for t in s]], ddof=1) / s.count(lab) for lab in labels) / 16
    assert agg.se == pytest.approx(math.sqrt(var), rel=1e-12)
    assert [i.method for i in agg.intervals] == ["stratified-t", "stratified-normal",
                                                 "stratified-bootstrap-percentile"]
    doc = r.to_dict()["strata"]
    assert doc["column"] == "subject" and doc["weighting"] == "macro" and doc["n_strata"] == 4
    assert [row["label"] for row in doc["strata"]] == labels
    assert [row["n"] for row in doc["strata"]] == [30, 60, 90, 20]
    assert "macro average over" not in r.statement  # worded as below
    assert "Over 4 strata of 'subject' (a macro average, each stratum weighted equally)" \
        in r.statement


def test_micro_aggregate_is_the_plain_mean():
    r = evalbars.ci(DATA, stratum="subject", n_resamples=500)
    assert r.strata.weighting == "micro"
    for model, agg in zip(r.models, r.strata.models):
        assert agg.estimate == pytest.approx(model.mean, rel=1e-12)


def test_compare_gap_and_tests():
    s, a, b = _columns()
    r = evalbars.compare(DATA, stratum="subject", weights="macro", n_resamples=2000)
    gap = r.strata.difference
    assert gap.estimate == pytest.approx(stratified_mean(b - a, s).estimate, rel=1e-12)
    names = [t.name for t in r.strata.tests]
    assert names == ["stratified-mcnemar-exact", "stratified-sign-flip",
                     "stratified-mantel-haenszel"]
    assert r.strata.tests[0].p_value == pytest.approx(
        stratified_mcnemar_exact(a, b, s).p_value, rel=1e-12)
    assert "Paired within strata, the gap model_b \u2212 model_a is" in r.statement
    # the same seed gives the same numbers
    again = evalbars.compare(DATA, stratum="subject", weights="macro", n_resamples=2000)
    assert again.to_dict()["strata"] == r.to_dict()["strata"]


def test_given_weights_file_and_one_sided():
    r = evalbars.compare(DATA, stratum="subject", weights=WEIGHTS, alternative="greater",
                         n_resamples=500)
    doc = r.to_dict()["strata"]
    assert doc["weighting"] == "given" and doc["weights_file"] == WEIGHTS
    assert [row["weight"] for row in doc["strata"]] == [0.2, 0.2, 0.2, 0.4]
    assert doc["difference"]["intervals"][0]["high"] is None  # one-sided: at least low
    assert doc["models"][0]["intervals"][0]["high"] is not None  # models stay two-sided


def test_cli_json_equals_api_and_renders(capsys):
    code = main(["compare", DATA, "--stratum", "subject", "--weights", "macro",
                 "--n-resamples", "500", "--format", "json"])
    assert code in (0, None)
    doc = json.loads(capsys.readouterr().out)
    api = evalbars.compare(DATA, stratum="subject", weights="macro", n_resamples=500)
    assert doc["strata"] == json.loads(json.dumps(api.to_dict()["strata"]))
    text, markdown = render(doc, "text"), render(doc, "markdown")
    assert "Strata: over 4 strata of 'subject'" in text
    assert text.index("Each stratum") < text.index("\nResult\n")
    assert "| algebra | 30 | 0.25 |" in markdown
    assert markdown.index("**Strata**") < markdown.index("<sub>")


def test_lm_eval_tasks_become_strata():
    logs = "tests/data/logs/lm-eval/model_a"  # two mmlu_mini tasks: 3 + 3 questions
    r = evalbars.ci(logs, stratum="task", weights="macro", n_resamples=200)
    plain = evalbars.ci(logs, cluster="task", n_resamples=200)  # the same field as a cluster
    assert [row.label for row in r.strata.rows] == ["mmlu_mini_anatomy", "mmlu_mini_astronomy"]
    assert [row.n for row in r.strata.rows] == [3, 3]
    per_task = [row.means[0] for row in r.strata.rows]
    assert r.strata.models[0].estimate == pytest.approx(sum(per_task) / 2, rel=1e-12)
    assert r.models[0].mean == plain.models[0].mean
    assert any("2 of 2 strata have fewer than 5 questions" in w for w in r.warnings)


def test_loaded_results_carry_their_strata():
    # Read once: results loaded with the stratum give the same document as the file.
    loaded = evalbars.load(DATA, stratum="subject")
    for analysis in (evalbars.ci, evalbars.compare, evalbars.leaderboard):
        assert analysis(loaded, stratum="subject", n_resamples=300).to_dict() == \
            analysis(DATA, stratum="subject", n_resamples=300).to_dict()


def test_loaded_item_scores_without_the_stratum_and_lists_are_refused():
    with pytest.raises(EvalbarsError, match=r"stratum='subject' names a column of the input, "
                                            r"but these results were loaded without it: load "
                                            r"them with evalbars.load\(..., stratum='subject'\)"):
        evalbars.ci(evalbars.load(DATA), stratum="subject")
    with pytest.raises(EvalbarsError, match="a list of scores has none"):
        evalbars.ci([1, 0, 1, 1], stratum="subject")


def test_dataframe_input():
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv(DATA, dtype={"id": str})
    r = evalbars.compare(frame, stratum="subject", weights="macro", n_resamples=500)
    f = evalbars.compare(DATA, stratum="subject", weights="macro", n_resamples=500)
    assert r.to_dict()["strata"] == f.to_dict()["strata"]


@pytest.mark.parametrize("kwargs, message", [
    (dict(stratum="subj"), "stratum='subj'"),
    (dict(weights="macro"), "weights= (--weights) weighs strata: name the stratum column"),
    (dict(stratum="subject", weights="sized"), "cannot read the weights file 'sized'"),
    (dict(stratum="subject", weights={"algebra": 1}), "weights miss 3 of 4 strata"),
    (dict(stratum="subject", weights=3), "weights must be 'micro', 'macro', a file"),
])
def test_errors(kwargs, message):
    with pytest.raises(EvalbarsError) as info:
        evalbars.ci(DATA, n_resamples=100, **kwargs)
    assert message in str(info.value)


def test_item_in_two_strata_and_clusters_across_strata(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("id,model,subject,doc,score\nq1,a,law,d1,1\nq1,b,math,d1,0\n"
                    "q2,a,law,d1,1\nq2,b,law,d1,1\nq3,a,math,d2,0\nq3,b,math,d2,1\n")
    with pytest.raises(EvalbarsError) as info:
        evalbars.ci(path, stratum="subject", n_resamples=100)
    assert "more than one stratum (column 'subject')" in str(info.value)
    assert "'q1'" in str(info.value) and "cluster" not in str(info.value)
    path.write_text("id,model,subject,doc,score\nq1,a,law,d1,1\nq1,b,law,d1,0\n"
                    "q2,a,math,d1,1\nq2,b,math,d1,1\nq3,a,math,d2,0\nq3,b,math,d2,1\n")
    with pytest.raises(EvalbarsError, match="cluster 'd1' has item 'q1' in stratum 'law' and "
                                            "item 'q2' in stratum 'math'"):
        evalbars.ci(path, stratum="subject", cluster="doc", n_resamples=100)


def test_clusters_nested_in_strata(tmp_path):
    s, a, b = _columns()
    path = tmp_path / "nested.csv"
    with open(path, "w") as f:
        f.write("id,subject,doc,model_a,model_b\n")
        for i, (label, x, y) in enumerate(zip(s, a, b)):
            f.write(f"q{i:03d},{label},{label}-{i // 5},{int(x)},{int(y)}\n")
    r = evalbars.compare(path, stratum="subject", cluster="doc", weights="macro",
                         n_resamples=300)
    plain = evalbars.compare(DATA, stratum="subject", weights="macro", n_resamples=300)
    assert r.difference.clustered is not None  # the clustered report is kept
    assert r.strata.difference.estimate == pytest.approx(plain.strata.difference.estimate,
                                                         rel=1e-12)
    codes = [f"{label}-{i // 5}" for i, label in enumerate(s)]
    ref = stratified_mean(b - a, s, clusters=codes)  # the clustered stratified SE
    assert r.strata.difference.se == pytest.approx(ref.se, rel=1e-12)
    assert r.strata.difference.se != pytest.approx(plain.strata.difference.se, rel=1e-3)
    assert [t.name for t in r.strata.tests] == ["stratified-cluster-sign-flip"]
    assert r.to_dict()["strata"]["models"][0]["n_clusters"] == len(set(codes))


def test_weights_file_errors(tmp_path):
    from evalbars.io.strata import read_weights
    bad = tmp_path / "w.csv"
    for text, message in [("law,1\nlaw,2\n", "line 2: stratum 'law' is given twice (first on "
                                             "line 1)"),
                          ("stratum,weight\nlaw,x\n", "line 2: the weight of 'law' must be a "
                                                      "number; got 'x'"),
                          ("law,1,2\n", "line 1: expected 2 fields"),
                          ("law,-1\n", "must be a finite number >= 0"),
                          ("stratum,weight\n", "has no stratum,weight rows")]:
        bad.write_text(text)
        with pytest.raises(EvalbarsError) as info:
            read_weights(bad)
        assert message in str(info.value), str(info.value)


def test_cli_error_exit_2(capsys):
    assert main(["ci", DATA, "--stratum", "nope"]) == 2
    assert "stratum='nope'" in capsys.readouterr().err


# --- docs/strata.md runs as written ----------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "strata.md"


def _fenced(text: str) -> list[tuple[str, list[str]]]:
    """(info string, lines) of every fenced block of the page."""
    blocks, current, info = [], None, ""
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current, info = [], line[3:].strip()
            else:
                blocks.append((info, current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_docs_python_examples():
    blocks = [lines for info, lines in _fenced(DOCS.read_text()) if info == "python"]
    test = doctest.DocTestParser().get_doctest("\n".join(sum(blocks, [])), {}, "strata.md",
                                               str(DOCS), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4


def test_docs_excerpts_are_what_the_commands_print(capsys):
    blocks = _fenced(DOCS.read_text())
    checked = 0
    for (_, first), (info, second) in zip(blocks, blocks[1:]):
        if len(first) != 1 or not first[0].startswith("$ evalbars ") or info or \
                (second and second[0].startswith("$ ")):
            continue
        main(shlex.split(first[0])[2:])
        printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
        for line in second:
            assert line.rstrip() in printed, (first[0], line)
        checked += 1
    assert checked == 2


def test_forest_plot_of_strata_draws_the_document_numbers():
    pytest.importorskip("matplotlib")
    from evalbars.report.plots.strata import strata_forest
    doc = evalbars.compare(DATA, stratum="subject", weights="macro", n_resamples=300).to_dict()
    lines = {line.get_gid(): line for line in strata_forest(doc).axes[0].get_lines()}
    law = doc["strata"]["strata"][3]["models"][1]["interval"]
    assert list(lines["interval:law · model_b"].get_xdata()) == pytest.approx(
        [100 * law["low"], 100 * law["high"]])
    head = doc["strata"]["models"][0]["intervals"][0]
    assert list(lines["interval:macro average · model_a"].get_xdata()) == pytest.approx(
        [100 * head["low"], 100 * head["high"]])
    with pytest.raises(EvalbarsError, match="needs a ci or compare document made with stratum="):
        strata_forest(evalbars.ci(DATA, n_resamples=100).to_dict())


def test_ci_one_sided_bounds_on_the_aggregate():
    from scipy import stats as sps
    r = evalbars.ci(DATA, stratum="subject", weights="macro", alternative="greater",
                    n_resamples=500)
    agg = r.strata.models[0]
    t = agg.intervals[0]
    assert t.high == math.inf
    assert t.low == pytest.approx(agg.estimate - sps.t.ppf(0.95, agg.df) * agg.se, rel=1e-12)
    z = agg.intervals[1]
    assert z.low == pytest.approx(agg.estimate - sps.norm.ppf(0.95) * agg.se, rel=1e-12)
    assert agg.intervals[2].high == math.inf


def test_adding_a_model_changes_nothing_in_the_strata_section():
    alone = evalbars.ci(DATA, models=["model_b"], stratum="subject", n_resamples=500)
    both = evalbars.ci(DATA, stratum="subject", n_resamples=500)
    assert alone.strata.models[0] == both.strata.models[1]
    pair = evalbars.compare(DATA, a="model_a", b="model_b", stratum="subject",
                            n_resamples=500)
    assert pair.strata.models[1] == both.strata.models[1]  # a, b in the order asked
    swapped = evalbars.compare(DATA, a="model_b", b="model_a", stratum="subject",
                               n_resamples=500)
    low, high = pair.strata.difference.intervals[2].low, pair.strata.difference.intervals[2].high
    back = swapped.strata.difference.intervals[2]
    assert (back.low, back.high) == pytest.approx((-high, -low), abs=1e-12)


def test_statement_cuts_impossible_0_1_intervals_to_the_scale():
    """Two tiny strata make the stratified t interval of a 0/1 score run far past 100%
    (Satterthwaite df near 1): the statement shows it cut to the scale and says so, while
    the JSON keeps the whole interval."""
    logs = "tests/data/logs/lm-eval"
    result = evalbars.compare(f"{logs}/model_a", f"{logs}/model_b", stratum="task",
                              weights="macro", intersect=True)
    doc = result.to_dict()
    whole = doc["strata"]["models"][1]["intervals"][0]
    assert whole["low"] < 0.0 and whole["high"] > 1.0  # the JSON: as computed
    statement = " ".join(doc["statement"].split())
    assert "org/model-b 75.0% (0.0 to 100.0, cut to the scale)" in statement
    assert "-242.7" not in statement and "392.7" not in statement


def test_the_stratified_gap_is_named_as_the_plain_statement_names_it():
    logs = "tests/data/logs/lm-eval"
    doc = evalbars.compare(f"{logs}/model_a", f"{logs}/model_b", stratum="task",
                           intersect=True, n_resamples=200).to_dict()
    pair = "org/model-b \u2212 org/model-a"
    assert f"Difference {pair}: " in render(doc, "text")
    assert f"Paired within strata, the gap {pair} is " in " ".join(doc["statement"].split())
    assert f"\n  {pair}  " in render(doc, "text") and f"| {pair} |" in render(doc, "markdown")
    assert doc["strata"]["difference"]["name"] == "org/model-b - org/model-a"  # the JSON's
    assert "org/model-b - org/model-a" not in render(doc, "text") + render(doc, "markdown")


@pytest.mark.parametrize("analysis,options", [
    ("ci", {}), ("compare", {}), ("leaderboard", {}), ("gate", {"max_regression": 0.05}),
])
def test_lm_eval_read_line_suggests_a_stratum_only_when_none_was_given(analysis, options):
    logs = "tests/data/logs/lm-eval"
    run = getattr(evalbars, analysis)
    data = [f"{logs}/model_a", f"{logs}/model_b"]
    plain = run(*data, intersect=True, n_resamples=200, **options).to_dict()
    given = run(*data, intersect=True, n_resamples=200, stratum="task", **options).to_dict()
    if analysis == "gate":  # the read line of a gate is its comparison's
        plain, given = plain["comparison"], given["comparison"]
    said, unsaid = (doc["provenance"]["source"] for doc in (plain, given))
    fact = ("grouped benchmark 'mmlu_mini': its subtasks are fixed strata, not sampled "
            "clusters, so they are not clustered")
    assert said["description"].endswith(f"{fact}; --stratum task weighs them as strata "
                                        "(--weights macro: the group's macro average, "
                                        "docs/strata.md), --cluster task treats them as "
                                        "clusters")
    assert unsaid["description"].endswith(f"; {fact}") and "--stratum" not in str(unsaid)
    assert unsaid["log"]["notes"] == [fact] and said["log"]["notes"][0] == fact
    assert given["provenance"]["data_sha256"] == plain["provenance"]["data_sha256"]


@pytest.mark.parametrize("data,argv,command", [
    ([DATA], ["--stratum", "subject", "--weights", "macro"], "compare"),
    ([DATA], ["--stratum", "subject", "--weights", WEIGHTS, "--a", "model_b", "--b",
              "model_a"], "compare"),
    ([DATA], ["--stratum", "subject", "--models", "model_b", "--kind", "ci"], "ci"),
    (["tests/data/logs/lm-eval/model_a", "tests/data/logs/lm-eval/model_b"],
     ["--stratum", "task", "--weights", "macro", "--intersect"], "compare"),
])
def test_report_with_a_stratum_is_the_commands_document(capsys, tmp_path, data, argv,
                                                         command):
    same = [a for a in argv if a not in ("--kind", "ci")]
    assert main([command, *data, *same, "--format", "json", "--n-resamples", "500"]) == 0
    expected = capsys.readouterr().out
    doc = json.loads(expected)
    if command == "compare":  # the last aggregate row: the gap paired within strata
        pair = doc["difference"]
        row, estimate = f"{pair['b']} \u2212 {pair['a']}", doc["strata"]["difference"]
        shown = f"{100 * estimate['estimate']:+.1f}".replace("-", "\u2212")
    else:
        estimate = doc["strata"]["models"][0]
        row, shown = estimate["name"], f"{100 * estimate['estimate']:.1f}"
    for suffix in (".html", ".md", ".tex"):
        out = tmp_path / f"report{suffix}"
        assert main(["report", *data, *argv, "-o", str(out), "--format", "json",
                     "--n-resamples", "500"]) == 0
        assert capsys.readouterr().out == expected  # the same document, number for number
        text = out.read_text(encoding="utf-8")
        for model in doc["strata"]["models"]:  # each weighted average, its stratified-t end
            high = model["intervals"][0]["high"]
            assert f"{100 * model['estimate']:.1f}" in text and f"{100 * high:.1f}" in text
    assert f"| {row} | {shown} |" in (tmp_path / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv,message", [
    (["--stratum", "nope"], "stratum='nope'"),
    (["--weights", "macro"], "weights= (--weights) weighs strata: name the stratum column"),
    (["--from-json", "SAVED", "--stratum", "subject"],
     "--stratum and --weights say how to analyse DATA; a --from-json document already "
     "holds its strata"),
])
def test_report_stratum_errors_exit_2(capsys, tmp_path, argv, message):
    saved = tmp_path / "saved.json"
    assert main(["ci", DATA, "--format", "json", "--n-resamples", "200"]) == 0
    saved.write_text(capsys.readouterr().out)
    data = [] if "--from-json" in argv else [DATA]
    out = tmp_path / "never.html"
    argv = [str(saved) if a == "SAVED" else a for a in argv]
    assert main(["report", *data, *argv, "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err
    assert not out.exists()


def test_a_stratified_csv_compare_imports_no_log_reader():
    """Leaving out lm-eval's advice (io.strata.stratum_given) imports that reader only for
    a log."""
    import subprocess
    import sys
    code = ("import sys, evalbars; evalbars.compare(sys.argv[1], stratum='subject', "
            "n_resamples=100); print(sorted(m for m in sys.modules "
            "if m.startswith('evalbars.io.logs.') and not m.split('.')[-1].startswith('_')))")
    done = subprocess.run([sys.executable, "-c", code, DATA], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines()[-1] == "[]"
