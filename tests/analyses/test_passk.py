"""pass@k: the unbiased estimator, its intervals, the paired gap, the CLI."""
import doctest
import itertools
import json
import math
import re
import shlex
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from evalbars import EvalbarsError
from evalbars.analyses.passk import passk
from evalbars.cli import main
from evalbars.core.seeding import child_seed
from evalbars.stats.bootstrap import bootstrap_means, percentile_interval
from evalbars.stats.pass_at_k import pass_at_k
from evalbars.stats.pass_at_k import pass_at_k_unchecked as _unchecked
from evalbars.stats.pass_at_k import shortcut as _shortcut

EXAMPLE = "examples/passk_samples.csv"


def exact(n: int, c: int, k: int) -> Fraction:
    """1 - C(n - c, k) / C(n, k) in rational arithmetic (math.comb is 0 when n - c < k)."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


# --- the estimator ----------------------------------------------------------------------


def test_seed_000_example():
    # Seed 000 ("pass@k"), from Chen et al. 2021: n = 10, c = 3: pass@5 = 0.917, shortcut 0.832.
    assert round(pass_at_k(10, 3, 5), 3) == 0.917
    assert float(exact(10, 3, 5)) == pytest.approx(pass_at_k(10, 3, 5), rel=1e-15)
    assert round(float(_shortcut(10, 3, 5)), 3) == 0.832


def test_enumerating_every_k_subset():
    """pass@k is the share of k-subsets of the n answers that hold a passing one."""
    for n in range(1, 9):
        for c in range(n + 1):
            answers = [1] * c + [0] * (n - c)
            for k in range(1, n + 1):
                subsets = list(itertools.combinations(answers, k))
                share = Fraction(sum(any(s) for s in subsets), len(subsets))
                assert pass_at_k(n, c, k) == pytest.approx(float(share), rel=1e-14, abs=0)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n), st.integers(1, n))))
def test_agrees_with_math_comb(case):
    n, c, k = case
    assert pass_at_k(n, c, k) == pytest.approx(float(exact(n, c, k)), rel=1e-13, abs=0)


@pytest.mark.parametrize("c", [0, 1, 2, 3, 10, 100, 150, 190, 199, 200])
def test_stable_for_200_samples(c):
    """No overflow, warning or loss of relative precision up to k = 100 (Chen et al.: n = 200)."""
    k = np.arange(1, 101)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pass_at_k(200, c, k)
    want = np.array([float(exact(200, c, int(kk))) for kk in k])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)


def test_huge_n_needs_no_binomial_coefficient():
    """C(10**6, 100) is about 1e442, past the largest float; the product form never forms it,
    and keeps the relative precision the log-gamma form loses (3e-6 here)."""
    n, c, k = 10**6, 3, 100
    with pytest.raises(OverflowError):
        float(math.comb(n, k))
    assert pass_at_k(n, c, k) == pytest.approx(float(exact(n, c, k)), rel=1e-12)


def test_vectorized_over_questions_equals_one_at_a_time():
    rng = np.random.default_rng(0)
    n = rng.integers(5, 40, 200)
    c = rng.integers(0, n + 1)
    got = pass_at_k(n, c, 5)
    assert isinstance(got, np.ndarray) and got.shape == (200,)
    assert got.tolist() == [pass_at_k(int(a), int(b), 5) for a, b in zip(n, c)]
    assert isinstance(pass_at_k(10, 3, 5), float)


@pytest.mark.parametrize("k", [1, 3, 10])
def test_unbiased_and_the_shortcut_is_low(k):
    """E[pass_at_k(n, C, k)] = 1 - (1 - p)^k exactly for C ~ Binomial(n, p); the shortcut is
    lower on average."""
    n, p = 10, 0.3
    c = np.arange(n + 1)
    weights = stats.binom.pmf(c, n, p)
    truth = 1 - (1 - p) ** k
    assert np.dot(weights, pass_at_k(n, c, k)) == pytest.approx(truth, rel=1e-12)
    if k > 1:
        assert np.dot(weights, _shortcut(n, c, k)) < truth - 0.01


@pytest.mark.parametrize("n,c,k,message", [
    (10, 3, 0, "k must be whole numbers >= 1"),
    (10, 3, 11, "k must be at most n"),
    (10, 11, 5, "c .answers that pass. must be at most n"),
    (10, -1, 5, "c .answers that pass. must be whole numbers >= 0"),
    (10.5, 3, 5, "n .answers sampled. must be whole numbers"),
    (10, 3, True, "k must be whole numbers"),
])
def test_bad_counts(n, c, k, message):
    with pytest.raises(EvalbarsError, match=message):
        pass_at_k(n, c, k)


# --- the interval ------------------------------------------------------------------------


def test_bootstrap_interval_coverage_is_sane():
    """Problems with p_i ~ Beta(0.6, 1.4), 10 answers each: the 95% interval of pass@5 over
    60 problems covers the population's pass@5, 1 - B(a, b + 5) / B(a, b), near 95%."""
    a, b, problems, n, k = 0.6, 1.4, 60, 10, 5
    truth = 1 - math.exp(special.betaln(a, b + k) - special.betaln(a, b))
    rng = np.random.default_rng(1)
    covered = []
    for rep in range(300):
        passed = rng.binomial(n, rng.beta(a, b, problems))
        values = _unchecked(np.full(problems, n), passed, k)
        replicates = bootstrap_means(values, n_resamples=1000, seed=child_seed(rep, "coverage"))
        interval = percentile_interval(replicates[:, 0], method="p", confidence_level=0.95)
        covered.append(interval.low <= truth <= interval.high)
    assert 0.89 <= np.mean(covered) <= 0.99  # 300 runs: Monte Carlo SE about 0.013


