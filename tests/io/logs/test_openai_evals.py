"""OpenAI evals record files: evalbars.io.logs.openai_evals, through evalbars.io.ingest.load.

The fixtures follow ``evals/record.py`` of openai/evals (``LocalRecorder`` writes
``{"spec": RunSpec}``, then one ``Event`` per line: run_id, event_id, sample_id, type,
data, created_by, created_at; ``record_match`` puts ``correct``, ``expected`` and
``picked`` in ``data``; ``record_final_report`` writes ``{"final_report": ...}``) and
``evals/base.py`` (``RunSpec``).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

OWN = Path(__file__).parents[2] / "data" / "logs" / "openai-evals"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def record_file(tmp_path: Path, lines: list, name: str = "run.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                            for line in lines))
    return path


SPEC = {"spec": {"completion_fns": ["m"], "eval_name": "e.dev.v0", "run_id": "r1"}}


def match(sample_id, correct=True) -> dict:
    return {"run_id": "r1", "event_id": 0, "sample_id": sample_id, "type": "match",
            "data": {"correct": correct}}


def test_two_runs_with_repeats_and_an_unscored_sample():
    # run_a (gpt-3.5-turbo): arith.dev.0 true; .1 false; .2 true then false (two match
    # events: 0.5); .3 only a sampling event (unscored). run_b (gpt-4): true, true, true twice,
    # false.
    message = error(OWN / "run_a.jsonl", OWN / "run_b.jsonl")
    assert "'gpt-3.5-turbo' has no row for 1 item" in message
    assert "1 unscored answer left out" in message
    data = load(OWN / "run_a.jsonl", OWN / "run_b.jsonl", intersect=True)
    assert data.models == ("gpt-3.5-turbo", "gpt-4")
    assert data.items == ("arith.dev.0", "arith.dev.1", "arith.dev.2")
    assert data.scores.tolist() == [[1, 1], [0, 1], [0.5, 1]]
    assert data.counts.tolist() == [[1, 1], [1, 1], [2, 2]]
    assert "eval 'arith.dev.v0'" in data.describe()


def test_model_name_of_older_specs_and_of_the_file(tmp_path):
    old = record_file(tmp_path, [{"spec": {"model_name": "davinci", "eval_name": "e"}},
                                 match("s1")], "old.jsonl")
    assert load(old).models == ("davinci",)
    bare = record_file(tmp_path, [match("s1")], "bare.jsonl")
    assert load(bare).models == ("bare",)


def test_error_different_evals(tmp_path):
    other = record_file(tmp_path, [{"spec": {"eval_name": "other", "run_id": "x"}}, match("s")])
    assert "different evals" in error(OWN / "run_a.jsonl", other)


def test_error_empty_file(tmp_path):
    assert "is empty" in error(record_file(tmp_path, []), input_format="openai-evals")


@pytest.mark.parametrize("line, message", [
    ("{oops", "line 2 of"),
    ("[1, 2]", "is not a JSON object"),
    ({"hello": 1}, "neither the spec, an event"),
    (match(None), "sample_id None at line 2"),
    (match("s1", correct="yes"), "of the match event at line 2"),
])
def test_error_bad_lines(tmp_path, line, message):
    assert message in error(record_file(tmp_path, [SPEC, line]))


def test_error_options_of_other_formats():
    assert "openai-evals logs carry no cluster label" in error(OWN / "run_a.jsonl",
                                                              cluster="x")


def test_model_graded_log_file():
    # modelgraded.log follows evals/elsuite/modelgraded/classify.py: one metrics event per
    # sample, data {choice, score}, the score from the spec's choice_scores (Yes 1, No 0;
    # an invalid choice gets the lowest score, classify_utils.get_choice_score); dev.4 was
    # sampled but never graded. Its final report's score is the mean, 0.5.
    path = OWN / "modelgraded.log"
    data = load(path)
    assert data.models == ("gpt-3.5-turbo",)
    assert data.items == tuple(f"joke-fruits.dev.{k}" for k in range(4))
    assert data.scores[:, 0].tolist() == [1, 0, 1, 0]
    final = json.loads(path.read_text().splitlines()[-1])["final_report"]
    assert data.scores[:, 0].mean() == final["score"]
    text = data.describe()
    assert "score 'score' of each metrics event (model-graded)" in text
    assert "1 unscored answer left out" in text and "joke-fruits.dev.4" in text
    assert data.source["log"]["settings"]["event"] == "metrics"


def test_model_graded_other_key_and_errors(tmp_path):
    path = OWN / "modelgraded.log"
    assert "'choice' of the metrics event at line 4 of" in error(path, metric="choice")
    graded = record_file(tmp_path, [SPEC, {"run_id": "r1", "event_id": 0, "sample_id": "s.0",
                                           "type": "metrics", "data": {"score": 1}}], "g.log")
    matched = record_file(tmp_path, [SPEC, match("s.0")], "m.jsonl")
    assert "scored by different events ('metrics' in" in error(graded, matched)
    null = record_file(tmp_path, [SPEC, {"run_id": "r1", "event_id": 0, "sample_id": "s.0",
                                         "type": "metrics", "data": {"choice": "E",
                                                                     "score": None}}])
    assert "every metrics event of" in error(null) and "no choice_scores" in error(null)


def test_match_events_win_over_metrics_events(tmp_path):
    both = record_file(tmp_path, [SPEC, match("s.0", True),
                                  {"run_id": "r1", "event_id": 1, "sample_id": "s.0",
                                   "type": "metrics", "data": {"score": 0.0}}])
    assert load(both).scores.tolist() == [[1.0]]


WILD = Path(__file__).parents[4] / "shared" / "fixtures" / "logs" / "wild" / "openai-evals"
wild = pytest.mark.skipif(not WILD.is_dir(), reason="shared/fixtures/logs is not beside the repo")
SRL = WILD / "gpt-4-cot_semantic_role_recognition.jsonl"


@wild
def test_wild_model_graded_record(tmp_path):
    # A fork's model-graded run (wild/README.md): only metrics events, the score in
    # data.score. Its one metrics event (semantic_role_recognition.test.25, line 34) has
    # choice 'E' and score null: the 'fact' spec gives its choices no scores.
    assert "every metrics event of" in error(SRL)
    lines = SRL.read_text().splitlines()
    event = json.loads(lines[33])
    assert event["type"] == "metrics" and event["data"] == {"choice": "E", "score": None}
    event["data"]["score"] = 1.0  # as if the spec scored choice E as 1
    scored = tmp_path / "scored.log"
    scored.write_text("\n".join(lines[:33] + [json.dumps(event)]) + "\n")
    data = load(scored)
    assert data.models == ("zhishu/gpt-4-cot",)
    assert data.items == ("semantic_role_recognition.test.25",) and data.scores.tolist() == [[1]]
    # the other 8 samples were sampled but never graded (the record stops there)
    assert "8 unscored answers left out" in data.describe()


def test_a_log_file_that_is_not_a_record_file_is_not_taken_for_one(tmp_path):
    from evalbars.io.logs import detect
    text = tmp_path / "run.log"
    text.write_text("INFO starting the eval\n")
    assert detect(str(text)) is None
    records = tmp_path / "records.log"
    records.write_text((OWN / "run_a.jsonl").read_text())
    assert detect(str(records)) == "openai-evals"
