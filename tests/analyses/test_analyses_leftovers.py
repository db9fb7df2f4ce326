"""Leftovers of issue #17 in the analyses: alpha stored as given, the loading options in
every docstring, and no function pytest would collect as a test."""
import inspect

import pytest

import evalbars
from evalbars.analyses import measures

TOPICS = "examples/cookbook_topics.csv"


@pytest.mark.parametrize("level, alpha", [(0.9, 0.1), (0.95, 0.05), (0.8, 0.2)])
def test_leaderboard_and_select_store_alpha_as_given(level, alpha):
    """1 - 0.9 is 0.09999999999999998 in floating point; JSON showed it."""
    board = evalbars.leaderboard(TOPICS, confidence_level=level, n_resamples=200).to_dict()
    chosen = evalbars.select(TOPICS, baseline="system_a", confidence_level=level,
                             n_resamples=200).to_dict()
    assert board["correction"]["alpha"] == alpha
    assert chosen["correction"]["alpha"] == alpha


ANALYSES = [evalbars.ci, evalbars.compare, evalbars.leaderboard, evalbars.select,
            evalbars.seeds, evalbars.ablation, evalbars.passk, evalbars.gate, evalbars.monitor]


@pytest.mark.parametrize("function", ANALYSES, ids=lambda f: f.__name__)
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
    from pathlib import Path

    text = Path(f"docs/{page}.md").read_text(encoding="utf-8")
    for flag in ("--eval-split", "--engine", "--spark-master", "(../README.md#input)"):
        assert flag in text, (page, flag)
