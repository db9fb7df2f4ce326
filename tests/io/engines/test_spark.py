"""Spark (local[2]) reads, checks and reduces as DuckDB and the in-memory reader do.

The reference is the in-memory reader on the same rows: the same JSON document (provenance
aside), byte for byte for 0/1 scores, within 1e-12 relative for continuous ones. A few
tests only, sharing one SparkSession (tests/io/engines/conftest.py), to keep CI short.
"""
from __future__ import annotations

import numpy as np
import pytest
from engine_data import BAD_INPUTS, long_rows, write_csv

import evalbars

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _document(result) -> dict:
    doc = result.to_dict()
    doc["provenance"]["source"].pop("engine", None)
    doc["provenance"].pop("data_sha256")
    return doc


def test_the_same_leaderboard_from_every_engine(tmp_path, spark):
    rows = long_rows(n_models=3, n_items=40, n_samples=2)  # models in no order
    pq.write_table(pa.table(rows), tmp_path / "s.parquet")
    docs = {engine: evalbars.leaderboard(tmp_path / "s.parquet", baseline="m0", sample="epoch",
                                         cluster="topic", n_resamples=200, engine=engine,
                                         spark=spark if engine == "spark" else None)
            for engine in ("memory", "duckdb", "spark")}
    assert docs["spark"].to_dict()["provenance"]["source"]["engine"]["rows_read"] == 240
    assert _document(docs["memory"]) == _document(docs["duckdb"]) == _document(docs["spark"])


def test_continuous_scores_and_a_spark_dataframe(tmp_path, spark):
    rows = long_rows(n_models=2, n_items=30, n_samples=2, continuous=True, shuffle=False)
    write_csv(tmp_path / "s.csv", rows)
    memory = evalbars.load(tmp_path / "s.csv", sample="epoch", engine="memory")
    from_file = evalbars.load(tmp_path / "s.csv", sample="epoch", engine="spark", spark=spark)
    frame = spark.read.csv(str(tmp_path / "s.csv"), header=True)
    from_frame = evalbars.load(frame, sample="epoch")
    for got in (from_file, from_frame):
        assert got.source["engine"]["name"] == "spark"
        assert got.items == memory.items and got.models == memory.models
        np.testing.assert_allclose(got.scores, memory.scores, rtol=1e-12, atol=0)
        np.testing.assert_array_equal(got.counts, memory.counts)


@pytest.mark.parametrize("case", ["two clusters", "stray 2", "duplicate samples"])
def test_spark_words_errors_as_the_in_memory_reader(tmp_path, spark, case):
    text, options = BAD_INPUTS[case]
    path = tmp_path / "s.csv"
    path.write_text(text)
    with pytest.raises(evalbars.EvalbarsError) as memory:
        evalbars.load(path, engine="memory", **options)
    with pytest.raises(evalbars.EvalbarsError) as on_spark:
        evalbars.load(path, engine="spark", spark=spark, **options)
    assert str(on_spark.value) == str(memory.value)
    assert " at line" in str(memory.value)


def test_wide_tables_and_two_files_on_spark(tmp_path, spark):
    """20 random wide tables and 12 random pairs (engine_data's generators): Spark gives the
    in-memory reader's fields, or its message word for word."""
    import random

    from engine_data import random_pair, random_wide_table, same_fields

    rng = random.Random(41)
    cases = [("wide", random_wide_table(rng)) for _ in range(20)] + \
        [("pair", random_pair(rng)) for _ in range(12)]
    for k, (kind, made) in enumerate(cases):
        if kind == "wide":
            (header, rows), options = made[:2], made[2]
            paths = [tmp_path / f"w{k}.csv"]
            tables = [(header, rows)]
        else:
            tables, options = made
            paths = [tmp_path / f"base{k}.csv", tmp_path / f"tuned{k}.csv"]
        for path, (header, rows) in zip(paths, tables):
            path.write_text(",".join(header) + "\n" + "".join(",".join(r) + "\n" for r in rows))
        outcomes = []
        for engine in ("memory", "spark"):
            try:
                outcomes.append(evalbars.load(*paths, engine=engine, spark=spark
                                              if engine == "spark" else None, **options))
            except evalbars.EvalbarsError as exc:
                outcomes.append(str(exc))
        memory, on_spark = outcomes
        if isinstance(memory, str) or isinstance(on_spark, str):
            assert on_spark == memory, (k, options)
        else:
            same_fields(memory, on_spark)


@pytest.mark.parametrize("name", ["ragged.csv", "short.csv", "cut.jsonl", "list.jsonl"])
def test_spark_refuses_a_malformed_file_in_the_in_memory_words(tmp_path, spark, name):
    """Spark reads CSV and JSON Lines with mode FAILFAST (its default, PERMISSIVE, would pad
    a short row with nulls and drop a long row's extra field)."""
    from test_duckdb_malformed import MALFORMED

    path = tmp_path / name
    path.write_bytes(MALFORMED[name][0])
    with pytest.raises(evalbars.EvalbarsError) as memory:
        evalbars.load(path, engine="memory")
    with pytest.raises(evalbars.EvalbarsError) as on_spark:
        evalbars.load(path, engine="spark", spark=spark)
    assert str(on_spark.value) == str(memory.value)
