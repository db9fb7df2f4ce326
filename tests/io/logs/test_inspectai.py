"""inspect_ai logs: evalbars.io.logs.inspectai and evalbars.io.logs._zip, through ingest.load."""
from __future__ import annotations

import json
import struct
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load
from evalbars.io.logs import _zip

OWN = Path(__file__).parents[2] / "data" / "logs" / "inspect"
REAL = Path(__file__).parents[4] / "shared" / "fixtures" / "logs" / "inspect"
real = pytest.mark.skipif(not REAL.is_dir(), reason="shared/fixtures/logs is not beside the repo")
UNSCORED = REAL / "2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval"
SCORED = REAL / "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval"
STREAMING = REAL / "log_streaming.eval"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def eval_log(path: Path, entries: dict[str, object], method: int = zipfile.ZIP_DEFLATED) -> Path:
    """A .eval archive holding ``entries`` (name -> JSON object, or raw bytes)."""
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, obj in entries.items():
            archive.writestr(name, obj if isinstance(obj, bytes) else json.dumps(obj))
    return path


def header(model: str = "m", task: str = "arith") -> dict:
    return {"version": 2, "status": "success", "eval": {"task": task, "model": model}}


def sample(i, value="C", epoch=1, **extra) -> dict:
    return {"id": i, "epoch": epoch, "scores": {"match": {"value": value}}, **extra}


def repack(path: Path, method: int, compress) -> None:
    """Rewrite every entry of a stored archive with ``compress`` and compression ``method``.

    zipfile cannot write Zstandard before Python 3.14, so entries are stored, then their
    bytes, sizes, CRCs and method fields are rewritten in the local and central headers.
    """
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        raw = {i.filename: archive.read(i) for i in infos}
    out, central = bytearray(), bytearray()
    for info in infos:
        body = compress(raw[info.filename])
        name = info.filename.encode()
        crc = zlib.crc32(raw[info.filename])
        offset = len(out)
        out += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, method, 0, 0, crc, len(body),
                           len(raw[info.filename]), len(name), 0) + name + body
        central += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, method, 0, 0, crc,
                               len(body), len(raw[info.filename]), len(name), 0, 0, 0, 0, 0,
                               offset) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(infos), len(infos), len(central),
                      len(out), 0)
    path.write_bytes(bytes(out + central + end))


# --------------------------------------------------------------------------- real logs


@real
def test_real_epochs_log():
    # samples/1_epoch_1.json "I", 1_epoch_2 "C", 2_epoch_1 "C", 2_epoch_2 "C" (match scorer):
    # per question 0.5 and 1.0, the log's own reductions.json (0.5, 1.0) and accuracy 0.75.
    data = load(STREAMING)
    assert data.models == ("azureai/Meta-Llama-3-1-405B-Instruct-jqf",)
    assert data.items == ("1", "2")
    assert data.scores[:, 0].tolist() == [0.5, 1.0]
    assert data.counts[:, 0].tolist() == [2, 2]
    assert "2 answers per question" in data.describe()
    assert "scorer 'match'" in data.describe()


@real
def test_real_scored_log():
    # 10 samples, one epoch each; samples 3 and 7 are "I", the other eight "C": 0.8, as
    # the header's results (accuracy 0.8).
    data = load(SCORED)
    assert data.models == ("openai/gpt-4o-mini",)
    assert len(data.items) == 10 and data.column("openai/gpt-4o-mini").mean() == 0.8
    wrong = [i for i, s in zip(data.items, data.scores[:, 0]) if s == 0]
    assert wrong == ["3", "7"]


@real
def test_real_unscored_log_is_an_error():
    # Every sample of this log has "scores": {} (the eval was not scored).
    message = error(UNSCORED, SCORED)
    assert "no sample of" in message and "--no-score" in message


@real
def test_real_json_logs():
    # log_formats.json: one sample, id 1, "I"; log_read_sample.json: id 1, "C".
    data = load(REAL / "log_formats.json", REAL / "log_read_sample.json")
    assert data.models == ("ollama/llama3.1", "ollama/gemma3")
    assert data.items == ("1",) and data.scores.tolist() == [[0, 1]]


@real
def test_real_logs_of_different_item_sets():
    data = load(SCORED, STREAMING, intersect=True)
    assert data.items == ("1", "2")
    assert data.dropped == {"openai/gpt-4o-mini": 8,
                            "azureai/Meta-Llama-3-1-405B-Instruct-jqf": 0}


# --------------------------------------------------------------------------- own fixtures


