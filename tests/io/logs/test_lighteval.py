"""lighteval details Parquet: evalbars.io.logs.lighteval, through evalbars.io.ingest.load.

The fixtures (tests/data/logs/lighteval/README.md) follow ``DetailsLogger.Detail`` and
``EvaluationTracker.save`` of huggingface/lighteval in its three layouts: text columns (up
to v0.7), typed columns with a ``metrics`` struct (v0.8 to v0.10), and ``doc`` /
``metric`` / ``model_response`` structs (v0.11 and later).
"""
from __future__ import annotations

import builtins
from pathlib import Path

import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load
from evalbars.io.logs import detect

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

DATA = Path(__file__).parents[2] / "data" / "logs" / "lighteval"
V11 = DATA / "v0.11" / "details"
V8 = DATA / "v0.8"
V7 = DATA / "v0.7"
DATE = "2025-01-01T00-00-00.000000"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def details(tmp_path: Path, rows: list, model="org/m", task="lighteval|t|0", date=DATE) -> Path:
    path = tmp_path / "details" / model / date / f"details_{task}_{date}.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


@pytest.mark.parametrize("path", [V11, V8, V7, next(V8.rglob("*.parquet"))])
def test_detected(path):
    assert detect(str(path)) == "lighteval"


def test_v0_11_doc_ids_and_model_from_details_folder():
    data = load(V11)
    assert data.models == ("HuggingFaceTB/SmolLM2-135M", "HuggingFaceTB/SmolLM2-360M")
    assert data.items == ("gsm8k|5/0", "gsm8k|5/1", "gsm8k|5/2", "gsm8k|5/3")
    assert data.column("HuggingFaceTB/SmolLM2-135M").tolist() == [1, 0, 0, 1]
    assert data.column("HuggingFaceTB/SmolLM2-360M").tolist() == [1, 1, 0, 1]
    assert "metric 'extractive_match' (default: the task's first)" in data.describe()


def test_v0_8_typed_struct_metrics_and_metric_choice():
    assert load(V8).column("EleutherAI/pythia-160m").tolist() == [1, 0, 1, 0, 1]
    data = load(V8, metric="acc_norm")
    assert data.column("EleutherAI/pythia-160m").tolist() == [1, 1, 0, 0, 1]
    assert data.items[0] == "lighteval_arc_easy_0/0"


def test_v0_7_text_columns_leaderboard_folder_and_nan_unscored():
    data = load(V7, intersect=True)
    assert data.models == ("EleutherAI/pythia-410m",)
    assert data.column("EleutherAI/pythia-410m").tolist() == [1, 1, 0, 1]
    assert "'leaderboard_arc_challenge_25/4'" in data.describe()


def test_text_metrics_with_numpy_scalars(tmp_path):
    rows = [{"example": "q0", "metrics": "{'acc': np.float64(1.0)}"},
            {"example": "q1", "metrics": "{'acc': np.False_}"},
            {"example": "q2", "metrics": "{'acc': -inf}"}]
    assert "is -inf, not a number" in error(details(tmp_path, rows))
    rows[2]["metrics"] = "{'acc': 0}"
    assert load(details(tmp_path, rows)).column("org/m").tolist() == [1, 0, 0]


def test_text_metrics_are_never_run(tmp_path):
    rows = [{"example": "q0", "metrics": "{'acc': __import__('os').getpid()}"}]
    assert "not a dict of metric names and values" in error(details(tmp_path, rows))


def test_model_from_the_folder_outside_a_date_folder(tmp_path, monkeypatch):
    path = tmp_path / "my-model" / f"details_t_{DATE}.parquet"
    path.parent.mkdir()
    pq.write_table(pa.Table.from_pylist([{"example": "q", "metrics": {"acc": 1.0}}]), path)
    assert load(path).models == ("my-model",)
    monkeypatch.setattr("evalbars.io.logs.lighteval.MAX_PARQUET_BYTES", 10)
    assert "refusing to read it" in error(path)


def test_runs_must_ask_the_same_questions(tmp_path):
    a = details(tmp_path, [{"example": "q0", "metrics": {"acc": 1.0}},
                           {"example": "q1", "metrics": {"acc": 0.0}}], model="a")
    b = details(tmp_path, [{"example": "q0", "metrics": {"acc": 1.0}},
                           {"example": "other", "metrics": {"acc": 0.0}}], model="b")
    message = error(a, b)
    assert "'lighteval|t|0/1' (row 1, 0-based) asks another question" in message


def test_errors(tmp_path):
    assert "has no metric 'f1'" in error(V8, metric="f1")
    assert "'acc', 'acc_norm'" in error(V8, metric="f1")
    bad = details(tmp_path, [{"example": "q", "metrics": "not a dict"}])
    assert "not a dict of metric names and values" in error(bad)
    other = details(tmp_path, [{"question": "q", "score": 1.0}], task="x")
    assert "is not a lighteval details file" in error(other)
    assert "'question', 'score'" in error(other)
    text = details(tmp_path, [{"example": "q", "metrics": {"acc": "high"}}], task="y")
    assert "metric 'acc' at row 0 (0-based)" in error(text)
    assert "are empty" in error(details(tmp_path, [{"example": "q", "metrics": "{}"}], task="e"))
    no_rows = details(tmp_path, [{"example": "q", "metrics": {"acc": 1.0}}], task="n")
    pq.write_table(pa.Table.from_pylist([{"example": "q", "metrics": {"acc": 1.0}}]).slice(0, 0),
                   no_rows)
    assert "has no rows" in error(no_rows)
    empty = tmp_path / "none"
    empty.mkdir()
    assert "found no lighteval details" in error(empty, input_format="lighteval")
    broken = tmp_path / f"details_z_{DATE}.parquet"
    broken.write_bytes(b"PAR1 not parquet")
    assert "cannot read" in error(broken)


def test_two_runs_of_a_model_are_told_apart_by_date(tmp_path):
    later = DATE.replace("01T", "02T")
    for date in (DATE, later):
        details(tmp_path, [{"example": "q", "metrics": {"acc": 1.0}}], date=date)
    assert load(tmp_path / "details").models == (f"org/m@{DATE}", f"org/m@{later}")


def test_one_run_of_several_tasks(tmp_path):
    details(tmp_path, [{"example": "q", "metrics": {"acc": 1.0}}], task="lighteval|a|0")
    details(tmp_path, [{"example": "q", "metrics": {"em": 0.0}}], task="lighteval|b|0")
    data = load(tmp_path / "details")
    assert data.models == ("org/m",)
    assert data.items == ("lighteval|a|0/0", "lighteval|b|0/0")
    assert "task 'lighteval|a|0': metric 'acc' (default: the task's first); task " \
        "'lighteval|b|0': metric 'em'" in data.describe()


def test_pyarrow_missing_is_one_clear_line(monkeypatch):
    real = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    assert "needs pyarrow: pip install 'evalbars[parquet]'" in error(V8)