@pytest.mark.slow
def test_paired_gap_coverage():
    """Two models sharing each problem's difficulty z_i ~ N(0, 1.5^2), pass rates
    expit(z_i - 0.5) and expit(z_i): the paired 95% interval of the pass@5 gap over 80
    problems covers the population gap in about 95% of 1,000 simulated evals."""
    from scipy import integrate

    k, problems, n = 5, 80, 10

    def gap_at(z):
        return ((1 - special.expit(z - 0.5)) ** k - (1 - special.expit(z)) ** k) \
            * stats.norm.pdf(z, scale=1.5)

    truth = integrate.quad(gap_at, -np.inf, np.inf)[0]
    rng = np.random.default_rng(2)
    covered = []
    for rep in range(1000):
        z = rng.normal(0.0, 1.5, problems)
        a = _unchecked(n, rng.binomial(n, special.expit(z - 0.5)), k)
        b = _unchecked(n, rng.binomial(n, special.expit(z)), k)
        replicates = bootstrap_means(b - a, n_resamples=1000, seed=child_seed(rep, "paired"))
        interval = percentile_interval(replicates[:, 0], method="p", confidence_level=0.95)
        covered.append(interval.low <= truth <= interval.high)
    assert 0.925 <= np.mean(covered) <= 0.97  # Monte Carlo SE about 0.007


# --- the API and the CLI ------------------------------------------------------------------


@pytest.fixture(scope="module")
def example():
    return passk(EXAMPLE, sample="sample", n_resamples=2000)


def answers_frame() -> pd.DataFrame:
    """The example's answers as a long table (independent of evalbars.io.ingest)."""
    return pd.read_csv(EXAMPLE)


def test_estimates_are_the_mean_of_per_question_pass_at_k(example):
    frame = answers_frame()
    for name in ("small", "large"):
        counts = frame[frame.model == name].groupby("question_id").correct.agg(["count", "sum"])
        for row in example.model(name).pass_at_k:
            per_question = [float(exact(n, c, row.k)) for n, c in counts.itertuples(index=False)]
            assert row.estimate == pytest.approx(np.mean(per_question), rel=1e-12)
            shortcut = np.mean([1 - (1 - c / n) ** row.k for n, c in
                                counts.itertuples(index=False)])
            assert row.shortcut == pytest.approx(shortcut, rel=1e-12)
            assert row.low <= row.estimate <= row.high
        assert example.model(name).n_items == 50


def test_document(example):
    doc = example.to_dict()
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc
    assert (doc["kind"], doc["schema_version"]) == ("passk", 1)
    assert doc["settings"]["k"] == [1, 5, 10]
    assert doc["settings"]["resample"] == "questions"
    assert [m["name"] for m in doc["models"]] == ["small", "large"]  # as in the file
    assert set(doc["models"][0]["pass_at_k"][0]) == {"k", "estimate", "low", "high", "shortcut"}
    assert (doc["a"], doc["b"]) == ("small", "large")
    assert {"version", "seed", "inputs"} <= set(doc["provenance"])
    assert "pass@5" in doc["statement"] and "shortcut" in doc["statement"]