def test_epochs_mixed_values_and_unscored_samples():
    data = load(OWN / "epochs_a.json", OWN / "epochs_b.eval")
    assert data.models == ("openai/model-a", "openai/model-b")
    # model-a: 1: C, I -> 0.5; 2: P, true -> 0.75; 3: 1, "0.5" -> 0.75; 4: null (unscored),
    # C -> 1; 5: error (unscored), N -> 0.  model-b: CC, IC, CI, II, CC.
    assert data.column("openai/model-a").tolist() == [0.5, 0.75, 0.75, 1.0, 0.0]
    assert data.column("openai/model-b").tolist() == [1.0, 0.5, 0.5, 0.0, 1.0]
    assert data.counts[:, 0].tolist() == [2, 2, 2, 1, 1]
    assert data.score_type == "continuous"
    assert data.source["log"]["unscored"] == {"openai/model-a": {"count": 2, "ids": ["4", "5"]}}
    text = data.describe()
    assert "2 unscored answers left out, never counted as 0" in text
    assert "inspect reduced epochs with mode" in text  # epochs_b's reducer


def test_cluster_by_metadata():
    data = load(OWN / "epochs_a.json", OWN / "epochs_b.eval", cluster="metadata.topic")
    assert data.clusters == ("add", "add", "mul", "mul", "mul")


def test_folder_of_logs_and_different_tasks(tmp_path):
    assert "different tasks" in error(OWN)
    for name in ("epochs_a.json", "epochs_b.eval"):
        (tmp_path / name).write_bytes((OWN / name).read_bytes())
    assert load(tmp_path).models == ("openai/model-a", "openai/model-b")


def test_scorer_and_dict_values():
    assert "2 scorers, 'match', 'graded'" in error(OWN / "scorers.json")
    # graded: {"accuracy": 1, "f1": 0.5}, {"accuracy": 0, "f1": 0.25}, {..., "f1": 1.0}
    data = load(OWN / "scorers.json", scorer="graded", metric="f1")
    assert data.scores[:, 0].tolist() == [0.5, 0.25, 1.0]
    # match: 1, NaN (unscored), 0
    data = load(OWN / "scorers.json", scorer="match")
    assert data.items == ("1", "3") and data.scores[:, 0].tolist() == [1, 0]


def test_two_logs_of_one_model_are_told_apart(tmp_path):
    log = json.loads((OWN / "epochs_a.json").read_text())
    (tmp_path / "one.json").write_text(json.dumps(log))
    log["eval"]["created"] = "2024-07-09T00:00:00+00:00"
    (tmp_path / "two.json").write_text(json.dumps(log))
    data = load(tmp_path / "one.json", tmp_path / "two.json")
    assert data.models == ("openai/model-a@2024-07-01T12:00:00+00:00",
                           "openai/model-a@2024-07-09T00:00:00+00:00")


def test_unfinished_eval_reads_the_journal_and_says_so(tmp_path):
    path = eval_log(tmp_path / "run.eval", {
        "_journal/start.json": {**header(), "status": "started"},
        "samples/1_epoch_1.json": sample(1), "samples/2_epoch_1.json": sample(2, "I")})
    data = load(path)
    assert data.scores[:, 0].tolist() == [1, 0]
    message = error(path, OWN / "epochs_b.eval")
    assert "items are not scored by every model" in message


def test_entry_locations_in_messages(tmp_path):
    path = eval_log(tmp_path / "dup.eval", {
        "header.json": header(), "samples/a.json": sample(1), "samples/b.json": sample(1)})
    message = error(path)
    assert "entries 'samples/a.json', 'samples/b.json' of" in message


def test_zstandard_entries(tmp_path):
    zstandard = pytest.importorskip("zstandard")
    path = eval_log(tmp_path / "z.eval", {
        "header.json": header(), "samples/1_epoch_1.json": sample(1),
        "samples/2_epoch_1.json": sample(2, "I")}, zipfile.ZIP_STORED)
    repack(path, _zip.ZSTD, zstandard.ZstdCompressor().compress)
    assert load(path).scores[:, 0].tolist() == [1, 0]


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="zipfile reads Zstandard itself")
def test_error_zstandard_missing(tmp_path, monkeypatch):
    path = eval_log(tmp_path / "z.eval", {"header.json": header()}, zipfile.ZIP_STORED)
    repack(path, _zip.ZSTD, lambda raw: raw)
    monkeypatch.setitem(sys.modules, "zstandard", None)
    assert "pip install 'evalbars[inspect]'" in error(path)


def test_error_unknown_compression_method(tmp_path):
    path = eval_log(tmp_path / "w.eval", {"header.json": header()}, zipfile.ZIP_STORED)
    repack(path, 97, lambda raw: raw)
    assert "compression method 97" in error(path)


