"""Tests for evalbars.io.files (through evalbars.io.ingest.load): every format, every file error."""
from __future__ import annotations

import hashlib
import os
import sys
import threading
import time

import numpy as np
import pytest
from ingest_helpers import error, write

from evalbars.io.ingest import load

# --------------------------------------------------------------------------- formats


@pytest.mark.parametrize("suffix", [".jsonl", ".ndjson", ".json-lines", ".JSONL"])
def test_jsonl_extensions(tmp_path, suffix):
    path = write(tmp_path, "r" + suffix, '{"qid": "q1", "a": 1}\n{"qid": "q2", "a": 0}\n')
    data = load(path)
    assert data.source["format"] == "jsonl" and data.models == ("a",)


def test_parquet(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({
        "qid": pa.array([7, 8, 9], pa.int32()),
        "a": pa.array(["1", " 0.5 ", "true"]),
        "b": pa.array([True, False, None]),
        "c": pa.array([1, 0, 1], pa.int8()),
        "tag": pa.array(["x", "y", "x"]).dictionary_encode(),
    })
    path = tmp_path / "r.parquet"
    pq.write_table(table, path)
    data = load(path, intersect=True, score_type="continuous")
    assert data.items == ("7", "8")
    assert data.models == ("a", "b", "c")
    np.testing.assert_array_equal(data.scores, [[1, 1, 1], [0.5, 0, 0]])
    assert data.source["format"] == "parquet"
    assert data.dropped == {"a": 1, "b": 0, "c": 1}


def test_parquet_long_with_nulls(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({
        "id": ["q1", "q1", "q2", "q2"],
        "model": ["a", "b", "a", "b"],
        "score": pa.array([1.0, 0.0, None, 1.0]),
    })
    pq.write_table(table, tmp_path / "r.parquet")
    message = error(tmp_path / "r.parquet")
    assert "model 'a' has no score for 1 item" in message and "row 2 (0-based)" in message


def test_dataframe_named_index_is_a_column():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": [1, 0], "b": [0, 0]}, index=pd.Index(["q1", "q2"], name="qid"))
    data = load(df)
    assert data.items == ("q1", "q2") and data.models == ("a", "b")


def test_dataframe_nan_is_missing_and_nullable_dtypes():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({
        "qid": pd.array([1, 2, 3], dtype="Int64"),
        "a": [1.0, np.nan, 0.0],
        "b": pd.array([True, False, None], dtype="boolean"),
        "c": pd.array([1, None, 0], dtype="Int64"),
        "d": pd.array(["1", "0", None], dtype="string"),
    })
    data = load(df, intersect=True)
    assert data.items == ("1",)
    assert data.models == ("a", "b", "c", "d")
    assert data.dropped == {"a": 1, "b": 1, "c": 1, "d": 1}
    message = error(df)
    assert "model 'a' has no score for 1 item" in message and "row 1 (0-based)" in message


def test_same_data_in_every_format_gives_the_same_result(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(3)
    n = 60
    df = pd.DataFrame({
        "id": [f"item{k}" for k in rng.permutation(n)],
        "m1": rng.integers(0, 2, n),
        "m2": rng.random(n).round(3),
    })
    df.to_csv(tmp_path / "d.csv", index=False)
    df.to_json(tmp_path / "d.jsonl", orient="records", lines=True)
    df.to_parquet(tmp_path / "d.parquet", index=False)
    results = [load(x, models=["m1", "m2"]) for x in
               (df, tmp_path / "d.csv", tmp_path / "d.jsonl", tmp_path / "d.parquet")]
    for other in results[1:]:
        assert other.items == results[0].items and other.models == results[0].models
        assert other.score_type == results[0].score_type == "continuous"
        np.testing.assert_array_equal(other.scores, results[0].scores)


def test_bom_crlf_quoted_commas_and_line_breaks(tmp_path):
    content = (
        "\ufeffqid,a,b\r\n"
        '"q,1",1,0\r\n'
        '"q\r\n2"," 0.5 ",TRUE\r\n'
        "q3,1,false\r\n"
        "q4,1,x\r\n"
    )
    path = write(tmp_path, "bom.csv", content)
    data = load(path, models=["a"])
    assert data.items == ("q\r\n2", "q,1", "q3", "q4")
    assert data.source["columns"]["item"] == "qid"  # the BOM is not part of the name
    np.testing.assert_array_equal(data.column("a"), [0.5, 1, 1, 1])
    message = error(path)  # 'x' in b is on line 6: the quoted line break counts as a line
    assert "'x' at line 6" in message and "column 'b'" in message


def test_blank_lines_are_skipped_and_lines_still_counted(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a\n\nq1,1\n\nq2,abc\n\n")
    assert "'abc' at line 5" in error(path, models=["a"])


def test_sha256_of_each_input(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\n")
    two = write(tmp_path, "b.csv", "qid,score\nq1,0\n")
    data = load(one, two)
    assert [x["sha256"] for x in data.source["inputs"]] == [
        hashlib.sha256(p.read_bytes()).hexdigest() for p in (one, two)
    ]


def test_csv_and_jsonl_are_hashed_as_they_are_read(tmp_path, monkeypatch):
    """No second reading for the provenance: the digest is the one of the bytes parsed."""
    from evalbars.io import align

    def no_second_reading(path):
        raise AssertionError(f"{path} read again to hash it")

    monkeypatch.setattr(align, "sha256", no_second_reading)
    for name, content in (("w.csv", 'qid,note,a\r\nq1,"x\r\ny",1\r\nq2,z,0\r\n'),
                          ("w.jsonl", '\ufeff{"qid": "q1", "a": 1}\n{"qid": "q2", "a": 0}\n')):
        path = write(tmp_path, name, content)
        data = load(path, models=["a"])
        assert data.source["inputs"] == [
            {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}]


def _pipe(path, content: bytes) -> threading.Thread:
    """A named pipe at ``path`` that gives ``content`` to its first reader and other bytes
    to a second one (which would then hash what it never parsed)."""
    os.mkfifo(path)

    def writer():
        for data in (content, b"qid,a\nq9,1\n"):
            try:
                with open(path, "wb") as fh:
                    fh.write(data)
            except OSError:  # the reader is gone
                pass
            time.sleep(0.3)  # the first reader sees the end before a second writer opens

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    return thread


def _release(path, thread: threading.Thread) -> None:
    """Let the second writer of :func:`_pipe` finish: open the pipe until it has."""
    for _ in range(100):
        if not thread.is_alive():
            return
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
        thread.join(0.05)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("name, content", [
    ("p.csv", b'qid,note,a\nq1,"x\ny",1\nq2,z,0\n'),
    ("p.jsonl", b'{"qid": "q1", "a": 1}\n{"qid": "q2", "a": 0}\n'),
])
def test_named_pipe_is_read_once(tmp_path, name, content):
    """A pipe's bytes come once (mkfifo x.csv): read and hashed in one go, never waited for
    again; its digest is the one of the bytes read."""
    path = tmp_path / name
    thread = _pipe(path, content)
    data = load(path, models=["a"])
    assert data.items == ("q1", "q2")
    assert data.source["inputs"][0]["sha256"] == hashlib.sha256(content).hexdigest()
    _release(path, thread)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_error_named_pipe_not_utf8_or_parquet(tmp_path):
    thread = _pipe(tmp_path / "p.csv", b"qid,a\nq1,\xff\n")
    assert "byte 0xff at line 2" in error(tmp_path / "p.csv")
    _release(tmp_path / "p.csv", thread)
    os.mkfifo(tmp_path / "p.parquet")
    assert "is not a regular file (a named pipe?)" in error(tmp_path / "p.parquet")


# --------------------------------------------------------------------------- errors: files


def test_error_missing_file(tmp_path):
    message = error(tmp_path / "nope.csv")
    assert "no such file" in message and "nope.csv" in message


@pytest.mark.parametrize("name, hint", [("r.txt", "'.txt'"), ("r.json", "rename it .jsonl"),
                                         ("r.csv.gz", "decompress")])
def test_error_unknown_extension(tmp_path, name, hint):
    message = error(write(tmp_path, name, "qid,a\nq1,1\n"))
    assert hint in message and ".csv, .jsonl" in message


def test_error_directory(tmp_path):
    (tmp_path / "d.csv").mkdir()
    assert "is a directory" in error(tmp_path / "d.csv")


def test_error_data_type():
    message = error(123)
    assert "file path" in message and "builtins.int" in message


def test_error_empty_file(tmp_path):
    assert "is empty" in error(write(tmp_path, "e.csv", ""))


def test_error_header_only(tmp_path):
    assert "no rows" in error(write(tmp_path, "e.csv", "qid,a,b\n"))


def test_error_jsonl_no_rows(tmp_path):
    assert "no rows" in error(write(tmp_path, "e.jsonl", "\n \n"))


def test_error_dataframe_no_rows():
    pd = pytest.importorskip("pandas")
    assert "no rows" in error(pd.DataFrame({"qid": [], "a": []}))


def test_error_parquet_no_rows(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"qid": pa.array([], pa.string())}), tmp_path / "e.parquet")
    assert "no rows" in error(tmp_path / "e.parquet")


def test_error_wrong_field_count(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a,b\nq1,1,0\nq2,1\nq3,1,0,1\nq4,0,0\n")
    message = error(path)
    assert "line 3 has 2 fields but the header has 3" in message
    assert "1 more rows with the wrong number of fields: line 4" in message


def test_error_jsonl_invalid_line(tmp_path):
    path = write(tmp_path, "r.jsonl", '{"qid": "q1", "a": 1}\n{"qid": "q2", "a": \n')
    assert "line 2 is not valid JSON" in error(path)


def test_error_jsonl_not_an_object(tmp_path):
    path = write(tmp_path, "r.jsonl", '{"qid": "q1", "a": 1}\n\n[1, 2]\n')
    assert "line 3 is a JSON list, not an object" in error(path)


def test_error_jsonl_repeated_key(tmp_path):
    path = write(tmp_path, "r.jsonl", '{"qid": "q1", "a": 1, "a": 0}\n')
    assert "line 1 repeats the key 'a'" in error(path)


def test_error_duplicated_header(tmp_path):
    message = error(write(tmp_path, "w.csv", "qid,a,b,a\nq1,1,0,1\n"))
    assert "duplicated column names" in message and "'a'" in message and "line 1" in message


def test_error_duplicated_dataframe_columns():
    pd = pytest.importorskip("pandas")
    assert "duplicated column names" in error(pd.DataFrame([[1, 1, 0]], columns=["qid", "a", "a"]))


def test_error_unnamed_column(tmp_path):
    message = error(write(tmp_path, "w.csv", "qid,a,\nq1,1,\n"))
    assert "column 3" in message and "no name" in message and "trailing comma" in message


def test_error_not_utf8(tmp_path):
    message = error(write(tmp_path, "w.csv", b"qid,a\nq1,1\nq\xe92,0\n"))
    assert "w.csv" in message and "not UTF-8" in message and "line 3" in message


def test_error_not_comma_separated(tmp_path):
    assert "does not look comma-separated" in error(write(tmp_path, "w.csv", "qid;a;b\nq1;1;0\n"))


def test_error_pyarrow_missing(tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"qid": ["q1"], "a": [1]}), tmp_path / "r.parquet")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert "pip install 'evalbars[parquet]'" in error(tmp_path / "r.parquet")


def test_error_unreadable_parquet(tmp_path):
    pytest.importorskip("pyarrow")
    assert "cannot read" in error(write(tmp_path, "r.parquet", b"not parquet at all"))


def test_error_dataframe_multiindex_columns():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame([[1, 2]], columns=pd.MultiIndex.from_tuples([("x", "a"), ("x", "b")]))
    assert "MultiIndex" in error(df)


def test_parquet_reads_only_the_columns_it_needs(tmp_path, monkeypatch):
    """A transcript column beside the scores is never decoded."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "r.parquet"
    pq.write_table(pa.table({"id": ["q1", "q2"], "a": [1, 0], "b": [0, 0],
                             "transcript": ["long text", "more"]}), path)
    asked = []
    read = pq.ParquetFile.read
    monkeypatch.setattr(pq.ParquetFile, "read",
                        lambda self, columns=None, **kw: asked.append(columns) or
                        read(self, columns=columns, **kw))
    data = load(path, item="id", models=["a", "b"])
    assert data.models == ("a", "b") and ["transcript"] not in asked
    assert sorted(asked) == [["a"], ["b"], ["id"]]


def test_parquet_over_the_size_cap_is_refused_before_decoding(tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from evalbars.io import files as _readers

    path = tmp_path / "bomb.parquet"  # 10^6 constant rows: a few KB on disk
    pq.write_table(pa.table({"id": range(1_000_000), "a": [1] * 1_000_000}), path)
    monkeypatch.setattr(_readers, "MAX_PARQUET_BYTES", 1 << 20)
    message = error(path)
    assert "bomb.parquet" in message and "more than 1,048,576" in message
    assert "MAX_PARQUET_BYTES" in message
