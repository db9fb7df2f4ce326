"""core/arguments.py and core/errors.py: a bad shared argument of any type is one
EvalbarsError naming it, in Python by its keyword and on the command line by its flag."""
import math

import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.arguments import LEVEL, check_confidence_level
from evalbars.core.errors import EvalbarsError

LESSON = "examples/lesson_pair.csv"
ENTRY_POINTS = {
    "ci": lambda **kw: evalbars.ci(LESSON, **kw),
    "compare": lambda **kw: evalbars.compare(LESSON, **kw),
    "leaderboard": lambda **kw: evalbars.leaderboard(LESSON, **kw),
    "select": lambda **kw: evalbars.select(LESSON, baseline="model_a", **kw),
    "ablation": lambda **kw: evalbars.ablation(LESSON, full="model_b", baseline="model_a",
                                               variants=[], **kw),
    "gate": lambda **kw: evalbars.gate(LESSON, baseline="model_a", candidate="model_b",
                                       max_regression=0.01, **kw),
    "monitor": lambda **kw: evalbars.monitor(LESSON, **{k: v for k, v in kw.items()
                                                        if k == "confidence_level"}),
}
BAD = {"confidence_level": ["x", None, [0.9], math.nan, True, 95, 0, 1.0],
       "n_resamples": ["x", None, 2.5, [1000], True, -5],
       "seed": ["x", None, 2.5, -1, [0]]}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("parameter", sorted(BAD))
def test_every_entry_point_refuses_a_bad_shared_argument_of_any_type(entry, parameter):
    if entry == "monitor" and parameter != "confidence_level":
        pytest.skip("monitor draws no resamples")
    if entry == "gate" and parameter == "confidence_level":
        pytest.skip("gate decides at alpha= (--alpha), not at a confidence level")
    for value in BAD[parameter]:
        with pytest.raises(EvalbarsError) as caught:
            ENTRY_POINTS[entry](**{parameter: value})
        assert str(caught.value).startswith(f"{parameter} "), (value, str(caught.value))


def test_one_wording_for_the_level():
    for value in ("x", None, 95, math.inf):
        with pytest.raises(EvalbarsError) as caught:
            check_confidence_level(value)
        error = caught.value
        assert str(error) == f"confidence_level must be {LEVEL}, got {value!r}"
        assert (error.parameter, error.value, error.expected) == ("confidence_level", value,
                                                                  LEVEL)
    assert check_confidence_level(0.9) == 0.9


@pytest.mark.parametrize("command", [["ci", LESSON], ["compare", LESSON],
                                     ["monitor", LESSON], ["leaderboard", LESSON]])
def test_the_command_line_names_the_flag(command, capsys):
    assert main([*command, "--confidence-level", "95"]) == 2
    err = capsys.readouterr().err
    assert err == ("evalbars: error: --confidence-level must be a number strictly between 0 "
                   "and 1 (0.95 for 95%), got 95.0\n")


@pytest.mark.parametrize("keywords, parameter", [
    ({"alpha": "x"}, "alpha"), ({"alpha": None}, "alpha"), ({"alpha": 0.9}, "alpha"),
    ({"max_regression": None}, "max_regression"), ({"max_regression": "x"}, "max_regression"),
])
def test_the_gate_checks_its_own_arguments(keywords, parameter):
    with pytest.raises(EvalbarsError) as caught:
        evalbars.gate(LESSON, baseline="model_a", candidate="model_b",
                      **{"max_regression": 0.01, **keywords})
    assert caught.value.parameter == parameter
