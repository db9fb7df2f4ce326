"""evalbars.compare and evalbars.ci reproduce the published numbers, end to end.

Expected values come from ../shared/fixtures/EXPECTED.md (seed 000, seed 002, scipy,
statsmodels, R), compared with a tolerance of half the last digit shown there.
"""
import csv
import inspect
from pathlib import Path

import numpy as np
import pytest

import evalbars
from evalbars import EvalbarsError
from evalbars.analyses import measures


def ends(interval):
    return interval.low, interval.high


@pytest.fixture(scope="module")
def lesson_result():
    return evalbars.compare("examples/lesson_pair.csv", a="model_a", b="model_b")


def test_lesson_scores(lesson_result):
    a, b = lesson_result.model("model_a"), lesson_result.model("model_b")
    # seed 000 "What a careful result looks like": A 73.2% (69.3 to 77.1), B 75.8% (72.0 to 79.6)
    assert a.mean == pytest.approx(0.732, abs=5e-4)
    assert ends(a.interval("clt")) == pytest.approx((0.693, 0.771), abs=5e-4)
    assert b.mean == pytest.approx(0.758, abs=5e-4)
    assert ends(b.interval("clt")) == pytest.approx((0.720, 0.796), abs=5e-4)


def test_lesson_gap(lesson_result):
    d = lesson_result.difference
    assert d.estimate == pytest.approx(0.026, abs=5e-4)  # seed 000: +2.6 points
    # scipy (EXPECTED.md): paired CLT 95% CI +0.82 to +4.38 points
    assert ends(d.interval("paired-wald")) == pytest.approx((0.0082, 0.0438), abs=5e-5)
    # seed 000: paired bootstrap 95% CI +0.8 to +4.4, 10,000 resamples
    assert ends(d.interval("paired-bootstrap-percentile")) == pytest.approx((0.008, 0.044),
                                                                            abs=5e-4)
    # seed 000 "Measure": the paired interval is about 3 times narrower than the unpaired one
    assert 2.5 < d.width_ratio < 3.5


def test_lesson_agreement_and_tests(lesson_result):
    g = lesson_result.agreement
    assert g.correlation == pytest.approx(0.89, abs=0.005)  # seed 000
    assert (g.a_only + g.b_only, g.b_only, g.a_only) == (21, 17, 4)  # seed 000
    # R binom.test(17, 21): p = 0.00720
    assert lesson_result.test("mcnemar-exact").p_value == pytest.approx(0.00720, abs=5e-6)
    # R mcnemar.test: X-squared = 6.857, p = 0.0088
    chi2 = lesson_result.test("mcnemar-chi2")
    assert chi2.statistic == pytest.approx(6.857, abs=5e-4)
    assert chi2.p_value == pytest.approx(0.0088, abs=5e-5)
    assert [t.name for t in lesson_result.tests][0] == "mcnemar-exact"


def test_lesson_statement(lesson_result):
    s = lesson_result.statement
    assert "On this 500-question evaluation set, model_b scored 75.8%" in s
    assert "model_b outperforms model_a by 2.6 points" in s
    assert "paired bootstrap 95% CI +0.8 to +4.4, 10,000 resamples" in s
    assert "disagreed on 21 questions, with model_b correct on 17 and model_a on 4" in s
    assert "exact McNemar p = 0.007" in s
    assert s.endswith("so these intervals reflect question sampling only.")


