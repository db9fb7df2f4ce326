"""promptfoo output: evalbars.io.logs.promptfoo, through evalbars.io.ingest.load.

The fixtures follow promptfoo's own types (``src/types/index.ts`` of promptfoo/promptfoo:
``OutputFile`` = {evalId, results: EvaluateSummaryV3, config, shareableUrl};
``EvaluateResult`` = {promptIdx, testIdx, testCase, provider {id, label}, success, score,
namedScores, failureReason (0 none, 1 assert, 2 error), ...}) and its evaluator, which
numbers each ``--repeat`` of a test as a new ``testIdx``.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ingest_helpers import cli_error

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

OWN = Path(__file__).parents[2] / "data" / "logs" / "promptfoo"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def output(tmp_path: Path, entries: list) -> Path:
    path = tmp_path / "out.json"
    path.write_text(json.dumps({"evalId": "e", "results": {"version": 3, "results": entries}}))
    return path


def entry(test=0, **fields) -> dict:
    return {"testIdx": test, "promptIdx": 0, "provider": {"id": "echo"}, "success": True,
            "score": 1, "testCase": {"vars": {"q": str(test)}}, **fields}


def test_repeats_providers_and_errors():
    # results.json: tests 0-2 run twice (--repeat 2: testIdx 3-5 repeat 0-2), providers
    # "mini" (label) and "openai:gpt-4o" (id only). success of mini: t0 T T, t1 F T, t2 T and
    # an error (failureReason 2, unscored); gpt-4o: t0 T T, t1 T T, t2 F F.
    data = load(OWN / "results.json")
    assert data.models == ("mini", "openai:gpt-4o")
    assert data.items == ("0", "1", "2")
    assert data.column("mini").tolist() == [1.0, 0.5, 1.0]
    assert data.column("openai:gpt-4o").tolist() == [1.0, 1.0, 0.0]
    assert data.counts.tolist() == [[2, 2], [2, 2], [1, 2]]
    assert data.source["log"]["unscored"] == {"mini": {"count": 1, "ids": ["2"]}}
    assert "3 tests were run more than once by a model (--repeat)" in data.describe()


def test_graded_score_and_named_scores():
    # score of mini: t0 1, 1; t1 0.4, 1; t2 1 (error left out); gpt-4o: 1 1, 1 0.9, 0 0.2
    data = load(OWN / "results.json", metric="score")
    assert data.column("mini").tolist() == [1.0, 0.7, 1.0]
    assert data.column("openai:gpt-4o").tolist() == pytest.approx([1.0, 0.95, 0.1])
    assert load(OWN / "results.json", metric="accuracy").scores.tolist() == \
        data.scores.tolist()  # namedScores.accuracy repeats the score


def test_cluster_by_a_variable():
    data = load(OWN / "results.json", cluster="vars.topic")
    assert data.clusters == ("math", "math", "geo")


def test_two_files_one_provider_name():
    data = load(OWN / "results.json", OWN / "results_b.json", models=["mini@results",
                                                                      "mini@results_b"])
    assert data.models == ("mini@results", "mini@results_b")
    assert data.column("mini@results_b").tolist() == [0, 1, 1]


def test_several_prompts_of_one_provider(tmp_path):
    path = output(tmp_path, [entry(0), entry(0, promptIdx=1, success=False)])
    assert load(path).models == ("echo [prompt 0]", "echo [prompt 1]")


def test_bare_summary_is_read(tmp_path):
    path = tmp_path / "summary.json"
    path.write_text(json.dumps({"version": 3, "results": [entry(0), entry(1, success=False)]}))
    assert load(path).scores[:, 0].tolist() == [1, 0]


def test_error_not_promptfoo_output(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"results": {"results": []}}')
    assert "is not promptfoo output with results" in error(path, input_format="promptfoo")


def test_error_entry_without_test_index(tmp_path):
    path = output(tmp_path, [entry(0), {"promptIdx": 0}])
    assert "results[1] of" in error(path) and "no testIdx" in error(path)


def test_error_test_index(tmp_path):
    assert "testIdx 1.5 at results[0]" in error(output(tmp_path, [entry(1.5)]))


def test_error_score_not_a_number(tmp_path):
    assert "'success' at results[0]" in error(output(tmp_path, [entry(0, success="ok")]))


@pytest.mark.parametrize("value, refusal", [
    (1e300, "column 'score' of the promptfoo log {p!r} has 1 value that is not a finite "
            "number within \u00b11e100: 1e+300 at results[1] of {p!r}; scores must be such "
            "numbers, and the harness wrote this one: fix the log or remove that record"),
    ("-1e300", "column 'score' of the promptfoo log {p!r} has 1 value that is not a finite "
               "number within \u00b11e100: -1e+300 at results[1] of {p!r}; scores must be "
               "such numbers, and the harness wrote this one: fix the log or remove that "
               "record"),
    (float("inf"), "'score' at results[1] of {p!r} is inf, not a number"),  # JSON Infinity
    ("1_0", "'score' at results[1] of {p!r} is '1_0', not a number"),  # float() reads 10
    ([1], "'score' at results[1] of {p!r} is [1], not a number"),
])
def test_error_score_refused_naming_the_entry(tmp_path, capsys, value, refusal):
    path = output(tmp_path, [entry(0), entry(1, score=value)])
    assert cli_error(capsys, "ci", path, "--metric", "score") == refusal.format(p=str(path))


def test_error_scores_beyond_1e100_say_the_log_is_to_be_fixed(tmp_path):
    path = output(tmp_path, [entry(0, score=1e200), entry(1), entry(2, score=-1e200)])
    p = str(path)
    assert error(path, metric="score") == (
        f"column 'score' of the promptfoo log {p!r} has 2 values that are not a finite number "
        f"within \u00b11e100: 1e+200 at results[0] of {p!r}, -1e+200 at results[2] of {p!r}; "
        f"scores must be such numbers, and the harness wrote these: fix the log or remove "
        f"those records")


def test_nan_is_unscored_booleans_and_numeric_text_are_read_as_in_tables(tmp_path):
    path = output(tmp_path, [entry(0, score=float("nan")), entry(1, score=True),
                             entry(2, score=" 0.25 ")])
    assert "NaN" in path.read_text()  # the token json writes, and reads back as nan
    data = load(path, metric="score")
    assert data.items == ("1", "2") and data.scores[:, 0].tolist() == [1.0, 0.25]
    assert data.source["log"]["unscored"] == {"echo": {"count": 1, "ids": ["0"]}}


def test_error_cluster(tmp_path):
    path = output(tmp_path, [entry(0)])
    assert "'vars.KEY'" in error(path, cluster="topic")
    assert "no string or integer vars 'topic'" in error(path, cluster="vars.topic")


def test_error_options_of_other_formats(tmp_path):
    assert "scorer= (--scorer) does not apply to promptfoo logs" in error(
        output(tmp_path, [entry(0)]), scorer="x")


def test_error_files_of_different_test_suites():
    # other_suite.json asks other questions at the same test indices: test 0 is "Capital of
    # Italy" there but "2+2" in results_b.json; paired by index, they would compare
    # different questions.
    message = error(OWN / "results_b.json", OWN / "other_suite.json")
    assert message.startswith("test 0 is not the same test in ")
    assert "results_b.json' and '" in message and "other_suite.json': its vars are {" in message
    assert "'2+2'" in message and "'Capital of Italy'" in message
    assert "compare runs of one test suite" in message


def test_same_suite_other_order_refused_and_same_suite_paired(tmp_path):
    # The same two tests in the other order: test 0 differs, so refused.
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    tests = [entry(0), entry(1)]
    a.write_text(json.dumps({"results": {"results": tests}}))
    swapped = [dict(entry(0), testCase={"vars": {"q": "1"}}),
               dict(entry(1), testCase={"vars": {"q": "0"}})]
    b.write_text(json.dumps({"results": {"results": swapped}}))
    assert "test 0 is not the same test in" in error(a, b)
    b.write_text(json.dumps({"results": {"results": [
        dict(e, testCase={**e["testCase"], "assert": [{"type": "equals", "value": "x"}]})
        for e in tests]}}))
    assert "its assert are None in one and [{'type': 'equals', 'value': 'x'}] in the other" \
        in error(a, b)
    b.write_text(json.dumps({"results": {"results": [dict(e, success=False) for e in tests]}}))
    data = load(a, b)
    assert data.models == ("echo@a", "echo@b") and data.scores.tolist() == [[1, 0], [1, 0]]