def test_error_entry_larger_than_the_cap(tmp_path, monkeypatch):
    path = eval_log(tmp_path / "bomb.eval", {"header.json": header(),
                                             "samples/1.json": b" " * 200_000})
    monkeypatch.setattr(_zip, "MAX_ENTRY_BYTES", 100_000)
    message = error(path)
    assert "'samples/1.json'" in message and "more than 100,000 bytes" in message
    assert "zip bomb" in message


def test_error_archive_larger_than_the_cap(tmp_path, monkeypatch):
    path = eval_log(tmp_path / "bomb.eval", {"header.json": header(), **{
        f"samples/{i}.json": json.dumps(sample(i)).encode() + b" " * 60_000 for i in range(3)}})
    monkeypatch.setattr(_zip, "MAX_TOTAL_BYTES", 150_000)
    message = error(path)
    assert "more than 150,000 bytes in all" in message


def test_error_entry_with_too_many_json_values_is_not_parsed(tmp_path, monkeypatch):
    from evalbars.io.logs import inspectai

    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 1_000)
    body = json.dumps(sample(1))[:-1].encode() + b', "pad": [' + b"[]," * 600 + b"0]}"
    path = eval_log(tmp_path / "many.eval", {"header.json": header(), "samples/1.json": body})
    parsed = []
    monkeypatch.setattr(inspectai.json, "loads", lambda raw: parsed.append(raw) or
                        json.JSONDecoder().decode(raw.decode()))
    message = error(path)
    assert "entry 'samples/1.json' of" in message and "many.eval" in message
    assert "more than 1,000 JSON values" in message and "MAX_ENTRY_VALUES" in message
    assert len(parsed) == 1  # the header only: the sample was refused before parsing
    zeros = json.dumps(sample(1))[:-1].encode() + b', "pad": [' + b"0," * 1_500 + b"0]}"
    eval_log(path, {"header.json": header(), "samples/1.json": zeros})
    assert "more than 1,000 JSON values" in error(path)
    under = json.dumps(sample(1))[:-1].encode() + b', "pad": [' + b"0," * 900 + b"0]}"
    eval_log(path, {"header.json": header(), "samples/1.json": under})
    assert load(path).scores[:, 0].tolist() == [1]


def test_error_header_larger_than_the_metadata_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(_zip, "MAX_METADATA_BYTES", 10_000)
    big = json.dumps(header()).encode()[:-1] + b', "pad": "' + b"x" * 20_000 + b'"}'
    path = eval_log(tmp_path / "h.eval", {"header.json": big, "samples/1.json":
                                          json.dumps(sample(1)).encode() + b" " * 20_000})
    message = error(path)
    assert "entry 'header.json'" in message and "more than 10,000 bytes" in message
    assert "MAX_METADATA_BYTES" in message
    eval_log(path, {"header.json": header(), "samples/1.json":
                    json.dumps(sample(1)).encode() + b" " * 20_000})
    assert load(path).scores[:, 0].tolist() == [1]  # samples keep the larger cap


def test_error_damaged_entry(tmp_path):
    path = eval_log(tmp_path / "bad.eval", {"header.json": header()})
    repack(path, zipfile.ZIP_DEFLATED, lambda raw: b"not deflate data")
    assert "entry 'header.json'" in error(path) and "is damaged" in error(path)


def test_error_not_a_zip(tmp_path):
    path = tmp_path / "x.eval"
    path.write_text("hello")
    assert "is not a zip archive" in error(path)


def test_error_eval_without_header(tmp_path):
    path = eval_log(tmp_path / "x.eval", {"samples/1.json": sample(1)})
    assert "neither header.json nor _journal/start.json" in error(path)


def test_error_header_without_spec(tmp_path):
    path = eval_log(tmp_path / "x.eval", {"header.json": {"version": 2}})
    assert "holds no eval spec" in error(path)


@pytest.mark.parametrize("suffix", [".eval", ".json"])
def test_error_no_samples(tmp_path, suffix):
    if suffix == ".eval":
        path = eval_log(tmp_path / "x.eval", {"header.json": header()})
    else:
        path = tmp_path / "x.json"
        path.write_text(json.dumps(header()))
    assert "holds no samples" in error(path, input_format="inspect")


def test_error_entry_not_json(tmp_path):
    path = eval_log(tmp_path / "x.eval", {"header.json": header(), "samples/1.json": b"{oops"})
    assert "entry 'samples/1.json'" in error(path) and "not valid JSON" in error(path)


