"""Fuzzing the loaders: whatever the bytes, ``load`` returns ItemScores or raises EvalbarsError.

Every input reader (CSV, JSON Lines, Parquet, DataFrames and the six harness-log formats,
with format detection) is fed random bytes, structured-random tables, and real log
fixtures with random parts replaced, deleted or re-typed. The only acceptable outcomes are
an :class:`~evalbars.io.item_scores.ItemScores` with finite scores, or an
:class:`~evalbars.core.errors.EvalbarsError` whose message is one line; any other exception
(KeyError, TypeError, RecursionError, ...) is a bug.

In CI each test draws a fixed, derandomized set of examples (about 20 s in all). For a
longer session set ``EVALBARS_FUZZ_EXAMPLES`` (examples per test, randomized), e.g.::

    EVALBARS_FUZZ_EXAMPLES=3000 python -m pytest tests/io/test_fuzz_loaders.py -p no:cacheprovider

or run this file with atheris installed (``pip install atheris``) for coverage-guided
fuzzing of one target through Hypothesis' ``fuzz_one_input``::

    python tests/io/test_fuzz_loaders.py csv -max_total_time=600

docs/robustness.md records what was fuzzed, for how long, and what was found.
"""
from __future__ import annotations

import copy
import csv
import inspect
import io
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from evalbars.core.errors import EvalbarsError
from evalbars.io import logs
from evalbars.io.ingest import INPUT_FORMATS, ItemScores, load

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "logs"

_LONG = int(os.environ.get("EVALBARS_FUZZ_EXAMPLES", "0"))


def fuzz_settings(examples: int):
    """``examples`` per test in CI (derandomized); EVALBARS_FUZZ_EXAMPLES for long runs."""
    return settings(
        max_examples=_LONG or examples,
        derandomize=not _LONG,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


# --------------------------------------------------------------------------- the oracle


def check_load(*paths, **options) -> ItemScores | None:
    """Detect each input's format and load them: ItemScores or a one-line EvalbarsError."""
    for path in paths:
        if isinstance(path, (str, os.PathLike)):
            try:
                found = logs.detect(os.fspath(path))
            except EvalbarsError as error:
                assert_one_line(error)
            else:
                assert found is None or found in logs.FORMATS, found
    try:
        result = load(*paths, **options)
    except EvalbarsError as error:
        assert_one_line(error)
        event("refused with EvalbarsError")
        return None
    event("loaded")
    assert isinstance(result, ItemScores)
    n_items, n_models = result.scores.shape
    assert n_items == len(result.items) >= 1 and n_models == len(result.models) >= 1
    assert np.isfinite(result.scores).all() and np.isfinite(result.sumsq).all()
    assert (result.counts >= 1).all()
    assert list(result.items) == sorted(result.items)
    assert len(set(result.items)) == n_items
    if result.score_type == "binary":
        assert np.isin(result.scores[result.counts == 1], (0.0, 1.0)).all()
    json.dumps(result.source, allow_nan=False)
    result.describe()
    return result


def assert_one_line(error: EvalbarsError) -> None:
    message = str(error)
    assert message and "\n" not in message and "\r" not in message, repr(message)


# --------------------------------------------------------------------------- strategies

TABLE_FIELDS = ["id", "qid", "item", "question_id", "model", "score", "correct", "a", "b",
                "c", "topic", "epoch", "seed", "run", "ID", " id", "Model", ""]
FIELDS = TABLE_FIELDS + [
    # inspect
    "version", "eval", "task", "samples", "scores", "value", "metadata", "error", "status",
    "config", "epochs_reducer", "created", "run_id", "task_id",
    # promptfoo
    "results", "testIdx", "promptIdx", "provider", "label", "success", "namedScores",
    "failureReason", "vars", "testCase", "assert", "description",
    # helm
    "instance_id", "train_trial_index", "stats", "name", "mean", "perturbation", "split",
    "adapter_spec",
    # lm-eval
    "doc_id", "doc", "filter", "metrics", "exact_match", "acc", "doc_hash", "resps",
    "filtered_resps", "arguments", "model_name", "model_args", "configs", "versions",
    # openai evals
    "sample_id", "type", "data", "spec", "eval_name", "completion_fns", "final_report",
]

TRICKY_TEXT = [
    "", " ", "0", "1", "2", "-1", "0.5", "1.0", "-0", "007", "7", "1e400", "-1e400", "1e200",
    "1e-320", "nan", "NaN", "-nan", "inf", "-Infinity", "true", "false", "True", "TRUE", "C",
    "I", "P", "N", "null", "None", "1_0", "0x10", "\u0661", "\uff11", "1,5", "1 0", "q 1",
    "\u00e9", "\u554f\u984c", "\x00", "\t", "\n", "\r\n", '"', "'", ",", "=cmd|' /C calc'!A0",
    "<script>", "a" * 300, "match", "success", "exact_match", "strict-match", "none",
]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.integers(),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(TRICKY_TEXT),
    st.text(max_size=8),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=4),
                                            inner, max_size=4)),
    max_leaves=10,
)
cells = st.one_of(st.sampled_from(TRICKY_TEXT), st.text(max_size=6),
                  st.integers(-2, 3).map(str), st.floats().map(repr))

