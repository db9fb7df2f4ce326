"""Properties that hold for any valid data, checked with Hypothesis.

Data: two models on 2 to 24 questions (2 to 300 in the slow run), 0/1 scores or
continuous ones (free floats, or a few values with many ties), constant columns and
identical models included, with or without a cluster column. For every such data set:

- every interval contains its own estimate, except where a method is defined not to:
  ``jeffreys`` is the equal-tailed Beta(k + 1/2, n - k + 1/2) interval with no special
  case at 0 or n (as in statsmodels), so at 0 of n or n of n it excludes the estimate
  (its upper end at n of n is below 1). An interval that is undefined (``t`` or ``clt``
  with one question) is None in the document, not a number that excludes the estimate;
- every p-value is in [0, 1], and a Monte Carlo p-value is never 0;
- swapping the models negates the gap and every gap interval, swaps the per-model
  results and keeps every p-value;
- permuting the rows changes nothing: the JSON document is identical apart from its
  provenance (whose data digest is identical too); so does renaming the item ids;
- the resampling engine's batch size (``evalbars.stats.resample._MAX_CELLS``) and its thread
  count change nothing: the random draws are the same, so the document is the same up
  to the last bits of its floating-point numbers (a count-vector product of another
  shape may go through another BLAS kernel, which adds in another order: 1 ulp on
  constant data was seen). For given data the batch size is fixed, so a run reproduces
  bit for bit (the same-seed property below);
- the same seed gives the same bytes of JSON through the CLI.

The default run takes a few seconds per property (``max_examples`` modest); the
``slow`` twins draw more and bigger data sets (``pytest -m slow tests/test_properties.py``).
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evalbars
from evalbars.cli import main
from evalbars.stats import resample as _resample

pd = pytest.importorskip("pandas")

RESAMPLES = 199
EXEMPT = {"jeffreys"}
"""Methods that may exclude the estimate by definition (see the module docstring)."""


# --------------------------------------------------------------------------- data


@st.composite
def datasets(draw, max_n: int = 24):
    """(DataFrame with columns id, a, b and maybe topic, cluster column or None)."""
    n = draw(st.integers(2, max_n))
    kind = draw(st.sampled_from(["binary", "binary", "continuous", "ties"]))
    if kind == "binary":
        values = st.integers(0, 1)
    elif kind == "ties":
        values = st.sampled_from([0.0, 0.25, 0.5, 1.0, 3.0])
    else:
        values = st.floats(-100, 100, allow_nan=False, allow_subnormal=False)

    def column() -> list:
        drawn = draw(st.lists(values, min_size=n, max_size=n))
        return [drawn[0]] * n if draw(st.integers(0, 5)) == 0 else drawn  # constant

    a = column()
    b = list(a) if draw(st.integers(0, 6)) == 0 else column()  # identical models
    frame = pd.DataFrame({"id": [f"q{i}" for i in range(n)], "a": a, "b": b})
    cluster = None
    if draw(st.integers(0, 2)) == 0:
        labels = draw(st.lists(st.sampled_from(["t1", "t2", "t3", "t4"]), min_size=n,
                               max_size=n).filter(lambda c: len(set(c)) >= 2))
        frame["topic"] = labels
        cluster = "topic"
    return frame, cluster


def compare(frame, cluster, **options):
    options.setdefault("n_resamples", RESAMPLES)
    return evalbars.compare(frame, a=options.pop("a", "a"), b=options.pop("b", "b"),
                            cluster=cluster, score_type="auto", **options)


def both(fast: int, slow: int, *, max_n: int = 300, extra=st.just(None)):
    """The property as two tests: a modest default one and a ``slow`` bigger one."""
    common = dict(deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

    def decorate(check):
        @settings(max_examples=fast, **common)
        @given(data=datasets(), extra=extra)
        def test(data, extra):
            check(*data, extra)

        @pytest.mark.slow
        @settings(max_examples=slow, **common)
        @given(data=datasets(max_n=max_n), extra=extra)
        def test_slow(data, extra):
            check(*data, extra)

        return test, test_slow

    return decorate


def defined(x) -> bool:
    return x is not None and math.isfinite(x)


def contains(interval, estimate, scale) -> bool:
    tol = 1e-12 * max(1.0, scale)
    return interval.low - tol <= estimate <= interval.high + tol


def without_provenance(doc: dict) -> dict:
    return {key: value for key, value in doc.items() if key != "provenance"}


def same(doc1: dict, doc2: dict) -> bool:
    return json.dumps(doc1, sort_keys=True) == json.dumps(doc2, sort_keys=True)


def close(doc1, doc2, path: str = "") -> None:
    """Assert two documents equal, floats to 1e-12 relative (1e-10 absolute near 0)."""
    if isinstance(doc1, dict):
        assert isinstance(doc2, dict) and doc1.keys() == doc2.keys(), path
        for key in doc1:
            close(doc1[key], doc2[key], f"{path}.{key}")
    elif isinstance(doc1, list):
        assert isinstance(doc2, list) and len(doc1) == len(doc2), path
        for k, (x, y) in enumerate(zip(doc1, doc2)):
            close(x, y, f"{path}[{k}]")
    elif isinstance(doc1, float) and isinstance(doc2, float) and doc1 != doc2:
        # The design effect and effective n are ratios of two variances; when clusters
        # nearly cancel (a design effect near 0, an effective n of 10^6 from 40 items) the
        # rounding of sums added in another order grows by that ratio.
        rel = 1e-9 if path.endswith((".design_effect", ".effective_n")) else 1e-12
        assert doc2 == pytest.approx(doc1, rel=rel, abs=1e-10), (path, doc1, doc2)
    else:
        assert doc1 == doc2, (path, doc1, doc2)


# --------------------------------------------------------------------------- properties


def _contains(frame, cluster, _):
    result = compare(frame, cluster)
    scale = float(np.abs(frame[["a", "b"]].to_numpy(dtype=float)).max())
    for model in result.models:
        k, n = model.mean * model.n, model.n
        for interval in model.intervals:
            if not (defined(interval.low) and defined(interval.high)):
                continue  # undefined here (one question, or no spread): None in the JSON
            if interval.method in EXEMPT:
                assert result.score_type == "binary" and round(k) in (0, n) \
                    or contains(interval, model.mean, scale), (model.name, interval)
                continue
            assert contains(interval, model.mean, scale), (model.name, interval, model.mean)
    gap = result.difference
    for interval in gap.intervals:
        if defined(interval.low) and defined(interval.high):
            assert contains(interval, gap.estimate, 2 * scale), (interval, gap.estimate)
    for extra in (result.difference.clustered, *(m.clustered for m in result.models)):
        if extra is not None and defined(extra.se):
            assert extra.se >= 0


test_intervals_contain_the_estimate, test_intervals_contain_the_estimate_slow = \
    both(150, 1000)(_contains)


def _p_values(frame, cluster, margin):
    result = compare(frame, cluster, margin=margin)
    assert result.tests
    for test in result.tests:
        if test.p_value is None:
            continue
        assert 0.0 <= test.p_value <= 1.0, test
        if test.n_resamples is not None:  # Monte Carlo: (k + 1) / (B + 1), never 0
            assert test.p_value >= 1.0 / (test.n_resamples + 1), test
    if result.equivalence is not None:
        for p in (result.equivalence.non_inferiority_p, result.equivalence.tost_p):
            assert p is None or math.isnan(p) or 0.0 <= p <= 1.0, result.equivalence


test_p_values_are_probabilities, test_p_values_are_probabilities_slow = \
    both(80, 600, extra=st.none() | st.sampled_from([0.01, 0.1, 1.0]))(_p_values)


def _swap(frame, cluster, seed):
    ab = compare(frame, cluster, seed=seed).to_dict()
    ba = compare(frame, cluster, a="b", b="a", seed=seed).to_dict()
    assert ba["models"] == ab["models"][::-1]
    d1, d2 = ab["difference"], ba["difference"]
    assert (d1["a"], d1["b"]) == (d2["b"], d2["a"])
    assert d2["estimate"] == -d1["estimate"]
    for i1, i2 in zip(d1["intervals"], d2["intervals"]):
        assert i1["method"] == i2["method"]
        if i1["low"] is None:
            assert i2["low"] is None and i2["high"] is None
            continue
        assert i2["low"] == pytest.approx(-i1["high"], rel=1e-12, abs=1e-15), (i1, i2)
        assert i2["high"] == pytest.approx(-i1["low"], rel=1e-12, abs=1e-15), (i1, i2)
    for t1, t2 in zip(ab["tests"], ba["tests"]):
        assert t1["name"] == t2["name"]
        assert t2["p_value"] == pytest.approx(t1["p_value"], rel=1e-12, abs=1e-15), (t1, t2)
    g1, g2 = ab["agreement"], ba["agreement"]
    for left, right in (("a_only", "b_only"), ("wins", "losses")):
        if left in g1:
            assert (g1[left], g1[right]) == (g2[right], g2[left])


test_swapping_models_flips_the_gap, test_swapping_models_flips_the_gap_slow = \
    both(80, 600, extra=st.integers(0, 2**32 - 1))(_swap)


def _permute(frame, cluster, seed):
    before = compare(frame, cluster).to_dict()
    order = np.random.default_rng(seed).permutation(len(frame))
    shuffled = compare(frame.iloc[order].reset_index(drop=True), cluster).to_dict()
    assert same(without_provenance(before), without_provenance(shuffled))
    assert before["provenance"]["data_sha256"] == shuffled["provenance"]["data_sha256"]
    renamed = frame.copy()  # new ids whose sorted order is another one
    renamed["id"] = [f"item-{k:03d}" for k in order]
    # The ids order the resample plan's units: new ids draw other resamples, and only the
    # numbers that resample nothing stay, up to rounding.
    close(unresampled(before), unresampled(compare(renamed, cluster).to_dict()))


def unresampled(doc: dict) -> dict:
    """The parts of a compare document that draw no random numbers."""
    def fixed(intervals):
        return [i for i in intervals if "bootstrap" not in i["method"]]

    return {"models": [{**m, "intervals": fixed(m["intervals"])} for m in doc["models"]],
            "difference": {**doc["difference"], "intervals": fixed(doc["difference"]["intervals"])},
            "tests": [t for t in doc["tests"] if "mc_error" not in t]}


test_permuting_rows_changes_nothing, test_permuting_rows_changes_nothing_slow = \
    both(80, 600, extra=st.integers(0, 2**32 - 1))(_permute)


def _batched(frame, cluster, cells: int, threads: bool) -> dict:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_resample, "_MAX_CELLS", cells)
        if threads:
            patch.setattr(_resample, "_workers", lambda n_blocks, work: min(2, n_blocks))
        return compare(frame, cluster, n_resamples=700).to_dict()  # two blocks of 512


def _batches(frame, cluster, cells):
    before = _batched(frame, cluster, _resample._MAX_CELLS, False)
    after = _batched(frame, cluster, cells, True)
    close(before, after)


test_batch_size_changes_nothing, test_batch_size_changes_nothing_slow = \
    both(30, 300, extra=st.sampled_from([5, 24, 100, 1000]))(_batches)


def test_sign_flip_draws_do_not_depend_on_the_batch_size():
    rng = np.random.default_rng(7)
    frame = pd.DataFrame({"id": [f"q{i}" for i in range(40)], "a": rng.random(40),
                          "b": rng.random(40)})
    default = _batched(frame, None, _resample._MAX_CELLS, False)
    assert default["tests"][0]["name"] == "sign-flip" and "n_resamples" in default["tests"][0]
    assert same(default, _batched(frame, None, 5, False))  # chunks of 1 row of 5 bytes


def _cli(argv: list[str]) -> bytes:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0
    return out.getvalue().encode("utf-8")


def _same_seed(frame, cluster, seed):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scores.csv"
        frame.to_csv(path, index=False)
        argv = ["compare", str(path), "--a", "a", "--b", "b", "--format", "json",
                "--n-resamples", str(RESAMPLES), "--seed", str(seed)]
        if cluster is not None:
            argv += ["--cluster", cluster]
        first, second = _cli(argv), _cli(argv)
    assert first == second
    assert json.loads(first)["settings"]["seed"] == seed


test_same_seed_same_bytes, test_same_seed_same_bytes_slow = \
    both(20, 200, extra=st.integers(0, 2**63 - 1))(_same_seed)


# --------------------------------------------------------------------------- examples


def test_jeffreys_is_the_one_interval_that_can_exclude_its_estimate():
    """The exemption above is real, and only at 0 of n and n of n."""
    frame = pd.DataFrame({"id": ["q1", "q2", "q3"], "a": [1, 1, 1], "b": [0, 0, 0]})
    result = compare(frame, None)
    for model in result.models:
        jeffreys = model.interval("jeffreys")
        assert not jeffreys.low <= model.mean <= jeffreys.high
        for interval in model.intervals:
            if interval.method != "jeffreys":  # wilson's 0 end is 5.6e-17 off: rounding
                assert contains(interval, model.mean, 1.0)
    mixed = compare(pd.DataFrame({"id": ["q1", "q2"], "a": [1, 0], "b": [0, 1]}), None)
    assert all(m.interval("jeffreys").low <= 0.5 <= m.interval("jeffreys").high
               for m in mixed.models)
