"""Harness logs as a whole: detection, the options of load, the CLI and docs/logs.md."""
from __future__ import annotations

import inspect
import json
import re
import shlex
from pathlib import Path

import pytest

import evalbars
from evalbars.cli import build_parser, main
from evalbars.cli._options import LOG_FORMATS, load_options
from evalbars.core.errors import EvalbarsError
from evalbars.io import logs
from evalbars.io.ingest import load

ROOT = Path(__file__).resolve().parents[3]
OWN = ROOT / "tests" / "data" / "logs"
INSPECT_A, INSPECT_B = OWN / "inspect" / "epochs_a.json", OWN / "inspect" / "epochs_b.eval"
LOG_OPTIONS = ("--metric", "--scorer", "--qrels", "--input-format")
API_HAS_LOG_OPTIONS = "metric" in inspect.signature(evalbars.compare).parameters
needs_api = pytest.mark.skipif(not API_HAS_LOG_OPTIONS,
                               reason="evalbars.analyses.compare does not thread the log options yet")


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


@pytest.mark.parametrize("path, fmt", [
    ("lm-eval/model_a", "lm-eval"),
    ("lm-eval/model_a/results_2024-05-01T10-00-00.000001.json", "lm-eval"),
    ("lm-eval/model_a/samples_mmlu_mini_anatomy_2024-05-01T10-00-00.000001.jsonl", "lm-eval"),
    ("lm-eval/old_harness/samples_arc_easy.json", "lm-eval"),
    ("inspect/epochs_a.json", "inspect"),
    ("inspect/epochs_b.eval", "inspect"),
    ("promptfoo/results.json", "promptfoo"),
    ("openai-evals/run_a.jsonl", "openai-evals"),
    ("helm/suite_v1", "helm"),
    ("trec/run_bm25.txt", "trec"),
    ("trec/qrels.txt", None),
])
def test_detect(path, fmt):
    assert logs.detect(str(OWN / path)) == fmt


def test_tables_are_not_logs():
    assert logs.detect(str(ROOT / "examples" / "lesson_pair.csv")) is None


def test_renamed_lm_eval_results_file_is_recognised(tmp_path):
    # a results file under another name is recognised by its content
    results = OWN / "lm-eval" / "gsm8k" / "results_2024-06-01T00-00-00.000001.json"
    (tmp_path / "run.json").write_text(results.read_text())
    assert logs.detect(str(tmp_path / "run.json")) == "lm-eval"


def test_folder_of_several_formats(tmp_path):
    (tmp_path / "a.json").write_text(INSPECT_A.read_text())
    (tmp_path / "samples_t_2024-01-01T00-00-00.jsonl").write_text("{}\n")
    message = error(tmp_path)
    assert "holds logs of several formats" in message
    assert "lm-eval" in message and "inspect" in message


def test_input_format_forces_a_reading(tmp_path):
    path = tmp_path / "scores.jsonl"  # an lm-eval samples file under a table's name
    path.write_text(json.dumps({"doc_id": 1, "doc": {}, "acc": 1}) + "\n")
    assert load(path).source["format"] == "lm-eval"
    assert load(path, input_format="table").source["layout"] == "wide"


def test_every_report_names_format_files_models_and_metric():
    data = load(INSPECT_A, INSPECT_B)
    source = data.source
    assert source["layout"] == "log" and source["format"] == "inspect"
    assert [Path(i["path"]).name for i in source["inputs"]] == ["epochs_a.json",
                                                                "epochs_b.eval"]
    assert all(len(i["sha256"]) == 64 for i in source["inputs"])
    assert source["columns"]["score"] == "match" and source["columns"]["sample"] == "epoch"
    assert source["log"]["settings"]["scorer"] == "match"
    text = data.describe()
    for piece in ("inspect log", "epochs_a.json", "epochs_b.eval", "'openai/model-a'",
                  "scorer 'match'"):
        assert piece in text


def test_compare_api_and_cli_agree(capsys):
    status = main(["compare", str(INSPECT_A), str(INSPECT_B), "--format", "json",
                   "--n-resamples", "500"])
    out, _ = capsys.readouterr()
    assert status == 0
    api = evalbars.compare(INSPECT_A, INSPECT_B, n_resamples=500).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))
    assert api["provenance"]["source"]["format"] == "inspect"
    assert "inspect log" in api["provenance"]["source"]["description"]


def test_cli_bad_log_exits_2_with_one_line(capsys):
    status = main(["compare", str(OWN / "lm-eval" / "model_a"), str(OWN / "lm-eval" /
                                                                    "mismatch")])
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "doc_hash" in err


