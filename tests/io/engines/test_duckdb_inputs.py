"""DuckDB reads files, globs and tables where they live, with the in-memory reader's numbers.

The reference is evalbars' in-memory reader on the same rows (itself checked against
hand-computed values in tests/io/test_ingest.py); 0/1 scores must match bit for bit,
continuous ones within 1e-12 relative (the engine sums in another order).
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from engine_data import long_rows, same_fields, write_csv

import evalbars
from evalbars.cli import main
from evalbars.io.engines import choose

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyarrow.csv")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture
def rows():
    return long_rows()


def test_parquet_and_csv_match_memory(tmp_path, rows):
    write_csv(tmp_path / "s.csv", rows)
    pq.write_table(pa.table(rows), tmp_path / "s.parquet")
    for name in ("s.csv", "s.parquet"):
        options = dict(sample="epoch", cluster="topic")
        same_fields(evalbars.load(tmp_path / name, engine="memory", **options),
                    evalbars.load(tmp_path / name, engine="duckdb", **options))


def test_continuous_sums_agree_to_1e12(tmp_path):
    rows = long_rows(continuous=True)
    pq.write_table(pa.table(rows), tmp_path / "s.parquet")
    memory = evalbars.load(tmp_path / "s.parquet", sample="epoch", engine="memory")
    duck = evalbars.load(tmp_path / "s.parquet", sample="epoch", engine="duckdb")
    assert duck.score_type == memory.score_type == "continuous"
    np.testing.assert_allclose(duck.scores, memory.scores, rtol=1e-12, atol=0)
    np.testing.assert_allclose(duck.sumsq, memory.sumsq, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(duck.counts, memory.counts)


def test_tables_are_reduced_where_they_live(tmp_path, rows):
    import pandas as pd
    import polars as pl

    memory = evalbars.load(pd.DataFrame(rows), sample="epoch")
    arrow = pa.table(rows)
    connection = duckdb.connect()
    relation = connection.from_arrow(arrow)
    for table in (arrow, pl.DataFrame(rows), relation):
        got = evalbars.load(table, sample="epoch")
        assert got.source["engine"]["name"] == "duckdb"
        for name in ("items", "models", "clusters", "runs", "score_type"):
            assert getattr(got, name) == getattr(memory, name)
        np.testing.assert_array_equal(got.scores, memory.scores)
        np.testing.assert_array_equal(got.counts, memory.counts)


def test_a_glob_reads_its_files_as_one_table(tmp_path, rows):
    half = len(rows["id"]) // 2
    pq.write_table(pa.table(rows), tmp_path / "all.parquet")
    (tmp_path / "parts").mkdir()
    for k, part in enumerate((slice(0, half), slice(half, None))):
        pq.write_table(pa.table({c: v[part] for c, v in rows.items()}),
                       tmp_path / "parts" / f"p{k}.parquet")
    whole = evalbars.load(tmp_path / "all.parquet", sample="epoch", engine="memory")
    parts = evalbars.load(str(tmp_path / "parts" / "*.parquet"), sample="epoch")
    assert parts.source["engine"]["name"] == "duckdb"
    assert [i["path"] for i in parts.source["inputs"]] == \
        [str(tmp_path / "parts" / f"p{k}.parquet") for k in (0, 1)]
    np.testing.assert_array_equal(parts.scores, whole.scores)
    assert parts.models == whole.models


def test_an_error_across_files_names_each_file(tmp_path):
    (tmp_path / "a.csv").write_text("id,model,score\nq1,a,1\nq1,b,0\n")
    (tmp_path / "b.csv").write_text("id,model,score\nq2,a,1\nq1,a,0\nq2,b,1\n")
    with pytest.raises(evalbars.EvalbarsError) as error:
        evalbars.load(str(tmp_path / "*.csv"))
    assert str(error.value) == (
        f"1 (item, model) pair has more than one row in {str(tmp_path / '*.csv')!r}: item 'q1' "
        f"model 'a' at line 2 of {str(tmp_path / 'a.csv')!r} and line 3 of "
        f"{str(tmp_path / 'b.csv')!r}; each model must have one row per item (pass sample= "
        f"(--sample COL) if these are several sampled answers per question, or run= (evalbars "
        f"seeds --run COL) if they come from several training runs)")


def test_auto_keeps_memory_for_small_files_and_without_duckdb(tmp_path, rows, monkeypatch):
    write_csv(tmp_path / "s.csv", rows)
    assert "engine" not in evalbars.load(tmp_path / "s.csv", sample="epoch").source
    monkeypatch.setattr(choose, "AUTO_BYTES", 1)
    assert evalbars.load(tmp_path / "s.csv", sample="epoch").source["engine"]["name"] == \
        "duckdb"
    assert choose.pick(tmp_path / "s.csv", None, "auto", None, None) == "duckdb"
    assert choose.pick("examples/cookbook_topics.csv", None, "auto", None, None) == "memory"
    monkeypatch.setattr(choose, "_has_duckdb", lambda: False)
    assert choose.pick(tmp_path / "s.csv", None, "auto", None, None) == "memory"


def test_a_wide_glob_is_refused_by_the_engine_and_a_wide_table_read_in_memory_by_auto():
    pl = pytest.importorskip("polars")
    with pytest.raises(evalbars.EvalbarsError, match="reads the long layout"):
        evalbars.load("examples/cookbook_*.csv", engine="duckdb")
    memory = evalbars.load("examples/cookbook_topics.csv", cluster="topic_id")
    for table in (pl.read_csv("examples/cookbook_topics.csv"),
                  pa.csv.read_csv("examples/cookbook_topics.csv")):
        wide = evalbars.load(table, cluster="topic_id")
        assert "engine" not in wide.source
        assert (wide.items, wide.models, wide.clusters) == \
            (memory.items, memory.models, memory.clusters)
        np.testing.assert_array_equal(wide.scores, memory.scores)


def _json(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_cli_gives_the_same_json(tmp_path, capsys, rows):
    pq.write_table(pa.table(rows), tmp_path / "s.parquet")
    docs = []
    for engine in ("memory", "duckdb"):
        status, out, _ = _json(capsys, "leaderboard", str(tmp_path / "s.parquet"), "--baseline",
                               "m0", "--sample", "epoch", "--engine", engine, "--n-resamples",
                               "300", "--format", "json")
        assert status == 0
        docs.append(json.loads(out))
    engine = docs[1]["provenance"]["source"].pop("engine")
    assert engine["rows_read"] == len(rows["id"])
    assert docs[0] == docs[1]


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "s.csv").write_text("id,model,score\nq1,a,1\nq1,b,2\n")
    status, out, err = _json(capsys, "ci", str(tmp_path / "s.csv"), "--engine", "duckdb",
                             "--score-type", "binary")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "score_type='binary' but model 'b'" in err


def test_the_engine_options_are_checked(tmp_path, rows):
    write_csv(tmp_path / "s.csv", rows)
    with pytest.raises(evalbars.EvalbarsError, match=r"engine='gpu' is not one of 'auto', "
                                                     r"'memory', 'duckdb', 'spark'"):
        evalbars.load(tmp_path / "s.csv", engine="gpu")
    in_memory = evalbars.load(pa.table(rows), engine="memory", sample="epoch")
    assert "engine" not in in_memory.source and in_memory.source["format"] == "dataframe"
    with pytest.raises(evalbars.EvalbarsError, match=r"two inputs are read with "
                                                     r"engine='memory' unless both are local"):
        evalbars.load(tmp_path / "s.csv", str(tmp_path / "*.csv"), engine="duckdb")
    with pytest.raises(evalbars.EvalbarsError, match=r"helm logs are read in memory"):
        evalbars.load("tests/data/logs/helm/suite_v1", engine="duckdb")
    with pytest.raises(evalbars.EvalbarsError, match=r"no file matches"):
        evalbars.load(str(tmp_path / "none*.parquet"))


def test_progress_counts_rows_on_a_terminal():
    from evalbars.io.engines.duck import _Rows

    class Terminal(list):
        def isatty(self):
            return True

        def write(self, text):
            self.append(text)

        def flush(self):
            pass

    shown = Terminal()
    bar = _Rows("reading 'a.parquet' with duckdb", 10_000_000, stream=shown)
    bar.draw(0.25)
    bar.close()
    assert shown[0].strip() == "reading 'a.parquet' with duckdb: 2,500,000 of 10,000,000 rows read"
    assert shown[-1].strip() == ""
    piped = _Rows("reading", None, stream=[])
    assert not piped.enabled


def test_the_engine_choices_are_the_flags_choices():
    from evalbars.cli._options import LOAD_FLAGS

    assert LOAD_FLAGS["engine"]["choices"] == choose.ENGINES


@pytest.mark.parametrize("option", [{"metric": "acc"}, {"eval_split": "test"},
                                    {"scorer": "match"}])
def test_log_options_on_a_table_are_refused_by_every_engine(option):
    """A harness-log option given for a table is an error in memory; the DuckDB path used
    to skip that check and ignore the option silently."""
    pytest.importorskip("duckdb")
    messages = set()
    for engine in ("memory", "duckdb"):
        with pytest.raises(evalbars.EvalbarsError) as caught:
            evalbars.load("examples/lesson_pair.csv", engine=engine, **option)
        messages.add(str(caught.value))
    (message,) = messages
    assert message.startswith(f"{next(iter(option))}= applies to harness logs")
