"""DuckDB reads, checks and reduces as the in-memory reader does: same fields, same errors.

The reference is evalbars' own in-memory reader (engine="memory"), itself tested against
hand-computed values in tests/io/test_ingest.py: every case here loads one file both ways
and compares the result field by field, or the error message word for word.
"""
from __future__ import annotations

import pytest
from engine_data import BAD_INPUTS, GOOD, random_table, same_fields

import evalbars
from evalbars.core.errors import EvalbarsError

pytest.importorskip("duckdb")

def _load_both(path, **options):
    outcomes = []
    for engine in ("memory", "duckdb"):
        try:
            outcomes.append(evalbars.load(path, engine=engine, **options))
        except EvalbarsError as exc:
            outcomes.append(str(exc))
    return outcomes


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_the_same_error_word_for_word(tmp_path, case):
    text, options = BAD_INPUTS[case]
    path = tmp_path / "scores.csv"
    path.write_text(text)
    memory, duck = _load_both(path, **options)
    assert isinstance(memory, str), memory
    assert duck == memory


@pytest.mark.parametrize("case", ["duplicate pairs", "items missing", "non-numeric score",
                                  "stray 2", "two clusters", "missing score"])
def test_parquet_errors_name_the_same_rows(tmp_path, case):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    text, options = BAD_INPUTS[case]
    (tmp_path / "s.csv").write_text(text)
    table = pacsv.read_csv(tmp_path / "s.csv", convert_options=pacsv.ConvertOptions(
        column_types={"id": pa.string(), "topic": pa.string(), "epoch": pa.string()},
        strings_can_be_null=True))
    pq.write_table(table, tmp_path / "s.parquet")
    memory, duck = _load_both(tmp_path / "s.parquet", **options)
    assert isinstance(memory, str), memory
    assert duck == memory


@pytest.mark.parametrize("options", [dict(sample="epoch"), dict(sample="epoch", cluster="topic"),
                                     dict(sample="epoch", models=["a", "b"]),
                                     dict(sample="epoch", intersect=True)])
def test_the_same_fields(tmp_path, options):
    path = tmp_path / "scores.csv"
    path.write_text(GOOD)
    memory, duck = _load_both(path, **options)
    same_fields(memory, duck)
    assert duck.source["engine"]["rows_read"] == 6
    assert duck.source["engine"]["rows_reduced"] == 4


def test_runs_become_systems_as_in_memory(tmp_path):
    path = tmp_path / "seeds.csv"
    path.write_text("id,model,seed,score\nq1,a,10,1\nq2,a,10,0\nq1,a,2,1\nq2,a,2,1\n"
                    "q1,b,7,0\nq2,b,7,1\n")
    memory, duck = _load_both(path, run="seed")
    same_fields(memory, duck)
    assert duck.models == ("a@2", "a@10", "b@7")


def test_json_lines_of_mixed_types_read_as_in_memory(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id":"q1","model":"a","score":1}\n\n{"id":"q2","model":"a","score":"0"}\n'
                    '{"id":7,"model":"b","score":0}\n{"id":"q2","model":"b","score":true}\n'
                    '{"id":"q1","model":"b","score":null}\n{"id":7,"model":"a","score":0.5}\n')
    memory, duck = _load_both(path, intersect=True)
    same_fields(memory, duck)
    path.write_text('{"id":"q1","model":"a","score":1}\n\n{"id":"q2","model":"a","score":"x"}\n'
                    '{"id":"q1","model":"b","score":0}\n{"id":"q2","model":"b","score":1}\n')
    memory, duck = _load_both(path)
    assert "'x' at line 3" in memory and duck == memory


def test_sample_values_beyond_small_integers_are_counted_exactly(tmp_path):
    """Samples 0-62 are counted as bits; others ('007', 'r1', 63) by a hash set."""
    path = tmp_path / "s.csv"
    path.write_text("id,epoch,model,score\nq1,007,a,1\nq1,7,a,0\nq1,63,a,1\nq2,r1,a,1\n"
                    "q1,0,b,1\nq2,0,b,0\n")
    memory, duck = _load_both(path, sample="epoch")
    same_fields(memory, duck)
    assert duck.counts[:, 0].tolist() == [3, 1]
    path.write_text("id,epoch,model,score\nq1,r1,a,1\nq1,r1,a,0\nq1,0,b,1\n")
    memory, duck = _load_both(path, sample="epoch")
    assert "sample 'r1' at lines 2, 3" in memory and duck == memory


def test_a_nan_score_in_parquet_is_refused(tmp_path):
    """DuckDB 2.0 folded isnan() to false from Parquet statistics (which leave NaN out)
    under a GROUP BY, and a NaN score passed as a number."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["q1", "q2", "q1", "q2"], "model": ["a", "a", "b", "b"],
                             "score": [1.0, float("nan"), 0.0, 1.0]}), tmp_path / "s.parquet")
    memory, duck = _load_both(tmp_path / "s.parquet")
    assert "nan at row 1 (0-based)" in memory and duck == memory
    duckdb = pytest.importorskip("duckdb")
    relation = duckdb.connect().sql(f"SELECT * FROM '{tmp_path / 's.parquet'}'")
    with pytest.raises(EvalbarsError, match=r"^column 'score' of the DuckDB relation has 1 "
                                            r"value that is not a finite number"):
        evalbars.load(relation)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_random_flawed_tables_load_alike(tmp_path, fmt):
    """60 random small tables with random flaws: the same fields or the same message."""
    import random

    from evalbars.io.ingest import load

    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rng = random.Random(5 if fmt == "csv" else 6)
    for case in range(60):
        header, rows, options = random_table(rng, case)
        path = tmp_path / f"c{case}.{fmt}"
        if fmt == "csv":
            path.write_text(",".join(header) + "\n" + "".join(
                ",".join("" if v is None else v for v in row) + "\n" for row in rows))
        else:
            columns = list(zip(*rows))
            pq.write_table(pa.table({h: [None if v in ("", None) else v for v in c]
                                     for h, c in zip(header, columns)}), path)
        outcomes = []
        for engine in ("memory", "duckdb"):
            try:
                outcomes.append(load(path, engine=engine, **options))
            except EvalbarsError as exc:
                outcomes.append(str(exc))
        memory, duck = outcomes
        if isinstance(memory, str) or isinstance(duck, str):
            assert duck == memory, (case, options)
        else:
            same_fields(memory, duck)
