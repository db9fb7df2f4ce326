"""The wide layout through DuckDB: the in-memory reader's fields, or its message word for
word (the reference: evalbars' in-memory reader, itself tested against hand-computed
values in tests/io/test_ingest.py and tests/io/test_layouts*.py)."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from engine_data import random_wide_table, same_fields

import evalbars
from evalbars.core.errors import EvalbarsError
from evalbars.io.engines import choose

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")


def _load_both(path, **options):
    outcomes = []
    for engine in ("memory", "duckdb"):
        try:
            outcomes.append(evalbars.load(path, engine=engine, **options))
        except EvalbarsError as exc:
            outcomes.append(str(exc))
    return outcomes


def _write(path, header, rows, fmt):
    if fmt == "jsonl":  # numbers as JSON numbers where they read as such, else strings
        def value(text):
            try:
                return None if text == "" else json.loads(text)
            except ValueError:
                return text
        path.write_text("".join(json.dumps(dict(zip(header, map(value, row)))) + "\n"
                                for row in rows))
    elif fmt == "csv":
        path.write_text(",".join(header) + "\n" + "".join(",".join(row) + "\n" for row in rows))
    else:
        import pyarrow.parquet as pq

        columns = list(zip(*rows)) if rows else [[] for _ in header]
        pq.write_table(pa.table({h: pa.array([None if v == "" else v for v in c], pa.string())
                                 for h, c in zip(header, columns)}), path)


@pytest.mark.parametrize("fmt", ["csv", "parquet", "jsonl"])
def test_random_flawed_wide_tables_load_alike(tmp_path, fmt):
    """150 random wide tables with random flaws: the same fields or the same message."""
    rng = random.Random({"csv": 14, "parquet": 15, "jsonl": 16}[fmt])
    errors = 0
    for case in range(150):
        header, rows, options = random_wide_table(rng)
        if fmt != "csv" and (len(set(header)) < len(header) or "" in header):
            continue  # Parquet and JSON objects keep no such header
        path = tmp_path / f"w{case}.{fmt}"
        _write(path, header, rows, fmt)
        memory, duck = _load_both(path, **options)
        if isinstance(memory, str) or isinstance(duck, str):
            errors += 1
            assert duck == memory, (case, options)
        else:
            same_fields(memory, duck)
    assert 30 < errors < 140  # both outcomes are exercised


WIDE = "id,topic,a,b\nq2,t1,1,0\nq1,t2,0,0\nq3,t1,1,1\n"


@pytest.mark.parametrize("text, options, expected", [
    (WIDE + "q1,t2,1,1\n", {}, ("1 item id is repeated in column 'id' of '{path}': 'q1' "
                                "at lines 3, 5")),
    (WIDE.replace("q3,t1,1,1", "q3,t1,x,1"), {}, "'x' at line 4"),
    (WIDE.replace("q3,t1,1,1", "q3,t1,,1"), {}, "missing scores"),
    (WIDE.replace("q3,t1", "q3,t2"), {"cluster": "topic"}, None),
    ("id,a,b\n" + "".join(f"q{i},{i % 2},1\n" for i in range(150)) + "q150,2,1\n", {},
     "looks 0/1 but 1 of its 151 scores is not (values 2) in column 'a' at line 152"),
])
def test_wide_errors_are_the_in_memory_ones(tmp_path, text, options, expected):
    path = tmp_path / "w.csv"
    path.write_text(text)
    memory, duck = _load_both(path, **options)
    if expected is None:
        same_fields(memory, duck)
    else:
        assert expected.format(path=path) in memory and duck == memory


def test_wide_fields_and_provenance(tmp_path):
    """A wide table with samples and runs, 0/1: the same fields, the engine's row counts."""
    rng = np.random.default_rng(3)
    lines = ["id,ep,seed,a,b"] + [f"q{i},{s},{r},{rng.integers(2)},{rng.integers(2)}"
                                  for i in range(30) for s in range(3) for r in (1, 2)]
    (tmp_path / "w.csv").write_text("\n".join(lines) + "\n")
    memory, duck = _load_both(tmp_path / "w.csv", sample="ep", run="seed")
    same_fields(memory, duck)
    assert duck.models == ("a@1", "a@2", "b@1", "b@2")
    assert duck.source["engine"]["rows_read"] == 180
    assert duck.source["engine"]["rows_reduced"] == 120


def test_auto_reads_a_large_wide_file_with_samples_with_duckdb(tmp_path, monkeypatch):
    path = tmp_path / "w.csv"
    path.write_text("id,ep,a,b\nq1,0,1,0\nq1,1,1,1\nq2,0,0,1\n")
    assert choose.pick(path, None, "auto", None, None, "ep") == "memory"
    monkeypatch.setattr(choose, "AUTO_BYTES", 10)
    assert choose.pick(path, None, "auto", None, None) == "memory"  # one answer per cell
    assert choose.pick(path, None, "auto", None, None, "ep") == "duckdb"
    assert evalbars.load(path, sample="ep").source["engine"]["name"] == "duckdb"
