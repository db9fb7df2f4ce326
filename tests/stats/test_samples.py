"""The variance split: question noise against sampling noise, estimated from data."""
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from evalbars import EvalbarsError
from evalbars.analyses.power import sampled_se, sampled_variance
from evalbars.io.ingest import load
from evalbars.stats.samples import model_split, variance_split


def binary_sample(n, k, rng, mean=0.7, between=0.05):
    """n questions with p_i ~ Beta(mean, Var = between); k 0/1 answers each (scalar or array)."""
    total = mean * (1 - mean) / between - 1  # a + b of the Beta
    p = rng.beta(mean * total, (1 - mean) * total, n)
    counts = np.broadcast_to(np.asarray(k), (n,)).astype(np.int64)
    passed = rng.binomial(counts, p)
    return passed / counts, counts, passed.astype(float)


@pytest.fixture(scope="module")
def seed_000_split():
    """Seed 000's worked example with many questions: accuracy 70%, Var(p_i) = 0.05, K = 5."""
    means, counts, sumsq = binary_sample(400_000, 5, np.random.default_rng(0))
    return variance_split(means, counts, sumsq, binary=True)


def test_seed_000_worked_example(seed_000_split):
    # Seed 000, "Two kinds of noise": 500 questions, SE 2.0 points at K = 1, 1.3 at K = 5,
    # floor 1.0; "as if you had about 2.5 times as many questions" (0.21 / 0.082).
    split = seed_000_split
    assert split.between_variance == pytest.approx(0.05, abs=0.002)
    assert split.within_variance == pytest.approx(0.16, abs=0.002)
    to_500 = math.sqrt(split.n_items / 500) * 100  # points, at n = 500
    by_answers = dict(split.se_by_answers)
    assert round(by_answers[1] * to_500, 1) == 2.0
    assert round(by_answers[5] * to_500, 1) == 1.3
    assert round(split.se * to_500, 1) == 1.3
    assert round(split.se_floor * to_500, 1) == 1.0
    assert split.question_equivalent == pytest.approx(0.21 / 0.082, rel=0.02)


def test_matches_the_planning_formula(seed_000_split):
    """For 0/1 answers the estimated split is power.sampled_se's with the estimated inputs."""
    split = seed_000_split
    for k, se in split.se_by_answers + ((math.inf, split.se_floor),):
        planned = sampled_se(split.n_items, accuracy=split.mean,
                             between_variance=split.between_variance, samples=k)
        assert se == pytest.approx(planned, rel=1e-4), k
        exact = sampled_variance(between_variance=split.between_variance,
                                 within_variance=split.within_variance, samples=k)
        assert se == pytest.approx(math.sqrt(exact / split.n_items), rel=1e-12)


def test_se_now_is_the_ordinary_standard_error_of_question_means():
    means, counts, sumsq = binary_sample(300, np.arange(300) % 4 + 2, np.random.default_rng(1))
    split = variance_split(means, counts, sumsq, binary=True)
    assert split.between_variance > 0
    assert split.se == pytest.approx(np.std(means, ddof=1) / math.sqrt(300), rel=1e-12)
    assert (split.answers_min, split.answers_max, split.answers_mean) == (2, 5, 3.5)
    assert [k for k, _ in split.se_by_answers] == [1, 2, 5, 10]  # unequal K: no "K used" row


def test_equal_answers_add_their_own_row():
    means, counts, sumsq = binary_sample(100, 3, np.random.default_rng(2))
    split = variance_split(means, counts, sumsq, binary=True)
    assert [k for k, _ in split.se_by_answers] == [1, 2, 3, 5, 10]
    assert dict(split.se_by_answers)[3] == pytest.approx(split.se, rel=1e-12)


def test_binary_estimator_equals_the_general_one_on_0_1_answers():
    means, counts, sumsq = binary_sample(200, np.arange(200) % 5 + 1, np.random.default_rng(3))
    binary = variance_split(means, counts, sumsq, binary=True)
    general = variance_split(means, counts, sumsq, binary=False)
    assert general.between_variance == pytest.approx(binary.between_variance, rel=1e-12)
    assert general.within_variance == pytest.approx(binary.within_variance, rel=1e-12)
    assert (binary.estimator, general.estimator) == ("binary", "continuous")


