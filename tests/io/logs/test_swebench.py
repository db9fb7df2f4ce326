"""SWE-bench evaluation reports: evalbars.io.logs.swebench, through evalbars.io.ingest.load.

The fixtures (tests/data/logs/swebench/README.md) follow ``make_run_report`` in
``swebench/harness/reporting.py`` (schema 2 and the v2.0 report) and ``get_eval_report`` in
``swebench/harness/grading.py`` (instance ``report.json``) of SWE-bench/SWE-bench.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ingest_helpers import cli_error

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load
from evalbars.io.logs import detect

DATA = Path(__file__).parents[2] / "data" / "logs" / "swebench"
GPT = DATA / "openai__gpt-4o.lite_run.json"
CLAUDE = DATA / "anthropic__claude-3.5-sonnet.lite_run.json"
OLD = DATA / "v2.0" / "swe-agent.run1.json"
INSTANCES = DATA / "logs"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def report(tmp_path: Path, name="org__m.run.json", **lists) -> Path:
    body = {"resolved_ids": [], "unresolved_ids": [], **lists}
    path = tmp_path / name
    path.write_text(json.dumps(body))
    return path


@pytest.mark.parametrize("path", [GPT, OLD, INSTANCES, next(INSTANCES.rglob("report.json"))])
def test_detected(path):
    assert detect(str(path)) == "swebench"


def test_run_reports_resolved_of_submitted():
    data = load(GPT, CLAUDE)
    assert data.models == ("openai/gpt-4o", "anthropic/claude-3.5-sonnet")
    assert len(data.items) == 6
    gpt = dict(zip(data.items, data.column("openai/gpt-4o").tolist()))
    # resolved: 12907, 11099; unresolved 14182, 20590; error 11133; empty patch 24152
    assert gpt == {"astropy__astropy-12907": 1, "astropy__astropy-14182": 0,
                   "django__django-11099": 1, "django__django-11133": 0,
                   "sympy__sympy-20590": 0, "sympy__sympy-24152": 0}
    # SWE-bench's own rate: resolved_instances / submitted_instances of the report
    body = json.loads(GPT.read_text())
    assert data.column("openai/gpt-4o").mean() == body["resolved_instances"] / body[
        "submitted_instances"]
    text = data.describe()
    assert "as SWE-bench counts resolved of submitted" in text
    assert "2 resolved, 2 unresolved, 1 empty patch, 1 error of 6 submitted" in text
    assert "2 dataset instances without a prediction (incomplete_ids)" in text


def test_v2_0_report():
    data = load(OLD)
    assert data.models == ("swe-agent",)
    assert data.column("swe-agent").tolist() == [1, 0, 0, 0]
    assert "a SWE-bench v2.0 report" in data.describe()


def test_instance_reports_folder():
    data = load(INSTANCES)
    assert data.models == ("openai/gpt-4o",)
    assert data.column("openai/gpt-4o").tolist() == [1, 0, 0, 0]
    # django__django-11133's patch did not apply: unresolved, as make_run_report counts it
    assert "1 resolved, 2 unresolved, 1 empty patch of 4 submitted" in data.describe()


def test_not_evaluated_is_unscored(tmp_path):
    path = report(tmp_path, submitted_ids=["a", "b", "c"], resolved_ids=["a"],
                  unresolved_ids=["b"])
    data = load(path, intersect=True)
    assert data.items == ("a", "b")
    assert "1 unscored answer" in data.describe() and "'c'" in data.describe()


def test_errors(tmp_path):
    assert "in both resolved_ids and error_ids" in error(
        report(tmp_path, resolved_ids=["a"], error_ids=["a"], submitted_ids=["a"]))
    assert "twice in unresolved_ids" in error(report(tmp_path, unresolved_ids=["a", "a"]))
    assert "not in its submitted_ids: 'b'" in error(
        report(tmp_path, resolved_ids=["b"], submitted_ids=["a"]))
    assert "resolved_ids[1] of" in error(report(tmp_path, resolved_ids=["a", 3.5]))
    assert "error_ids of" in error(report(tmp_path, error_ids="a"))
    assert "one score, 'resolved'" in error(GPT, metric="acc")
    bad = tmp_path / "run" / "m" / "i1" / "report.json"
    bad.parent.mkdir(parents=True)
    bad.write_text(json.dumps({"i1": {"patch_exists": True, "resolved": "yes"}}))
    assert "resolved of 'i1'" in error(bad, input_format="swebench")
    bad.write_text(json.dumps({"i1": {"resolved": True}, "i2": {}}))
    assert "is not a SWE-bench instance report" in error(bad, input_format="swebench")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "found no SWE-bench report.json" in error(empty, input_format="swebench")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"resolved": 2}))
    assert "is not a SWE-bench run report" in error(other, input_format="swebench")


@pytest.mark.parametrize("resolved, shown", [
    (1e300, "1e+300"), (float("inf"), "inf"), (float("nan"), "nan"), (1, "1"),
    ("true", "'true'"), (None, "None"),
])
def test_error_resolved_that_is_not_a_boolean(tmp_path, capsys, resolved, shown):
    path = tmp_path / "run" / "m" / "i1" / "report.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"i1": {"patch_exists": True, "resolved": resolved}}))
    assert cli_error(capsys, "ci", path) == (
        f"resolved of 'i1' in {str(path)!r} is {shown}, not true or false")


@pytest.mark.parametrize("iid, shown", [
    (1e300, "1e+300"), (float("nan"), "nan"), (True, "True"), (["a"], "['a']"),
])
def test_error_run_report_id_that_is_not_an_id(tmp_path, capsys, iid, shown):
    path = report(tmp_path, resolved_ids=["a", iid])
    assert cli_error(capsys, "ci", path) == (
        f"resolved_ids[1] of {str(path)!r} is {shown}, not an instance id")
