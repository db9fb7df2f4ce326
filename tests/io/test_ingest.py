"""Tests for evalbars.io.ingest and the stages behind load (columns, cells, answers,
validate, layouts, align).

Layouts, values, every error message past reading a file, invariances; the file formats
and their errors are in test_files.py.
"""
from __future__ import annotations

import csv
import doctest
import hashlib
import inspect
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ingest_helpers import error, write

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.io import ingest, logs
from evalbars.io.ingest import ItemScores, load

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "examples" / "lesson_pair.csv"
COOKBOOK = ROOT / "examples" / "cookbook_topics.csv"


def csv_columns(path: Path) -> dict[str, list[str]]:
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {name: [row[name] for row in rows] for name in rows[0]}


WIDE = "qid,model_a,model_b\nq2,1,0\nq1,0,0\nq3,1,1\n"
LONG = "id,model,score\nq1,a,1\nq1,b,0\nq2,a,0\nq2,b,0\nq3,b,1\nq3,a,1\n"


# --------------------------------------------------------------------------- examples


def test_lesson_pair_example():
    data = load(LESSON)
    cols = csv_columns(LESSON)
    assert data.models == ("model_a", "model_b")
    assert data.score_type == "binary"
    assert len(data.items) == 500 and list(data.items) == sorted(cols["qid"])
    assert data.scores.shape == (500, 2) and data.scores.dtype == np.float64
    by_id = dict(zip(cols["qid"], zip(cols["model_a"], cols["model_b"])))
    expected = np.array([[float(v) for v in by_id[i]] for i in data.items])
    np.testing.assert_array_equal(data.scores, expected)
    assert data.dropped is None
    assert data.describe() == (
        f"wide csv {LESSON}: item column 'qid', models 'model_a', 'model_b' "
        "(500 items, 0/1 scores)"
    )
    assert data.source["inputs"] == [
        {"path": str(LESSON), "sha256": hashlib.sha256(LESSON.read_bytes()).hexdigest()}
    ]


def test_relative_path_is_kept_as_given():
    data = load("examples/lesson_pair.csv")  # conftest runs tests from the repository root
    assert data.describe().startswith("wide csv examples/lesson_pair.csv: item column 'qid'")


def test_cookbook_topic_id_is_not_a_model():
    data = load(COOKBOOK)
    assert data.models == ("system_a", "system_b")
    assert data.source["columns"]["item"] == "example_id"
    assert len(data.items) == 200
    assert "0" in data.items and "199" in data.items
    cols = csv_columns(COOKBOOK)
    order = sorted(range(200), key=lambda k: cols["example_id"][k])
    np.testing.assert_array_equal(
        data.column("system_b"), [float(cols["system_b"][k]) for k in order]
    )


# --------------------------------------------------------------------------- layouts


def test_wide_csv(tmp_path):
    data = load(write(tmp_path, "w.csv", WIDE))
    assert data.items == ("q1", "q2", "q3")
    assert data.models == ("model_a", "model_b")
    np.testing.assert_array_equal(data.scores, [[0, 0], [1, 0], [1, 1]])
    assert data.score_type == "binary"
    assert data.source["layout"] == "wide" and data.source["format"] == "csv"
    assert data.source["columns"] == {
        "item": "qid", "model": None, "score": None, "models": ["model_a", "model_b"],
        "cluster": None, "sample": None, "run": None,
    }
    json.dumps(data.source)  # JSON-safe


def test_wide_models_in_requested_order(tmp_path):
    data = load(write(tmp_path, "w.csv", WIDE), models=["model_b", "model_a"])
    assert data.models == ("model_b", "model_a")
    np.testing.assert_array_equal(data.column("model_b"), [0, 0, 1])
    np.testing.assert_array_equal(data.column("model_a"), [0, 1, 1])