def test_unbiased_for_continuous_answers_with_unequal_counts():
    """Average over many data sets: between -> tau^2 = 0.3, within -> sigma^2 = 1."""
    rng = np.random.default_rng(4)
    between, within = [], []
    for _ in range(2000):
        counts = rng.integers(1, 7, 60)
        answers = rng.normal(rng.normal(0.0, math.sqrt(0.3), (60, 1)), 1.0, (60, 6))
        answers *= np.arange(6) < counts[:, None]  # question i keeps its first K_i answers
        split = variance_split(answers.sum(axis=1) / counts, counts,
                               np.sum(answers**2, axis=1), binary=False)
        between.append(split.between_variance)
        within.append(split.within_variance)
    assert np.mean(within) == pytest.approx(1.0, abs=0.01)
    assert np.mean(between) == pytest.approx(0.3, abs=0.01)


def test_unbiased_for_0_1_answers():
    rng = np.random.default_rng(5)
    estimates = [variance_split(*binary_sample(200, 4, rng), binary=True).between_variance
                 for _ in range(2000)]
    assert np.mean(estimates) == pytest.approx(0.05, abs=0.001)


def test_no_question_noise_truncates_at_zero():
    rng = np.random.default_rng(6)  # every question has p = 0.5: Var(p_i) = 0
    found = [variance_split(passed / 3, np.full(40, 3), passed.astype(float), binary=True)
             for passed in rng.binomial(3, 0.5, (50, 40))]
    assert min(s.between_variance for s in found) == 0.0
    zero = next(s for s in found if s.between_variance == 0.0)
    assert zero.se_floor == 0.0 and zero.se == pytest.approx(dict(zero.se_by_answers)[3])


def test_row_order_does_not_matter():
    means, counts, sumsq = binary_sample(150, np.arange(150) % 3 + 1, np.random.default_rng(7))
    order = np.random.default_rng(8).permutation(150)
    first = variance_split(means, counts, sumsq, binary=True).to_dict()
    second = variance_split(means[order], counts[order], sumsq[order], binary=True).to_dict()
    assert first.keys() == second.keys()
    for key in ("between_variance", "within_variance", "se", "se_floor"):
        assert first[key] == pytest.approx(second[key], rel=1e-12)


def test_to_dict_is_json():
    split = variance_split([0.2, 0.6, 1.0, 0.8], [5, 5, 5, 5], [1, 3, 5, 4], binary=True)
    doc = json.loads(json.dumps(split.to_dict(), allow_nan=False))
    assert doc["answers"] == {"min": 5, "max": 5, "mean": 5.0}
    assert [row["answers"] for row in doc["se_by_answers"]] == [1, 2, 5, 10]
    assert set(doc) == {"n_items", "answers", "mean", "between_variance", "within_variance",
                        "estimator", "se", "se_by_answers", "se_floor", "question_equivalent"}


def test_model_split_reads_loaded_answers():
    scores = load("examples/passk_samples.csv", sample="sample")
    split = model_split(scores, "large")
    j = scores.models.index("large")
    assert split.n_items == 50 and split.answers_min == split.answers_max == 10
    assert split.mean == pytest.approx(scores.scores[:, j].mean())
    with pytest.raises(EvalbarsError, match="medium"):
        model_split(scores, "medium")


@pytest.mark.parametrize("means,counts,sumsq,message", [
    ([0.5], [2], [1.0], "at least 2 questions"),
    ([0.5, 0.5], [2], [1.0, 1.0], "1-D arrays of one length"),
    ([0.5, 0.5], [2, 0], [1.0, 0.0], "at least 1 per question"),
    ([0.5, 0.5], [2.0, 2.0], [1.0, 1.0], "whole numbers of answers"),
    ([1.0, 0.0], [1, 1], [1.0, 0.0], "two or more answers to at least one question"),
])
def test_bad_input(means, counts, sumsq, message):
    with pytest.raises(EvalbarsError, match=message):
        variance_split(means, counts, sumsq, binary=True)


def test_docs_python_examples_run():
    import doctest

    docs = Path(__file__).resolve().parents[2] / "docs" / "samples.md"
    source = "\n".join(re.findall(r"```python\n(.*?)```", docs.read_text(), flags=re.S))
    test = doctest.DocTestParser().get_doctest(source, {}, "samples.md", str(docs), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and test.examples


def test_docs_planning_command_says_what_the_docs_say(capsys):
    from evalbars.cli import main

    for samples, n in (("10", "125"), ("1", "373")):
        assert main(["power", "--design", "unpaired", "--baseline", "0.35", "--gap", "0.1",
                     "--power", "0.8", "--samples", samples, "--between-variance",
                     "0.062"]) == 0
        assert f"needs about {n} questions per model" in capsys.readouterr().out