SUFFIXES = [".csv", ".jsonl", ".ndjson", ".json", ".parquet", ".eval", ".txt", "",
            ".CSV", ".gz"]
SPECIAL_NAMES = ["results_2024-01-01T00-00-00.json",
                 "samples_task_2024-01-01T00-00-00.jsonl", "per_instance_stats.json"]


COLUMN_OPTIONS = [key for key in ("item", "model", "score", "cluster", "sample", "run")
                  if key in inspect.signature(load).parameters]
"""The column options of ``load`` (``run`` where this version has it)."""


@st.composite
def load_options(draw, columns=()) -> dict:
    """Random but well-typed keyword arguments of ``load`` (column names from ``columns``)."""
    names = list(columns) + ["id", "model", "score", "nope"]
    options = {}
    for key in COLUMN_OPTIONS:
        if draw(st.integers(0, 4)) == 0:
            options[key] = draw(st.sampled_from(names).filter(bool))
    if draw(st.booleans()):
        options["score_type"] = draw(st.sampled_from(["auto", "binary", "continuous"]))
    if draw(st.booleans()):
        options["intersect"] = True
    if draw(st.integers(0, 5)) == 0:
        options["models"] = draw(st.lists(st.sampled_from(names).filter(bool), min_size=1,
                                          max_size=3, unique=True))
    return options


def _write(folder: Path, name: str, content: bytes | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8", "surrogatepass") if isinstance(content, str)
                     else content)
    return path


def _dump(obj) -> str:
    return json.dumps(obj, allow_nan=True, ensure_ascii=False)


# --------------------------------------------------------------------------- mutation


def _paths(obj, prefix=()):
    """Every (path) to a value inside nested dicts and lists."""
    yield prefix
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(obj, list):
        for k, value in enumerate(obj):
            yield from _paths(value, prefix + (k,))


def _get(obj, path):
    for key in path:
        obj = obj[key]
    return obj


