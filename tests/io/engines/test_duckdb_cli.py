"""The wide layout, two files and malformed files on the command line: the same JSON
document from --engine memory and --engine duckdb (provenance aside), the same one-line
message and exit status 2."""
from __future__ import annotations

import json

import pytest

from evalbars.cli import main

pytest.importorskip("duckdb")


def _documents(capsys, *argv):
    docs = []
    for engine in ("memory", "duckdb"):
        status = main([*argv, "--engine", engine, "--format", "json"])
        out = capsys.readouterr()
        assert status == 0, out.err
        docs.append(json.loads(out.out))
    return docs


def test_a_wide_table_gives_the_same_json(capsys):
    memory, duck = _documents(capsys, "compare", "examples/cookbook_topics.csv",
                              "--cluster", "topic_id", "--n-resamples", "500")
    engine = duck["provenance"]["source"].pop("engine")
    assert (engine["name"], engine["rows_read"], engine["rows_reduced"]) == ("duckdb", 200, 400)
    assert memory == duck


def test_two_files_give_the_same_json(tmp_path, capsys):
    lines = [line.split(",") for line in
             open("examples/cookbook_topics.csv").read().splitlines()]
    head, body = lines[0], lines[1:]
    for k, name in ((head.index("system_a"), "base"), (head.index("system_b"), "tuned")):
        (tmp_path / f"{name}.csv").write_text("id,topic,score\n" + "".join(
            f"{row[head.index('example_id')]},{row[head.index('topic_id')]},{row[k]}\n"
            for row in body))
    memory, duck = _documents(capsys, "compare", str(tmp_path / "base.csv"),
                              str(tmp_path / "tuned.csv"), "--cluster", "topic",
                              "--n-resamples", "500")
    assert duck["provenance"]["source"].pop("engine")["rows_read"] == 400
    assert memory == duck


def test_a_malformed_file_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "s.csv").write_bytes(b"id,a,b\nq1,1,0\nq\xe92,1,1\n")
    errors = []
    for engine in ("memory", "duckdb"):
        assert main(["ci", str(tmp_path / "s.csv"), "--engine", engine]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err.count("\n") == 1
        errors.append(out.err)
    assert "is not UTF-8 text (byte 0xe9 at line 3)" in errors[0] and errors[1] == errors[0]