def test_error_not_an_inspect_json_log(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"samples": []}')
    assert "is not an inspect log" in error(path, input_format="inspect")


def test_error_folder_without_logs(tmp_path):
    assert "found no inspect logs" in error(tmp_path, input_format="inspect")


@pytest.mark.parametrize("bad, message", [
    ({"epoch": 1, "scores": {}}, "is not an inspect sample (no id)"),
    (sample(1.5), "sample id 1.5"),
    (sample(1, epoch=None), "epoch None"),
    (sample(1, value=[1, 0]), "gives a list"),
    (sample(1, value="maybe"), "is not C, I, P, N, a number or a boolean"),
])
def test_error_bad_samples(tmp_path, bad, message):
    path = eval_log(tmp_path / "x.eval", {"header.json": header(), "samples/1.json": sample(2),
                                          "samples/2.json": bad})
    assert message in error(path)


def test_error_scorer_not_found_and_no_scores(tmp_path):
    assert "no sample has a score from scorer 'judge'" in error(OWN / "epochs_a.json",
                                                               scorer="judge")
    path = eval_log(tmp_path / "x.eval", {"header.json": header(),
                                          "samples/1.json": {"id": 1, "scores": {}}})
    assert "has a score (was the eval run with --no-score?" in error(path)


def test_error_metric_on_plain_values():
    assert "picks a key of dict score values" in error(OWN / "epochs_a.json", metric="f1")


def test_error_cluster(tmp_path):
    assert "'metadata.KEY'" in error(OWN / "epochs_a.json", cluster="topic")
    assert "no string or integer metadata 'level'" in error(OWN / "epochs_a.json",
                                                            cluster="metadata.level")


def test_error_lone_surrogate_in_metadata_or_model(tmp_path):
    """A "\\ud800" escape in the log is refused at reading, naming the sample."""
    log = json.loads((OWN / "epochs_a.json").read_text())
    log["samples"][1]["metadata"]["topic"] = "\ud800"
    path = tmp_path / "meta.json"
    path.write_text(json.dumps(log))
    message = error(path, cluster="metadata.topic")
    assert f"cluster label '\\ud800' in column 'metadata.topic' at samples[1] of '{path}'" \
        in message and "lone UTF-16 surrogate" in message
    log["eval"]["model"] = "m\udc00"
    path.write_text(json.dumps(log))
    assert "model name 'm\\udc00' in column 'model' at samples[0]" in error(path)


def test_error_score_in_digits_that_are_not_ascii(tmp_path):
    log = json.loads((OWN / "epochs_a.json").read_text())
    log["samples"][0]["scores"]["match"]["value"] = "\uff11"
    path = tmp_path / "digits.json"
    path.write_text(json.dumps(log))
    assert "score '\uff11' of scorer 'match' at samples[0]" in error(path)


def test_error_options_of_other_formats():
    assert "qrels= (--qrels) does not apply to inspect logs" in error(
        OWN / "epochs_a.json", input_format="inspect", qrels="q.txt")


# --------------------------------------------------------------------------- #16 item 11


def test_every_sample_errored_names_the_error():
    # errored.json: inspect's EvalSample with "scores": null and "error": an EvalError
    # (message, traceback, traceback_ansi), as a run whose every request was refused writes.
    message = error(OWN / "errored.json")
    assert message.startswith(f"every sample of '{OWN / 'errored.json'}' ended in an error "
                              f"(3 samples; the first, at samples[0]: \"RateLimitError(")
    assert "429 - rate limit reached" in message and "--no-score" not in message
    assert "ended in an error" in error(OWN / "errored.json", scorer="match")
    log = json.loads((OWN / "errored.json").read_text())
    log["samples"][0]["error"] = {"message": "boom\nsecond line", "traceback": "t"}
    assert "the first, at samples[0]: 'boom')" in _read(log)


def _read(log: dict) -> str:
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.json"
        path.write_text(json.dumps(log))
        return error(path)


def test_some_samples_errored_are_unscored_not_fatal(tmp_path):
    path = eval_log(tmp_path / "x.eval", {
        "header.json": header(), "samples/1.json": sample(1),
        "samples/2.json": {"id": 2, "epoch": 1, "scores": None,
                           "error": {"message": "timeout", "traceback": ""}}})
    data = load(path, intersect=True)
    assert data.items == ("1",) and "1 unscored answer left out" in data.describe()