@st.composite
def mutated(draw, document):
    """``document`` (parsed JSON) with 1 to 4 random values replaced, deleted, copied or
    re-typed."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(doc))
        if len(paths) < 2:
            break
        path = draw(st.sampled_from(paths[1:]))
        parent, key = _get(doc, path[:-1]), path[-1]
        action = draw(st.sampled_from(["replace", "replace", "delete", "copy", "retype"]))
        if action == "replace":
            parent[key] = draw(json_values)
        elif action == "delete":
            del parent[key]
        elif action == "copy" and isinstance(parent, list):
            parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(parent[key]))
        elif action == "retype":
            value = parent[key]
            parent[key] = (str(value) if not isinstance(value, str)
                           else draw(st.sampled_from([1, None, [value], {"value": value}])))
    return doc


def _fixture(*parts) -> str:
    return (LOGS.joinpath(*parts)).read_text(encoding="utf-8")


def _jsonl_records(*parts) -> list:
    return [json.loads(line) for line in _fixture(*parts).splitlines() if line.strip()]


# --------------------------------------------------------------------------- random bytes


@fuzz_settings(540)
@given(content=st.binary(max_size=600), name=st.sampled_from(SUFFIXES + SPECIAL_NAMES),
       fmt=st.sampled_from(INPUT_FORMATS), qrels=st.binary(max_size=100) | st.none())
def test_random_bytes(content, name, fmt, qrels):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = _write(folder, name if name not in SUFFIXES else "data" + name, content)
        options = {"input_format": fmt}
        if qrels is not None and fmt in ("auto", "trec"):
            options["qrels"] = str(_write(folder, "qrels.txt", qrels))
        check_load(path, **options)


@fuzz_settings(270)
@given(content=st.binary(max_size=400), prefix=st.sampled_from(
    [b"id,a,b\n", b"\xef\xbb\xbfid,a,b\r\n", b'{"id": "q1", "a": 1, "b": 0}\n',
     b"PK\x03\x04", b'{"version": 2, "eval": {', b"[{\"instance_id\": ", b"q1 Q0 d1 1 1.0 t\n"]),
    name=st.sampled_from(SUFFIXES + SPECIAL_NAMES))
def test_random_bytes_after_a_plausible_start(content, prefix, name):
    with tempfile.TemporaryDirectory() as tmp:
        check_load(_write(Path(tmp), name if name not in SUFFIXES else "data" + name,
                          prefix + content))


# --------------------------------------------------------------------------- tables


@st.composite
def csv_text(draw) -> tuple[bytes, list[str]]:
    header = draw(st.lists(st.sampled_from(TABLE_FIELDS) | st.text(max_size=4), min_size=1,
                           max_size=5))
    width = len(header)
    rows = draw(st.lists(st.lists(cells, min_size=width, max_size=width), max_size=12))
    if rows and draw(st.booleans()):  # a ragged row
        rows[draw(st.integers(0, len(rows) - 1))].append("x")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"])))
    writer.writerow(header)
    writer.writerows(rows)
    raw = out.getvalue().encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        raw = b"\xef\xbb\xbf" + raw
    if draw(st.integers(0, 5)) == 0:
        raw = raw[:draw(st.integers(0, len(raw)))]
    return raw, header


@fuzz_settings(720)
@given(data=st.data())
def test_structured_csv(data):
    raw, header = data.draw(csv_text())
    with tempfile.TemporaryDirectory() as tmp:
        check_load(_write(Path(tmp), "t.csv", raw), **data.draw(load_options(header)))


@fuzz_settings(540)
@given(data=st.data())
def test_structured_jsonl(data):
    keys = data.draw(st.lists(st.sampled_from(TABLE_FIELDS), min_size=1, max_size=5,
                              unique=True))
    value = st.one_of(json_scalars, json_values) if data.draw(st.booleans()) else json_scalars
    rows = data.draw(st.lists(st.fixed_dictionaries({}, optional={k: value for k in keys}),
                              max_size=10))
    lines = [_dump(row) for row in rows]
    if lines and data.draw(st.integers(0, 4)) == 0:  # a broken line
        k = data.draw(st.integers(0, len(lines) - 1))
        lines[k] = lines[k][:data.draw(st.integers(0, len(lines[k])))]
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), data.draw(st.sampled_from(["t.jsonl", "t.ndjson"])),
                      "\n".join(lines))
        check_load(path, **data.draw(load_options(keys)))


@st.composite
def plausible_tables(draw):
    """A valid wide or long table (with cluster, sample and, where ``load`` has it, run
    columns), then none, one or two spoiled cells or rows: this reaches the alignment and
    the checks behind the parser. Returns (header, rows, options, expected or None)."""
    layout = draw(st.sampled_from(["wide", "long"]))
    n_items, n_models = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    ids = draw(st.sampled_from([[f"q{i}" for i in range(n_items)],
                                [str(i).zfill(k) for i, k in zip(range(n_items), [1, 3] * 9)],
                                [f"caf\u00e9 {i}" for i in range(n_items)]]))
    models = [f"m{j}" for j in range(n_models)]
    binary = draw(st.booleans())
    value = st.integers(0, 1) if binary else st.sampled_from([0, 0.25, 0.5, 1, 2.5, -3])
    cluster = draw(st.booleans())
    samples = draw(st.sampled_from([1, 1, 2, 3]))
    runs = draw(st.sampled_from([1, 1, 2])) if "run" in COLUMN_OPTIONS else 1
    topic = {i: f"t{draw(st.integers(0, 2))}" for i in ids}
    extra = (["topic"] if cluster else []) + (["epoch"] if samples > 1 else []) + \
        (["seed"] if runs > 1 else [])
    header = ["id", *extra, *(models if layout == "wide" else ["model", "score"])]
    rows = []
    for item in ids:
        for epoch in range(samples):
            for seed in range(runs):
                keys = {"topic": topic[item], "epoch": str(epoch), "seed": str(seed)}
                front = [item] + [keys[c] for c in extra]
                if layout == "wide":
                    rows.append(front + [str(draw(value)) for _ in models])
                else:
                    rows += [front + [m, str(draw(value))] for m in models]
    options = {"cluster": "topic" if cluster else None,
               "sample": "epoch" if samples > 1 else None}
    if runs > 1:
        options["run"] = "seed"
    if layout == "long" or draw(st.booleans()):
        options["item"] = "id"
    expected = (sorted(ids), models, runs, samples)
    if layout == "wide" and not binary:  # guessed model columns must share a scale
        first = len(header) - n_models
        zero_one = {all(row[first + j] in ("0", "1") for row in rows) for j in range(n_models)}
        if len(zero_one) > 1:
            expected = None
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):  # spoil it
        expected = None
        k = draw(st.integers(0, len(rows) - 1))
        action = draw(st.sampled_from(["cell", "cell", "copy", "drop", "topic"]))
        if action == "cell":
            rows[k][draw(st.integers(0, len(header) - 1))] = draw(st.sampled_from(TRICKY_TEXT))
        elif action == "copy":
            rows.insert(k, list(rows[k]))
        elif action == "drop" and len(rows) > 1:
            del rows[k]
        elif action == "topic" and cluster:
            rows[k][1] = "t9"
    options = {key: value for key, value in options.items() if value is not None}
    if draw(st.integers(0, 4)) == 0:
        options["intersect"] = True
    if draw(st.integers(0, 4)) == 0:
        options["score_type"] = draw(st.sampled_from(["binary", "continuous"]))
        if options["score_type"] == "binary" and not binary:
            expected = None
    return header, rows, options, expected


@fuzz_settings(400)
@given(table=plausible_tables(), form=st.sampled_from(["csv", "jsonl", "dataframe"]))
def test_plausible_tables(table, form):
    header, rows, options, expected = table
    with tempfile.TemporaryDirectory() as tmp:
        if form == "csv":
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows([header, *rows])
            data = _write(Path(tmp), "t.csv", out.getvalue())
        elif form == "jsonl":
            data = _write(Path(tmp), "t.jsonl", "\n".join(
                _dump(dict(zip(header, row))) for row in rows))
        else:
            pd = pytest.importorskip("pandas")
            data = pd.DataFrame(rows, columns=header)
        result = check_load(data, **options)
    if expected is None:
        return
    items, models, runs, samples = expected
    assert result is not None, "a valid table was refused"
    assert list(result.items) == sorted(items)
    assert len(result.models) == len(models) * runs
    if runs == 1:
        assert list(result.models) == models
    assert (result.counts == samples).all()
    if "cluster" in options:
        assert result.clusters is not None and len(result.clusters) == len(items)


@fuzz_settings(180)
@given(data=st.data())
def test_two_files(data):
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name in ("v6.csv", "v7.csv"):
            raw, header = data.draw(csv_text())
            paths.append(_write(Path(tmp), name, raw))
        options = data.draw(load_options(header))
        options.pop("model", None)
        check_load(*paths, **options)


ARROW_TYPES = ["int64", "int8", "uint64", "float64", "float32", "bool", "string", "null",
               "large_string", "binary", "list", "struct", "dictionary", "timestamp",
               "decimal", "date"]


def _arrow_array(pa, kind: str, values: list):
    import datetime
    import decimal

    n = len(values)
    if kind == "null":
        return pa.nulls(n)
    if kind == "list":
        return pa.array([None if v is None else [v] for v in values], pa.list_(pa.int64()))
    if kind == "struct":
        return pa.array([None if v is None else {"x": v} for v in values],
                        pa.struct([("x", pa.int64())]))
    if kind == "dictionary":
        return pa.array([None if v is None else str(v) for v in values]).dictionary_encode()
    if kind == "timestamp":
        return pa.array([None if v is None else datetime.datetime(2020, 1, 1 + v % 27)
                         for v in values])
    if kind == "date":
        return pa.array([None if v is None else datetime.date(2020, 1, 1 + v % 27)
                         for v in values])
    if kind == "decimal":
        return pa.array([None if v is None else decimal.Decimal(v) for v in values],
                        pa.decimal128(10, 2))
    if kind in ("string", "large_string"):
        return pa.array([None if v is None else str(v) for v in values], getattr(pa, kind)())
    if kind == "binary":
        return pa.array([None if v is None else str(v).encode() for v in values])
    if kind == "bool":
        return pa.array([None if v is None else bool(v % 2) for v in values])
    if kind.startswith("uint"):
        values = [None if v is None else abs(v) for v in values]
    return pa.array(values, getattr(pa, kind)())


@fuzz_settings(180)
@given(data=st.data())
def test_structured_parquet(data):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    n = data.draw(st.integers(0, 6))
    names = data.draw(st.lists(st.sampled_from(TABLE_FIELDS), min_size=1, max_size=4,
                               unique=True))
    arrays = []
    for _ in names:
        kind = data.draw(st.sampled_from(ARROW_TYPES))
        values = data.draw(st.lists(st.none() | st.integers(-1, 3), min_size=n, max_size=n))
        arrays.append(_arrow_array(pa, kind, values))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.parquet"
        try:
            pq.write_table(pa.table(arrays, names=names), path)
        except pa.ArrowNotImplementedError:  # a table pyarrow cannot write
            return
        check_load(path, **data.draw(load_options(names)))


DTYPES = ["int64", "float64", "object", "bool", "Int64", "boolean", "string", "category",
          "datetime", "complex", "mixed"]


def _series(pd, kind: str, values: list):
    if kind == "int64":
        return pd.Series([0 if v is None else v for v in values], dtype="int64")
    if kind == "float64":
        return pd.Series([np.nan if v is None else v for v in values], dtype="float64")
    if kind == "bool":
        return pd.Series([bool(v) for v in values], dtype=bool)
    if kind in ("Int64", "boolean"):
        return pd.Series([None if v is None else (bool(v % 2) if kind == "boolean" else v)
                          for v in values], dtype=kind)
    if kind == "string":
        return pd.Series([None if v is None else str(v) for v in values], dtype="string")
    if kind == "category":
        return pd.Series([None if v is None else str(v) for v in values], dtype="category")
    if kind == "datetime":
        return pd.to_datetime(pd.Series([None if v is None else f"2020-01-0{1 + v % 8}"
                                         for v in values]))
    if kind == "complex":
        return pd.Series([complex(v or 0, 1) for v in values])
    if kind == "mixed":
        return pd.Series([[v], {"v": v}, str(v), v, float("nan"), b"1", None][v % 7]
                         if v is not None else None for v in values)
    return pd.Series(values, dtype=object)


@fuzz_settings(220)
@given(data=st.data())
def test_structured_dataframes(data):
    pd = pytest.importorskip("pandas")
    n = data.draw(st.integers(0, 6))
    names = data.draw(st.lists(st.sampled_from(TABLE_FIELDS + ["a", "a", 1, None]),
                               min_size=1, max_size=4))
    frame = pd.concat(
        [_series(pd, data.draw(st.sampled_from(DTYPES)),
                 data.draw(st.lists(st.none() | st.integers(-1, 30), min_size=n, max_size=n)))
         for _ in names], axis=1) if names else pd.DataFrame()
    frame.columns = names
    if data.draw(st.integers(0, 4)) == 0 and len(frame.columns) > 1:  # a named index
        index = pd.Index(frame.iloc[:, 0].to_numpy(), name=names[0])
        frame = frame.iloc[:, 1:].set_axis(index, axis=0)
    options = data.draw(load_options([str(c) for c in names]))
    check_load(frame, **options)


# --------------------------------------------------------------------------- harness logs


@fuzz_settings(270)
@given(data=st.data(), name=st.sampled_from(["epochs_a.json", "scorers.json"]))
def test_mutated_inspect_json(data, name):
    doc = data.draw(mutated(json.loads(_fixture("inspect", name))))
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "log.json", _dump(doc))
        check_load(path, **data.draw(_log_options()))


@st.composite
def _log_options(draw) -> dict:
    options = {}
    if draw(st.integers(0, 3)) == 0:
        options["metric"] = draw(st.sampled_from(["value", "exact_match", "score", "acc",
                                                  "correct", "exact_match,strict-match", ","]))
    if draw(st.integers(0, 3)) == 0:
        options["cluster"] = draw(st.sampled_from(["metadata.topic", "task", "doc.question",
                                                   "vars.topic", "metadata.", "topic"]))
    if draw(st.integers(0, 4)) == 0:
        options["scorer"] = draw(st.sampled_from(["match", "other", ""]).filter(bool))
    if draw(st.integers(0, 5)) == 0:
        options["intersect"] = True
    return options


def _entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


@fuzz_settings(270)
@given(data=st.data())
def test_mutated_inspect_eval(data):
    entries = _entries(LOGS / "inspect" / "epochs_b.eval")
    names = sorted(entries)
    for _ in range(data.draw(st.integers(1, 3))):
        name = data.draw(st.sampled_from(names))
        action = data.draw(st.sampled_from(["mutate", "mutate", "bytes", "drop", "rename"]))
        if action == "mutate" and name in entries:
            try:
                entry = json.loads(entries[name])
            except ValueError:  # already replaced by bytes
                continue
            entries[name] = _dump(data.draw(mutated(entry))).encode()
        elif action == "bytes":
            entries[name] = data.draw(st.binary(max_size=50))
        elif action == "drop":
            entries.pop(name, None)
        elif action == "rename" and name in entries:
            entries[data.draw(st.sampled_from(["samples/x.json", "samples/", "header.json",
                                               "../../evil.json", "samples/1_epoch_1.json"]))] = \
                entries.pop(name)
    method = data.draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED,
                                        zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    raw = buffer.getvalue()
    if data.draw(st.integers(0, 3)) == 0:  # flip or cut bytes of the archive itself
        cut = data.draw(st.integers(0, len(raw)))
        raw = raw[:cut] + data.draw(st.binary(max_size=8)) + raw[cut + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        check_load(_write(Path(tmp), "log.eval", raw), **data.draw(_log_options()))


@fuzz_settings(270)
@given(data=st.data(), name=st.sampled_from(["results.json", "results_b.json"]))
def test_mutated_promptfoo(data, name):
    doc = data.draw(mutated(json.loads(_fixture("promptfoo", name))))
    with tempfile.TemporaryDirectory() as tmp:
        check_load(_write(Path(tmp), "out.json", _dump(doc)), **data.draw(_log_options()))


HELM_RUN = "mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"


@fuzz_settings(220)
@given(data=st.data())
def test_mutated_helm(data):
    stats = data.draw(mutated(json.loads(_fixture("helm", "suite_v1", HELM_RUN,
                                                  "per_instance_stats.json"))))
    spec = json.loads(_fixture("helm", "suite_v1", HELM_RUN, "run_spec.json"))
    if data.draw(st.booleans()):
        spec = data.draw(mutated(spec))
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "suite" / data.draw(st.sampled_from([HELM_RUN, "x", "model=,"]))
        _write(run, "per_instance_stats.json", _dump(stats))
        _write(run, "run_spec.json", _dump(spec))
        check_load(run.parent, **data.draw(_log_options()))


LM_EVAL = ("lm-eval", "model_a")


@fuzz_settings(220)
@given(data=st.data())
def test_mutated_lm_eval(data):
    folder = LOGS.joinpath(*LM_EVAL)
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        for source in sorted(folder.iterdir()):
            if source.suffix == ".json":
                doc = json.loads(source.read_text())
                if data.draw(st.booleans()):
                    doc = data.draw(mutated(doc))
                _write(run, source.name, _dump(doc))
            else:
                records = _jsonl_records(*LM_EVAL, source.name)
                if data.draw(st.booleans()):
                    records = data.draw(mutated(records))
                _write(run, source.name, "\n".join(_dump(r) for r in records))
        check_load(run, **data.draw(_log_options()))


@fuzz_settings(220)
@given(data=st.data())
def test_mutated_openai_evals(data):
    records = data.draw(mutated(_jsonl_records("openai-evals", "run_a.jsonl")))
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "run.jsonl", "\n".join(_dump(r) for r in records))
        check_load(path, **data.draw(_log_options()))


@st.composite
def _mutated_lines(draw, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, len(lines) - 1))
        fields = lines[k].split()
        action = draw(st.sampled_from(["field", "field", "drop", "copy", "junk"]))
        if action == "field" and fields:
            fields[draw(st.integers(0, len(fields) - 1))] = draw(st.sampled_from(TRICKY_TEXT))
            lines[k] = " ".join(fields)
        elif action == "drop":
            del lines[k]
        elif action == "copy":
            lines.insert(k, lines[k])
        else:
            lines[k] = draw(st.text(max_size=20))
        if not lines:
            break
    return "\n".join(lines)


@fuzz_settings(110)
@given(data=st.data())
def test_mutated_trec(data):
    run = _fixture("trec", "run_bm25.txt")
    qrels = _fixture("trec", "qrels.txt")
    if data.draw(st.booleans()):
        run = data.draw(_mutated_lines(run))
    else:
        qrels = data.draw(_mutated_lines(qrels))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        check_load(_write(folder, "run.txt", run),
                   qrels=str(_write(folder, "qrels.txt", qrels)),
                   **({"metric": data.draw(st.sampled_from(["RR", "nDCG@10", "P@x", "??"]))}
                      if data.draw(st.booleans()) else {}))


# --------------------------------------------------------------------------- atheris

TARGETS = {
    "bytes": test_random_bytes, "csv": test_structured_csv, "jsonl": test_structured_jsonl,
    "tables": test_plausible_tables,
    "parquet": test_structured_parquet, "dataframe": test_structured_dataframes,
    "inspect-json": test_mutated_inspect_json, "inspect-eval": test_mutated_inspect_eval,
    "promptfoo": test_mutated_promptfoo, "helm": test_mutated_helm,
    "lm-eval": test_mutated_lm_eval, "openai-evals": test_mutated_openai_evals,
    "trec": test_mutated_trec,
}

if __name__ == "__main__":  # pragma: no cover - a local, coverage-guided session
    import atheris

    target = TARGETS[sys.argv.pop(1)]
    os.chdir(ROOT)
    atheris.instrument_all()
    atheris.Setup(sys.argv, target.hypothesis.fuzz_one_input)
    atheris.Fuzz()
