"""Two files through DuckDB: the in-memory reader's fields, or its message word for word
(the reference: evalbars' in-memory reader, tested against hand-computed values in
tests/io/test_ingest.py)."""
from __future__ import annotations

import random

import pytest
from engine_data import random_pair, same_fields

import evalbars
from evalbars.core.errors import EvalbarsError
from evalbars.io.engines import choose

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")


def _load_both(paths, **options):
    outcomes = []
    for engine in ("memory", "duckdb"):
        try:
            outcomes.append(evalbars.load(*paths, engine=engine, **options))
        except EvalbarsError as exc:
            outcomes.append(str(exc))
    return outcomes


def _write(path, header, rows):
    if path.suffix == ".csv":
        path.write_text(",".join(header) + "\n" + "".join(",".join(r) + "\n" for r in rows))
    else:
        import pyarrow.parquet as pq

        columns = list(zip(*rows)) if rows else [[] for _ in header]
        pq.write_table(pa.table({h: pa.array([None if v == "" else v for v in c], pa.string())
                                 for h, c in zip(header, columns)}), path)


@pytest.mark.parametrize("suffixes", [(".csv", ".csv"), (".parquet", ".csv")])
def test_random_flawed_pairs_load_alike(tmp_path, suffixes):
    """150 random pairs of files with random flaws: the same fields or the same message."""
    rng = random.Random(24 if suffixes[0] == ".csv" else 25)
    errors = 0
    for case in range(150):
        files, options = random_pair(rng)
        paths = [tmp_path / f"{name}{case}{suffix}"
                 for name, suffix in zip(("base", "tuned"), suffixes)]
        for path, (header, rows) in zip(paths, files):
            _write(path, header, rows)
        memory, duck = _load_both(paths, **options)
        if isinstance(memory, str) or isinstance(duck, str):
            errors += 1
            assert duck == memory, (case, options)
        else:
            same_fields(memory, duck)
    assert 30 < errors < 120  # both outcomes are exercised


def test_items_one_file_lacks_and_intersect(tmp_path):
    (tmp_path / "base.csv").write_text("id,score\nq1,1\nq2,0\nq3,1\n")
    (tmp_path / "tuned.csv").write_text("id,score\nq2,1\nq1,1\n")
    paths = [tmp_path / "base.csv", tmp_path / "tuned.csv"]
    memory, duck = _load_both(paths)
    assert "'tuned' has no row for 1 item that the other model has ('q3')" in memory
    assert duck == memory
    memory, duck = _load_both(paths, intersect=True)
    same_fields(memory, duck)
    assert duck.dropped == {"base": 1, "tuned": 0}
    assert duck.source["engine"] == {"name": "duckdb", "version": duck.source["engine"][
        "version"], "rows_read": 5, "rows_reduced": 5}


def test_auto_reads_two_large_files_with_samples_with_duckdb(tmp_path, monkeypatch):
    (tmp_path / "base.csv").write_text("id,ep,score\nq1,0,1\nq2,0,0\n")
    (tmp_path / "tuned.csv").write_text("id,ep,score\nq2,0,1\nq1,0,1\n")
    paths = [tmp_path / "base.csv", tmp_path / "tuned.csv"]
    assert choose.pick(*paths, "auto", None, None, "ep") == "memory"
    monkeypatch.setattr(choose, "AUTO_BYTES", 10)
    assert choose.pick(*paths, "auto", None, None) == "memory"  # one answer per cell
    assert choose.pick(*paths, "auto", None, None, "ep") == "duckdb"
    assert evalbars.load(*paths, sample="ep").source["engine"]["name"] == "duckdb"
    with pytest.raises(EvalbarsError, match="two inputs are read with engine='memory'"):
        evalbars.load(paths[0], str(tmp_path / "*.csv"), engine="spark")
