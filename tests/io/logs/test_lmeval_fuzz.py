"""Mutated lm-eval and lmms-eval logs of every layout: a reading, or one clear error line.

Each example copies a fixture run, changes one to three values of its JSON (replaced,
deleted or re-typed), and loads it: the result must be an ItemScores with finite scores
or an EvalbarsError of one line, never another exception.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalbars.core.errors import EvalbarsError
from evalbars.io import logs
from evalbars.io.ingest import load

DATA = Path(__file__).parents[2] / "data" / "logs"
RUNS = [DATA / "lm-eval" / "partial", DATA / "lm-eval" / "gsm8k",
        DATA / "lmms-eval" / "lmms-lab__llava-onevision-qwen2-0.5b-ov"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 5000), st.floats(allow_nan=True),
                   st.sampled_from(["", "True", "False", "0.5", "none", "x", "(0, 1)", "acc"]),
                   st.just([]), st.just({}), st.just({"score": "1"}), st.just([1.0, 0.0]))
fuzz = settings(max_examples=80, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


def _paths(obj, path=()):
    yield path
    items = obj.items() if isinstance(obj, dict) else \
        enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        yield from _paths(value, (*path, key))


@st.composite
def mutated(draw, doc):
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))[1:]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            parent[path[-1]] = draw(VALUES)
        else:
            del parent[path[-1]]
    return doc


def _records(path: Path):
    text = path.read_text()
    if text.lstrip().startswith("["):
        return json.loads(text), True
    return [json.loads(line) for line in text.splitlines() if line.strip()], False


@fuzz
@given(data=st.data())
def test_mutated_runs_read_or_refuse_in_one_line(tmp_path_factory, data):
    source = data.draw(st.sampled_from(RUNS))
    run = tmp_path_factory.mktemp("run") / source.name
    run.mkdir()
    files = sorted(source.iterdir())
    target = data.draw(st.sampled_from(files))
    as_array = data.draw(st.booleans())  # v0.4.0-0.4.2 wrote each samples file as an array
    for path in files:
        if path.suffix == ".json":
            doc = json.loads(path.read_text())
            text = json.dumps(data.draw(mutated(doc)) if path == target else doc)
        else:
            records, _ = _records(path)
            if path == target:
                records = data.draw(mutated(records))
            text = json.dumps(records, indent=2) if as_array else \
                "".join(json.dumps(r) + "\n" for r in records)
        (run / path.name).write_text(text)
    options = data.draw(st.sampled_from([{}, {"metric": "acc"}, {"cluster": "task"},
                                         {"metric": "pope_accuracy"}, {"intersect": True}]))
    for path in (run, run / target.name):
        assert logs.detect(str(path)) in (*logs.FORMATS, None)
        try:
            result = load(path, **options)
        except EvalbarsError as error:
            assert str(error) and "\n" not in str(error)
            continue
        assert np.isfinite(result.scores).all() and len(result.items) >= 1
        json.dumps(result.source, allow_nan=False)
        result.describe()
