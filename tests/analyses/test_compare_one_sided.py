"""compare --alternative greater|less: one-sided tests and bounds against scipy."""
import doctest
import json
import math
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import evalbars
from evalbars import EvalbarsError
from evalbars.cli import main

PAIR = "examples/lesson_pair.csv"  # 500 questions; model_b alone right on 17, model_a on 4


@pytest.fixture(scope="module")
def greater():
    return evalbars.compare(PAIR, a="model_a", b="model_b", alternative="greater",
                            n_resamples=2000)


def test_tests_are_the_one_sided_references(greater):
    # Reference: scipy.stats.binomtest(17, 21, alternative="greater").pvalue = 0.0035987 (half
    # of R's binom.test(17, 21) two-sided 0.007197); scipy.stats.ttest_rel(b, a,
    # alternative="greater").
    frame = pd.read_csv(PAIR)
    a, b = frame["model_a"].to_numpy(float), frame["model_b"].to_numpy(float)
    assert greater.test("mcnemar-exact").p_value == pytest.approx(
        stats.binomtest(17, 21, alternative="greater").pvalue, rel=1e-12)
    assert greater.test("sign-flip").p_value == pytest.approx(
        stats.binomtest(17, 21, alternative="greater").pvalue, rel=1e-12)
    assert greater.test("paired-t").p_value == pytest.approx(
        stats.ttest_rel(b, a, alternative="greater").pvalue, rel=1e-10)
    assert greater.test("mcnemar-midp").p_value == pytest.approx(
        stats.binomtest(17, 21, alternative="greater").pvalue - 0.5 * stats.binom.pmf(17, 21, 0.5),
        rel=1e-12)


def test_bounds_are_ends_of_the_two_sided_90_percent_intervals(greater):
    two = evalbars.compare(PAIR, a="model_a", b="model_b", confidence_level=0.90,
                           n_resamples=2000)
    less = evalbars.compare(PAIR, a="model_a", b="model_b", alternative="less", n_resamples=2000)
    for one, lo, ninety in zip(greater.difference.intervals, less.difference.intervals,
                               two.difference.intervals):
        assert one.method == ninety.method == lo.method
        assert (one.low, one.high) == (ninety.low, math.inf)
        assert (lo.low, lo.high) == (-math.inf, ninety.high)
        assert one.confidence_level == 0.95
    assert greater.difference.estimate == two.difference.estimate


def test_paired_t_bound_equals_scipy_one_sided_confidence_interval(greater):
    # Reference: scipy.stats.ttest_rel(b, a, alternative="greater").confidence_interval(0.95)
    # is (low, inf): the one-sided t bound.
    frame = pd.read_csv(PAIR)
    a, b = frame["model_a"].to_numpy(float), frame["model_b"].to_numpy(float)
    ref = stats.ttest_rel(b, a, alternative="greater").confidence_interval(0.95)
    bound = greater.difference.interval("paired-t")
    assert bound.low == pytest.approx(ref.low, rel=1e-10) and bound.high == ref.high == math.inf


def test_document_records_the_alternative(greater):
    doc = greater.to_dict()
    assert doc["settings"]["alternative"] == "greater"
    assert doc["difference"]["intervals"][0]["high"] is None
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc
    assert "alternative" not in evalbars.compare(PAIR, n_resamples=200).to_dict()["settings"]
    statement = doc["statement"]
    assert "is model_b better than model_a?" in statement
    assert "at least +1.0 points" in statement and "one-sided p = 0.004" in statement
    text = str(greater)
    assert "Tests (one-sided: B better than A)" in text and "at least +1.0" in text


def test_not_shown_is_worded_without_a_verdict_the_other_way():
    less = evalbars.compare(PAIR, a="model_a", b="model_b", alternative="less", n_resamples=500)
    assert "do not show that model_b is worse than model_a" in less.statement
    assert less.test("mcnemar-exact").p_value == pytest.approx(
        stats.binomtest(17, 21, alternative="less").pvalue, rel=1e-12)


def test_swapping_the_pair_swaps_the_side():
    one = evalbars.compare(PAIR, a="model_a", b="model_b", alternative="greater",
                           n_resamples=500)
    other = evalbars.compare(PAIR, a="model_b", b="model_a", alternative="less", n_resamples=500)
    for x, y in zip(one.tests, other.tests):
        assert x.p_value == pytest.approx(y.p_value, rel=1e-12)
    for x, y in zip(one.difference.intervals, other.difference.intervals):
        assert (x.low, x.high) == (-y.high, -y.low)


def test_margin_and_alternative_refused():
    with pytest.raises(EvalbarsError, match="margin .--margin. and alternative='greater'"):
        evalbars.compare(PAIR, alternative="greater", margin=0.01, n_resamples=200)


