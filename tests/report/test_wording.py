"""Reports never break a name across lines, and word the confidence level truly
(issue 17, item 26)."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

from evalbars.report import format as fmt
from evalbars.report.labels import level
from evalbars.report.text import render
from evalbars.report.text.blocks import wrapped

pd = pytest.importorskip("pandas")

NAME = "meta-llama/Llama-3.1-8B-Instruct-with-a-long-suffix"


def test_wrapped_lines_never_break_inside_a_name():
    text = f"Against {NAME} the candidate meta-llama/Llama-3-70B scored higher."
    for width in (20, 30, 40, 60):
        lines = wrapped(text, width, "- ")
        words = " ".join(line.strip().removeprefix("- ") for line in lines).split()
        assert words == text.split(), (width, lines)


@pytest.mark.parametrize("p,shown", [(0.95, "95%"), (0.9, "90%"), (0.975, "97.5%"),
                                     (0.999999, "99.9999%"), (0.05, "5%"), (0.001, "0.1%")])
def test_a_level_is_shown_with_the_digits_it_needs(p, shown):
    assert fmt.level(p) == shown
    assert level({"settings": {"confidence_level": p}}) == shown


def test_a_leaderboard_at_a_very_high_level_does_not_say_100_percent(tmp_path):
    from evalbars.analyses.leaderboard import leaderboard

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({name: rng.integers(0, 2, 60)
                          for name in ("meta-llama/Llama-3-8B", "mistral-7b", "qwen-7b")})
    frame.insert(0, "id", range(60))
    path = tmp_path / "s.csv"
    frame.to_csv(path, index=False)
    doc = leaderboard(path, n_resamples=200, confidence_level=0.999999).to_dict()
    for output in ("text", "markdown"):
        text = render.render(doc, output)
        assert "100%" not in text and "99.9999%" in text, output
    assert "meta-\n" not in render.render(doc, "text")


def test_no_report_module_of_this_layer_words_a_level_with_no_decimals():
    root = pathlib.Path(render.__file__).resolve().parent
    for name in ("ablation", "leaderboard", "passk", "select", "seeds"):
        source = (root / f"{name}.py").read_text()
        assert "confidence_level']:.0%" not in source and "level:.0%" not in source, name


def _six_models():
    """docs/leaderboard.md's six models on 600 questions (the same seeded snippet)."""
    rng = np.random.default_rng(1)
    n = 600
    ease = rng.random(n)
    frame = pd.DataFrame({"qid": [f"q{i}" for i in range(n)]})
    for name, accuracy in [("base", 0.60), ("lora", 0.62), ("distil", 0.63),
                           ("sft", 0.70), ("sft-v2", 0.71), ("rlhf", 0.80)]:
        own = np.where(rng.random(n) < 0.7, ease, rng.random(n))
        frame[name] = (own < accuracy).astype(int)
    return frame


def test_a_leaderboard_has_one_vocabulary_for_places_it_cannot_separate():
    import evalbars

    board = evalbars.leaderboard(_six_models(), item="qid", n_resamples=2000)
    text = str(board)
    # "tie" is kept for equal means; places the tests cannot tell apart are "not separated"
    assert "equal means share the smallest rank; models sharing a letter cannot be separated" \
        in text
    assert "tie" not in board.statement and "ties share" not in text
    doc = board.to_dict()
    place = {m["name"]: m for m in doc["models"]}
    assert (place["sft-v2"]["rank_low"], place["sft-v2"]["rank_high"]) == (2, 3)
    assert ["sft-v2", "distil"] in doc["groups"]      # the tests cannot separate 3 from 4
    # ... so the statement says why sft-v2's rank interval leaves out distil's rank 4
    assert ("the tests cannot separate sft-v2 (rank 3, rank interval 2\u20133) from distil "
            "(rank 4, rank interval 4\u20136)") in board.statement


def test_ci_and_compare_word_a_very_high_level_as_their_tables_do():
    import evalbars

    result = evalbars.compare("examples/lesson_pair.csv", n_resamples=200,
                              confidence_level=0.999999, margin=0.01)
    doc = result.to_dict()
    for output in ("text", "markdown"):
        text = render.render(doc, output)
        assert "100%" not in text and "99.9999% CI" in text, output
    assert "99.9998% CI of the gap" in doc["statement"]       # the 1 - 2 alpha interval
    assert "(99.9998% paired-t)" in render.render(doc, "text")
    assert "100%" not in evalbars.ci("examples/lesson_pair.csv", n_resamples=200,
                                     confidence_level=0.999999).statement
    source = (pathlib.Path(render.__file__).resolve().parents[1] / "statement.py").read_text()
    assert "level:.0%" not in source and "level']:.0%" not in source


def test_an_ablation_of_models_named_full_and_baseline_doubles_no_word():
    import evalbars

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"qid": range(300), "baseline": rng.integers(0, 2, 300),
                          "full": rng.integers(0, 2, 300), "no_x": rng.integers(0, 2, 300)})
    statement = evalbars.ablation(frame, item="qid", full="full", baseline="baseline",
                                  n_resamples=200).statement
    assert "the full system scores" in statement and "and the baseline " in statement
    assert "the baseline baseline" not in statement and "the full system full" not in statement
    named = frame.rename(columns={"baseline": "base", "full": "rag"})
    statement = evalbars.ablation(named, item="qid", full="rag", baseline="base",
                                  n_resamples=200).statement
    assert "the full system rag scores" in statement and "the baseline base " in statement


def test_an_ablation_stores_alpha_as_given_without_float_noise():
    import evalbars

    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"qid": range(200), "base": rng.integers(0, 2, 200),
                          "full": rng.integers(0, 2, 200), "no_x": rng.integers(0, 2, 200)})
    for given, alpha in ((0.9, 0.1), (0.95, 0.05), (0.99, 0.01)):
        doc = evalbars.ablation(frame, item="qid", full="full", baseline="base",
                                n_resamples=200, confidence_level=given).to_dict()
        assert doc["correction"]["alpha"] == alpha     # 1 - 0.9 is 0.09999999999999998
        assert doc["settings"]["confidence_level"] == given
