"""inspect_ai logs: ``.eval`` archives and ``.json`` logs.

A ``.eval`` log is a zip archive: ``header.json`` (or, for a run that did not finish,
``_journal/start.json``) holds the eval spec and ``samples/<id>_epoch_<n>.json`` one scored
sample each; a ``.json`` log holds the same as one document with a ``samples`` list. A
folder is read as every log in it.

- **model**: ``eval.model`` of the header; two logs of one model are told apart by their
  creation times (``openai/gpt-4o-mini@2025-02-11T15:18:04-05:00``);
- **item**: the sample ``id``; the **sample** is its ``epoch``, so several epochs of a
  question are averaged into one item, never counted as separate questions;
- **score**: ``scores[<scorer>].value``, the scorer chosen with ``scorer=`` (``--scorer``)
  when the samples have several. ``C`` (correct) is 1, ``I`` (incorrect) 0, ``P``
  (partial) 0.5 and ``N`` (no answer) 0; booleans, numbers and numeric strings are taken
  as they are; a dict value needs ``metric=`` to pick one of its keys;
- **unscored**: a sample whose scorer is missing, whose value is null or NaN, or that
  ended in an error carries no score: it is left out and the report counts it with its
  ids (it is never counted as 0);
- **cluster**: ``cluster="metadata.KEY"``, a field of each sample's metadata.

All logs read must be of one task. A log of a folder that holds no samples (a header
only: the run was cut short, or written with ``--no-log-samples``) is skipped, and the
report says so; given by itself, it is an error. When every sample of a log ended in an
error, the error says so and quotes the first one. Zip entries are read with caps on their
decompressed size, far lower for the header, and on the JSON values they hold
(:mod:`evalbars.io.logs._zip`); a ``.json`` log is held to the same caps, a sample at a
time (:func:`evalbars.io.logs._json.records`). Of each sample only what is read is kept:
its id, epoch, score values, error message and the metadata key of ``cluster``.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any, Iterator

from ...core.errors import EvalbarsError
from ..labels import ROLES
from ..table import name_list, short
from . import _json
from ._answers import Answers, Options, Run, field_path, label, name_runs, number, reject, text
from ._zip import Archive

FORMAT = "inspect"

LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
"""Inspect's letter grades: correct, incorrect, partial, no answer."""

_ENTRY = ("entry", "entries")
_ELEMENT = ("", "")


def is_log(obj: Any) -> bool:
    """True for a parsed inspect ``.json`` log (or ``header.json``)."""
    return isinstance(obj, dict) and isinstance(obj.get("eval"), dict) and "version" in obj \
        and "model" in obj["eval"] and "task" in obj["eval"]


def looks_like_log(head: bytes) -> bool:
    """True when the first bytes of a ``.json`` file look like an inspect log's header."""
    return bool(re.search(rb'"eval"\s*:\s*\{', head) and re.search(rb'"version"\s*:', head))


@dataclass
class _Sample:
    key: str  # where: a zip entry, or samples[k]
    id: Any
    epoch: Any
    scores: dict | None  # scorer -> its value, no explanation or metadata
    groups: dict  # role -> the value of its metadata key (None: absent)
    error: str | None  # the first line of the error message


@dataclass
class _Log:
    path: str
    spec: dict  # the header: eval, status, results
    samples: list[_Sample]


def read(paths: list[str], options: Options) -> Answers:
    """Read inspect logs from files or folders (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, inspectai
    >>> answers = inspectai.read(["tests/data/logs/inspect/epochs_b.eval"], Options())
    >>> answers.items[:4], answers.samples[:4], answers.scores[:4]
    (['1', '1', '2', '2'], ['1', '2', '1', '2'], [1.0, 1.0, 0.0, 1.0])
    """
    reject(FORMAT, options, ("scorer",), clusters=True)
    keys = {}
    for role, spec in options.labels.items():
        try:
            keys[role] = field_path(spec, ("metadata",))[1]
        except ValueError:
            raise EvalbarsError(f"{role}={spec!r}: inspect samples are {ROLES[role].grouped} "
                                f"by a field of their metadata, 'metadata.KEY'") from None
    found = [(_read_log(path, doc, keys), alone) for given in paths
             for path, doc, alone in _log_files(given)]
    logs = [log for log, alone in found if log.samples or alone]
    skipped = [log.path for log, alone in found if not (log.samples or alone)]
    if not logs:
        raise EvalbarsError(f"no inspect log under {name_list(paths)} holds samples (each "
                            f"is a header only: {name_list(skipped, 5)})")
    for log in logs:
        if not log.samples:
            raise EvalbarsError(f"the inspect log {log.path!r} holds no samples (a header "
                                f"only: was the run cut short, or written with "
                                f"--no-log-samples?)")
    tasks = {log.path: text(log.spec["eval"].get("task")) for log in logs}
    if len(set(tasks.values())) > 1:
        raise EvalbarsError(
            "the logs are of different tasks (" + ", ".join(
                f"{t!r} in {p!r}" for p, t in tasks.items()) + "); compare logs of one task")
    scorer = _scorer(logs, options.scorer)
    names = name_runs([Run(text(log.spec["eval"].get("model")), _labels(log)) for log in logs])
    answers = Answers(FORMAT, list(paths), item_name="sample id", score_name=scorer,
                      label_names=options.labels, sample_name="epoch")
    for log, name in zip(logs, names):
        if not any(isinstance(s.scores, dict) and scorer in s.scores for s in log.samples):
            _no_score(log)
            raise EvalbarsError(
                f"no sample of {log.path!r} has a score from scorer {scorer!r} (was the eval "
                f"run with --no-score? score it with 'inspect score')")
        index = answers.file(log.path, _ENTRY if log.path.endswith(".eval") else _ELEMENT)
        for sample in log.samples:
            _add(answers, index, log.path, name, sample, scorer, options.metric, keys)
    _describe(answers, logs, scorer, options)
    if skipped:
        answers.notes.append(f"{len(skipped)} inspect log{'s' if len(skipped) > 1 else ''} "
                             f"holding no samples (a header only) skipped: "
                             f"{name_list([os.path.basename(p) for p in skipped], 5)}")
    return answers