def test_wide_models_ignore_other_columns(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a,notes,b\nq1,1,hello,\nq2,0,,\n")
    data = load(path, models=["a"])  # b is empty and notes is text: neither is read
    assert data.models == ("a",)


def test_wide_explicit_item_column(tmp_path):
    path = write(tmp_path, "w.csv", "name,a,b\nx,1,0\ny,0,1\n")
    data = load(path, item="name")
    assert data.items == ("x", "y") and data.models == ("a", "b")


def test_other_id_like_columns_are_not_models(tmp_path):
    path = write(tmp_path, "w.csv", "example_id,question_id,a\n1,10,1\n2,20,0\n")
    data = load(path, item="question_id")
    assert data.models == ("a",) and data.items == ("10", "20")


def test_long_and_nul_ids_stay_exact(tmp_path):
    pd = pytest.importorskip("pandas")
    long_id = "x" * 100
    ids = [long_id, long_id + "y", "a", "a\x00", "\x00a"]
    for layout in ("wide", "long"):
        if layout == "wide":
            df = pd.DataFrame({"qid": ids, "s": [1, 0, 1, 0, 1]})
        else:
            df = pd.DataFrame({"qid": ids * 2, "model": ["m"] * 5 + ["n"] * 5,
                               "score": [1, 0, 1, 0, 1] * 2})
        data = load(df)
        assert data.items == tuple(sorted(ids))
        np.testing.assert_array_equal(data.scores[:, 0], [1, 1, 0, 1, 0])


def test_id_column_auto_detection_is_case_insensitive(tmp_path):
    path = write(tmp_path, "w.csv", "Question_ID,a\nx,1\n")
    assert load(path).source["columns"]["item"] == "Question_ID"


def test_long_csv_auto(tmp_path):
    data = load(write(tmp_path, "l.csv", LONG))
    assert data.source["layout"] == "long"
    assert data.models == ("a", "b")  # file order
    assert data.items == ("q1", "q2", "q3")
    np.testing.assert_array_equal(data.scores, [[1, 0], [0, 0], [1, 1]])
    assert data.describe() == (
        f"long csv {tmp_path / 'l.csv'}: item column 'id', model column 'model', "
        "score column 'score', models 'a', 'b' (3 items, 0/1 scores)"
    )


def test_long_explicit_columns(tmp_path):
    path = write(tmp_path, "l.csv",
                 "question,system,points\nq1,a,0.5\nq1,b,1\nq2,a,0\nq2,b,0.25\n")
    data = load(path, item="question", model="system", score="points")
    assert data.models == ("a", "b") and data.score_type == "continuous"
    np.testing.assert_array_equal(data.scores, [[0.5, 1], [0, 0.25]])
    assert data.source["columns"] == {
        "item": "question", "model": "system", "score": "points", "models": ["a", "b"],
        "cluster": None, "sample": None, "run": None,
    }


def test_long_score_column_single_numeric_fallback(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,points\nq1,a,1\nq1,b,0\n")
    assert load(path).source["columns"]["score"] == "points"


def test_long_models_select_values(tmp_path):
    path = write(tmp_path, "l.csv", LONG + "q1,c,1\n")  # c only has q1: fine when not selected
    data = load(path, models=["b", "a"])
    assert data.models == ("b", "a")
    np.testing.assert_array_equal(data.column("a"), [1, 0, 1])


def test_jsonl_long(tmp_path):
    lines = [
        {"id": "q1", "model": "a", "score": 1},
        {"id": "q1", "model": "b", "score": 0.5},
        {"id": 2, "model": "a", "score": True},
        {"id": 2, "model": "b", "score": None, "extra": [1, 2]},
    ]
    path = write(tmp_path, "r.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n\n")
    data = load(path, intersect=True)
    assert data.items == ("q1",) and data.dropped == {"a": 1, "b": 0}
    assert data.source["format"] == "jsonl"
    np.testing.assert_array_equal(data.scores, [[1, 0.5]])


def test_dataframe_wide_and_long():
    pd = pytest.importorskip("pandas")
    wide = pd.DataFrame({"qid": ["q2", "q1"], "a": [1, 0], "b": [0.5, 1.0]})
    data = load(wide, models=["a", "b"])
    assert data.items == ("q1", "q2") and data.score_type == "continuous"
    assert data.source["format"] == "dataframe"
    assert data.source["inputs"] == [{"path": None, "sha256": None}]
    assert data.describe().startswith("wide DataFrame: item column 'qid'")
    long = wide.melt(id_vars="qid", var_name="model", value_name="score")
    again = load(long)
    assert again.source["layout"] == "long"
    np.testing.assert_array_equal(again.scores, data.scores)


def test_two_files(tmp_path):
    one = write(tmp_path, "base.csv", "id,score\nq1,1\nq2,0\n")
    two = write(tmp_path, "tuned.jsonl",
                '{"qid": "q2", "correct": true}\n{"qid": "q1", "correct": 0}\n')
    data = load(one, two)
    assert data.models == ("base", "tuned")
    np.testing.assert_array_equal(data.scores, [[1, 0], [0, 1]])
    assert data.source["layout"] == "two-files"
    assert data.source["columns"]["item"] == ["id", "qid"]
    assert data.source["columns"]["score"] == ["score", "correct"]
    assert [x["path"] for x in data.source["inputs"]] == [str(one), str(two)]
    assert data.describe() == (
        f"two-files csv+jsonl {one} + {two}: item column 'id' / 'qid', score column 'score' / "
        "'correct', models 'base', 'tuned' (2 items, 0/1 scores)"
    )


def test_two_files_with_an_id_column_each(tmp_path, capsys):
    """item=("qid", "question_id"), --item qid --item question_id: one id column per file."""
    one = write(tmp_path, "a.csv", "qid,n,score\nq1,x1,1\nq2,x2,0\n")
    two = write(tmp_path, "b.csv", "question_id,qid,score\nq2,z,1\nq1,y,1\n")
    data = load(one, two, item=("qid", "question_id"))
    assert data.items == ("q1", "q2") and data.source["columns"]["item"] == ["qid", "question_id"]
    np.testing.assert_array_equal(data.scores, [[1, 1], [0, 1]])
    assert load(one, two, item=["qid", "question_id"]).items == data.items
    assert "item='question_id': no such column in" in error(one, two, item="question_id")
    assert "name one per file: item=('question_id', 'COL')" in error(one, two, item="question_id")
    for bad in [("qid",), ("qid", "question_id", "n"), ("qid", "")]:
        assert "item= must" in error(one, two, item=bad)
    assert "with two inputs a pair of names" in error(one, item=("qid", "n"))

    from evalbars.cli import main

    for argv in (["ci", str(one), str(two), "--item", "qid", "--item", "question_id"],
                 ["ci", "--item", "qid", "--item", "question_id", str(one), str(two)]):
        assert main([*argv, "--format", "json", "--n-resamples", "200"]) == 0
        assert json.loads(capsys.readouterr().out)["provenance"]["source"]["columns"][
            "item"] == ["qid", "question_id"]
    with pytest.raises(SystemExit) as exit_info:
        main(["ci", str(one), str(two), "--item", "qid", "--item", "n", "--item", "qid"])
    assert exit_info.value.code == 2 and "--item is given more than twice" in \
        capsys.readouterr().err


def test_error_two_files_that_share_no_id(tmp_path):
    """Nothing in common: no --intersect (it would leave nothing), a few ids of each."""
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\nq2,0\nq3,1\nq4,0\n")
    two = write(tmp_path, "b.csv", "qid,score\nx1,1\nx2,0\n")
    message = error(one, two)
    assert message.startswith("the two files share no item id: ")
    assert f"'{one}' has 'q1', 'q2', 'q3' and 1 more (column 'qid'); '{two}' has 'x1', 'x2'" \
        in message
    assert "intersect" not in message and "--item COL --item COL2" in message
    long = write(tmp_path, "l.csv", "id,model,score\nq1,a,1\nq2,b,0\n")
    message = error(long)
    assert "the models share no item id: model 'a' has 'q1'" in message
    assert "intersect" not in message


def test_two_files_names_and_single_numeric_column(tmp_path):
    one = write(tmp_path, "x/run.csv", "qid,note,points\nq1,hi,0.5\nq2,yo,1\n")
    two = write(tmp_path, "y/run.csv", "qid,points\nq1,1\nq2,1\n")
    data = load(one, two, models=["old", "new"])
    assert data.models == ("old", "new")
    np.testing.assert_array_equal(data.column("old"), [0.5, 1])


def test_two_dataframes_need_names():
    pd = pytest.importorskip("pandas")
    a = pd.DataFrame({"qid": ["q1", "q2"], "score": [1, 0]})
    b = pd.DataFrame({"qid": ["q1", "q2"], "score": [1, 1]})
    data = load(a, b, models=["a", "b"])
    assert data.models == ("a", "b")
    assert "models=['a', 'b']" in error(a, b)


# --------------------------------------------------------------------------- values


def test_ids_are_exact_strings(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a\n007,1\n7,0\n 7,1\n7 ,0\n")
    data = load(path)
    assert data.items == (" 7", "007", "7", "7 ")
    np.testing.assert_array_equal(data.column("a"), [1, 1, 0, 0])


def test_json_int_and_string_ids_collide(tmp_path):
    path = write(tmp_path, "r.jsonl",
                 '{"qid": 7, "a": 1}\n{"qid": "7", "a": 0}\n{"qid": "07", "a": 0}\n')
    message = error(path)
    assert "'7' at lines 1, 2" in message and "repeated" in message


def test_score_spellings(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a,b\nq1,1.0,true\nq2, 0 ,False\nq3,1e0,TRUE\nq4,0,0\n")
    data = load(path)
    assert data.score_type == "binary"
    np.testing.assert_array_equal(data.scores, [[1, 1], [0, 0], [1, 1], [0, 0]])


def test_json_booleans_and_numeric_strings(tmp_path):
    path = write(tmp_path, "r.jsonl", '{"id": "q1", "s": true}\n{"id": "q2", "s": "0.25"}\n')
    data = load(path)
    np.testing.assert_array_equal(data.column("s"), [1, 0.25])
    assert data.score_type == "continuous"


def test_score_type_options(tmp_path):
    path = write(tmp_path, "w.csv", WIDE)
    assert load(path, score_type="continuous").score_type == "continuous"
    assert load(path, score_type="binary").score_type == "binary"
    cont = write(tmp_path, "c.csv", "qid,a\nq1,0.5\nq2,2\nq3,-1\n")
    assert load(cont).score_type == "continuous"


def test_integer_scale_is_continuous(tmp_path):
    rows = "".join(f"q{k},{k % 5}\n" for k in range(200))  # a 0..4 rating, not a stray
    assert load(write(tmp_path, "w.csv", "qid,rating\n" + rows)).score_type == "continuous"


def test_scores_are_read_only_and_column_view(tmp_path):
    data = load(write(tmp_path, "w.csv", WIDE))
    with pytest.raises(ValueError):
        data.scores[0, 0] = 5
    assert not data.column("model_b").flags.writeable
    assert "ItemScores" in repr(data) and "3 items" in repr(data)


def test_large_wide_file(tmp_path):
    n = 20_000
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    ids = [f"q{k:05d}" for k in rng.permutation(n)]
    text = "qid,a,b\n" + "".join(f"{i},{x},{y}\n" for i, x, y in zip(ids, a, b))
    data = load(write(tmp_path, "big.csv", text))
    order = np.argsort(ids)
    np.testing.assert_array_equal(data.scores, np.column_stack([a, b])[order])


# --------------------------------------------------------------------------- intersect


def test_intersect_wide_counts(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a,b,c\nq1,1,0,1\nq2,,1,1\nq3,1,,\nq4,,,\nq5,0,0,0\n")
    data = load(path, intersect=True)
    assert data.items == ("q1", "q5")
    assert data.dropped == {"a": 1, "b": 1, "c": 1}  # q4 has no score at all: in no count
    assert data.source["n_items_read"] == 5
    assert data.describe().endswith(
        "(2 items, 0/1 scores); intersect kept 2 of 5 items "
        "(dropped per model: 'a' 1, 'b' 1, 'c' 1)"
    )


def test_intersect_long_counts(tmp_path):
    path = write(tmp_path, "l.csv", LONG + "q4,a,1\nq5,a,0\nq6,b,1\n")
    data = load(path, intersect=True)
    assert data.items == ("q1", "q2", "q3")
    assert data.dropped == {"a": 2, "b": 1}


def test_intersect_two_files_counts(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\nq2,0\nq3,1\n")
    two = write(tmp_path, "b.csv", "qid,score\nq2,1\nq3,\nq9,0\n")
    data = load(one, two, intersect=True)
    assert data.items == ("q2",)
    assert data.dropped == {"a": 2, "b": 1}


def test_without_intersect_dropped_is_none(tmp_path):
    assert load(write(tmp_path, "w.csv", WIDE)).dropped is None


# --------------------------------------------------------------------------- invariances


def _shuffled_csv(tmp_path, name, header, rows, seed):
    rows = list(rows)
    order = np.random.default_rng(seed).permutation(len(rows))
    return write(tmp_path, name, header + "".join(rows[k] for k in order))


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_row_order_does_not_matter(tmp_path, layout):
    rng = np.random.default_rng(11)
    n = 50
    a, b = rng.integers(0, 2, n), rng.random(n).round(2)
    if layout == "wide":
        header, rows = "qid,a,b\n", [f"q{k},{a[k]},{b[k]}\n" for k in range(n)]
        options = {"models": ["a", "b"]}  # a 0/1 and a continuous column: name them
    else:
        options = {}
        header = "id,model,score\n"
        rows = [f"q{k},a,{a[k]}\n" for k in range(n)] + [f"q{k},b,{b[k]}\n" for k in range(n)]
    first = load(_shuffled_csv(tmp_path, "1.csv", header, rows, 1), **options)
    second = load(_shuffled_csv(tmp_path, "2.csv", header, rows, 2), **options)
    assert first.items == second.items
    assert first.score_type == second.score_type == "continuous"
    # unrequested long-layout models come in file order; each model's column is the same
    assert sorted(first.models) == sorted(second.models) == ["a", "b"]
    for name in ("a", "b"):
        np.testing.assert_array_equal(first.column(name), second.column(name))
    requested = load(tmp_path / "2.csv", models=list(first.models))
    np.testing.assert_array_equal(first.scores, requested.scores)


def test_renaming_ids_permutes_rows_only(tmp_path):
    rng = np.random.default_rng(5)
    n = 40
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    old = [f"q{k}" for k in range(n)]
    new = {o: f"item-{v:03d}" for o, v in zip(old, rng.permutation(n))}  # a bijection
    before = load(write(tmp_path, "1.csv", "qid,a,b\n" + "".join(
        f"{old[k]},{a[k]},{b[k]}\n" for k in range(n))))
    after = load(write(tmp_path, "2.csv", "qid,a,b\n" + "".join(
        f"{new[old[k]]},{a[k]},{b[k]}\n" for k in range(n))))
    assert after.score_type == before.score_type
    position = {item: k for k, item in enumerate(after.items)}
    for k, item in enumerate(before.items):
        np.testing.assert_array_equal(after.scores[position[new[item]]], before.scores[k])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=4), st.sampled_from(["a", "b", "c"]),
                  st.sampled_from([0, 1, 0.5])),
        min_size=1, max_size=30, unique_by=lambda row: (row[0], row[1]),
    ),
    st.randoms(use_true_random=False),
)
def test_long_dataframe_shuffle_property(rows, rnd):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(rows, columns=["id", "model", "score"])
    shuffled = df.sample(frac=1, random_state=rnd.randrange(2**31)).reset_index(drop=True)
    try:
        first = load(df, intersect=True)
    except EvalbarsError as exc:  # no item scored by every model: must fail the same way
        with pytest.raises(EvalbarsError, match="no item has a score"):
            load(shuffled, intersect=True)
        assert "no item has a score" in str(exc)
        return
    second = load(shuffled, intersect=True, models=list(first.models))
    assert first.items == second.items and first.score_type == second.score_type
    assert first.dropped == second.dropped
    np.testing.assert_array_equal(first.scores, second.scores)


# --------------------------------------------------------------------------- errors: columns


def test_error_no_id_column(tmp_path):
    message = error(write(tmp_path, "w.csv", "name,a,b\nq1,1,0\n"))
    assert "columns: 'name', 'a', 'b'" in message and "item=" in message


def test_error_several_id_columns(tmp_path):
    message = error(write(tmp_path, "w.csv", "id,qid,a\n1,2,1\n"))
    assert "'id', 'qid'" in message and "item=" in message


def test_error_unknown_item_column(tmp_path):
    message = error(write(tmp_path, "w.csv", "name,a\nq1,1\n"), item="Name")
    assert "item='Name'" in message and "did you mean 'name'" in message
    assert "columns: 'name', 'a'" in message


def test_error_unknown_model_column(tmp_path):
    message = error(write(tmp_path, "w.csv", WIDE), models=["model_a", "model_c"])
    assert "unknown model 'model_c'" in message
    assert "columns: 'qid', 'model_a', 'model_b'" in message


def test_error_item_column_as_model(tmp_path):
    assert "item id column" in error(write(tmp_path, "w.csv", WIDE), models=["qid"])


def test_error_unknown_model_value(tmp_path):
    message = error(write(tmp_path, "l.csv", LONG), models=["a", "zzz"])
    assert "unknown model 'zzz'" in message and "which holds 'a', 'b'" in message


def test_error_no_model_columns(tmp_path):
    message = error(write(tmp_path, "w.csv", "qid,answer\nq1,yes\nq2,no\n"))
    assert "no model columns" in message and "models=" in message and "'answer'" in message


def test_error_too_many_model_columns_before_any_cell_is_parsed(tmp_path, monkeypatch):
    from evalbars.io import cells, layouts, validate

    monkeypatch.setattr(validate, "MAX_MODEL_COLUMNS", 3)
    header = "qid,cluster,question_id," + ",".join(f"m{i}" for i in range(4))
    path = write(tmp_path, "w.csv", header + "\nq1,c,x,1,0,1,0\nq2,c,y,0,1,1,0\n")

    def no_parsing(*args, **kwargs):
        raise AssertionError("a cell was parsed")

    monkeypatch.setattr(layouts, "parse_scores", no_parsing)
    monkeypatch.setattr(cells, "parse_scores", no_parsing)
    message = error(path, item="qid", cluster="cluster")
    assert "w.csv' has 4 columns that could hold models, more than 3" in message
    assert "MAX_MODEL_COLUMNS" in message and "models=[...]" in message
    assert "long layout" in message
    monkeypatch.undo()
    monkeypatch.setattr(validate, "MAX_MODEL_COLUMNS", 3)
    assert load(path, item="qid", models=["m0", "m3"]).models == ("m0", "m3")  # named
    monkeypatch.setattr(validate, "MAX_MODEL_COLUMNS", 4)
    assert len(load(path, item="qid", cluster="cluster").models) == 4  # at the limit


def test_error_mostly_numeric_column_with_typo(tmp_path):
    message = error(write(tmp_path, "w.csv", "qid,a,b\nq1,1,0\nq2,1,1\nq3,0,l\n"))
    assert "column 'b'" in message and "'l' at line 4" in message and "models=" in message


def test_error_score_without_model_column(tmp_path):
    assert "no 'model' column" in error(write(tmp_path, "w.csv", WIDE), score="model_a")


def test_error_model_with_two_files(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\n")
    assert "models=['a', 'b']" in error(one, one, model="model")


def test_error_score_column_ambiguous(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,score,correct\nq1,a,1,1\n")
    assert "'score', 'correct'" in error(path) and "score=" in error(path)


def test_error_score_column_not_found(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,p,q\nq1,a,1,1\n")
    message = error(path)
    assert "numeric columns are 'p', 'q'" in message and "score=" in message


def test_error_two_files_no_score_column(tmp_path):
    one = write(tmp_path, "a.csv", "qid,x,y\nq1,1,0\n")
    two = write(tmp_path, "b.csv", "qid,score\nq1,1\n")
    assert "a.csv" in error(one, two) and "score=" in error(one, two)


def test_error_columns_must_differ(tmp_path):
    path = write(tmp_path, "l.csv", LONG)
    assert "must differ" in error(path, model="model", score="model")


def test_error_two_files_same_stem(tmp_path):
    one = write(tmp_path, "x/run.csv", "qid,score\nq1,1\n")
    two = write(tmp_path, "y/run.csv", "qid,score\nq1,1\n")
    message = error(one, two)
    assert "both inputs are named 'run'" in message and "models=" in message


def test_error_two_files_models_length(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\n")
    two = write(tmp_path, "b.csv", "qid,score\nq1,1\n")
    assert "exactly 2 names" in error(one, two, models=["a"])


# --------------------------------------------------------------------------- errors: arguments


def test_error_score_type_value(tmp_path):
    message = error(write(tmp_path, "w.csv", WIDE), score_type="bin")
    assert "'auto', 'binary', 'continuous'" in message


def test_error_models_string(tmp_path):
    assert "models=['model_a']" in error(write(tmp_path, "w.csv", WIDE), models="model_a")


def test_error_models_empty_or_repeated(tmp_path):
    path = write(tmp_path, "w.csv", WIDE)
    assert "empty" in error(path, models=[])
    assert "more than once" in error(path, models=["model_a", "model_a"])


def test_error_intersect_not_bool(tmp_path):
    assert "intersect=" in error(write(tmp_path, "w.csv", WIDE), intersect="yes")


def test_error_unknown_model_in_column(tmp_path):
    data = load(write(tmp_path, "w.csv", WIDE))
    with pytest.raises(EvalbarsError, match="models: 'model_a', 'model_b'"):
        data.column("model_c")


# --------------------------------------------------------------------------- errors: values


def test_error_empty_id(tmp_path):
    message = error(write(tmp_path, "w.csv", "qid,a\nq1,1\n,0\nq3,1\n,1\n"))
    assert "empty item id" in message and "lines 3, 5" in message and "'qid'" in message


def test_error_id_of_wrong_type(tmp_path):
    path = write(tmp_path, "r.jsonl", '{"qid": "q1", "a": 1}\n{"qid": 2.5, "a": 0}\n')
    message = error(path)
    assert "strings or integers" in message and "2.5 (float)" in message and "line 2" in message


def test_error_duplicate_ids_wide(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a\nq1,1\nq2,0\nq1,1\nq2,1\nq3,0\nq2,0\n")
    message = error(path)
    assert "2 item ids are repeated in column 'qid'" in message
    assert "'q1' at lines 2, 4" in message and "'q2' at lines 3, 5, 7" in message
    assert "pass sample= (--sample COL) if these are several sampled answers" in message


def test_error_duplicate_item_model_rows(tmp_path):
    path = write(tmp_path, "l.csv", LONG + "q2,a,1\n")
    message = error(path)
    assert "item 'q2' model 'a' at lines 4, 8" in message
    assert "pass sample= (--sample COL) if these are several sampled answers" in message


def test_error_duplicate_ids_two_files_suggests_sample(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\nq1,0\n")
    two = write(tmp_path, "b.csv", "qid,score\nq1,1\n")
    assert "pass sample= (--sample COL)" in error(one, two)


def test_error_duplicate_ids_two_files(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\nq1,0\n")
    two = write(tmp_path, "b.csv", "qid,score\nq1,1\n")
    assert "'q1' at lines 2, 3" in error(one, two) and "a.csv" in error(one, two)


@pytest.mark.parametrize("bad", ["NaN", "inf", "-inf", "abc", "1,5"])
def test_error_invalid_score(tmp_path, bad):
    path = write(tmp_path, "w.csv", f'qid,a\nq1,1\nq2,"{bad}"\n')
    message = error(path, models=["a"])
    assert f"{bad!r} at line 3" in message and "column 'a'" in message


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u0969", "1\u0660"])
def test_error_digits_that_are_not_ascii(tmp_path, digit):
    """float() reads Arabic-Indic, fullwidth and Devanagari digits; a score cell may not
    (as TREC run files may not)."""
    path = write(tmp_path, "w.csv", f"qid,a\nq1,1\nq2,{digit}\nq3,0\n")
    message = error(path, models=["a"])
    assert f"{digit!r} at line 3" in message and "column 'a'" in message
    assert "only the ASCII digits 0-9" in message
    long = write(tmp_path, "l.jsonl", json.dumps({"id": "q1", "model": "a", "score": digit}))
    assert f"{digit!r} at line 1" in error(long)
    assert load(write(tmp_path, "s.csv", "qid,a\nq1, 1 \nq2,0\n")).scores.tolist() == [[1], [0]]


def test_error_invalid_scores_lists_five_and_counts(tmp_path):
    rows = "".join(f"q{k},{'x' if k % 2 else 1}\n" for k in range(20))
    message = error(write(tmp_path, "w.csv", "qid,a\n" + rows), models=["a"])
    assert "has 10 values" in message
    assert ("'x' at line 3, 'x' at line 5, 'x' at line 7, 'x' at line 9, 'x' at line 11 "
            "and 5 more") in message


def test_error_invalid_json_score(tmp_path):
    path = write(tmp_path, "r.jsonl", '{"qid": "q1", "a": 1}\n{"qid": "q2", "a": NaN}\n'
                                      '{"qid": "q3", "a": [1]}\n')
    message = error(path, models=["a"])
    assert "nan at line 2" in message and "[1] at line 3" in message


def test_error_dataframe_inf():
    pd = pytest.importorskip("pandas")
    message = error(pd.DataFrame({"qid": ["q1", "q2"], "a": [1.0, np.inf]}))
    assert "inf at row 1 (0-based)" in message


def test_error_parquet_nan_is_not_missing(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({"qid": ["q1", "q2"], "a": [1.0, float("nan")]})
    pq.write_table(table, tmp_path / "r.parquet")
    assert "nan at row 1 (0-based)" in error(tmp_path / "r.parquet")


def test_error_missing_scores_wide(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a,b\nq1,1,0\nq2,,1\nq3,,\nq4,1,1\n")
    message = error(path)
    assert "model 'a' has no score for 2 items" in message and "lines 3, 4" in message
    assert "model 'b' has no score for 1 item" in message and "line 4" in message
    assert "intersect=True" in message and "--intersect" in message


def test_error_missing_scores_long(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,score\nq1,a,1\nq1,b,\n")
    message = error(path)
    assert "model 'b' has no score for 1 item" in message and "line 3" in message


def test_error_items_for_one_model_only(tmp_path):
    extra_a = "".join(f"x{k},a,1\n" for k in range(7))
    path = write(tmp_path, "l.csv", LONG + extra_a + "y1,b,0\n")
    message = error(path)
    assert "'b' has no row for 7 items" in message
    assert "'x0', 'x1', 'x2', 'x3', 'x4' and 2 more" in message
    assert "'a' has no row for 1 item" in message and "'y1'" in message
    assert "3 items are common" in message and "intersect=True" in message


def test_error_no_common_items(tmp_path):
    one = write(tmp_path, "a.csv", "qid,score\nq1,1\n")
    two = write(tmp_path, "b.csv", "qid,score\nq2,1\n")
    message = error(one, two, intersect=True)
    assert "no item has a score for every model" in message and "'a' 1, 'b' 1" in message


def test_error_stray_value_in_binary_column(tmp_path):
    rows = "".join(f"q{k:03d},{k % 2},{k % 2}\n" for k in range(300))
    path = write(tmp_path, "w.csv", "qid,a,b\n" + rows.replace("q017,1,1", "q017,1,2"))
    message = error(path)
    assert "model 'b'" in message and "values 2" in message and "line 19" in message
    assert "score_type='continuous'" in message
    assert load(path, score_type="continuous").score_type == "continuous"


def test_error_guessed_model_columns_on_different_scales(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a,b,n_tokens\nq1,1,0,153\nq2,0,0,87\n")
    message = error(path)
    assert "'a', 'b' hold only 0/1 but 'n_tokens' holds other values (153 at line 2, 87 at " \
        "line 3 of" in message
    assert "models=" in message
    assert load(path, models=["a", "b"]).score_type == "binary"
    assert load(path, score_type="continuous").models == ("a", "b", "n_tokens")


@pytest.mark.parametrize("as_frame", [False, True])
def test_error_columns_on_different_scales_place_values_as_their_table_does(tmp_path,
                                                                            as_frame):
    path = write(tmp_path, "w.csv", "qid,a,b,n_tokens\nq1,1,0,153\nq2,0,0,87\nq3,1,1,1\n")
    if as_frame:
        data, label = pytest.importorskip("pandas").read_csv(path), "the DataFrame"
        places = "153 at row 0 (0-based), 87 at row 1 (0-based)"
    else:
        data, label, places = path, repr(str(path)), "153 at line 2, 87 at line 3"
    assert error(data) == (
        f"the columns of {label} taken as models are not on one scale: 'a', 'b' hold only "
        f"0/1 but 'n_tokens' holds other values ({places} of {label}); fix a typo, or name "
        f"the models (models=[...] in Python) if a column is not a model, or pass "
        f"--score-type continuous (score_type='continuous') if the scale really is wider")


def test_error_stray_value_in_a_short_wide_file_names_its_line_and_the_flags(tmp_path):
    """Too few rows for the stray-value rule (29 of 30 is under 99%): the scale check says
    which value on which line, and the flags the commands really have."""
    rows = [f"q{i},{i % 2},{(i // 2) % 2}" for i in range(30)]
    rows[6] = "q6,1,2"
    path = write(tmp_path, "w.csv", "qid,model_a,model_b\n" + "\n".join(rows) + "\n")
    message = error(path)
    assert f"'model_b' holds other values (2 at line 8 of '{path}')" in message
    assert "models=[...] in Python" in message   # the CLI puts the command's flags there
    assert "--score-type continuous" in message and "(--models)" not in message
    assert load(path, models=["model_a", "model_b"]).score_type == "continuous"


def test_error_binary_requested_but_not_binary(tmp_path):
    path = write(tmp_path, "w.csv", "qid,a\nq1,0.5\nq2,1\nq3,3\n")
    message = error(path, score_type="binary")
    assert "model 'a' has 2 scores other than 0 and 1" in message
    assert "values 0.5, 3" in message and "lines 2, 4" in message


def test_error_empty_model_name(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,score\nq1,a,1\nq1,,0\n")
    assert "empty model name in column 'model' at line 3" in error(path)



@pytest.mark.parametrize("fmt", ["jsonl", "parquet", "dataframe"])
@pytest.mark.parametrize("field, what", [("id", "item id"), ("model", "model name"),
                                         ("topic", "cluster label")])
def test_error_empty_string_label_in_every_format(tmp_path, fmt, field, what):
    """An empty string is an empty label, as an empty CSV cell is: never a model dropped
    silently, an item '' or a cluster ''."""
    columns = {"id": ["q1", "q1", "q2", "q2"], "model": ["a", "b", "a", "b"],
               "topic": ["t", "t", "u", "u"], "score": [1, 0, 1, 1]}
    columns[field][2] = ""
    if fmt == "jsonl":
        rows = [dict(zip(columns, values)) for values in zip(*columns.values())]
        data, where = write(tmp_path, "l.jsonl", "".join(json.dumps(r) + "\n" for r in rows)), \
            "at line 3"
    elif fmt == "parquet":
        pa = pytest.importorskip("pyarrow")
        pq = pytest.importorskip("pyarrow.parquet")
        data, where = tmp_path / "l.parquet", "at row 2 (0-based)"
        pq.write_table(pa.table(columns), data)
    else:
        pd = pytest.importorskip("pandas")
        data, where = pd.DataFrame(columns), "at row 2 (0-based)"
    message = error(data, cluster="topic")
    assert f"empty {what} in column {field!r} {where} of" in message
    csv_path = write(tmp_path, "l.csv", "id,model,topic,score\n" + "".join(
        ",".join(map(str, values)) + "\n" for values in zip(*columns.values())))
    assert f"empty {what} in column {field!r} at line 4 of" in error(csv_path, cluster="topic")


@pytest.mark.parametrize("field, what", [("id", "item id"), ("model", "model name"),
                                         ("topic", "cluster label")])
def test_error_lone_surrogate_in_a_label(tmp_path, field, what):
    """JSON's "\\ud800" escape is no character: refused when read, not a UnicodeEncodeError
    when the ids are hashed for the provenance or the model names seed the bootstrap."""
    rows = [{"id": "q1", "model": "a", "topic": "t", "score": 1},
            {"id": "q1", "model": "b", "topic": "t", "score": 0}]
    rows[1][field] = "x\ud800"
    path = write(tmp_path, "l.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    message = error(path, cluster="topic")
    assert f"{what} 'x\\ud800' in column {field!r} at line 2 of '{path}'" in message
    assert "lone UTF-16 surrogate (\\ud800)" in message
    message.encode("utf-8")  # the message itself can be printed


def test_error_lone_surrogate_in_a_key_or_a_dataframe(tmp_path):
    path = write(tmp_path, "w.jsonl", '{"id": "q1", "a": 1}\n{"id": "q2", "\\udc00": 1}\n')
    assert f"the key '\\udc00' at line 2 of '{path}' holds a lone" in error(path)
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"id": pd.Series(["q1", "q\udfff"], dtype=object), "a": [1, 0]})
    assert "item id 'q\\udfff' in column 'id' at row 1 (0-based)" in error(df)
    assert "given with models=" in error(write(tmp_path, "l.csv", LONG), models=["a\ud800"])


# --------------------------------------------------------------------------- samples, clusters

SAMPLED = (
    "id,model,epoch,score\n"
    "q1,a,0,1\nq1,a,1,0\nq1,a,2,1\nq2,a,0,0\nq1,b,0,1\nq2,b,0,1\nq2,b,1,1\n"
)


def reference(rows, models):
    """(items, counts, sums, sumsq) from (item, model, score) rows, by plain Python grouping."""
    cells: dict = {}
    for item, name, value in rows:
        cells.setdefault((item, name), []).append(value)
    items = sorted({i for i, _ in cells if all((i, m) in cells for m in models)})
    stats = [[(len(v), sum(v), sum(x * x for x in v)) for v in (cells[i, m] for m in models)]
             for i in items]
    counts, sums, sumsq = np.moveaxis(np.array(stats, dtype=float).reshape(-1, len(models), 3),
                                      2, 0)
    return items, counts, sums, sumsq


def test_without_sample_every_count_is_one(tmp_path):
    data = load(write(tmp_path, "w.csv", WIDE))
    np.testing.assert_array_equal(data.counts, np.ones((3, 2)))
    assert data.counts.dtype == np.int64 and data.sumsq.dtype == np.float64
    np.testing.assert_array_equal(data.sumsq, data.scores ** 2)
    assert data.clusters is None
    for array in (data.counts, data.sumsq):
        with pytest.raises(ValueError):
            array[0, 0] = 5


def test_long_with_sample_column(tmp_path):
    path = write(tmp_path, "l.csv", SAMPLED)
    data = load(path, sample="epoch")
    assert data.items == ("q1", "q2") and data.models == ("a", "b")
    np.testing.assert_array_equal(data.counts, [[3, 1], [1, 2]])
    np.testing.assert_array_equal(data.scores, [[2 / 3, 1], [0, 1]])
    np.testing.assert_array_equal(data.sumsq, [[2, 1], [0, 2]])
    assert data.score_type == "binary"  # the answers are 0/1, though a mean is not
    assert data.source["columns"] == {
        "item": "id", "model": "model", "score": "score", "models": ["a", "b"],
        "cluster": None, "sample": "epoch", "run": None,
    }
    assert data.describe() == (
        f"long csv {path}: item column 'id', model column 'model', score column 'score', "
        "sample column 'epoch', models 'a', 'b' (2 items, 0/1 scores, 1 to 3 answers per "
        "question, 1.8 on average)"
    )


def test_wide_with_sample_column(tmp_path):
    path = write(tmp_path, "w.csv", "qid,epoch,a,b\nq2,2,0.5,0.25\nq1,0,0.5,1\nq1,1,0.25,0\n"
                                    "q2,0,1,0.75\nq2,1,0,0.5\n")
    data = load(path, sample="epoch")
    assert data.models == ("a", "b")  # the numeric epoch column is not a model
    np.testing.assert_array_equal(data.counts, [[2, 2], [3, 3]])
    np.testing.assert_array_equal(data.scores, [[0.375, 0.5], [0.5, 0.5]])
    np.testing.assert_array_equal(data.sumsq, [[0.3125, 1], [1.25, 0.875]])
    assert data.score_type == "continuous"
    assert data.describe().endswith(
        "item column 'qid', sample column 'epoch', models 'a', 'b' "
        "(2 items, continuous scores, 2 to 3 answers per question, 2.5 on average)"
    )


def test_two_files_with_sample_column_in_one_or_both(tmp_path):
    one = write(tmp_path, "base.csv", "id,epoch,score\nq1,0,1\nq1,1,0\nq2,0,1\n")
    two = write(tmp_path, "tuned.csv", "id,score\nq2,0\nq1,1\n")
    data = load(one, two, sample="epoch")
    np.testing.assert_array_equal(data.counts, [[2, 1], [1, 1]])
    np.testing.assert_array_equal(data.scores, [[0.5, 1], [1, 0]])
    assert data.source["columns"]["sample"] == ["epoch", None]
    assert "sample column 'epoch'" in data.describe()
    three = write(tmp_path, "sampled.csv", "id,epoch,score\nq1,7,1\nq2,7,1\nq2,8,0\nq2,9,0\n")
    both = load(one, three, sample="epoch")
    np.testing.assert_array_equal(both.counts, [[2, 1], [1, 3]])
    np.testing.assert_array_equal(both.sumsq, [[1, 1], [1, 1]])
    assert both.source["columns"]["sample"] == ["epoch", "epoch"]


def test_unequal_answer_counts_are_described(tmp_path):
    counts = [3, 5, 4, 4, 4, 4, 4, 5, 4, 4]
    rows = "".join(f"q{i},m,{k},{k % 2}\n" for i, c in enumerate(counts) for k in range(c))
    data = load(write(tmp_path, "l.csv", "id,model,epoch,score\n" + rows), sample="epoch")
    np.testing.assert_array_equal(data.counts[:, 0], [counts[int(i[1:])] for i in data.items])
    assert "(10 items, 0/1 scores, 3 to 5 answers per question, 4.1 on average)" \
        in data.describe()
    same = "".join(f"q{i},m,{k},1\n" for i in range(4) for k in range(5))
    data = load(write(tmp_path, "s.csv", "id,model,epoch,score\n" + same), sample="epoch")
    assert "(4 items, 0/1 scores, 5 answers per question)" in data.describe()


def test_sample_values_are_labels_from_any_source(tmp_path):
    pd = pytest.importorskip("pandas")
    lines = [{"id": "q1", "model": "a", "epoch": 1, "score": 1},
             {"id": "q1", "model": "a", "epoch": "1 ", "score": 0},  # not the same as 1
             {"id": "q1", "model": "b", "epoch": 1, "score": 0.5}]
    path = write(tmp_path, "r.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    data = load(path, sample="epoch")
    np.testing.assert_array_equal(data.counts, [[2, 1]])
    frame = load(pd.DataFrame(lines), sample="epoch")
    np.testing.assert_array_equal(frame.sumsq, data.sumsq)
    csv_path = write(tmp_path, "r.csv", "id,model,epoch,score\nq1,a,1,1\nq1,a,1,0\n")
    assert "sample '1' at lines 2, 3" in error(csv_path, sample="epoch")


def test_sample_and_cluster_columns_are_not_scores_or_ids(tmp_path):
    path = write(tmp_path, "l.csv", "qid,sample_id,doc_id,model,points\nq1,0,7,a,1\n"
                                    "q1,1,7,a,0\n")
    data = load(path, sample="sample_id", cluster="doc_id")
    assert data.source["columns"]["item"] == "qid"
    assert data.source["columns"]["score"] == "points"
    assert data.clusters == ("7",)
    assert "several columns" in error(path)  # without them, the id-like columns compete


def test_cookbook_clustered_by_topic():
    data = load(COOKBOOK, cluster="topic_id")
    assert data.models == ("system_a", "system_b")
    assert data.source["columns"]["cluster"] == "topic_id"
    cols = csv_columns(COOKBOOK)
    topic = dict(zip(cols["example_id"], cols["topic_id"]))
    assert data.clusters == tuple(topic[i] for i in data.items)
    sizes = {c: data.clusters.count(c) for c in set(data.clusters)}
    assert len(sizes) == 20 and set(sizes.values()) == {10}
    assert data.describe().endswith(
        "(200 items, 0/1 scores), clustered by 'topic_id' (20 clusters)")
    np.testing.assert_array_equal(data.scores, load(COOKBOOK).scores)


def test_numeric_cluster_column_is_not_a_model(tmp_path):
    path = write(tmp_path, "w.csv", "qid,doc,a,b\nq1,1,1,0\nq2,1,0,0\nq3,2,1,1\n")
    data = load(path, cluster="doc")
    assert data.models == ("a", "b") and data.clusters == ("1", "1", "2")
    assert "'doc' holds other values" in error(path)  # without cluster= it looks like a model


def test_cluster_labels_are_exact_strings(tmp_path):
    path = write(tmp_path, "l.csv", "id,topic,model,score\nq1,T,a,1\nq2, T,a,0\nq3,t,a,1\n")
    assert load(path, cluster="topic").clusters == ("T", " T", "t")


def test_clusters_in_two_files(tmp_path):
    one = write(tmp_path, "a.csv", "id,topic,score\nq1,x,1\nq2,y,0\nq3,y,1\n")
    two = write(tmp_path, "b.csv", "id,score\nq3,0\nq1,1\nq2,1\n")
    data = load(one, two, cluster="topic")
    assert data.clusters == ("x", "y", "y")
    assert data.source["columns"]["cluster"] == ["topic", None]
    assert data.describe().endswith("clustered by 'topic' (2 clusters)")
    again = write(tmp_path, "c.csv", "id,topic,score\nq3,y,0\nq1,x,1\nq2,y,1\n")
    assert load(one, again, cluster="topic").clusters == ("x", "y", "y")


def test_intersect_with_samples(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,epoch,score\n"
                                    "q1,a,0,1\nq1,a,1,\nq1,a,2,0\nq1,b,0,1\n"  # one empty answer
                                    "q2,a,0,1\nq2,b,0,\nq2,b,1,\n"  # b answered nothing
                                    "q3,a,0,1\n")  # b has no row
    data = load(path, sample="epoch", intersect=True)
    assert data.items == ("q1",) and data.dropped == {"a": 2, "b": 0}
    np.testing.assert_array_equal(data.counts, [[2, 1]])
    np.testing.assert_array_equal(data.scores, [[0.5, 1]])
    message = error(path, sample="epoch")
    assert "model 'a' has no score for 1 answer (empty cell in column 'score' at line 3" \
        in message
    assert "model 'b' has no score for 2 answers" in message


def test_stray_answer_is_found_among_samples(tmp_path):
    rows = "".join(f"q{k},m,{e},{(k + e) % 2}\n" for k in range(100) for e in range(3))
    path = write(tmp_path, "l.csv", "id,model,epoch,score\n" + rows + "q7,m,3,2\n")
    message = error(path, sample="epoch")
    assert "values 2" in message and "line 302" in message


@pytest.mark.parametrize("layout", ["wide", "long", "two-files"])
def test_sampled_and_clustered_results_ignore_row_order(tmp_path, layout):
    rng = np.random.default_rng(8)
    n_items = 60
    answers = rng.integers(1, 6, n_items)
    topic = [f"t{k % 7}" for k in range(n_items)]
    if layout == "wide":
        header = "qid,topic,epoch,a,b\n"
        rows = [f"q{k},{topic[k]},{e},{rng.random():.6f},{rng.random():.6f}\n"
                for k in range(n_items) for e in range(answers[k])]
    else:
        header = "qid,topic,epoch,model,score\n"
        rows = [f"q{k},{topic[k]},{e},{m},{rng.random():.6f}\n" for m in "ab"
                for k in range(n_items) for e in range(rng.integers(1, 6))]
    results = []
    for seed in (1, 2):
        if layout == "two-files":
            files = []
            for m in "ab":
                mine = [r.replace(f",{m},", ",") for r in rows if f",{m}," in r]
                files.append(_shuffled_csv(tmp_path, f"{m}{seed}.csv", "qid,topic,epoch,score\n",
                                           mine, seed))
            results.append(load(*files, models=["a", "b"], sample="epoch", cluster="topic"))
        else:
            path = _shuffled_csv(tmp_path, f"{seed}.csv", header, rows, seed)
            results.append(load(path, models=["a", "b"], sample="epoch", cluster="topic"))
    first, second = results
    assert first.items == second.items and first.clusters == second.clusters
    assert first.clusters == tuple(topic[int(i[1:])] for i in first.items)
    for name in ("scores", "counts", "sumsq"):  # bit for bit: answers are summed in one order
        np.testing.assert_array_equal(getattr(first, name), getattr(second, name))
    parsed = [r.strip().split(",") for r in rows]
    triples = [(p[0], p[3], float(p[4])) for p in parsed] if layout != "wide" else \
        [(p[0], m, float(p[3 + j])) for p in parsed for j, m in enumerate("ab")]
    items, counts, sums, sumsq = reference(triples, ["a", "b"])
    assert list(first.items) == items
    np.testing.assert_array_equal(first.counts, counts)
    np.testing.assert_allclose(first.scores, sums / counts, rtol=1e-13)
    np.testing.assert_allclose(first.sumsq, sumsq, rtol=1e-13)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["x", "y", "z", "w"]), st.sampled_from(["a", "b"]),
                  st.integers(0, 3), st.sampled_from([0, 1, 0.5, 0.25])),
        min_size=1, max_size=40, unique_by=lambda row: row[:3],
    ),
    st.randoms(use_true_random=False),
)
def test_sampled_dataframe_matches_plain_grouping(rows, rnd):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(rows, columns=["id", "model", "epoch", "score"])
    df = df.sample(frac=1, random_state=rnd.randrange(2**31)).reset_index(drop=True)
    models = sorted(set(df["model"]))
    items, counts, sums, sumsq = reference(
        [(r.id, r.model, float(r.score)) for r in df.itertuples()], models)
    if not items:
        with pytest.raises(EvalbarsError, match="no item has a score"):
            load(df, sample="epoch", intersect=True, models=models)
        return
    data = load(df, sample="epoch", intersect=True, models=models)
    assert list(data.items) == items
    np.testing.assert_array_equal(data.counts, counts)
    np.testing.assert_allclose(data.scores, sums / counts, rtol=1e-14)
    np.testing.assert_allclose(data.sumsq, sumsq, rtol=1e-14)


def test_large_long_file_with_samples(tmp_path):
    rng = np.random.default_rng(4)
    n_items, k = 20_000, 3
    item = np.repeat(np.arange(n_items), k)
    epoch = np.tile(np.arange(k), n_items)
    score = rng.integers(0, 2, n_items * k)
    order = rng.permutation(n_items * k)
    text = "id,model,epoch,score\n" + "".join(
        f"q{item[p]:05d},m,{epoch[p]},{score[p]}\n" for p in order)
    data = load(write(tmp_path, "big.csv", text), sample="epoch")
    assert len(data.items) == n_items and (data.counts == k).all()
    np.testing.assert_array_equal(data.scores[:, 0] * k, score.reshape(n_items, k).sum(axis=1))


def test_load_options_pass_cluster_and_sample_only_when_given():
    import argparse

    from evalbars.cli._options import add_data_options, load_options

    parser = argparse.ArgumentParser()
    add_data_options(parser)
    plain = load_options(parser.parse_args(["r.csv"]))
    assert "cluster" not in plain and "sample" not in plain
    given = load_options(parser.parse_args(["r.csv", "--cluster", "topic", "--sample", "ep"]))
    assert given["cluster"] == "topic" and given["sample"] == "ep"
    assert "--cluster COL" in parser.format_help() and "--sample COL" in parser.format_help()


# --------------------------------------------------------------------------- errors: samples


def test_error_item_in_two_clusters(tmp_path):
    path = write(tmp_path, "l.csv", "id,topic,model,score\nq1,t1,a,1\nq2,t2,a,0\n"
                                    "q1,t1,b,1\nq2,t2,b,1\nq1,t9,c,0\nq2,t2,c,0\n")
    message = error(path, cluster="topic")
    assert message.startswith("1 item is assigned to more than one cluster (column 'topic'): ")
    assert "item 'q1' is in 't1' at lines 2, 4 of" in message
    assert "and in 't9' at line 6 of" in message
    assert load(path, cluster="topic", models=["a", "b"]).clusters == ("t1", "t2")


def test_error_item_in_two_clusters_across_files(tmp_path):
    one = write(tmp_path, "a.csv", "id,topic,score\nq1,x,1\nq2,y,0\n")
    two = write(tmp_path, "b.csv", "id,topic,score\nq2,y,1\nq1,z,1\n")
    message = error(one, two, cluster="topic")
    assert f"item 'q1' is in 'x' at line 2 of '{one}' and in 'z' at line 3 of '{two}'" in message


def test_error_missing_cluster_label(tmp_path):
    path = write(tmp_path, "w.csv", "qid,topic,a\nq1,x,1\nq2,,0\nq3,y,1\nq4,,1\n")
    message = error(path, cluster="topic")
    assert "empty cluster label in column 'topic' at lines 3, 5" in message


def test_error_duplicate_item_model_sample(tmp_path):
    path = write(tmp_path, "l.csv", SAMPLED + "q1,a,1,1\n")
    message = error(path, sample="epoch")
    assert message.startswith("1 (item, model, sample) answer is given on more than one row: ")
    assert "item 'q1' model 'a' sample '1' at lines 3, 9 of" in message


def test_error_duplicate_sample_in_second_file(tmp_path):
    one = write(tmp_path, "a.csv", "id,epoch,score\nq1,0,1\n")
    two = write(tmp_path, "b.csv", "id,epoch,score\nq1,0,1\nq1,0,0\n")
    message = error(one, two, sample="epoch")
    assert f"item 'q1' model 'b' sample '0' at lines 2, 3 of '{two}'" in message


def test_error_duplicate_item_sample_rows_wide(tmp_path):
    path = write(tmp_path, "w.csv", "qid,epoch,a,b\nq1,0,1,0\nq1,1,1,1\nq2,0,0,0\nq1,0,1,1\n")
    message = error(path, sample="epoch")
    assert "1 (item, sample) pair is repeated in columns 'qid', 'epoch'" in message
    assert "item 'q1' sample '0' at lines 2, 5" in message


def test_error_repeated_id_in_a_file_without_the_sample_column(tmp_path):
    one = write(tmp_path, "a.csv", "id,epoch,score\nq1,0,1\nq1,1,0\n")
    two = write(tmp_path, "b.csv", "id,score\nq1,1\nq1,0\n")
    message = error(one, two, sample="epoch")
    assert "'q1' at lines 2, 3" in message and f"('{two}' has no sample column 'epoch')" in message


def test_error_empty_or_non_label_sample_value(tmp_path):
    path = write(tmp_path, "l.csv", "id,model,epoch,score\nq1,a,0,1\nq1,a,,0\n")
    assert "empty sample value in column 'epoch' at line 3" in error(path, sample="epoch")
    path = write(tmp_path, "r.jsonl", '{"id": "q1", "model": "a", "epoch": 0.5, "score": 1}\n')
    message = error(path, sample="epoch")
    assert "sample values in column 'epoch' must be strings or integers" in message


def test_error_unknown_cluster_or_sample_column(tmp_path):
    path = write(tmp_path, "l.csv", "id,topic,model,score\nq1,x,a,1\n")
    message = error(path, cluster="Topic")
    assert "cluster='Topic': no such column" in message and "did you mean 'topic'" in message
    assert "sample='epoch': no such column" in error(path, sample="epoch")
    one = write(tmp_path, "a.csv", "id,score\nq1,1\n")
    two = write(tmp_path, "b.csv", "id,score\nq1,0\n")
    message = error(one, two, cluster="topic")
    assert "cluster='topic': no such column in" in message and "nor in" in message


def test_error_cluster_and_sample_roles(tmp_path):
    path = write(tmp_path, "w.csv", "qid,topic,a\nq1,x,1\n")
    message = error(path, cluster="topic", sample="topic")
    assert "the item, cluster and sample columns of" in message and "must differ" in message
    assert "models= includes 'topic', which is the cluster column" in error(
        path, cluster="topic", models=["a", "topic"])
    assert "cluster= must be a column name" in error(path, cluster="")
    assert "sample= must be a column name" in error(path, sample=3)
    long = write(tmp_path, "l.csv", "id,model,score\nq1,a,1\n")
    assert "must differ" in error(long, score="score", sample="score")


# --------------------------------------------------------------------------- docs


def test_doctests():
    result = doctest.testmod(ingest, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_item_scores_is_frozen(tmp_path):
    data = load(write(tmp_path, "w.csv", WIDE))
    assert isinstance(data, ItemScores)
    with pytest.raises(AttributeError):
        data.models = ("x",)


# --------------------------------------------------------------------------- runs (training seeds)

RUNS = ("id,model,seed,score\n"
        "q1,a,1,1\nq2,a,1,0\nq1,a,2,1\nq2,a,2,1\nq1,a,10,0\nq2,a,10,0\n"
        "q1,b,7,0\nq2,b,7,1\n")


def test_long_with_run_column(tmp_path):
    path = write(tmp_path, "runs.csv", RUNS)
    data = load(path, run="seed")
    assert data.models == ("a@1", "a@2", "a@10", "b@7")  # runs in natural order
    assert data.runs == (("a", "1"), ("a", "2"), ("a", "10"), ("b", "7"))
    np.testing.assert_array_equal(data.scores, [[1, 1, 0, 0], [0, 1, 0, 1]])
    assert (data.counts == 1).all() and data.column("a@10").tolist() == [0, 0]
    assert data.source["columns"]["run"] == "seed"
    assert data.source["columns"]["models"] == ["a", "b"]
    assert data.describe() == (
        f"long csv {path}: item column 'id', model column 'model', score column 'score', run "
        "column 'seed', models 'a' (3 runs), 'b' (1 run) (2 items, 0/1 scores)")


def test_without_run_column_runs_is_none(tmp_path):
    assert load(write(tmp_path, "w.csv", WIDE)).runs is None


def test_runs_are_labels_and_natural_order_is_by_digit_runs(tmp_path):
    rows = "".join(f"q1,a,{r},1\n" for r in ("s10", "s2", "s1b", "007", "7"))
    data = load(write(tmp_path, "r.csv", "id,model,run,score\n" + rows), run="run")
    assert [r for _, r in data.runs] == ["007", "7", "s1b", "s2", "s10"]


def test_wide_with_run_column_matches_long(tmp_path):
    wide = "id,seed,a,b\nq1,1,1,0\nq2,1,0,1\nq1,2,1,1\nq2,2,1,0\n"
    long = "".join(f"{i},{m},{s},{v}\n" for i, s, a, b in
                   [("q1", 1, 1, 0), ("q2", 1, 0, 1), ("q1", 2, 1, 1), ("q2", 2, 1, 0)]
                   for m, v in (("a", a), ("b", b)))
    from_wide = load(write(tmp_path, "w.csv", wide), run="seed")
    from_long = load(write(tmp_path, "l.csv", "id,model,seed,score\n" + long), run="seed")
    assert from_wide.models == from_long.models == ("a@1", "a@2", "b@1", "b@2")
    assert from_wide.runs == from_long.runs
    np.testing.assert_array_equal(from_wide.scores, from_long.scores)
    assert "seed" not in from_wide.source["columns"]["models"]  # a numeric run is not a model


def test_wide_column_without_any_score_for_a_run_is_no_system(tmp_path):
    wide = "id,seed,a,b\nq1,1,1,\nq2,1,0,\nq1,2,1,1\nq2,2,1,0\n"
    data = load(write(tmp_path, "w.csv", wide), run="seed")
    assert data.models == ("a@1", "a@2", "b@2")


def test_two_files_with_run_column(tmp_path):
    a = write(tmp_path, "base.csv", "id,seed,score\nq1,0,1\nq2,0,0\nq1,1,1\nq2,1,1\n")
    b = write(tmp_path, "new.csv", "id,seed,score\nq2,0,1\nq1,0,0\n")
    data = load(a, b, run="seed")
    assert data.runs == (("base", "0"), ("base", "1"), ("new", "0"))
    np.testing.assert_array_equal(data.scores, [[1, 1, 0], [0, 1, 1]])
    assert data.source["columns"]["run"] == "seed"


def test_runs_with_samples_and_clusters(tmp_path):
    rows = "".join(f"{i},{t},a,{r},{e},{v}\n" for i, t, r, e, v in [
        ("q1", "t1", 0, 0, 1), ("q1", "t1", 0, 1, 0), ("q2", "t2", 0, 0, 1),
        ("q1", "t1", 1, 0, 1), ("q2", "t2", 1, 0, 0), ("q2", "t2", 1, 1, 0)])
    data = load(write(tmp_path, "s.csv", "id,topic,model,run,epoch,score\n" + rows),
                run="run", sample="epoch", cluster="topic")
    assert data.models == ("a@0", "a@1") and data.clusters == ("t1", "t2")
    np.testing.assert_array_equal(data.counts, [[2, 1], [1, 2]])
    np.testing.assert_array_equal(data.scores, [[0.5, 1], [1, 0]])


def test_intersect_drops_an_item_some_run_lacks(tmp_path):
    path = write(tmp_path, "runs.csv", RUNS + "q3,a,1,1\nq3,a,2,0\n")
    data = load(path, run="seed", intersect=True)
    assert data.items == ("q1", "q2")
    assert data.dropped == {"a@1": 1, "a@2": 1, "a@10": 0, "b@7": 0}


def test_row_order_does_not_matter_with_runs(tmp_path):
    lines = RUNS.splitlines()
    shuffled = [lines[0]] + lines[1:][::-1]
    one = load(write(tmp_path, "a.csv", RUNS), run="seed")
    two = load(write(tmp_path, "b.csv", "\n".join(shuffled) + "\n"), run="seed")
    assert set(one.runs) == set(two.runs)  # models come in file order, runs in natural order
    for name in one.models:
        np.testing.assert_array_equal(one.column(name), two.column(name))


def test_load_options_pass_run_only_when_given():
    import argparse

    from evalbars.cli._options import add_column_options, load_options

    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    add_column_options(parser)
    assert "run" not in load_options(parser.parse_args(["r.csv"]))
    assert load_options(parser.parse_args(["r.csv", "--run", "seed"]))["run"] == "seed"
    assert "--run COL" in parser.format_help()


# --------------------------------------------------------------------------- errors: runs


def test_error_duplicate_item_model_run(tmp_path):
    message = error(write(tmp_path, "r.csv", RUNS + "q1,a,2,0\n"), run="seed")
    assert message.startswith("1 (item, model, run) answer is given on more than one row: "
                              "item 'q1' model 'a' run '2' at lines 4, 10 of ")
    assert "pass sample= (--sample COL)" in message


def test_error_duplicate_item_run_rows_wide(tmp_path):
    wide = "id,seed,a,b\nq1,1,1,0\nq1,1,0,1\n"
    message = error(write(tmp_path, "w.csv", wide), run="seed")
    assert message.startswith("2 (item, model, run) answers are given on more than one row: "
                              "item 'q1' model 'a' run '1' at lines 2, 3 of ")
    assert "item 'q1' model 'b' run '1' at lines 2, 3" in message


def test_error_duplicate_item_model_run_sample(tmp_path):
    rows = "id,model,seed,epoch,score\nq1,a,0,0,1\nq1,a,0,0,0\n"
    message = error(write(tmp_path, "r.csv", rows), run="seed", sample="epoch")
    assert message.startswith("1 (item, model, run, sample) answer is given on more than one "
                              "row: item 'q1' model 'a' run '0' sample '0' at lines 2, 3 of ")
    assert message.endswith("each answer to a question needs its own sample value")


def test_error_item_missing_for_one_run(tmp_path):
    message = error(write(tmp_path, "r.csv", RUNS.replace("q2,a,10,0\n", "")), run="seed")
    assert message.startswith("items are not scored by every model: 'a@10' has no row for 1 "
                              "item that other models have ('q2')")


def test_error_two_files_need_the_run_column(tmp_path):
    a = write(tmp_path, "base.csv", "id,seed,score\nq1,0,1\n")
    b = write(tmp_path, "new.csv", "id,score\nq1,0\n")
    message = error(a, b, run="seed")
    assert message == (f"run='seed': no such column in {str(b)!r}; with two inputs each file "
                       "needs the run column (one value for a single run); columns: 'id', "
                       "'score'")


def test_error_unknown_run_column(tmp_path):
    message = error(write(tmp_path, "r.csv", RUNS), run="Seed")
    assert message.startswith("run='Seed': no such column") and "did you mean 'seed'" in message


def test_error_run_column_is_another_role(tmp_path):
    message = error(write(tmp_path, "r.csv", RUNS), run="seed", sample="seed")
    assert "must differ" in message and "run='seed'" in message


def test_error_empty_run_label(tmp_path):
    message = error(write(tmp_path, "r.csv", RUNS.replace("q1,b,7,0", "q1,b,,0")), run="seed")
    assert message == f"empty run label in column 'seed' at line 8 of " \
                      f"{str(tmp_path / 'r.csv')!r}; every row needs one"


def test_error_model_and_run_names_clash(tmp_path):
    rows = "id,model,run,score\nq1,a@1,2,1\nq1,a,1@2,0\n"
    message = error(write(tmp_path, "r.csv", rows), run="run")
    assert message == ("model 'a@1' run '2' and model 'a' run '1@2' both make the name "
                       "'a@1@2' (model@run); rename a model or a run so that the names differ")


def test_error_run_must_be_a_column_name(tmp_path):
    assert error(write(tmp_path, "r.csv", RUNS), run=3) == \
        "run= must be a column name (a non-empty str); got 3"


def test_error_run_with_a_harness_log():
    message = error("tests/data/logs/helm/suite_v1", run="seed")
    assert message.startswith("run= names a column of a table, but the input is a helm log")


@pytest.mark.parametrize("command", ["compare", "ci", "leaderboard"])
def test_model_with_two_files_suggests_no_flag_the_command_lacks(tmp_path, capsys, command):
    """compare has no --models: the hint was '(--models)' for every command."""
    a, b = tmp_path / "v6.csv", tmp_path / "v7.csv"
    a.write_text("id,score\nq1,1\nq2,0\nq3,1\n")
    b.write_text("id,score\nq1,0\nq2,0\nq3,1\n")
    assert main([command, str(a), str(b), "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert "--models" not in err and err.count("\n") == 1
    assert "two inputs hold one model each, named after their files: leave model= out" in err


def test_a_folder_with_no_log_points_to_the_list_of_formats(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to read\n")
    with pytest.raises(EvalbarsError) as error:
        evalbars.load(tmp_path)
    message = str(error.value)
    assert "holds no harness log of a format evalbars reads (docs/logs.md lists them)" in \
        message
    assert "lm-eval, inspect or HELM" not in message


def test_loads_docstring_names_no_partial_list_of_formats():
    """input_format listed six of the eleven log formats: it now points to INPUT_FORMATS."""
    doc = inspect.getdoc(evalbars.load)
    assert ":data:`INPUT_FORMATS`" in doc and ":data:`evalbars.io.logs.FORMATS`" in doc
    assert '"helm", "trec"}' not in doc
    assert set(logs.FORMATS) < set(evalbars.io.ingest.INPUT_FORMATS)


def test_two_files_of_runs_sharing_no_id_are_one_line_naming_each_file(tmp_path):
    """Two files holding several runs each, with no id in common: the error names each
    file once (it used to raise IndexError: the item columns are per file, not per run)."""
    (tmp_path / "a.csv").write_text("id,run,score\nq1,r1,1\nq1,r2,0\n")
    (tmp_path / "b.csv").write_text("id,run,score\nq9,r1,1\nq9,r2,0\n")
    with pytest.raises(EvalbarsError) as caught:
        evalbars.load(str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), run="run")
    message = str(caught.value)
    assert message.startswith("the two files share no item id: ")
    assert message.count("a.csv' has 'q1' (column 'id')") == 1
    assert message.count("b.csv' has 'q9' (column 'id')") == 1
