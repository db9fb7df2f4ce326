"""An unknown model's error names the keyword that gave it (io/keywords.py): ``(a=)``."""
from __future__ import annotations

import pytest

import evalbars
from evalbars.core.errors import EvalbarsError

WIDE_SAYS = "no such column in 'w.csv'; columns: 'id', 'x', 'y', 'z'"
LONG_SAYS = "not in column 'model' of 'l.csv', which holds 'x', 'y', 'z'"
LOADED_SAYS = "; the data has 'x', 'y', 'z'"

CALLS = [
    ("ci", dict(models=["x", "nope"]), "models"),
    ("compare", dict(a="nope", b="y"), "a"),
    ("compare", dict(a="x", b="nope"), "b"),
    ("compare", dict(models=["x", "nope"]), "models"),
    ("leaderboard", dict(models=["x", "nope"]), "models"),
    ("gate", dict(baseline="nope", candidate="y", max_regression=0.05), "baseline"),
    ("gate", dict(baseline="x", candidate="nope", max_regression=0.05), "candidate"),
    ("gate", dict(models=["x", "nope"], max_regression=0.05), "models"),
    ("gate", dict(baseline="x", candidate="nope", max_regression=0.05, sequential=True),
     "candidate"),
    ("select", dict(baseline="x", candidates=["y", "nope"]), "candidates"),
    ("ablation", dict(full="y", baseline="x", variants=["nope"]), "variants"),
    ("passk", dict(models=["x", "nope"]), "models"),
    ("passk", dict(a="x", b="nope"), "b"),
    ("monitor", dict(a="nope", b="y"), "a"),
]
"""Names that choose what is read: the reader's error, marked with the caller's keyword."""

AMONG_READ = [
    ("compare", dict(b="nope"), "b"),
    ("leaderboard", dict(baseline="nope"), "baseline"),
    ("select", dict(baseline="nope"), "baseline"),
    ("ablation", dict(full="nope", baseline="x"), "full"),
    ("ablation", dict(full="y", baseline="nope"), "baseline"),
]
"""Names looked for among all the models read: checked after reading, whatever the input."""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keywords")
    wide, long = folder / "w.csv", folder / "l.csv"
    rows = [(f"q{i}", i % 2, i // 2 % 2, i // 4 % 2) for i in range(12)]
    wide.write_text("id,x,y,z\n" + "".join(f"{q},{x},{y},{z}\n" for q, x, y, z in rows))
    long.write_text("id,model,score\n" + "".join(
        f"{q},{m},{v}\n" for q, *values in rows for m, v in zip("xyz", values)))
    return {"wide": wide, "long": long}


def message(inputs, data: str, function: str, kwargs: dict) -> str:
    given = evalbars.load(inputs["wide"]) if data == "loaded" else inputs[data]
    options = {} if function == "monitor" or kwargs.get("sequential") else {"n_resamples": 100}
    with pytest.raises(EvalbarsError) as info:
        getattr(evalbars, function)(given, **kwargs, **options)
    said = str(info.value)
    for path in inputs.values():
        said = said.replace(repr(str(path)), repr(path.name))
    return said


@pytest.mark.parametrize("data,says", [("wide", ": " + WIDE_SAYS), ("long", ": " + LONG_SAYS),
                                       ("loaded", LOADED_SAYS)])
@pytest.mark.parametrize("function,kwargs,keyword", CALLS)
def test_an_unknown_model_names_the_keyword_that_gave_it(inputs, data, says, function,
                                                         kwargs, keyword):
    assert message(inputs, data, function, kwargs) == f"unknown model 'nope' ({keyword}=){says}"


@pytest.mark.parametrize("data", ["wide", "long", "loaded"])
@pytest.mark.parametrize("function,kwargs,keyword", AMONG_READ)
def test_a_name_looked_for_among_the_models_read_names_its_keyword(inputs, data, function,
                                                                   kwargs, keyword):
    assert message(inputs, data, function, kwargs) == f"unknown model 'nope' ({keyword}=)" \
        + LOADED_SAYS


def test_two_unknown_models_name_both_keywords(inputs):
    assert message(inputs, "long", "compare", dict(a="nope", b="nix")) == (
        f"unknown models 'nope', 'nix' (a= and b=): {LONG_SAYS}")


def test_seeds_names_the_recipe_keyword(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("id,model,run,score\n" + "".join(
        f"q{i},{m},{r},{(i + r) % 2}\n" for m in "xy" for r in range(3) for i in range(6)))
    with pytest.raises(EvalbarsError) as info:
        evalbars.seeds(path, run="run", a="x", b="nope", n_resamples=100)
    assert str(info.value) == (f"unknown model 'nope' (b=): not in column 'model' of "
                               f"{str(path)!r}, which holds 'x', 'y'")
