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