def test_difference_is_paired_and_flips_with_the_pair(example):
    swapped = passk(EXAMPLE, sample="sample", a="large", b="small", n_resamples=2000)
    for gap, other in zip(example.difference, swapped.difference):
        est_b = example.model("large").at(gap.k).estimate
        est_a = example.model("small").at(gap.k).estimate
        assert gap.estimate == pytest.approx(est_b - est_a, abs=1e-12)
        assert (other.estimate, other.low, other.high) == (-gap.estimate, -gap.high, -gap.low)
    # The paired interval is narrower than combining the two separate ones as if unrelated.
    k5 = [g for g in example.difference if g.k == 5][0]
    separate = [example.model(m).at(5) for m in ("small", "large")]
    unpaired = math.sqrt(sum(((r.high - r.low) / 2) ** 2 for r in separate))
    assert (k5.high - k5.low) / 2 < unpaired


def test_same_seed_same_document_and_streams_keyed_by_name():
    first = passk(EXAMPLE, sample="sample", k=5, n_resamples=500, seed=7).to_dict()
    assert passk(EXAMPLE, sample="sample", k=5, n_resamples=500, seed=7).to_dict() == first
    other = passk(EXAMPLE, sample="sample", k=5, n_resamples=500, seed=8).to_dict()
    assert other["models"][0]["pass_at_k"] != first["models"][0]["pass_at_k"]
    alone = passk(EXAMPLE, sample="sample", k=5, models=["small"], n_resamples=500, seed=7)
    assert alone.to_dict()["models"][0] == first["models"][0]  # adding a model changes nothing
    assert "difference" not in alone.to_dict()


def test_row_order_does_not_matter(tmp_path):
    shuffled = answers_frame().sample(frac=1.0, random_state=3)
    path = tmp_path / "shuffled.csv"
    shuffled.to_csv(path, index=False)
    first = passk(EXAMPLE, sample="sample", n_resamples=500).to_dict()
    second = passk(path, sample="sample", n_resamples=500).to_dict()
    for key in ("models", "difference", "statement"):
        assert first[key] == second[key]


def test_clusters_resample_whole_clusters():
    result = passk(EXAMPLE, sample="sample", cluster="topic", k=(1, 5), n_resamples=2000)
    doc = result.to_dict()
    assert doc["settings"]["resample"] == "clusters" and doc["settings"]["n_clusters"] == 10
    assert doc["settings"]["method"] == "cluster-bootstrap-percentile"
    assert any("10 clusters" in w for w in doc["warnings"])
    plain = passk(EXAMPLE, sample="sample", k=(1, 5), n_resamples=2000)
    for clustered, naive in zip(result.model("small").pass_at_k, plain.model("small").pass_at_k):
        assert clustered.estimate == pytest.approx(naive.estimate, rel=1e-12)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_json_equals_the_api(capsys):
    status, out, _ = run(capsys, "passk", EXAMPLE, "--sample", "sample", "--k", "1,5",
                         "--a", "small", "--b", "large", "--n-resamples", "800", "--seed", "4",
                         "--format", "json")
    assert status == 0
    api = passk(EXAMPLE, sample="sample", k=(1, 5), a="small", b="large", n_resamples=800,
                seed=4).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_cli_text_and_markdown(capsys):
    status, out, _ = run(capsys, "passk", EXAMPLE, "--sample", "sample", "--n-resamples", "500")
    assert status == 0
    for piece in ("evalbars passk: 50 questions", "shortcut (biased)", "pass@k (95% intervals",
                  "Difference large \u2212 small", "Result", "seed 0"):
        assert piece in out
    status, out, _ = run(capsys, "passk", EXAMPLE, "--sample", "sample", "--n-resamples", "500",
                         "--format", "markdown")
    assert status == 0 and out.startswith("### evalbars passk: 50 questions")
    assert "| model | k | pass@k | interval | shortcut (biased) |" in out