def _no_score(log: _Log) -> None:
    """Raise, quoting the first error, when every sample of ``log`` ended in an error."""
    if log.samples and all(sample.error is not None for sample in log.samples):
        first = log.samples[0]
        raise EvalbarsError(
            f"every sample of {log.path!r} ended in an error ({len(log.samples)} samples; "
            f"the first, at {first.key}: {first.error!r}), so none has a score")


# --------------------------------------------------------------------------- files


def _log_files(path: str) -> Iterator[tuple[str, Any, bool]]:
    """(path, parsed document or None, given by itself) of each log: ``path`` itself, or
    those under it.

    The ``.json`` files of a folder are parsed here to keep the inspect logs (an outline
    only of one too large to parse whole, see :func:`evalbars.io.logs._json.peek`).
    """
    if not os.path.isdir(path):
        yield path, None, True
        return
    found = False
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(root, name)
            doc = _json.peek(full, keep=False, partial=True) if name.endswith(".json") \
                else None
            if name.endswith(".eval") or is_log(doc):
                found = True
                yield full, doc, False
    if not found:
        raise EvalbarsError(f"found no inspect logs (.eval or .json) under {path!r}")


def _read_log(path: str, doc: Any, keys: dict[str, str]) -> _Log:
    """The log's header and its samples, each reduced to what is read (``keys``: the
    metadata key of each per-item label, by role)."""
    if path.endswith(".eval"):
        return _read_eval(path, keys)
    spec, samples = _json.records(path, "samples", doc)
    if not is_log(spec):
        raise EvalbarsError(f"{path!r} is not an inspect log (no 'eval' spec with a task "
                            f"and a model)")
    return _Log(path, spec, [_sample(s, f"samples[{k}]", path, keys) for k, s in samples])


def _read_eval(path: str, keys: dict[str, str]) -> _Log:
    with Archive(path) as archive:
        names = archive.names()
        head = "header.json" if "header.json" in names else "_journal/start.json"
        if head not in names:
            raise EvalbarsError(f"{path!r} has neither header.json nor _journal/start.json: "
                                f"it is not an inspect .eval log")
        spec = _parse(archive.read(head, metadata=True), head, path)
        if not is_log(spec):
            raise EvalbarsError(f"{head} of {path!r} holds no eval spec with a task and a "
                                f"model")
        entries = [n for n in names if n.startswith("samples/") and n.endswith(".json")]
        samples = [_sample(_parse(archive.read(n), n, path), repr(n), path, keys)
                   for n in entries]
    return _Log(path, spec, samples)