def test_header_only_log_in_a_folder_is_skipped(tmp_path):
    # started.eval: a run cut short before any sample was written (_journal/start.json
    # only). In a folder it is skipped and said; given by itself it is an error.
    for name in ("epochs_b.eval", "started.eval"):
        (tmp_path / name).write_bytes((OWN / name).read_bytes())
    (tmp_path / "header.json").write_text(json.dumps(header(task="arith")))
    data = load(tmp_path)
    assert data.models == ("openai/model-b",)
    assert "2 inspect logs holding no samples (a header only) skipped: 'header.json', " \
           "'started.eval'" in data.describe()
    assert "holds no samples" in error(OWN / "started.eval")
    (tmp_path / "epochs_b.eval").unlink()
    assert "no inspect log under" in error(tmp_path) and "each is a header only" in \
        error(tmp_path)


def test_samples_keep_only_what_is_read(tmp_path):
    # #17 item 16: of each sample only the id, epoch, score values, error message and the
    # cluster's metadata key stay in memory, not transcripts, explanations or metadata.
    from evalbars.io.logs import inspectai
    log = inspectai._read_log(str(OWN / "epochs_a.json"), None, {"cluster": "topic"})
    first = log.samples[0]
    assert (first.id, first.epoch, first.scores, first.groups, first.error) == \
        (1, 1, {"match": "C"}, {"cluster": "add"}, None)
    assert set(vars(first)) == {"key", "id", "epoch", "scores", "groups", "error"}
    assert inspectai._read_log(str(OWN / "epochs_a.json"), None, {}).samples[0].groups == {}
    assert "samples" not in log.spec


def test_json_log_read_a_sample_at_a_time_gives_the_same_reading(monkeypatch):
    # Past MAX_ENTRY_VALUES the .json log is parsed one sample at a time: the same scores.
    whole = load(OWN / "epochs_a.json", OWN / "epochs_b.eval", cluster="metadata.topic")
    from evalbars.io.logs import _json_stream
    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 60)
    assert _json_stream.values((OWN / "epochs_a.json").read_bytes()) > 60
    parts = load(OWN / "epochs_a.json", OWN / "epochs_b.eval", cluster="metadata.topic")
    assert parts.items == whole.items and parts.clusters == whole.clusters
    assert parts.scores.tolist() == whole.scores.tolist()
    assert parts.describe() == whole.describe()


@real
def test_real_json_logs_a_sample_at_a_time(monkeypatch):
    whole = load(REAL / "log_formats.json", REAL / "log_read_sample.json")
    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 2000)
    monkeypatch.setattr(_zip, "MAX_METADATA_BYTES", 8000)
    parts = load(REAL / "log_formats.json", REAL / "log_read_sample.json")
    assert parts.scores.tolist() == whole.scores.tolist() == [[0, 1]]


def test_error_json_sample_with_too_many_values_is_not_parsed(tmp_path, monkeypatch):
    # The caps of a .eval entry hold for each sample of a .json log: a sample of more
    # values than MAX_ENTRY_VALUES is refused before it is parsed, naming it.
    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 1000)
    path = tmp_path / "big.json"
    hostile = sample(2, messages=[[] for _ in range(1500)])
    path.write_text(json.dumps({**header(), "samples": [sample(1), hostile]}))
    message = error(path)
    assert f"samples[1] of '{path}' holds more than 1,000 JSON values" in message
    assert "MAX_ENTRY_VALUES" in message
    path.write_text(json.dumps({**header(), "plan": [[] for _ in range(1500)],
                                "samples": [sample(1)]}))
    assert f"member 'plan' of '{path}' holds more than 1,000 JSON values" in error(path)


def test_error_json_log_broken_past_the_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 10)
    path = tmp_path / "cut.json"
    text = json.dumps({**header(), "samples": [sample(k) for k in range(8)]})
    path.write_text(text[:-30])
    assert "is not valid JSON" in error(path, input_format="inspect")
    path.write_text(text.replace('"epoch": 1, "scores"', '"epoch": 1 "scores"', 1))
    assert "is not valid JSON: Expecting ',' delimiter at line 1" in error(
        path, input_format="inspect")


def test_detection_of_a_large_json_log_parses_an_outline_only(tmp_path, monkeypatch):
    from evalbars.io.logs import _json, detect
    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 20)
    path = tmp_path / "log.json"
    path.write_text(json.dumps({**header(), "samples": [sample(k) for k in range(30)]}))
    assert detect(str(path)) == "inspect"
    outline = _json.peek(str(path), keep=False, partial=True)
    assert _json.is_partial(outline) and len(outline["samples"]) == 1
    assert load(path).items == tuple(sorted(str(k) for k in range(30)))
    hostile = tmp_path / "hostile.json"
    hostile.write_text("[" + "[]," * 1000 + "[]]")
    assert _json.peek(str(hostile), keep=False, partial=True) == [[]]
