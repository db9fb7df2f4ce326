"""Files DuckDB cannot parse are refused in the in-memory reader's words (file and line),
not DuckDB's: the reference is that reader's message for the same bytes
(tests/io/test_text_files.py tests it against the lines written here)."""
from __future__ import annotations

import pytest

import evalbars
from evalbars.core.errors import EvalbarsError

pytest.importorskip("duckdb")

MALFORMED = {
    "ragged.csv": (b"id,model,score\nq1,a,1\nq2,a,0,1\nq1,b,0\nq2,b,1\n",
                   "line 3 has 4 fields but the header has 3"),
    "short.csv": (b"id,model,score\nq1,a,1\nq2,a\nq1,b,0\nq2,b,1\n",
                  "line 3 has 2 fields but the header has 3"),
    "latin1.csv": (b"id,model,score\nq1,a,1\nq\xe92,a,0\nq1,b,0\nq\xe92,b,1\n",
                   "is not UTF-8 text (byte 0xe9 at line 3)"),
    "latin1_header.csv": (b"id,mod\xe9l,score\nq1,a,1\n", "byte 0xe9 at line 1"),
    "wide_ragged.csv": (b"id,a,b\nq1,1,0\nq2,1\n", "line 3 has 2 fields but the header has 3"),
    "wide_latin1.csv": (b"id,a,b\nq1,1,0\nq\xe92,1,1\n", "byte 0xe9 at line 3"),
    "cut.jsonl": (b'{"id":"q1","model":"a","score":1}\n{"id":"q2","model":"a","score":0\n',
                  "line 2 is not valid JSON: Expecting ',' delimiter (column 33)"),
    "list.jsonl": (b'{"id":"q1","model":"a","score":1}\n[1,2]\n',
                   "line 2 is a JSON list, not an object"),
    "twice.jsonl": (b'{"id":"q1","model":"a","score":1,"score":0}\n',
                    "line 1 repeats the key 'score'"),
    "latin1.jsonl": (b'{"id":"q1","model":"a","score":1}\n{"id":"q\xe9","model":"a","score":1}\n',
                     "byte 0xe9 at line 2"),
    "not.parquet": (b"hello", "smaller than the minimum file footer"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_file_is_refused_in_the_in_memory_words(tmp_path, name):
    data, expected = MALFORMED[name]
    path = tmp_path / name
    path.write_bytes(data)
    messages = []
    for engine in ("memory", "duckdb"):
        with pytest.raises(EvalbarsError) as caught:
            evalbars.load(path, engine=engine)
        messages.append(str(caught.value))
    assert expected in messages[0] and repr(str(path)) in messages[0]
    assert messages[1] == messages[0]


def test_a_glob_names_the_malformed_file(tmp_path):
    (tmp_path / "a.csv").write_text("id,model,score\nq1,a,1\nq2,a,0\n")
    (tmp_path / "b.csv").write_text("id,model,score\nq1,b,1\nq2,b\n")
    with pytest.raises(EvalbarsError) as caught:
        evalbars.load(str(tmp_path / "*.csv"), engine="duckdb")
    assert str(caught.value) == (f"{str(tmp_path / 'b.csv')!r} line 3 has 2 fields but the "
                                 f"header has 3; quote fields that contain commas")