def test_cookbook_numbers():
    r = evalbars.compare("examples/cookbook_topics.csv", a="system_a", b="system_b",
                         item="example_id")
    a, b = r.model("system_a"), r.model("system_b")
    assert (a.mean, b.mean) == pytest.approx((0.615, 0.710))  # seed 002: 123/200, 142/200
    # seed 002 / statsmodels proportion_confint
    assert ends(a.interval("wilson")) == pytest.approx((0.546, 0.680), abs=5e-4)
    assert ends(b.interval("wilson")) == pytest.approx((0.644, 0.768), abs=5e-4)
    assert ends(a.interval("clopper-pearson")) == pytest.approx((0.5438, 0.6828), abs=5e-5)
    assert ends(b.interval("clopper-pearson")) == pytest.approx((0.6418, 0.7718), abs=5e-5)
    assert ends(a.interval("jeffreys")) == pytest.approx((0.5463, 0.6804), abs=5e-5)
    assert ends(b.interval("jeffreys")) == pytest.approx((0.6444, 0.7695), abs=5e-5)
    g = r.agreement
    assert (g.a_only, g.b_only, g.both + g.neither) == (26, 45, 129)  # seed 002
    assert r.test("mcnemar-exact").p_value == pytest.approx(0.0319, abs=5e-5)  # seed 002
    assert r.difference.estimate == pytest.approx(0.095)  # seed 002
    # EXPECTED.md (scipy): paired CLT 95% CI of delta [0.0133, 0.1767]
    assert ends(r.difference.interval("paired-wald")) == pytest.approx((0.0133, 0.1767),
                                                                      abs=5e-5)


def write_binary(path, values):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "m"])
        writer.writerows((f"q{i}", v) for i, v in enumerate(values))
    return path


def test_seven_of_ten(tmp_path):
    r = evalbars.ci(write_binary(tmp_path / "x.csv", [1] * 7 + [0] * 3))
    m = r.model("m")
    # seed 000 / seed 002: Wald [0.42, 0.98] (0.416, 0.984), Wilson [0.40, 0.89] (0.397, 0.892)
    assert ends(m.interval("wald")) == pytest.approx((0.416, 0.984), abs=5e-4)
    assert ends(m.interval("wilson")) == pytest.approx((0.397, 0.892), abs=5e-4)
    assert m.intervals[0].method == "wilson"  # the default shown for 0/1 scores
    assert any("use wilson" in w for w in r.warnings)


def test_nineteen_of_twenty_passes_one_and_says_so(tmp_path):
    r = evalbars.ci(write_binary(tmp_path / "x.csv", [1] * 19 + [0]))
    clt = r.model("m").interval("clt")
    # seed 000 "Measure": the CLT interval for 19/20 is [0.852, 1.048], past 100%
    assert ends(clt) == pytest.approx((0.852, 1.048), abs=5e-4)
    assert any("clt interval (0.852 to 1.048) leaves [0, 1]" in w for w in r.warnings)


def test_same_seed_same_document_and_seed_recorded(lesson_path):
    first = evalbars.compare(lesson_path, seed=7, n_resamples=2000).to_dict()
    assert first == evalbars.compare(lesson_path, seed=7, n_resamples=2000).to_dict()
    assert first["settings"]["seed"] == 7 and first["provenance"]["seed"] == 7
    other = evalbars.compare(lesson_path, seed=8, n_resamples=2000).to_dict()
    assert other["models"] != first["models"]  # the bootstrap intervals moved


def _without_provenance(doc):
    return {k: v for k, v in doc.items() if k != "provenance"}


@pytest.mark.parametrize("continuous", [False, True])
def test_shuffled_rows_and_renamed_ids_change_nothing(tmp_path, continuous):
    rng = np.random.default_rng(3)
    n = 300
    a = rng.random(n) if continuous else (rng.random(n) < 0.6).astype(int)
    b = np.clip(a + rng.normal(0.05, 0.1, n), 0, 1) if continuous else \
        np.where(rng.random(n) < 0.8, a, rng.random(n) < 0.7).astype(int)

    def write(path, ids, order):
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["id", "a", "b"])
            writer.writerows((ids[i], a[i], b[i]) for i in order)
        return path

    ids = [f"q{i}" for i in range(n)]
    plain = write(tmp_path / "plain.csv", ids, range(n))
    shuffled = write(tmp_path / "shuffled.csv", ids, rng.permutation(n))
    renamed = write(tmp_path / "renamed.csv", [f"x{(i * 7919) % 10007}" for i in range(n)],
                    rng.permutation(n))
    first = evalbars.compare(plain, a="a", b="b", n_resamples=3000).to_dict()
    second = evalbars.compare(shuffled, a="a", b="b", n_resamples=3000).to_dict()
    assert _without_provenance(first) == _without_provenance(second)
    # New ids order the resample plan's units otherwise (evalbars.analyses.draws): 0/1
    # scores are drawn over their values, so only rounding moves; continuous scores draw
    # other resamples, so the bootstrap ends move within Monte Carlo error.
    third = evalbars.compare(renamed, a="a", b="b", n_resamples=3000).to_dict()
    for one, other in zip(first["models"] + [first["difference"]],
                          third["models"] + [third["difference"]]):
        for i, j in zip(one["intervals"], other["intervals"]):
            tolerance = 1e-2 if continuous and "bootstrap" in i["method"] else 1e-12
            assert (j["low"], j["high"]) == pytest.approx((i["low"], i["high"]), abs=tolerance)