def test_load_options_pass_the_log_options():
    parser = build_parser()
    args = parser.parse_args(["compare", "run_a", "run_b", "--qrels", "q.txt", "--metric",
                              "RR", "--input-format", "trec", "--scorer", "s"])
    assert load_options(args) == dict(metric="RR", scorer="s", qrels="q.txt",
                                      input_format="trec")
    assert load_options(parser.parse_args(["ci", "x.csv"])) == {}  # the API's defaults apply


def test_cli_names_every_log_format():
    assert LOG_FORMATS == tuple(logs.FORMATS)
    assert logs.INPUT_FORMATS == ("auto", "table", *LOG_FORMATS)
    help_text = build_parser()._subparsers._group_actions[0].choices["compare"].format_help()
    for name in ("--input-format", "--metric", "--scorer", "--qrels", *LOG_FORMATS):
        assert name in " ".join(help_text.split())


def test_power_reads_a_pilot_log_with_the_log_options(capsys):
    assert main(["power", "--pilot", str(INSPECT_A), str(INSPECT_B), "--gap", "0.05",
                 "--power", "0.8", "--input-format", "inspect", "--format", "json"]) == 0
    pilot = json.loads(capsys.readouterr().out)["pilot"]
    assert pilot["source"]["format"] == "inspect"
    assert main(["power", "--gap", "0.05", "--power", "0.8", "--disagreement", "0.1",
                 "--metric", "acc"]) == 2
    assert "--metric describe the --pilot file" in capsys.readouterr().err


@needs_api
def test_cli_log_options_reach_load(capsys):
    trec = OWN / "trec"
    status = main(["compare", str(trec / "run_bm25.txt"), str(trec / "run_dense.txt"),
                   "--qrels", str(trec / "qrels.txt"), "--metric", "RR", "--format", "json",
                   "--n-resamples", "200"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0 and doc["provenance"]["source"]["columns"]["score"] == "RR"


def _doc_commands() -> list[list[str]]:
    text = (ROOT / "docs" / "logs.md").read_text()
    blocks = re.findall(r"```\n(.*?)```", text, re.S)
    return [shlex.split(line)[1:] for block in blocks for line in block.splitlines()
            if line.startswith("evalbars ")]


@pytest.mark.parametrize("argv", _doc_commands(), ids=lambda argv: " ".join(argv)[:60])
def test_docs_commands_run(capsys, argv):
    if set(argv) & set(LOG_OPTIONS) and not API_HAS_LOG_OPTIONS:
        pytest.skip("evalbars.analyses.compare does not thread the log options yet")
    assert main([*argv, "--n-resamples", "200"]) == 0, capsys.readouterr().err


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("option", ["item", "model", "score", "sample"])
def test_error_table_options_with_a_log(option):
    message = error(INSPECT_A, **{option: "x"})
    assert f"{option}= names a column of a table" in message and "inspect log" in message


@pytest.mark.parametrize("option", ["metric", "scorer", "qrels"])
def test_error_log_options_with_a_table(option):
    # qrels= alone means a TREC run; read as a table, it is an error like the others
    message = error(ROOT / "examples" / "lesson_pair.csv", input_format="table",
                    **{option: "x"})
    assert f"{option}= applies to harness logs" in message


def test_error_input_format():
    assert "is not one of 'auto', 'table', 'lm-eval'" in error(INSPECT_A, input_format="csv")


def test_error_read_of_an_unknown_format():
    with pytest.raises(EvalbarsError) as info:
        logs.read("no-such-format", [str(INSPECT_A)], logs.Options())
    assert str(info.value) == (
        "log format 'no-such-format' is not one of 'lm-eval', 'lmms-eval', 'inspect', "
        "'promptfoo', 'openai-evals', 'helm', 'trec', 'lighteval', 'evalplus', 'swebench', "
        "'alpacaeval'")


def test_error_input_format_with_a_dataframe():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"id": ["q1"], "a": [1]})
    assert "a DataFrame is a table" in error(frame, input_format="inspect")


def test_error_inputs_of_two_formats():
    message = error(INSPECT_A, ROOT / "examples" / "lesson_pair.csv")
    assert "is a inspect log but" in message or "is an inspect log but" in message
    assert "is a table" in message


def test_error_missing_log_file(tmp_path):
    assert "no such file or folder" in error(tmp_path / "x.eval", input_format="inspect")


def test_error_a_model_with_only_unscored_answers(tmp_path):
    # two runs of one task; the second has no score at all (null), so it would vanish
    for k, value in enumerate(([1, 0], [None, None])):
        folder = tmp_path / f"run{k}"
        folder.mkdir()
        (folder / "samples_t_2024-01-01T00-00-00.jsonl").write_text("".join(
            json.dumps({"doc_id": i, "doc": {}, "metrics": ["acc"], "acc": v}) + "\n"
            for i, v in enumerate(value)))
    message = error(tmp_path / "run0", tmp_path / "run1")
    assert "model 'run1' has no scored answer" in message and "'t/none/0'" in message
