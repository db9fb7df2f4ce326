"""lmms-eval samples: evalbars.io.logs.lmms_eval, through evalbars.io.ingest.load.

The files under tests/data/logs/lmms-eval/ are written field for field as lmms-eval's
EvaluationTracker writes them (EvolvingLMMs-Lab/lmms-eval, lmms_eval/loggers/
evaluation_tracker.py and evaluator.py at v0.7.2): the 0.5b run in the v0.7 layout
(flattened filtered_resps, token_counts), the 7b run in the v0.4-v0.6 layout. Each
results file's aggregates were computed with lmms-eval's own aggregation functions
(pope_aggregate_accuracy: the mean of the per-question scores; mme_aggregate_results:
acc + acc_plus per image pair, summed over categories).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.io import logs
from evalbars.io.ingest import load

OWN = Path(__file__).parents[2] / "data" / "logs" / "lmms-eval"
SMALL = OWN / "lmms-lab__llava-onevision-qwen2-0.5b-ov"
LARGE = OWN / "lmms-lab__llava-onevision-qwen2-7b-ov"
POPE_A = SMALL / "20250301_143022_samples_pope.jsonl"
POPE_B = LARGE / "20250302_091500_samples_pope.jsonl"
MME_A = SMALL / "20250301_143022_samples_mme.jsonl"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def aggregate(folder: Path, task: str, metric: str) -> float:
    results = json.loads(next(folder.glob("*_results.json")).read_text())
    return results["results"][task][f"{metric},none"]


@pytest.mark.parametrize("path", [SMALL, OWN, POPE_A, SMALL / "20250301_143022_results.json"])
def test_detected(path):
    assert logs.detect(str(path)) == "lmms-eval"


def test_pope_pair_reads_the_score_of_each_record():
    data = load(POPE_A, POPE_B)
    assert data.source["format"] == "lmms-eval"
    assert data.models == ("lmms-lab/llava-onevision-qwen2-0.5b-ov",
                           "lmms-lab/llava-onevision-qwen2-7b-ov")
    assert data.items == tuple(f"pope/none/{i}" for i in range(6))
    assert data.scores.T.tolist() == [[1, 0, 1, 1, 1, 0], [1, 1, 1, 0, 1, 1]]
    # the mean equals lmms-eval's aggregate "pope_accuracy,none" (4/6 and 5/6)
    assert data.column(data.models[0]).mean() == pytest.approx(
        aggregate(SMALL, "pope", "pope_accuracy"), abs=1e-15)
    assert data.column(data.models[1]).mean() == pytest.approx(
        aggregate(LARGE, "pope", "pope_accuracy"), abs=1e-15)
    text = data.describe()
    assert "lmms-eval log" in text and "metric 'pope_accuracy'" in text
    assert "the 'score' of each question's record" in text
    assert "lmms-eval scored 6 of its 9,000 questions (--limit)" in text


def test_metric_of_some_questions_leaves_the_others_out_with_a_note():
    # MME: docs 0-3 carry mme_perception_score, docs 4-5 mme_cognition_score
    data = load(MME_A)
    assert data.source["log"]["settings"]["metric"] == "mme_perception_score"
    assert data.items == tuple(f"mme/none/{i}" for i in range(4))
    assert data.scores[:, 0].tolist() == [1, 1, 1, 0]
    assert "'lmms-lab/llava-onevision-qwen2-0.5b-ov', task 'mme': 2 questions without " \
        "metric 'mme_perception_score'" in data.describe()
    chosen = load(MME_A, metric="mme_cognition_score")
    assert chosen.items == ("mme/none/4", "mme/none/5")
    assert chosen.scores[:, 0].tolist() == [0, 1]
    # lmms-eval's aggregate from these scores: existence (100 + 100) + count (50 + 0) = 250,
    # code_reasoning 50 + 0 = 50, as "mme_perception_score,none" and "mme_cognition_score,none"
    assert aggregate(SMALL, "mme", "mme_perception_score") == 250.0
    assert aggregate(SMALL, "mme", "mme_cognition_score") == 50.0


def test_a_run_of_several_tasks_needs_one_task_at_a_time():
    message = error(SMALL)
    assert "no first metric in common" in message and "'pope_accuracy' for 'pope'" in message


def test_metric_not_in_the_task():
    message = error(POPE_A, metric="mme_perception_score")
    assert "task 'pope' has no metric 'mme_perception_score'" in message


def test_model_from_model_args_without_model_name(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(SMALL, run)
    results = next(run.glob("*_results.json"))
    doc = json.loads(results.read_text())
    doc["model_name"] = ""
    results.write_text(json.dumps(doc))
    assert load(next(run.glob("*_pope.jsonl"))).models == (
        "lmms-lab/llava-onevision-qwen2-0.5b-ov",)
    results.unlink()
    assert load(next(run.glob("*_pope.jsonl"))).models == ("run",)  # the folder's name


def test_record_without_a_score_is_not_a_per_question_score(tmp_path):
    line = json.loads(POPE_A.read_text().splitlines()[0])
    line["mmmu_acc"] = {"id": "validation_Art_1", "answer": "B", "parsed_pred": "B"}
    path = tmp_path / "20250301_143022_samples_mmmu_val.jsonl"
    path.write_text(json.dumps(line) + "\n")
    message = error(path, metric="mmmu_acc")
    assert "holds a record without a 'score' at line 1" in message


def test_different_doc_hash_is_an_error(tmp_path):
    lines = [json.loads(line) for line in POPE_B.read_text().splitlines()]
    lines[2]["doc_hash"] = "0" * 64
    path = tmp_path / POPE_B.name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert "item 'pope/none/2' is not the same question" in error(POPE_A, path)


def test_a_results_file_without_samples_and_a_misnamed_file(tmp_path):
    shutil.copy(next(SMALL.glob("*_results.json")), tmp_path)
    assert "--log_samples" in error(tmp_path)
    (tmp_path / "pope.jsonl").write_text(POPE_A.read_text())
    assert "is not named as lmms-eval names its files" in error(
        tmp_path / "pope.jsonl", input_format="lmms-eval")


def test_cli_compare_and_api_agree(capsys):
    status = main(["compare", str(POPE_A), str(POPE_B), "--format", "json",
                   "--n-resamples", "500"])
    out, _ = capsys.readouterr()
    assert status == 0
    api = evalbars.compare(POPE_A, POPE_B, n_resamples=500).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))
    assert api["provenance"]["source"]["format"] == "lmms-eval"


def test_a_results_file_reads_its_run_and_an_empty_folder_is_an_error(tmp_path):
    assert "no first metric in common" in error(next(SMALL.glob("*_results.json")))
    (tmp_path / "notes.txt").write_text("x")
    assert "found no lmms-eval results or samples files" in error(
        tmp_path, input_format="lmms-eval")