@pytest.mark.parametrize("path,a,b,item", [
    ("examples/lesson_pair.csv", "model_a", "model_b", None),
    ("examples/cookbook_topics.csv", "system_a", "system_b", "example_id"),
])
def test_swapping_models_flips_the_gap_and_keeps_p_values(path, a, b, item):
    forward = evalbars.compare(path, a=a, b=b, item=item, n_resamples=3000)
    backward = evalbars.compare(path, a=b, b=a, item=item, n_resamples=3000)
    assert backward.difference.estimate == -forward.difference.estimate
    for f, r in zip(forward.difference.intervals, backward.difference.intervals):
        assert (r.low, r.high) == pytest.approx((-f.high, -f.low), abs=1e-12)
    assert [t.p_value for t in forward.tests] == pytest.approx([t.p_value for t in backward.tests])


def test_continuous_scores_use_t_and_sign_flip(tmp_path):
    rng = np.random.default_rng(5)
    path = tmp_path / "ndcg.csv"
    a = rng.beta(2, 3, 80)
    b = np.clip(a + rng.normal(0.03, 0.05, 80), 0, 1)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["query_id", "bm25", "rerank"])
        writer.writerows((f"q{i}", x, y) for i, (x, y) in enumerate(zip(a, b)))
    r = evalbars.compare(path, a="bm25", b="rerank")
    assert r.score_type == "continuous"
    assert r.model("bm25").intervals[0].method == "t"
    assert [t.name for t in r.tests] == ["sign-flip", "sign", "paired-t", "wilcoxon"]
    assert r.agreement.wins + r.agreement.losses + r.agreement.ties == 80
    assert "rerank scored higher on" in r.statement


def test_not_significant_never_claims_equivalence(tmp_path):
    path = tmp_path / "close.csv"
    # 200 questions: 130 both right, 48 neither, 10 only a right, 12 only b right.
    a = np.array([1] * 130 + [0] * 48 + [1] * 10 + [0] * 12)
    b = np.array([1] * 130 + [0] * 48 + [0] * 10 + [1] * 12)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "a", "b"])
        writer.writerows((f"q{i}", x, y) for i, (x, y) in enumerate(zip(a, b)))
    r = evalbars.compare(path, a="a", b="b")
    assert r.difference.interval("paired-bootstrap-percentile").low < 0 < \
        r.difference.interval("paired-bootstrap-percentile").high
    assert "cannot tell which model is better" in r.statement
    assert "not evidence that the models are equivalent" in r.statement
    assert "80% power only for gaps of about" in r.statement


@pytest.mark.parametrize("kwargs,message", [
    (dict(a="model_a", b="nope"), "unknown model 'nope'"),
    (dict(a="model_a", b="model_a"), "must be different models"),
    (dict(confidence_level=1.5), "confidence_level must be a number strictly between 0 and 1"),
    (dict(n_resamples=0), "n_resamples must be a positive integer"),
    (dict(seed=-1), "seed must be a non-negative integer"),
])
def test_bad_arguments(lesson_path, kwargs, message):
    with pytest.raises(EvalbarsError, match=message):
        evalbars.compare(lesson_path, **kwargs)


