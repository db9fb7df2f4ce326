"""EvalPlus eval_results.json: evalbars.io.logs.evalplus, through evalbars.io.ingest.load.

The fixtures (tests/data/logs/evalplus/README.md) follow ``evalplus/evaluate.py`` of
evalplus/evalplus: v0.2.1+ ``eval`` -> task_id -> one entry per sample with
``base_status`` / ``plus_status``, and the v0.2.0 ``{"nfiles", "base", "plus"}`` layout.
"""
from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest
from ingest_helpers import cli_error

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load
from evalbars.io.logs import detect

DATA = Path(__file__).parents[2] / "data" / "logs" / "evalplus"
DEEPSEEK = DATA / "humaneval" / "deepseek-coder_vllm_temp_0.8_eval_results.json"
CODELLAMA = DATA / "humaneval" / "codellama_vllm_temp_0.8_eval_results.json"
OLD = DATA / "old_v0.2.0" / "starcoder_temp_0.2" / "eval_results.json"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def write(tmp_path: Path, document, name="m_eval_results.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def evalplus_pass_at_1(path: Path, metric: str) -> float:
    """pass@1 as evalplus.evaluate computes it: the unbiased estimator of HumanEval
    (1 - C(n - c, 1) / C(n, 1) per task, averaged), with a plus pass needing
    base_status == plus_status == "pass"."""
    tasks = json.loads(path.read_text())["eval"].values()
    estimates = []
    for samples in tasks:
        n = len(samples)
        c = sum(s["base_status"] == "pass" and (metric == "base" or s["plus_status"] == "pass")
                for s in samples)
        estimates.append(1 - comb(n - c, 1) / comb(n, 1))
    return sum(estimates) / len(estimates)


def test_detected_by_shape():
    assert detect(str(DEEPSEEK)) == detect(str(OLD)) == "evalplus"


@pytest.mark.parametrize("metric", ["plus", "base"])
def test_means_are_evalplus_pass_at_1(metric):
    data = load(DEEPSEEK, metric=None if metric == "plus" else metric)
    assert data.models == ("deepseek-coder_vllm_temp_0.8",)
    assert data.items == ("HumanEval/0", "HumanEval/1", "HumanEval/2", "HumanEval/3")
    assert data.counts.min() == data.counts.max() == 3
    # the file's own pass_at_k, written as evalplus.evaluate writes it
    written = json.loads(DEEPSEEK.read_text())["pass_at_k"][metric]["pass@1"]
    assert data.column(data.models[0]).mean() == pytest.approx(written)
    assert data.column(data.models[0]).mean() == pytest.approx(evalplus_pass_at_1(DEEPSEEK, metric))


def test_plus_needs_base_pass_and_null_status_is_unscored():
    data = load(CODELLAMA, DEEPSEEK)
    # codellama HumanEval/3: (pass, fail), (pass, null) unscored, (pass, pass) -> 1/2
    assert data.column("codellama_vllm_temp_0.8").tolist() == [1 / 3, 1, 1 / 3, 0.5]
    assert "1 unscored answer" in data.describe() and "'HumanEval/3'" in data.describe()


def test_old_layout_and_folder_name():
    data = load(OLD)
    assert data.models == ("starcoder_temp_0.2",)
    # plus: HumanEval/0 success/success, failed/failed; /1 success/timed out, success/success;
    # /2 failed/failed, success/success
    assert data.column("starcoder_temp_0.2").tolist() == [0.5, 0.5, 0.5]
    assert load(OLD, metric="base").column("starcoder_temp_0.2").tolist() == [0.5, 1, 0.5]


def test_errors(tmp_path):
    assert "not an EvalPlus metric" in error(DEEPSEEK, metric="pass@1")
    base_only = write(tmp_path, {"eval": {"HumanEval/0": [
        {"base_status": "pass", "plus_status": None}]}})
    assert "--base-only" in error(base_only)
    assert load(base_only, metric="base").column("m").tolist() == [1]
    odd = write(tmp_path, {"eval": {"HumanEval/0": [{"base_status": "ok", "plus_status": "pass"}]}})
    message = error(odd)
    assert "base_status of sample 0 of task 'HumanEval/0'" in message and "'ok'" in message
    mixed = write(tmp_path, {"eval": {"HumanEval/0": [{"base_status": "pass"}],
                                      "HumanEval/1": "pass"}})
    assert "task 'HumanEval/1'" in error(mixed, metric="base")
    assert "sample 1 of task 'T/0' of" in error(
        write(tmp_path, {"eval": {"T/0": [{"base_status": "pass"}, "pass"]}}), metric="base")
    short = write(tmp_path, {"eval": {"T/0": {"nfiles": 2, "base": [["success", []]] * 2,
                                              "plus": [["success", []]]}}})
    assert "2 base statuses but 1 plus" in error(short)
    assert "is not an EvalPlus eval_results.json" in error(
        write(tmp_path, {"eval": {}}), input_format="evalplus")
    assert "does not apply to evalplus" in error(DEEPSEEK, scorer="x")


@pytest.mark.parametrize("status, shown", [
    (1e300, "1e+300"), (float("inf"), "inf"), (float("nan"), "nan"), (True, "True"),
    (1, "1"), ("1", "'1'"),
])
def test_error_status_that_is_not_a_status_word(tmp_path, capsys, status, shown):
    # a status is one of EvalPlus's words: no number, boolean or NaN is read as a score
    path = write(tmp_path, {"eval": {"HumanEval/0": [
        {"base_status": "pass", "plus_status": "pass"},
        {"base_status": "pass", "plus_status": status}]}})
    assert cli_error(capsys, "ci", path) == (
        f"the plus_status of sample 1 of task 'HumanEval/0' of {str(path)!r} is {shown}, not "
        f"one of 'pass', 'fail', 'timeout', 'success', 'failed', 'timed out' or null")
