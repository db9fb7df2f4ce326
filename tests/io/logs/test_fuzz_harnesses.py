"""Mutated lighteval, EvalPlus, SWE-bench and AlpacaEval files: ItemScores or one clear line.

Each test takes a fixture of tests/data/logs, replaces, deletes or re-types 1 to 4 of its
values at random, and loads it (format detection, then the reader): the only acceptable
outcomes are :class:`~evalbars.io.item_scores.ItemScores` with finite scores, or an
:class:`~evalbars.core.errors.EvalbarsError` of one line (as tests/io/test_fuzz_loaders.py
asks of the other formats).
"""
from __future__ import annotations

import copy
import json
import math
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalbars.analyses.battles import bradley_terry
from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

LOGS = Path(__file__).parents[2] / "data" / "logs"
_LONG = int(os.environ.get("EVALBARS_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=_LONG or 80, derandomize=not _LONG, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
"""80 derandomized examples per test in CI; ``EVALBARS_FUZZ_EXAMPLES`` for long runs."""

values = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
                   st.text(max_size=6), st.sampled_from(["pass", "fail", "success", "nan",
                                                         "{'acc': 1}", "timeout"]),
                   st.lists(st.integers(0, 2), max_size=2), st.just({}))


def _places(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _places(value, prefix + (key,))
    elif isinstance(obj, list):
        for k, value in enumerate(obj):
            yield from _places(value, prefix + (k,))


@st.composite
def mutated(draw, document):
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 4))):
        places = list(_places(doc))[1:]
        if not places:
            break
        place = draw(st.sampled_from(places))
        parent = doc
        for key in place[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "delete", "retype"]))
        if action == "replace" or (action == "delete" and isinstance(parent, list)
                                   and len(parent) == 1):
            parent[place[-1]] = draw(values)
        elif action == "delete":
            del parent[place[-1]]
        else:
            parent[place[-1]] = [parent[place[-1]]]
    return doc


def check(*paths, **options) -> None:
    try:
        data = load(*paths, **options)
    except EvalbarsError as error:
        assert "\n" not in str(error), str(error)
        return
    for model in data.models:
        assert np.isfinite(data.column(model)).all()


def _mutate_and_load(data, parts, name, **options):
    document = json.loads(LOGS.joinpath(*parts).read_text())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(json.dumps(data.draw(mutated(document)), allow_nan=True))
        check(path, **options, **data.draw(st.sampled_from([{}, {"intersect": True}])))
        return path


@FUZZ
@given(data=st.data())
def test_mutated_evalplus(data):
    _mutate_and_load(data, ("evalplus", "humaneval", "codellama_vllm_temp_0.8_eval_results.json"),
                     "m_eval_results.json", metric=data.draw(st.sampled_from([None, "base"])))


@FUZZ
@given(data=st.data(), old=st.booleans())
def test_mutated_swebench(data, old):
    parts = ("swebench", "v2.0", "swe-agent.run1.json") if old else \
        ("swebench", "openai__gpt-4o.lite_run.json")
    _mutate_and_load(data, parts, "org__m.run.json")


@FUZZ
@given(data=st.data())
def test_mutated_alpacaeval_scores_and_battles(data):
    parts = ("alpacaeval", "gpt4_v1", "LMCocktail-10.7B-v1", "alpaca_eval_gpt4",
             "annotations.json")
    document = json.loads(LOGS.joinpath(*parts).read_text())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "annotations.json"
        path.write_text(json.dumps(data.draw(mutated(document)), allow_nan=True))
        check(path, intersect=True, metric=data.draw(st.sampled_from([None, "discrete"])))
        try:
            result = bradley_terry(str(path), n_resamples=50,
                                   winner=data.draw(st.sampled_from(["winner", "discrete"])))
        except EvalbarsError as error:
            assert "\n" not in str(error), str(error)
        else:
            assert all(math.isfinite(m.rating) for m in result.models)


pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@FUZZ
@given(data=st.data(), text=st.booleans())
def test_mutated_lighteval(data, text):
    date = "2024-09-01T08-00-00.000000"
    rows = [{"example": f"q{k}", "metrics": {"acc": float(k % 2), "acc_norm": 1.0}}
            for k in range(3)]
    rows = data.draw(mutated(rows))
    if text:
        rows = [{key: str(value) for key, value in row.items()} if isinstance(row, dict)
                else row for row in rows]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "details" / "org" / "m" / date / f"details_t|0_{date}.parquet"
        path.parent.mkdir(parents=True)
        try:
            table = pa.Table.from_pylist([row if isinstance(row, dict) else {"x": row}
                                          for row in rows])
            pq.write_table(table, path)
        except (pa.ArrowException, TypeError, ValueError):
            return  # not a table pyarrow can write: nothing to read
        check(path, metric=data.draw(st.sampled_from([None, "acc_norm"])))