def test_k_larger_than_the_answers_names_the_questions(tmp_path):
    frame = answers_frame()
    frame = frame[~((frame.question_id.isin(["p03", "p17"])) & (frame["sample"] >= 4))]
    path = tmp_path / "short.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(EvalbarsError, match=r"pass@5 needs at least 5 answers .* 2 question\(s\): "
                                            r"'p03' \(4 answers\), 'p17' \(4 answers\)"):
        passk(path, sample="sample", k=(1, 5), n_resamples=100)
    assert passk(path, sample="sample", k=(1, 4), n_resamples=100).model("small").answers_min == 4


def test_answers_must_be_0_or_1(tmp_path):
    frame = answers_frame()
    frame["correct"] = frame["correct"] * 0.5
    path = tmp_path / "halves.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(EvalbarsError, match="pass@k needs 0/1 answers"):
        passk(path, sample="sample", n_resamples=100)


@pytest.mark.parametrize("k", [0, (1, -5), 2.5, ()])
def test_k_must_be_positive_integers(k):
    with pytest.raises(EvalbarsError, match="k"):
        passk(EXAMPLE, sample="sample", k=k, n_resamples=100)


@pytest.mark.parametrize("argv,message", [
    (["--k", "0"], "k (tries) must be whole numbers >= 1"),
    (["--k", "1,20"], "pass@20 needs at least 20 answers"),
    (["--a", "nope"], "unknown model 'nope'"),
    (["--a", "small", "--b", "small"], "must be different models"),
    (["--models", "small", "--a", "small", "--b", "large"], "not both"),
])
def test_cli_bad_input_exits_2(capsys, argv, message):
    status, out, err = run(capsys, "passk", EXAMPLE, "--sample", "sample", *argv)
    assert status == 2 and out == "" and message in err


def test_intersect_reports_the_dropped_questions():
    frame = answers_frame()
    frame = frame[~((frame.model == "small") & (frame.question_id == "p07"))]
    with pytest.raises(EvalbarsError, match="p07"):
        passk(frame, sample="sample", n_resamples=100)
    doc = passk(frame, sample="sample", intersect=True, n_resamples=100).to_dict()
    assert doc["dropped"] == {"small": 0, "large": 1}
    assert doc["models"][0]["n_items"] == 49


# --- docs/passk.md runs as written --------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "passk.md"


def blocks(kind):
    return re.findall(rf"```{kind}\n(.*?)```", DOCS.read_text(), flags=re.S)


