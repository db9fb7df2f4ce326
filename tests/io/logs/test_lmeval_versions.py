"""lm-eval's older layouts and quirks (issue #16 items 1-5), on real files and small ones.

The real files are in ../shared/fixtures/logs/wild/lm-eval/; its README states the right
reading of each (model, tasks, item counts, scores), asserted here as written there. The
scores are also checked against the harness's own aggregate in each results file.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.io import logs
from evalbars.io.ingest import load

OWN = Path(__file__).parents[2] / "data" / "logs" / "lm-eval"
WILD = Path(__file__).parents[4] / "shared" / "fixtures" / "logs" / "wild" / "lm-eval"
wild = pytest.mark.skipif(not WILD.is_dir(),
                          reason="shared/fixtures/logs/wild is not beside the repo")
WMDP = WILD / "wmdp_v0.4.1_2024-04"
REFACTOR = WILD / "bigrefactor_2023-07"
FLOR = WILD / "flor_eqbench_2025-07"
FLOR_RESULTS = FLOR / "results_FLOR-760M:2025-07-21T1441-16_2025-07-21T14-41-47.889425.json"
WRITE_OUT = WILD / "writeout_2024-03" / "llama" / "winogrande_write_out_info.json"
PARTIAL = OWN / "partial"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def task_rows(data, task: str):
    rows = [k for k, item in enumerate(data.items) if item.startswith(f"{task}/")]
    return data.scores[rows]


# --------------------------------------------------------------------------- 1. v0.4.0-0.4.2


@wild
@pytest.mark.parametrize("path", [WMDP, WMDP / "results.json"])
def test_v041_results_json_and_model_args_samples(path):
    # README: model gpt-3.5-turbo-0125 (config.model_args), tasks wmdp_bio, wmdp_chem,
    # wmdp_cyber, 100 items each, every exact_match 1.0 (results.json: "exact_match,none": 1.0)
    data = load(path)
    assert data.source["format"] == "lm-eval"
    assert data.models == ("gpt-3.5-turbo-0125",)
    for task in ("wmdp_bio", "wmdp_chem", "wmdp_cyber"):
        scores = task_rows(data, task)
        assert scores.shape == (100, 1) and scores.mean() == 1.0
    assert data.items[0] == "wmdp_bio/none/0"
    assert data.source["log"]["settings"]["metric"] == "exact_match"
    assert "ran with --limit 100" in data.describe()


@wild
def test_v041_one_samples_file_finds_its_results_json():
    data = load(WMDP / "model__gpt-3.5-turbo-0125_wmdp_cyber.jsonl")
    assert data.models == ("gpt-3.5-turbo-0125",)
    assert len(data.items) == 100 and data.scores.mean() == 1.0
    # one file given: the other tasks of results.json are not reported as missing
    assert data.source["log"]["notes"] == [
        "'gpt-3.5-turbo-0125': lm-eval ran with --limit 100, so each task holds at most 100 "
        "of its questions"]


@wild
def test_v041_detected_in_every_form():
    for path in (WMDP, WMDP / "results.json", WMDP / "model__gpt-3.5-turbo-0125_wmdp_bio.jsonl"):
        assert logs.detect(str(path)) == "lm-eval"


def test_v040_array_in_a_jsonl_file_without_results(tmp_path):
    # pretrained=org/tiny written as v0.4.0 does: '/' and '=' as '__', one indented array
    records = [{"doc_id": i, "doc": {"q": i}, "target": " yes", "arguments": [["q", " yes"]],
                "resps": [[[-0.5, True]]], "filtered_resps": [[-0.5, True]], "acc": float(v)}
               for i, v in enumerate([1, 0, 1])]
    path = tmp_path / "pretrained__org__tiny-1b,dtype__float16_boolq.jsonl"
    path.write_text(json.dumps(records, indent=2))
    assert logs.detect(str(path)) == "lm-eval" and logs.detect(str(tmp_path)) == "lm-eval"
    data = load(path)
    assert data.models == ("org/tiny-1b",)
    assert data.items == ("boolq/none/0", "boolq/none/1", "boolq/none/2")
    assert data.scores[:, 0].tolist() == [1, 0, 1]
    records[1]["acc"] = "x"
    path.write_text(json.dumps(records, indent=2))
    assert "metric 'acc' at index 1 of" in error(path)


# --------------------------------------------------------------------------- 2. big-refactor


@wild
def test_big_refactor_name_gives_task_and_model():
    # README: task winogrande, model EleutherAI/pythia-2.8b; acc by hand from its 4 lines
    data = load(REFACTOR / "pretrained=EleutherAI__pythia-2.8b_winogrande.jsonl")
    assert data.models == ("EleutherAI/pythia-2.8b",)
    assert data.items == tuple(f"winogrande/none/{i}" for i in range(4))
    assert data.scores[:, 0].tolist() == [0, 0, 0, 1]


@wild
def test_big_refactor_folder_names_the_results_files_it_cannot_read():
    # arc.json, cb.json and o.json are results files whose samples files are not there
    data = load(REFACTOR, intersect=True)
    assert data.models == ("bigrefactor_2023-07", "EleutherAI/pythia-2.8b")
    notes = data.source["log"]["notes"]
    for name in ("arc.json", "cb.json", "o.json"):
        assert any(name in note and "not read" in note for note in notes)


# --------------------------------------------------------------------------- 3. x_<date>.json


@wild
@pytest.mark.parametrize("path", [FLOR, FLOR_RESULTS,
                                  FLOR / "samples_eqbench_es_2025-07-21T14-41-47.889425.jsonl"])
def test_output_path_json_results_name_the_model(path):
    # README: model /gpfs/projects/bsc88/hf-models/FLOR-760M, tasks eqbench_ca, eqbench_es
    # (the README says v0.4.9+; the file's lm_eval_version is 0.4.8);
    # 10 questions each (n-samples effective 10), every eqbench 0 ("eqbench,none": 0.0)
    assert logs.detect(str(path)) == "lm-eval"
    data = load(path)
    assert data.models == ("/gpfs/projects/bsc88/hf-models/FLOR-760M",)
    tasks = data.source["log"]["settings"]["tasks"]
    assert set(tasks) <= {"eqbench_ca", "eqbench_es"} and data.scores.sum() == 0
    assert len(data.items) == 10 * len(tasks)
    if path != FLOR / "samples_eqbench_es_2025-07-21T14-41-47.889425.jsonl":
        assert tasks == ["eqbench_ca", "eqbench_es"]
        assert "task 'eqbench_ca': lm-eval scored 10 of its 167 questions (--limit)" in \
            data.describe()


# --------------------------------------------------------------------------- 4. partial reads


def test_partial_read_is_said_in_the_read_line_and_provenance():
    # results_*.json counts 5,000 arc_easy questions (n-samples) and lists arc_challenge;
    # the folder holds 10 arc_easy records and no arc_challenge samples file
    data = load(PARTIAL)
    assert data.models == ("org/small-1b",) and len(data.items) == 10
    assert data.scores[:, 0].tolist() == [1, 0, 1, 1, 0, 1, 1, 1, 0, 1]
    held = "'org/small-1b', task 'arc_easy': its samples file holds 10 of the 5,000 questions"
    missing = "'org/small-1b': 1 task of"
    text = data.describe()
    assert held in text and missing in text and "('arc_challenge') has no samples file" in text
    log = data.source["log"]
    assert any(held in note for note in log["notes"]) and len(log["settings"]["partial"]) == 2


def test_partial_read_of_one_samples_file_notes_only_the_count():
    data = load(next(PARTIAL.glob("samples_*.jsonl")))
    notes = data.source["log"]["notes"]
    assert len(notes) == 1 and "holds 10 of the 5,000 questions" in notes[0]


def test_cli_read_line_says_partial(capsys):
    assert main(["ci", str(PARTIAL)]) == 0
    out, _ = capsys.readouterr()
    assert "holds 10 of the 5,000 questions" in " ".join(out.split())


# --------------------------------------------------------------------------- 5. v0.3 --write_out


@wild
def test_write_out_strings_are_read():
    # README: 1,267 items, 73.8% ("acc": "True" in 935 of them)
    assert logs.detect(str(WRITE_OUT)) == "lm-eval"
    assert logs.detect(str(WRITE_OUT.parent)) == "lm-eval"
    data = load(WRITE_OUT)
    assert data.models == ("llama",) and len(data.items) == 1267
    assert data.scores.sum() == 935 and round(100 * data.scores.mean(), 1) == 73.8
    assert "'True' as 1 and 'False' as 0" in data.describe()


def write_out(tmp_path: Path, values: list) -> Path:
    records = [{"doc_id": i, "prompt_0": "q", "logit_0": "-1.5", "truth": " A", "acc": v}
               for i, v in enumerate(values)]
    path = tmp_path / "arc_easy_write_out_info.json"
    path.write_text(json.dumps(records, indent=4))
    return path


def test_write_out_numbers_as_text_and_errors(tmp_path):
    assert load(write_out(tmp_path, ["True", "0.5", "False"])).scores[:, 0].tolist() == \
        [1, 0.5, 0]
    assert "'yes', not a number" in error(write_out(tmp_path, ["True", "yes"]))
    assert "cannot be compared per question" in error(write_out(tmp_path, ["(0, 1)"]),
                                                      metric="acc")


# --------------------------------------------------------------------------- folders


def test_folder_of_old_named_samples_with_a_long_first_record(tmp_path):
    # a first record far longer than the bytes detection looks at first is still found
    record = {"doc_id": 0, "doc": {"passage": "x" * 70_000}, "target": " yes",
              "resps": [[[-0.1, True]]], "filtered_resps": [[-0.1, True]], "acc": 1.0}
    (tmp_path / "pretrained=org__long-7b_boolq.jsonl").write_text(json.dumps(record) + "\n")
    assert logs.detect(str(tmp_path)) == "lm-eval"
    data = load(tmp_path)
    assert data.models == ("org/long-7b",) and data.items == ("boolq/none/0",)


def test_results_file_without_samples_in_a_folder_is_noted_not_fatal(tmp_path):
    shutil.copytree(PARTIAL, tmp_path / "run")
    results = json.loads(next(PARTIAL.glob("results_*.json")).read_text())
    results["config"]["model_args"] = "pretrained=org/other-3b"
    (tmp_path / "run" / "other.json").write_text(json.dumps(results))
    data = load(tmp_path)
    assert data.models == ("org/small-1b",)
    assert any("other.json' has no samples files beside it, so it is not read" in note
               for note in data.source["log"]["notes"])
    assert "--log_samples" in error(tmp_path / "run" / "other.json")


def test_limit_of_a_results_file_without_n_samples(tmp_path):
    # v0.4.0-0.4.2 results have no n-samples: config.limit is said, a count or a fraction
    records = [{"doc_id": 0, "doc": {}, "resps": [], "filtered_resps": [], "acc": 1.0}]
    for limit, said in ((100.0, "at most 100 of its questions"),
                        (0.25, "--limit 0.25, so each task holds at most 25% of")):
        (tmp_path / "results.json").write_text(json.dumps(
            {"results": {"boolq": {"acc,none": 1.0}}, "configs": {"boolq": {}},
             "config": {"model_args": "pretrained=org/m", "limit": limit}}))
        (tmp_path / "pretrained__org__m_boolq.jsonl").write_text(json.dumps(records, indent=2))
        data = load(tmp_path)
        assert data.models == ("org/m",) and said in data.describe()


@wild
def test_cli_reads_the_write_out_file_and_says_partial_reads_in_json(capsys):
    assert main(["ci", str(WRITE_OUT), "--format", "json", "--n-resamples", "200"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["provenance"]["source"]["format"] == "lm-eval"
    assert main(["ci", str(FLOR), "--format", "json", "--n-resamples", "200"]) == 0
    log = json.loads(capsys.readouterr().out)["provenance"]["source"]["log"]
    assert log["settings"]["partial"] == [
        "'/gpfs/projects/bsc88/hf-models/FLOR-760M', task 'eqbench_ca': lm-eval scored 10 of "
        "its 167 questions (--limit)",
        "'/gpfs/projects/bsc88/hf-models/FLOR-760M', task 'eqbench_es': lm-eval scored 10 of "
        "its 168 questions (--limit)"]