def test_one_name_on_two_models_takes_the_other(lesson_path):
    # issue 17 item 25: a= alone (or b= alone) on a two-model file picks the other model
    a_only = evalbars.compare(lesson_path, a="model_b", n_resamples=100)
    b_only = evalbars.compare(lesson_path, b="model_a", n_resamples=100)
    assert (a_only.difference.a, a_only.difference.b) == ("model_b", "model_a")
    assert (b_only.difference.a, b_only.difference.b) == ("model_b", "model_a")


def test_one_name_on_three_models_lists_them(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("id,x,y,z\nq1,1,0,1\nq2,0,1,1\n")
    with pytest.raises(EvalbarsError, match=r"give both a= and b= .*\('x', 'y', 'z'\)"):
        evalbars.compare(path, a="x")
    with pytest.raises(EvalbarsError,
                       match=r"unknown model 'nope' \(b=\); the data has 'x', 'y', 'z'"):
        evalbars.compare(path, b="nope")


def test_three_models_need_a_choice(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("id,x,y,z\nq1,1,0,1\nq2,0,1,1\n")
    with pytest.raises(EvalbarsError, match=r"3 models \('x', 'y', 'z'\); choose two"):
        evalbars.compare(path)


def test_one_model_is_not_a_pair(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("id,x\nq1,1\nq2,0\n")
    with pytest.raises(EvalbarsError) as info:
        evalbars.compare(path)
    assert str(info.value) == ("the data has one model ('x'); a paired comparison needs two, "
                               "on the same questions")


def test_a_long_model_list_is_cut_in_errors(tmp_path):
    path = tmp_path / "many.csv"
    names = [f"model{k:03d}" for k in range(300)]
    path.write_text("id," + ",".join(names) + "\nq1," + ",".join("1" * 300) + "\nq2,"
                    + ",".join("0" * 300) + "\n")
    loaded = evalbars.load(path)  # unknown names in loaded data: _inputs.pick_pair's error
    for run in (lambda: evalbars.compare(path), lambda: evalbars.compare(loaded, a="x", b="y")):
        with pytest.raises(EvalbarsError) as info:
            run()
        assert "'model019' and 280 more" in str(info.value) and "model020" not in str(info.value)


# --- the loading options every entry point that reads data takes ----------------------

def _readers():
    from evalbars.analyses.power import from_pilot
    from evalbars.simulate import misaligned

    return {"ci": (evalbars.ci, {}), "compare": (evalbars.compare, {}),
            "leaderboard": (evalbars.leaderboard, {}),
            "select": (evalbars.select, dict(baseline="system_a")),
            "ablation": (evalbars.ablation, dict(full="system_b", baseline="system_a")),
            "seeds": (evalbars.seeds, dict(run="topic_id")), "passk": (evalbars.passk, {}),
            "from_pilot": (from_pilot, {}), "misaligned": (misaligned, {}),
            "gate": (evalbars.gate, dict(max_regression=0.01)),
            "monitor": (evalbars.monitor, {})}


READERS = _readers()

ANALYSES = {name: f"analyses.{name}" for name in
            ("leaderboard", "select", "ablation", "seeds", "passk", "gate", "monitor")}
ANALYSES.update(ci="analyses.compare", compare="analyses.compare")
"""Every analysis, called as ``evalbars.<name>(...)``, and the module that defines it."""


def test_dir_lists_every_analysis():
    """Tab completion finds every analysis, in a fresh session as after first use."""
    import subprocess
    import sys

    fresh = subprocess.run([sys.executable, "-c", "import evalbars; print(dir(evalbars))"],
                           capture_output=True, text=True, check=True).stdout
    for name in ANALYSES:
        assert repr(name) in fresh and name in dir(evalbars), name


def test_every_analysis_is_a_top_level_function():
    """evalbars.select(...) as evalbars.compare(...): the name is the function, also once its
    module is imported (a submodule evalbars.select would have replaced the function)."""
    import importlib

    for name, module in ANALYSES.items():
        defined = getattr(importlib.import_module(f"evalbars.{module}"), name)
        assert getattr(evalbars, name) is defined and callable(defined), name
        assert name in evalbars.__all__, name
        parameters = inspect.signature(defined).parameters
        assert {"data", "item", "model", "cluster", "metric"} <= set(parameters), name


def test_import_evalbars_stays_cheap():
    """The analyses are resolved on first use: importing the package imports none of them,
    nor numpy (only the version); the first use of a name imports its own module and not
    the others."""
    import subprocess
    import sys

    code = ("import sys, evalbars; heavy = lambda: sorted(m for m in sys.modules if "
            "m.split('.')[0] in ('numpy', 'scipy', 'pandas') or m.startswith('evalbars.')); "
            "print(heavy()); from evalbars import select; print(callable(select), "
            "type(select).__name__, 'evalbars.analyses.select' in sys.modules, "
            "'evalbars.analyses.seeds' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.splitlines() == ["['evalbars.core', 'evalbars.core.version']",
                                       "True function True False"]


@pytest.mark.parametrize("name", READERS)
def test_the_signature_shows_the_parameters_of_load(name):
    function, _ = READERS[name]
    shown = inspect.signature(function).parameters
    loading = inspect.signature(evalbars.load).parameters
    # stratum=, split= and order= are each an analysis' own (read with the scores)
    for option in set(loading) - {"data", "data2", "models", "stratum", "split", "order"}:
        assert (shown[option].default, shown[option].annotation) == \
            (loading[option].default, loading[option].annotation), option
    assert all(p.kind is not p.VAR_KEYWORD for p in shown.values())


@pytest.mark.parametrize("name", READERS)
def test_a_misspelt_loading_option_names_the_closest(name, cookbook_path):
    function, required = READERS[name]
    with pytest.raises(EvalbarsError) as error:
        function(cookbook_path, clustr="topic_id", **required)
    message = str(error.value)
    own = [p.name for p in inspect.signature(inspect.unwrap(function)).parameters.values()
           if p.kind is p.KEYWORD_ONLY][:2]
    assert message.startswith("unknown keyword argument clustr='topic_id' (did you mean "
                              f"cluster?); {function.__name__}() takes the options "
                              f"{', '.join(own)}, ")
    assert ", and reads the data with the options item, model," in message
    assert message.endswith("scorer, qrels, engine, spark of evalbars.load")


@pytest.mark.parametrize("name", READERS)
def test_loading_options_with_loaded_scores_are_refused(name, cookbook_path):
    function, required = READERS[name]
    required = {key: value for key, value in required.items() if key != "run"}
    with pytest.raises(EvalbarsError, match="cluster='topic_id' says how to read a file, but "
                                            "data is already loaded ItemScores"):
        function(evalbars.load(cookbook_path), cluster="topic_id", **required)


def test_loading_options_at_loads_defaults_change_nothing_and_pass(cookbook_path):
    scores = evalbars.load(cookbook_path, cluster="topic_id")
    plain = evalbars.compare(scores, n_resamples=500).to_dict()
    assert evalbars.compare(scores, cluster=None, intersect=False, n_resamples=500,
                            score_type="auto").to_dict() == plain


@pytest.mark.parametrize("name", [name for name in READERS if name != "seeds"])
def test_run_is_refused_where_runs_are_not_analysed(name, cookbook_path):
    """With run=, models would be recipes to load but 'model@run' systems to analyse."""
    function, required = READERS[name]
    with pytest.raises(EvalbarsError) as error:
        function(cookbook_path, run="topic_id", **required)
    assert str(error.value) == (
        "run='topic_id' reads training runs, which this analysis does not model: "
        "evalbars.seeds (evalbars seeds --run COL) compares recipes over their runs; to "
        "analyse each run as a model of its own, named 'model@run', load the data with "
        "evalbars.load(..., run='topic_id') and pass that")


def test_runs_loaded_first_are_models_named_model_at_run():
    """docs/seeds.md, "One run each is a claim about two checkpoints"."""
    data = evalbars.load("examples/seeds.csv", run="seed")
    r = evalbars.compare(data, a="baseline@1", b="curriculum@1", n_resamples=500)
    assert [m.name for m in r.models] == ["baseline@1", "curriculum@1"]
    assert r.provenance["source"]["columns"]["run"] == "seed"


@pytest.mark.parametrize("values", [(0.5, 0.7), (1, 0)], ids=["continuous", "binary"])
def test_one_question_is_refused_by_name(values):
    """One question shows no spread: no error bar (was a TypeError in the statement)."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"id": ["q1"], "a": [values[0]], "b": [values[1]]})
    for run in (lambda: evalbars.compare(frame, a="a", b="b"), lambda: evalbars.ci(frame)):
        with pytest.raises(EvalbarsError, match=r"^an error bar needs at least 2 questions; "
                                                r"the data have 1 \('q1'\)$"):
            run()


# --- plain Python scores, two DataFrames, misspelt keywords (issue 17) ------------------

def _pair_frames():
    pd = pytest.importorskip("pandas")
    rows = list(csv.DictReader(open("examples/lesson_pair.csv")))
    frame = pd.DataFrame(rows).astype({"model_a": int, "model_b": int})
    return frame, frame[["qid", "model_a"]], frame[["qid", "model_b"]]


def test_two_dataframes_are_named_with_models_or_by_their_place():
    """compare(df_a, df_b, models=[...]) was a TypeError (models given twice); gate too."""
    frame, df_a, df_b = _pair_frames()
    wide = evalbars.compare(frame, a="model_a", b="model_b", n_resamples=500).to_dict()
    named = evalbars.compare(df_a, df_b, models=["model_a", "model_b"], n_resamples=500)
    assert named.to_dict()["difference"] == wide["difference"]
    assert evalbars.compare(df_a, df_b, a="model_a", b="model_b",
                            n_resamples=500).to_dict()["difference"] == wide["difference"]
    assert evalbars.compare(frame, models=["model_a", "model_b"],
                            n_resamples=500).to_dict()["difference"] == wide["difference"]
    placed = evalbars.compare(df_a, df_b, n_resamples=500)
    assert [m.name for m in placed.models] == ["a", "b"]
    assert placed.provenance["source"]["description"].endswith(
        "the models are named 'a' and 'b' by their place (name them with models=[...], or "
        "a= and b=)")
    checked = evalbars.gate(df_a, df_b, models=["model_a", "model_b"], max_regression=0.01,
                            n_resamples=500)
    assert (checked.decision, checked.to_dict()["candidate"]) == ("pass", "model_b")
    with pytest.raises(EvalbarsError, match=r"^models= names the two models, a then b; got 1"):
        evalbars.compare(frame, models=["model_a"])
    with pytest.raises(EvalbarsError, match="name different models; give the two once"):
        evalbars.compare(frame, models=["model_a", "model_b"], a="model_b")


def test_a_list_array_or_series_of_scores_is_one_model():
    pd = pytest.importorskip("pandas")
    frame, _, _ = _pair_frames()
    scores = frame["model_a"].tolist()
    expected = evalbars.ci(frame, models=["model_a"], n_resamples=500).to_dict()["models"]
    for data, name in ((scores, "scores"), (np.array(scores), "scores"),
                       (frame["model_a"], "model_a"), (tuple(scores), "scores")):
        assert [m.name for m in evalbars.ci(data, n_resamples=100).models] == [name]
        result = evalbars.ci(data, models=["model_a"], n_resamples=500)  # seeded by name
        assert result.to_dict()["models"] == expected
    description = evalbars.ci(scores, n_resamples=500).provenance["source"]["description"]
    assert description.endswith("; a list of 500 scores read as model 'scores', items "
                                "numbered 0 to 499 in order")
    assert [m.name for m in evalbars.ci([1, 0, 1], models=["mine"], n_resamples=100).models] \
        == ["mine"]
    gap = evalbars.compare(frame["model_a"].tolist(), frame["model_b"].tolist(),
                           n_resamples=500).difference
    assert (gap.a, gap.b, round(gap.estimate, 3)) == ("a", "b", 0.026)
    indexed = pd.Series([1, 0, 1], index=["q3", "q1", "q2"], name="acc")
    assert evalbars.ci(indexed, n_resamples=100).provenance["source"]["description"] \
        .endswith("a pandas Series of 3 scores read as model 'acc', items named by its index")
    with pytest.raises(EvalbarsError, match=r"compare takes two.*compare\(scores_a, scores_b"):
        evalbars.compare(scores)
    with pytest.raises(EvalbarsError, match="cluster= names a column, but a list of scores"):
        evalbars.ci(scores, cluster="topic")


@pytest.mark.parametrize("typo, hint", [
    ("n_resample", "(did you mean n_resamples?)"),
    ("confidence_levl", "(did you mean confidence_level?)"),
    ("confidence", "(did you mean confidence_level?)"),
    ("alpha", "(did you mean confidence_level=0.95?)"),
    ("clustr", "(did you mean cluster?)"),
    ("itme", "(did you mean item?)"),
])
def test_a_misspelt_keyword_names_the_closest_of_all_options(typo, hint):
    """n_resample= suggested sample= (another, dangerous option); confidence_levl=,
    confidence= and alpha= got no suggestion; the message listed the loading options only."""
    with pytest.raises(EvalbarsError) as error:
        evalbars.compare("examples/lesson_pair.csv", **{typo: 0.05})
    message = str(error.value)
    assert message.startswith(f"unknown keyword argument {typo}=0.05 {hint}; compare() takes "
                              "the options a, b, models, confidence_level, n_resamples, seed, "
                              "margin, alternative, stratum, weights, progress, and reads the data "
                              "with the options "
                              "item,")


def test_a_keyword_close_to_nothing_gets_no_suggestion_and_gate_says_baseline():
    with pytest.raises(EvalbarsError, match=r"^unknown keyword argument colour='red'; "):
        evalbars.ci("examples/lesson_pair.csv", colour="red")
    with pytest.raises(EvalbarsError) as error:
        evalbars.gate("examples/lesson_pair.csv", a="model_a", b="model_b",
                      max_regression=0.01)
    assert str(error.value).startswith(
        "unknown keyword arguments a='model_a' (did you mean baseline?), b='model_b' (did "
        "you mean candidate?); gate() takes the options baseline, candidate, models, "
        "max_regression, alpha,")


def test_model_naming_a_score_column_is_refused(tmp_path):
    """ci(df, model="model_a") read the wide file as long and reported models '1', '0'."""
    frame, _, _ = _pair_frames()
    for data in (frame, "examples/lesson_pair.csv"):
        with pytest.raises(EvalbarsError) as error:
            evalbars.ci(data, model="model_a")
        assert "'model_a' holds numbers" in str(error.value)
        assert str(error.value).endswith("pass models=['model_a'] (--models model_a)")
    path = tmp_path / "long.csv"   # numbered models of a long file are still models
    path.write_text("id,model,score\nq1,1,1\nq2,1,0\nq1,2,0\nq2,2,1\nq3,1,1\nq3,2,1\n")
    assert evalbars.load(path, model="model").models == ("1", "2")


@pytest.mark.parametrize("name", READERS)
def test_a_label_only_the_analyses_that_use_it_take(name, cookbook_path):
    # stratum=, split= and order= are read with the scores by the analyses that ask for
    # them; any other analysis refuses them rather than reading and ignoring the column.
    function, required = READERS[name]
    own = inspect.signature(function).parameters
    for option in ("stratum", "split", "order"):
        if option in own:
            continue
        with pytest.raises(EvalbarsError, match=f"^unknown keyword argument {option}="):
            function(cookbook_path, **required, **{option: "topic_id"})


def test_the_io_face_lists_what_reading_offers():
    import evalbars.io as io
    from evalbars.io.ingest import load
    from evalbars.io.labels import ItemLabels
    assert io.load is load and io.ItemLabels is ItemLabels and "load" in dir(io)
    for name in io.__all__:
        assert getattr(io, name) is not None, name
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        io.nothing  # noqa: B018


def test_the_stats_face_lists_public_functions_each_from_its_module():
    import evalbars.stats as stats
    from evalbars.stats.mcnemar import mcnemar_exact
    assert stats.mcnemar_exact is mcnemar_exact and len(stats.__all__) >= 40
    modules = {path.stem for path in Path(stats.__file__).parent.glob("*.py")}
    assert not set(stats.__all__) & modules  # a name of the face would hide a module
    for name in stats.__all__:
        value = getattr(stats, name)
        assert not name.startswith("_") and value.__module__.startswith("evalbars.stats."), name
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        stats.nothing  # noqa: B018


def test_every_result_class_is_importable_from_the_top_level():
    results = {"ci": "CIResult", "compare": "CompareResult", "leaderboard": "LeaderboardResult",
               "select": "SelectResult", "ablation": "AblationResult", "seeds": "SeedsResult",
               "passk": "PassKResult", "gate": "GateResult", "monitor": "MonitorResult"}
    for analysis, name in results.items():
        cls = getattr(evalbars, name)
        assert name in evalbars.__all__ and name in dir(evalbars)
        assert inspect.signature(getattr(evalbars, analysis)).return_annotation in (cls, name)
    assert isinstance(evalbars.compare("examples/lesson_pair.csv", n_resamples=200),
                      evalbars.CompareResult)
    assert evalbars.PowerResult.__name__ == "PowerResult"
    assert evalbars.BradleyTerryResult.__name__ == "BradleyTerryResult"


@pytest.mark.parametrize("level, alpha", [(0.9, 0.1), (0.95, 0.05), (0.8, 0.2)])
def test_leaderboard_and_select_store_alpha_as_given(level, alpha):
    """1 - 0.9 is 0.09999999999999998 in floating point; JSON showed it."""
    board = evalbars.leaderboard("examples/cookbook_topics.csv", confidence_level=level, n_resamples=200).to_dict()
    chosen = evalbars.select("examples/cookbook_topics.csv", baseline="system_a", confidence_level=level,
                             n_resamples=200).to_dict()
    assert board["correction"]["alpha"] == alpha
    assert chosen["correction"]["alpha"] == alpha


ANALYSIS_FUNCTIONS = [evalbars.ci, evalbars.compare, evalbars.leaderboard, evalbars.select,
            evalbars.seeds, evalbars.ablation, evalbars.passk, evalbars.gate, evalbars.monitor]


@pytest.mark.parametrize("function", ANALYSIS_FUNCTIONS, ids=lambda f: f.__name__)
def test_every_docstring_names_every_loading_option(function):
    """eval_split, engine and spark were added to load and not to the analyses' lists."""
    loading = set(inspect.signature(evalbars.load).parameters) - {"data", "data2", "models"}
    own = inspect.signature(function).parameters
    words = set("".join(c if c.isalnum() or c == "_" else " "
                        for c in inspect.getdoc(function)).split())
    missing = sorted(name for name in loading if name in own and name not in words)
    assert missing == []


def test_no_function_of_the_analyses_looks_like_a_test():
    """pytest collects a module-level function named test* from a file passed to it:
    measures.tests was collected (and failed) as a test."""
    import importlib
    import pkgutil

    import evalbars.analyses as package

    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"evalbars.analyses.{info.name}")
        found += [f"{info.name}.{name}" for name, value in vars(module).items()
                  if name.startswith("test") and inspect.isfunction(value)]
    assert found == []
    assert callable(measures.paired_tests)


@pytest.mark.parametrize("page", ["ablation", "leaderboard", "passk", "power", "reports",
                                  "select"])
def test_every_page_listing_input_options_names_the_new_ones(page):
    text = Path(f"docs/{page}.md").read_text(encoding="utf-8")
    for flag in ("--eval-split", "--engine", "--spark-master", "(../README.md#input)"):
        assert flag in text, (page, flag)
