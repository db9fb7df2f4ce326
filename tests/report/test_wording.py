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