def _parse(raw: bytes, entry: str, path: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise EvalbarsError(f"entry {entry!r} of {path!r} is not valid JSON ({exc})") from None


def _sample(obj: Any, key: str, path: str, keys: dict[str, str]) -> _Sample:
    """The parts of a parsed sample that are read (the rest, transcripts included, is
    dropped at once)."""
    if not isinstance(obj, dict) or "id" not in obj:
        raise EvalbarsError(f"{key} of {path!r} is not an inspect sample (no id)")
    scores = obj.get("scores")
    if isinstance(scores, dict):
        scores = {name: entry.get("value") if isinstance(entry, dict) else None
                  for name, entry in scores.items()}
    meta = obj.get("metadata")
    groups = {role: meta.get(name) if isinstance(meta, dict) else None
              for role, name in keys.items()}
    return _Sample(key, obj["id"], obj.get("epoch", 1),
                   scores if isinstance(scores, dict) else None, groups, _error(obj.get("error")))


def _error(error: Any) -> str | None:
    """The first line of a sample's error message (an ``EvalError``: message, traceback)."""
    if error is None:
        return None
    message = error.get("message") if isinstance(error, dict) else error
    lines = text(message).strip().splitlines() if message is not None else []
    return lines[0][:300] if lines else "an error with no message"


def _labels(log: _Log) -> tuple[str, ...]:
    spec = log.spec["eval"]
    return tuple(str(spec.get(k) or "") for k in ("created", "run_id", "task_id")) + \
        (os.path.basename(log.path),)


# --------------------------------------------------------------------------- scores


def _scorer(logs: list[_Log], wanted: str | None) -> str:
    found: dict[str, None] = {}
    for log in logs:
        for sample in log.samples:
            if isinstance(sample.scores, dict):
                found.update(dict.fromkeys(sample.scores))
    if wanted is not None:
        if wanted not in found:
            for log in logs if not found else ():
                _no_score(log)
            raise EvalbarsError(f"no sample has a score from scorer {wanted!r} (scorer=); "
                                f"scorers: {name_list(found)}")
        return wanted
    if not found:
        for log in logs:
            _no_score(log)
        raise EvalbarsError(
            f"no sample of {name_list([log.path for log in logs])} has a score (was the eval "
            f"run with --no-score? score it with 'inspect score')")
    if len(found) > 1:
        raise EvalbarsError(f"the samples have {len(found)} scorers, {name_list(found)}: "
                            f"choose one with scorer= (--scorer)")
    return next(iter(found))


def _add(answers: Answers, index: int, path: str, model: str, sample: _Sample, scorer: str,
         metric: str | None, keys: dict[str, str]) -> None:
    item = label(sample.id)
    if item is None:
        raise EvalbarsError(f"sample id {short(sample.id)} at {sample.key} of {path!r} is not "
                            f"a string or an integer")
    epoch = label(sample.epoch)
    if epoch is None:
        raise EvalbarsError(f"epoch {short(sample.epoch)} at {sample.key} of {path!r} is not "
                            f"an integer")
    score = None
    if sample.error is None and isinstance(sample.scores, dict) and scorer in sample.scores:
        score = _value(sample.scores[scorer], metric, scorer, f"{sample.key} of {path!r}")
    if score is None:
        answers.skip(model, item)
        return
    labels = {}
    for role, name in keys.items():
        labels[role] = label(sample.groups[role])
        if labels[role] is None:
            raise EvalbarsError(f"{role}='metadata.{name}': the sample at {sample.key} of "
                                f"{path!r} has no string or integer metadata {name!r}")
    answers.add(item, model, score, index, sample.key, labels=labels, sample=epoch)


def _value(value: Any, metric: str | None, scorer: str, where: str) -> float | None:
    """A score value as a float, or None when unscored."""
    if isinstance(value, dict):
        if metric is None:
            raise EvalbarsError(f"scorer {scorer!r} gives several values per sample "
                                f"({name_list(value)}, at {where}): choose one with metric= "
                                f"(--metric)")
        return _value(value.get(metric), None, scorer, where)
    if metric is not None:
        raise EvalbarsError(f"metric={metric!r} picks a key of dict score values, but scorer "
                            f"{scorer!r} gives {short(value)} at {where}")
    if isinstance(value, str) and value.strip() in LETTERS:
        return LETTERS[value.strip()]
    if isinstance(value, list):
        raise EvalbarsError(f"scorer {scorer!r} gives a list at {where}: evalbars needs one "
                            f"number per sample")
    try:
        return number(value)
    except ValueError:
        raise EvalbarsError(f"score {short(value)} of scorer {scorer!r} at {where} is not C, "
                            f"I, P, N, a number or a boolean") from None


# --------------------------------------------------------------------------- report


def _describe(answers: Answers, logs: list[_Log], scorer: str, options: Options) -> None:
    how = "chosen" if options.scorer else "the only scorer"
    key = f", key {options.metric!r}" if options.metric else ""
    answers.reading = (f"task {logs[0].spec['eval'].get('task')!r}, scorer {scorer!r} "
                       f"({how}{key}; C=1, P=0.5, I=N=0), epochs averaged per question")
    reducers = {}
    for log in logs:
        config = log.spec["eval"].get("config") or {}
        reducer = config.get("epochs_reducer") if isinstance(config, dict) else None
        if reducer:
            reducers[log.path] = reducer
        status = log.spec.get("status")
        if status not in (None, "success"):
            answers.notes.append(f"{log.path!r} has status {status!r}: the run did not finish")
    answers.settings = {"task": logs[0].spec["eval"].get("task"), "scorer": scorer,
                        "metric": options.metric, "epochs_reducer": reducers or None,
                        "status": {log.path: log.spec.get("status") for log in logs}}
    odd = sorted({", ".join(map(text, r)) if isinstance(r, list) else text(r)
                  for r in reducers.values()} - {"mean"})
    if odd:
        answers.notes.append(f"inspect reduced epochs with {' / '.join(odd)}; evalbars "
                             f"averages each question's epochs")

