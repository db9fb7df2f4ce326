"""AlpacaEval annotations: evalbars.io.logs.alpacaeval, as scores (load) and as battles.

The fixtures are excerpts of real annotations from tatsu-lab/alpaca_eval
(tests/data/logs/alpacaeval/README.md). The rules (preference - 1 is the win share, 0
and 1.5 are draws, null is left out, the discrete win rate rounds) are those of
``metrics/helpers.py`` there.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ingest_helpers import cli_error

from evalbars.analyses.battles import bradley_terry
from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load
from evalbars.io.logs import detect
from evalbars.io.logs.alpacaeval import battles_table

DATA = Path(__file__).parents[2] / "data" / "logs" / "alpacaeval"
RESULTS = DATA / "results"
QWEN = RESULTS / "Qwen-14B-Chat" / "weighted_alpaca_eval_gpt4_turbo" / "annotations.json"
HERMES = RESULTS / "OpenHermes-2.5-Mistral-7B" / "weighted_alpaca_eval_gpt4_turbo" / \
    "annotations.json"
COCKTAIL = DATA / "gpt4_v1" / "LMCocktail-10.7B-v1" / "alpaca_eval_gpt4" / "annotations.json"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def preferences(path: Path) -> list:
    return [record["preference"] for record in json.loads(path.read_text())]


def write(tmp_path: Path, records: list, name="annotations.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(records))
    return path


def record(preference, instruction="i", generator_2="m", generator_1="ref", annotator="j"):
    return {"instruction": instruction, "output_1": "a", "output_2": "b",
            "generator_1": generator_1, "generator_2": generator_2, "annotator": annotator,
            "preference": preference}


@pytest.mark.parametrize("path", [RESULTS, QWEN, COCKTAIL])
def test_detected(path):
    assert detect(str(path)) == "alpacaeval"


def test_win_rate_is_the_mean_of_preference_minus_one():
    data = load(QWEN, HERMES)
    assert data.models == ("Qwen-14B-Chat", "OpenHermes-2.5-Mistral-7B")
    assert len(data.items) == 8
    for path, model in ((QWEN, "Qwen-14B-Chat"), (HERMES, "OpenHermes-2.5-Mistral-7B")):
        by_item = {r["instruction"]: r["preference"] - 1 for r in json.loads(path.read_text())}
        assert data.column(model).tolist() == pytest.approx([by_item[i] for i in data.items])
    # hand value: the Qwen excerpt's preferences minus 1 are two draws (0.5 each) and six
    # wins of the reference by a hair: 1.0000556221 1.0000114788 1.000001578 1.0003859661
    # 1.0001355208 1.0000630276 -> (1 + 0.0006132... ) / 8
    assert data.column("Qwen-14B-Chat").mean() == pytest.approx(
        (1.0 + 0.0000556221 + 0.0000114788 + 0.000001578 + 0.0003859661 + 0.0001355208
         + 0.0000630276) / 8)
    assert "win shares against 'gpt4_1106_preview'" in data.describe()


def test_discrete_rounds_and_old_draws_and_nulls():
    assert preferences(COCKTAIL) == [2.0, 2.0, 2.0, 0.0, None, None]
    data = load(COCKTAIL, intersect=True)
    assert data.models == ("LMCocktail-10.7B-v1",)
    by_item = {r["instruction"]: r["preference"] for r in json.loads(COCKTAIL.read_text())}
    assert [by_item[i] for i in data.items] == [2, 2, 0, 2]  # items in id order
    assert data.column("LMCocktail-10.7B-v1").tolist() == [1, 1, 0.5, 1]
    assert "2 unscored answers" in data.describe()
    discrete = load(QWEN, metric="discrete")
    assert sorted(discrete.column("Qwen-14B-Chat").tolist()) == [0] * 6 + [0.5, 0.5]


def test_battles_from_a_folder_of_annotations():
    table = battles_table(str(RESULTS))
    assert table.n_rows == 16
    with pytest.raises(EvalbarsError, match="a fraction .* --winner discrete"):
        bradley_terry(str(RESULTS), n_resamples=200)
    result = bradley_terry(str(RESULTS), winner="discrete", n_resamples=200)
    rated = {m.name: m for m in result.models}
    assert set(rated) == {"gpt4_1106_preview", "Qwen-14B-Chat", "OpenHermes-2.5-Mistral-7B"}
    # discrete outcomes: Qwen 6 losses and 2 draws; OpenHermes 6 losses, 1 draw (record
    # 199), 1 win (record 263, preference 1.999)
    assert (rated["Qwen-14B-Chat"].wins, rated["Qwen-14B-Chat"].ties) == (0, 2)
    assert (rated["OpenHermes-2.5-Mistral-7B"].wins,
            rated["OpenHermes-2.5-Mistral-7B"].ties) == (1, 1)
    assert rated["gpt4_1106_preview"].battles == 16


def test_battles_null_preference_is_an_error():
    with pytest.raises(EvalbarsError, match=r"record \[4\] of .* is null"):
        bradley_terry(str(COCKTAIL), n_resamples=200)


def test_battles_table_is_none_for_other_inputs(tmp_path):
    csv = tmp_path / "battles.csv"
    csv.write_text("model_a,model_b,winner\nx,y,model_a\n")
    assert battles_table(str(csv)) is None and battles_table(str(tmp_path)) is None
    assert battles_table(str(RESULTS.parent / "README.md")) is None
    assert battles_table(["not", "a", "path"]) is None
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "annotations.json").write_text("[1, 2]")
    assert "is not AlpacaEval annotations" in error(tmp_path / "x", input_format="alpacaeval")


@pytest.mark.parametrize("preference, shown", [
    (1e300, "1e+300"), (float("inf"), "inf"), (float("-inf"), "-inf"), (True, "True"),
    ("1.5", "'1.5'"), ([2], "[2]"),
])
def test_error_preference_refused_naming_the_record(tmp_path, capsys, preference, shown):
    path = write(tmp_path, [record(2), record(preference, "k")])
    assert cli_error(capsys, "ci", path) == (
        f"the preference of record [1] of {str(path)!r} is {shown}: AlpacaEval preferences are "
        f"1 (output_1), 2 (output_2), a number between, 1.5 or 0 (a draw), or null")


def test_nan_preference_is_unscored(tmp_path):
    data = load(write(tmp_path, [record(2), record(float("nan"), "k"), record(1.5, "l")]))
    assert data.items == ("i", "l") and data.scores[:, 0].tolist() == [1.0, 0.5]
    assert data.source["log"]["unscored"] == {"m": {"count": 1, "ids": ["k"]}}


def test_errors(tmp_path):
    assert "not an AlpacaEval metric" in error(QWEN, metric="lc_win_rate")
    assert "preference of record [0]" in error(write(tmp_path, [record(3)]))
    assert "preference of record [0]" in error(write(tmp_path, [record("2")]))
    two_refs = write(tmp_path, [record(1), record(2, "k", generator_1="other")])
    assert "reference (generator_1) 'other'" in error(two_refs)
    two_judges = write(tmp_path, [record(1), record(2, "k", annotator="other")])
    assert "annotator 'other'" in error(two_judges)
    assert "with itself" in error(write(tmp_path, [record(1, generator_2="ref")]))
    assert "has no instruction" in error(write(tmp_path, [record(1, instruction=None)]))
    assert "is not an object" in error(write(tmp_path, [record(1), 5]))
    (tmp_path / "empty").mkdir()
    assert "found no AlpacaEval annotations.json" in error(tmp_path / "empty",
                                                           input_format="alpacaeval")