def test_docs_python_examples_run():
    source = "\n".join(blocks("python"))
    test = doctest.DocTestParser().get_doctest(source, {}, "passk.md", str(DOCS), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and test.examples


@pytest.mark.parametrize("block", blocks("console"))
def test_docs_console_examples_run(capsys, block):
    command, *expected = block.splitlines()
    assert command.startswith("$ evalbars passk ")
    status, out, _ = run(capsys, *shlex.split(command)[2:])
    assert status == 0
    if expected:  # all but the footer, which carries the version
        assert out.splitlines()[:-1] == expected[:-1]
        assert out.splitlines()[-1].startswith(expected[-1].rsplit("evalbars", 1)[0])


# --- pass^k beside pass@k -------------------------------------------------------------------


@pytest.fixture(scope="module")
def with_hat():
    return passk(EXAMPLE, sample="sample", n_resamples=2000, pass_hat_k=True)


def test_pass_hat_k_is_the_mean_of_tau_bench_per_question_values(with_hat):
    # tau-bench (Yao et al. 2024): pass^k = mean over tasks of C(c, k) / C(n, k) (math.comb).
    frame = answers_frame()
    for name in ("small", "large"):
        counts = frame[frame.model == name].groupby("question_id").correct.agg(["count", "sum"])
        for row in with_hat.model(name).pass_hat_k:
            per_question = [math.comb(c, row.k) / math.comb(n, row.k)
                            for n, c in counts.itertuples(index=False)]
            assert row.estimate == pytest.approx(np.mean(per_question), rel=1e-12)
            plug_in = np.mean([(c / n) ** row.k for n, c in counts.itertuples(index=False)])
            assert row.shortcut == pytest.approx(plug_in, rel=1e-12)
        assert with_hat.model(name).hat(1).estimate == pytest.approx(
            with_hat.model(name).at(1).estimate, rel=1e-15)  # pass^1 = pass@1 = the pass rate


def test_pass_hat_k_interval_is_the_bootstrap_of_the_per_question_values(with_hat):
    # The same resamples as pass@k: bootstrap_means with the model's stream passk:NAME.
    frame = answers_frame()
    counts = frame[frame.model == "large"].groupby("question_id").correct.agg(["count", "sum"])
    x = np.array([[math.comb(c, k) / math.comb(n, k) for k in (1, 5, 10)]
                  for n, c in counts.itertuples(index=False)])
    replicates = bootstrap_means(x, n_resamples=2000, seed=child_seed(0, "passk:large"))
    for column, row in zip(replicates.T, with_hat.model("large").pass_hat_k):
        interval = percentile_interval(column, method="percentile", confidence_level=0.95)
        assert (row.low, row.high) == pytest.approx((interval.low, interval.high), abs=1e-12)


def test_pass_hat_k_changes_nothing_of_pass_at_k(example, with_hat):
    plain, doc = example.to_dict(), with_hat.to_dict()
    for key in ("difference", "a", "b"):
        assert doc[key] == plain[key]
    for model, other in zip(doc["models"], plain["models"]):
        assert model["pass_at_k"] == other["pass_at_k"]
    assert "pass_hat_k" not in plain["models"][0] and "difference_pass_hat_k" not in plain
    assert doc["settings"]["shortcut_pass_hat_k"] == "(c/n)^k"
    assert set(doc["models"][0]["pass_hat_k"][0]) == {"k", "estimate", "low", "high", "shortcut"}
    assert "pass^5" in doc["statement"] and "all k tries pass" in doc["statement"]


def test_pass_hat_k_gap_is_paired_and_flips_with_the_pair(with_hat):
    swapped = passk(EXAMPLE, sample="sample", a="large", b="small", n_resamples=2000,
                    pass_hat_k=True)
    for gap, other in zip(with_hat.difference_pass_hat_k, swapped.difference_pass_hat_k):
        est_b = with_hat.model("large").hat(gap.k).estimate
        est_a = with_hat.model("small").hat(gap.k).estimate
        assert gap.estimate == pytest.approx(est_b - est_a, abs=1e-12)
        assert (other.estimate, other.low, other.high) == (-gap.estimate, -gap.high, -gap.low)


def test_pass_hat_k_must_be_a_bool():
    with pytest.raises(EvalbarsError, match="pass_hat_k must be True or False; got 'yes'"):
        passk(EXAMPLE, sample="sample", n_resamples=100, pass_hat_k="yes")


def test_no_pass_hat_k_without_asking(example):
    with pytest.raises(KeyError, match=r"no pass\^5"):
        example.model("small").hat(5)


def test_cli_pass_hat_k_json_equals_the_api_and_text_shows_it(capsys):
    status, out, _ = run(capsys, "passk", EXAMPLE, "--sample", "sample", "--k", "1,5",
                         "--pass-hat-k", "--n-resamples", "500", "--format", "json")
    assert status == 0
    api = passk(EXAMPLE, sample="sample", k=(1, 5), n_resamples=500, pass_hat_k=True).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))
    status, out, _ = run(capsys, "passk", EXAMPLE, "--sample", "sample", "--k", "1,5",
                         "--pass-hat-k", "--n-resamples", "500")
    assert status == 0
    for piece in ("pass^k, all k tries pass", "Difference in pass^k, large \u2212 small"):
        assert piece in out
    status, out, _ = run(capsys, "passk", EXAMPLE, "--sample", "sample", "--k", "1,5",
                         "--pass-hat-k", "--n-resamples", "500", "--format", "markdown")
    assert status == 0 and "| model | k | pass^k | interval | shortcut (biased) |" in out


def test_report_sections_show_pass_hat_k(with_hat):
    from evalbars.report.files.sections import _passk_sections

    sections = _passk_sections(with_hat.to_dict())
    rows = sections[0].blocks[1].rows
    assert [r[1] for r in rows if r[0] == "large"] == ["pass@1", "pass@5", "pass@10", "pass^1",
                                                      "pass^5", "pass^10"]
    assert [r[0] for r in sections[1].blocks[0].rows][3:] == ["pass^1", "pass^5", "pass^10"]
