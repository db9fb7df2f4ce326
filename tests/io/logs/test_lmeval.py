"""lm-evaluation-harness samples: evalbars.io.logs.lmeval, through evalbars.io.ingest.load."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from ingest_helpers import cli_error

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

OWN = Path(__file__).parents[2] / "data" / "logs" / "lm-eval"
REAL = Path(__file__).parents[4] / "shared" / "fixtures" / "logs" / "lm-eval"
real = pytest.mark.skipif(not REAL.is_dir(), reason="shared/fixtures/logs is not beside the repo")
GSM_A = REAL / "results_2025-09-09T13-31-53.431753.json"
GSM_B = REAL / "results_2025-09-09T13-42-42.857006.json"
A, B = OWN / "model_a", OWN / "model_b"
DATE = "2024-06-01T00-00-00.000001"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def record(doc_id, **fields) -> dict:
    return {"doc_id": doc_id, "doc": {"q": f"question {doc_id}"}, "filter": "none",
            "metrics": ["acc"], "acc": 1, **fields}


def samples(tmp_path: Path, records: list, task: str = "t", date: str = DATE) -> Path:
    path = tmp_path / f"samples_{task}_{date}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


# --------------------------------------------------------------------------- real logs


@real
def test_real_gsm8k_two_results_files():
    # Each samples file has 3 lines (doc_id 16, 17, 18, filter strict-match); reading
    # "exact_match" off each line by hand: run 13-31-53 gives 1, 0, 0 and run 13-42-42
    # gives 1, 0, 1; the model names are the results files' "model_name".
    data = load(GSM_A, GSM_B)
    assert data.items == ("gsm8k/strict-match/16", "gsm8k/strict-match/17",
                          "gsm8k/strict-match/18")
    assert data.models == ("gemma3:12b-u1", "gemma3:12b-it-q4_K_M")
    assert data.scores.tolist() == [[1, 1], [0, 0], [0, 1]]
    assert data.score_type == "binary"
    text = data.describe()
    assert "lm-eval log" in text and "metric 'exact_match'" in text
    assert "filter 'strict-match'" in text and "gemma3:12b-u1" in text
    assert data.source["format"] == "lm-eval" and data.source["layout"] == "log"
    assert {Path(i["path"]).name for i in data.source["inputs"]} == {
        GSM_A.name, GSM_B.name, "samples_gsm8k_2025-09-09T13-31-53.431753.jsonl",
        "samples_gsm8k_2025-09-09T13-42-42.857006.jsonl"}


@real
def test_real_grouped_mmlu_pro_plus_folder():
    # The folder holds two runs (dates 14-44-39 and 15-11-56) of 3 subjects x 3 questions.
    # exact_match by hand, in doc_id order: run 14-44-39 (/workspace/gemma3_12b_u2):
    # chemistry 0:1 6:0 7:0, health 12:0 13:0 14:1, psychology 8:1 9:0 10:0 -> 3 of 9;
    # run 15-11-56 (/workspace/gemma-3-12b-it-base): chemistry 1 0 1, health 0 1 1,
    # psychology 1 1 0 -> 6 of 9.
    data = load(REAL / "eval_mmlu_pro_plus")
    assert data.models == ("/workspace/gemma3_12b_u2", "/workspace/gemma-3-12b-it-base")
    assert len(data.items) == 9
    assert data.column("/workspace/gemma3_12b_u2").sum() == 3
    assert data.column("/workspace/gemma-3-12b-it-base").sum() == 6
    chem = data.items.index("mmlu_pro_plus_chemistry/custom-extract/7")
    assert data.scores[chem].tolist() == [0, 1]
    assert data.clusters is None
    assert "grouped benchmark 'mmlu_pro_plus'" in data.describe()
    assert "--cluster task" in data.describe()


@real
def test_real_grouped_clustered_by_task():
    data = load(REAL / "eval_mmlu_pro_plus", cluster="task")
    assert sorted(set(data.clusters)) == ["mmlu_pro_plus_chemistry", "mmlu_pro_plus_health",
                                          "mmlu_pro_plus_psychology"]
    assert "clustered by 'task' (3 clusters)" in data.describe()
    assert "grouped benchmark" not in data.describe()


@real
def test_real_samples_file_alone_finds_its_results_file():
    path = REAL / "samples_gsm8k_2025-09-09T13-31-53.431753.jsonl"
    data = load(path)
    assert data.models == ("gemma3:12b-u1",)


# --------------------------------------------------------------------------- own fixtures


def test_two_runs_with_different_item_sets():
    # model_b has no astronomy doc 2: an error without intersect, counted with it.
    message = error(A, B)
    assert "'org/model-b' has no row for 1 item" in message
    assert "mmlu_mini_astronomy/none/2" in message
    data = load(A, B, intersect=True)
    assert data.dropped == {"org/model-a": 1, "org/model-b": 0}
    # model_a: anatomy 1 0 1, astronomy 0 0 (1 dropped); model_b: anatomy 1 1 1, astronomy 1 0
    assert data.column("org/model-a").tolist() == [1, 0, 1, 0, 0]
    assert data.column("org/model-b").tolist() == [1, 1, 1, 1, 0]


def test_model_from_model_args_and_from_a_dict():
    # model_b's results file has no model_name: pretrained= of config.model_args names it;
    # gsm8k's model_args is a dict.
    assert load(B, models=["org/model-b"]).models == ("org/model-b",)
    assert load(OWN / "gsm8k").models == ("org/math-7b",)


def test_grouped_benchmark_clusters_only_when_asked():
    data = load(A, B, intersect=True, cluster="task")
    assert data.clusters == ("mmlu_mini_anatomy",) * 3 + ("mmlu_mini_astronomy",) * 2
    plain = load(A, B, intersect=True)
    assert plain.clusters is None and "grouped benchmark 'mmlu_mini'" in plain.describe()


def test_cluster_by_a_field_of_the_question():
    data = load(A, cluster="doc.subject")
    assert set(data.clusters) == {"anatomy", "astronomy"}


def test_mismatched_doc_hash_names_the_item():
    message = error(A, OWN / "mismatch")
    assert "item 'mmlu_mini_anatomy/none/1' is not the same question" in message
    assert "line 2 of" in message and "doc_hash" in message


def test_default_filter_is_the_first_and_unscored_answers_are_counted():
    data = load(OWN / "gsm8k")
    # strict-match: doc 0 -> 1.0, doc 1 -> 0.0, doc 2 -> null (unscored, left out)
    assert data.items == ("gsm8k/strict-match/0", "gsm8k/strict-match/1")
    assert data.scores[:, 0].tolist() == [1, 0]
    unscored = data.source["log"]["unscored"]
    assert unscored == {"org/math-7b": {"count": 1, "ids": ["gsm8k/strict-match/2"]}}
    text = data.describe()
    assert "filter 'strict-match' (the first in each file; also there: 'flexible-extract')" \
        in text
    assert "1 unscored answer left out, never counted as 0" in text


def test_metric_with_filter_chooses_the_filter():
    data = load(OWN / "gsm8k", metric="exact_match,flexible-extract")
    assert data.items == tuple(f"gsm8k/flexible-extract/{i}" for i in range(3))
    assert data.scores[:, 0].tolist() == [1, 1, 1]
    assert data.source["log"]["settings"]["metric_chosen"] is True


def test_old_json_array_without_filter_or_metrics_keys():
    path = OWN / "old_harness" / "samples_arc_easy.json"
    data = load(path)  # default: the first numeric key that is not a known field: acc
    assert data.items == ("arc_easy/none/0", "arc_easy/none/1", "arc_easy/none/2")
    assert data.scores[:, 0].tolist() == [1, 0, 1]
    assert data.models == ("old_harness",)  # no results file: the folder's name
    assert load(path, metric="acc_norm").scores[:, 0].tolist() == [1, 1, 0]


def test_corpus_level_metrics_are_rejected_with_the_reason():
    message = error(OWN / "corpus")
    assert "no per-question metric" in message and "over the whole corpus" in message
    message = error(OWN / "corpus", metric="bleu")
    assert "metric 'bleu' of task 'wmt16' cannot be compared per question" in message


def test_same_model_twice_is_told_apart_by_date(tmp_path):
    for name in ("one", "two"):
        shutil.copytree(A, tmp_path / name)
    second = tmp_path / "two"
    for path in second.iterdir():
        path.rename(second / path.name.replace("2024-05-01", "2024-05-09"))
    data = load(tmp_path / "one", tmp_path / "two")
    assert data.models == ("org/model-a@2024-05-01T10-00-00.000001",
                           "org/model-a@2024-05-09T10-00-00.000001")


def test_the_same_log_twice_is_an_error():
    assert "cannot be told apart" in error(A, A)


def test_locations_in_messages(tmp_path):
    path = samples(tmp_path, [record(1), record(1)])
    message = error(path)
    assert "(item, model) pair" in message and "lines 1, 2 of" in message
    assert path.name in message


# --------------------------------------------------------------------------- errors


def test_error_results_without_samples(tmp_path):
    (tmp_path / f"results_{DATE}.json").write_text('{"results": {}, "configs": {}}')
    assert "--log_samples" in error(tmp_path / f"results_{DATE}.json")
    assert "--log_samples" in error(tmp_path)


def test_error_folder_without_lm_eval_files(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    assert "found no lm-eval results or samples files" in error(tmp_path,
                                                                 input_format="lm-eval")


@pytest.mark.parametrize("spec", ["exact_match,", ",strict-match"])
def test_error_metric_spec(tmp_path, spec):
    assert "give a metric name, or 'name,filter'" in error(samples(tmp_path, [record(1)]),
                                                           metric=spec)


def test_error_cluster_spec(tmp_path):
    assert "'doc.KEY'" in error(samples(tmp_path, [record(1)]), cluster="metadata.x")


def test_error_cluster_field_missing(tmp_path):
    message = error(samples(tmp_path, [record(1)]), cluster="doc.subject")
    assert "has no string or integer field 'subject'" in message and "line 1" in message


def test_error_not_a_record(tmp_path):
    assert "no doc_id" in error(samples(tmp_path, [record(1), {"x": 1}]))


def test_error_invalid_json_line(tmp_path):
    path = samples(tmp_path, [record(1)])
    path.write_text(path.read_text() + "{oops\n")
    assert "line 2 of" in error(path) and "not valid JSON" in error(path)


def test_error_old_file_not_an_array(tmp_path):
    path = tmp_path / "samples_x.json"
    path.write_text('{"results": {}}')
    assert "one JSON array" in error(path, input_format="lm-eval")


def test_error_doc_id(tmp_path):
    assert "is not a string or an integer" in error(samples(tmp_path, [record(1.5)]))


def test_error_metric_not_a_number(tmp_path):
    message = error(samples(tmp_path, [record(1, acc="yes")]))
    assert "metric 'acc' at line 1" in message and "'yes'" in message


def array(tmp_path: Path, records: list) -> Path:
    """A samples file of v0.4.0-0.4.2: one JSON array."""
    path = tmp_path / "samples_t.json"
    path.write_text(json.dumps(records))
    return path


@pytest.mark.parametrize("value, refusal", [
    (1e300, "column 'acc' of the lm-eval log {p!r} has 1 value that is not a finite number "
            "within \u00b11e100: 1e+300 at index 1 of {p!r}; scores must be such numbers, "
            "and the harness wrote this one: fix the log or remove that record"),
    (float("inf"), "metric 'acc' at index 1 of {p!r} is inf, not a number"),
    ("1_0", "metric 'acc' at index 1 of {p!r} is '1_0', not a number"),
    ("\u0661", "metric 'acc' at index 1 of {p!r} is '\u0661', not a number"),
])
def test_error_score_of_a_json_array_refused_naming_the_index(tmp_path, capsys, value,
                                                              refusal):
    path = array(tmp_path, [record(0), record(1, acc=value)])
    assert cli_error(capsys, "ci", path) == refusal.format(p=str(path))


def test_error_score_beyond_1e100_of_json_lines_names_the_line(tmp_path):
    path = samples(tmp_path, [record(0), record(1, acc=-1e200)])
    assert error(path) == (
        f"column 'acc' of the lm-eval log {str(path)!r} has 1 value that is not a finite "
        f"number within \u00b11e100: -1e+200 at line 2 of {str(path)!r}; scores must be such "
        f"numbers, and the harness wrote this one: fix the log or remove that record")


def test_error_first_record_without_a_number(tmp_path):
    # a record without a metrics list takes its first numeric field as the metric; a number
    # written as text is none (outside v0.3 --write_out files, whose values are all text)
    path = array(tmp_path, [{"doc_id": 0, "doc": {}, "acc": "1"}])
    assert error(path) == (f"task 't' has no per-question metric: its first record (index 0 "
                           f"of {str(path)!r}) names none and holds no number besides "
                           f"lm-eval's own fields")


def test_nan_is_unscored_booleans_and_numeric_text_are_read_as_in_tables(tmp_path):
    path = array(tmp_path, [record(0, acc=float("nan")), record(1, acc=True),
                            record(2, acc="0.25")])
    data = load(path)
    assert data.items == ("t/none/1", "t/none/2") and data.scores[:, 0].tolist() == [1, 0.25]
    assert data.source["log"]["unscored"] == {data.models[0]: {"count": 1,
                                                               "ids": ["t/none/0"]}}


def test_error_empty_samples_file(tmp_path):
    path = tmp_path / f"samples_t_{DATE}.jsonl"
    path.write_text("\n")
    assert "holds no per-question records" in error(path)


def test_error_filter_not_in_file(tmp_path):
    message = error(samples(tmp_path, [record(1)]), metric="acc,strict-match")
    assert "filter 'strict-match' (metric=) is not in" in message and "'none'" in message


def test_error_unknown_metric(tmp_path):
    message = error(samples(tmp_path, [record(1)]), metric="f1")
    assert "has no metric 'f1'" in message and "'acc'" in message


def test_error_tasks_without_a_common_first_metric(tmp_path):
    samples(tmp_path, [record(1)], task="t1")
    samples(tmp_path, [{"doc_id": 1, "doc": {}, "metrics": ["em"], "em": 1}], task="t2")
    assert "no first metric in common" in error(tmp_path)


def test_error_results_file_not_json(tmp_path):
    samples(tmp_path, [record(1)])
    (tmp_path / f"results_{DATE}.json").write_text("{oops")
    assert "is not valid JSON" in error(tmp_path)


def test_error_options_of_other_formats(tmp_path):
    path = samples(tmp_path, [record(1)])
    assert "scorer= (--scorer) does not apply to lm-eval logs" in error(path, scorer="x")
    assert "qrels" in error(path, input_format="lm-eval", qrels="q.txt")


def test_error_unscored_only_model(tmp_path):
    message = error(samples(tmp_path, [record(1, acc=None), record(2, acc=float("nan"))]))
    assert "holds no scored answer" in message and "'t/none/1', 't/none/2'" in message


def test_scores_are_averaged_in_a_fixed_order(tmp_path):
    # row order never changes a number: the same records reversed give the same result
    rows = [record(i, acc=v) for i, v in enumerate([1, 0, 1, 1])]
    first = load(samples(tmp_path, rows))
    other = tmp_path / "rev"
    other.mkdir()
    second = load(samples(other, rows[::-1]))
    assert first.items == second.items
    np.testing.assert_array_equal(first.scores, second.scores)