def test_bad_alternative():
    with pytest.raises(EvalbarsError, match="alternative must be one of"):
        evalbars.compare(PAIR, alternative="larger", n_resamples=200)


def test_one_sided_level_above_a_half():
    with pytest.raises(EvalbarsError, match="confidence level above 0.5"):
        evalbars.compare(PAIR, alternative="greater", confidence_level=0.4, n_resamples=200)


def test_cli_json_equals_the_api(capsys):
    assert main(["compare", PAIR, "--alternative", "greater", "--n-resamples", "300",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr()[0])
    api = evalbars.compare(PAIR, alternative="greater", n_resamples=300).to_dict()
    assert out == json.loads(json.dumps(api))
    assert main(["compare", PAIR, "--alternative", "greater", "--margin", "0.01"]) == 2


def test_clustered_one_sided_sign_flip_equals_scipy_enumeration():
    # 10 clusters: the cluster sign-flip enumerates every sign pattern of the cluster totals;
    # reference scipy.stats.permutation_test((totals,), np.sum, permutation_type="samples",
    # n_resamples=inf, alternative=...).
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"item": [f"q{i:02d}" for i in range(60)], "topic": np.arange(60) // 6,
                          "a": rng.random(60).round(2), "b": (rng.random(60) + 0.1).round(2)})
    d = frame["b"] - frame["a"]
    totals = d.groupby(frame["topic"]).sum().to_numpy()
    for alternative in ("greater", "less"):
        one = evalbars.compare(frame, item="item", cluster="topic", alternative=alternative,
                               n_resamples=500)
        ref = stats.permutation_test((totals,), np.sum, permutation_type="samples",
                                     n_resamples=np.inf, alternative=alternative)
        assert one.tests[0].name == "cluster-sign-flip" and one.tests[0].exact
        assert one.tests[0].p_value == pytest.approx(ref.pvalue, rel=1e-9)


# --- ci --alternative: one-sided bounds on each score ---------------------------------------


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_ci_bounds_equal_scipy_one_sided_intervals(alternative):
    # References: scipy.stats.binomtest(k, n, alternative=...).proportion_ci(0.95,
    # method="exact" | "wilson") and scipy.stats.ttest_1samp(x, 0, alternative=...)
    # .confidence_interval(0.95): one-sided intervals with one end at the scale's edge.
    x = pd.read_csv(PAIR)["model_a"].to_numpy(float)
    k, n = int(x.sum()), x.size
    result = evalbars.ci(PAIR, alternative=alternative, n_resamples=500).model("model_a")
    side = "low" if alternative == "greater" else "high"
    for ours, method in (("clopper-pearson", "exact"), ("wilson", "wilson")):
        ref = stats.binomtest(k, n, alternative=alternative).proportion_ci(0.95, method=method)
        assert getattr(result.interval(ours), side) == pytest.approx(getattr(ref, side),
                                                                     rel=1e-12)
    ref = stats.ttest_1samp(x, 0.0, alternative=alternative).confidence_interval(0.95)
    assert getattr(result.interval("t"), side) == pytest.approx(getattr(ref, side), rel=1e-12)
    other = result.interval("t").high if side == "low" else result.interval("t").low
    assert math.isinf(other)


def test_ci_document_text_and_cli(capsys):
    doc = evalbars.ci(PAIR, alternative="greater", n_resamples=300).to_dict()
    assert doc["settings"]["alternative"] == "greater"
    assert doc["models"][0]["intervals"][0]["high"] is None
    assert "one-sided 95% bound: at least 69.8, Wilson" in doc["statement"]
    assert main(["ci", PAIR, "--alternative", "greater", "--n-resamples", "300",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr()[0]) == json.loads(json.dumps(doc))
    assert main(["ci", PAIR, "--alternative", "less", "--n-resamples", "300"]) == 0
    out = capsys.readouterr()[0]
    assert "Scores (one-sided 95% bounds, %)" in out and "at most" in out


# --- docs/one-sided.md runs as written --------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "one-sided.md"


def _blocks(kind):
    return re.findall(rf"```{kind}\n(.*?)```", DOCS.read_text(), flags=re.S)


def test_docs_python_examples_run():
    test = doctest.DocTestParser().get_doctest("\n".join(_blocks("python")), {}, "one-sided.md",
                                               str(DOCS), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and test.examples


@pytest.mark.parametrize("block", _blocks("console"))
def test_docs_console_examples_run(capsys, block):
    command, *expected = block.splitlines()
    assert main(shlex.split(command)[2:]) == 0
    out = capsys.readouterr()[0].splitlines()
    assert out[:-1] == expected[:-1]  # all but the footer, which carries the version
