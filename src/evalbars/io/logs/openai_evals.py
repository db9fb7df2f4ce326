"""OpenAI evals record files (``oaieval ... --record_path run.jsonl``).

A record file is JSON Lines: a first line ``{"spec": {...}}`` (the run spec:
``completion_fns``, or ``model_name`` in older versions, ``eval_name``, ``run_id``), then
one line per event, ``{"run_id", "event_id", "sample_id", "type", "data", ...}``, and a
last ``{"final_report": {...}}`` (field names from ``evals/record.py`` and
``evals/base.py`` of the openai/evals repository).

- **model**: the spec's ``completion_fns`` joined with ``,``, else ``model_name``, else the
  file name;
- **item**: the ``sample_id``;
- **score**: ``data[<metric>]`` of each ``match`` event, ``metric="correct"`` by default
  (true 1, false 0). A model-graded eval (``evals.elsuite.modelgraded``) records no match
  events but one ``metrics`` event per sample, whose ``data`` holds the grader's
  ``choice`` and ``score``: there ``metric="score"`` is the default. Several scoring
  events for one sample are **samples** of it, averaged; a sample that has other events
  but no scoring event, or a null score (a choice the grader's scores do not map), is
  unscored, left out and counted.

Record files are read whatever their name ends in (``.jsonl``, ``.log``).
"""
from __future__ import annotations

import os
from typing import Any, Iterator

from ...core.errors import EvalbarsError
from ..table import name_list, short
from . import _json
from ._answers import LINE, Answers, Options, Run, label, name_runs, number, reject, text

FORMAT = "openai-evals"


def is_record(obj: Any) -> bool:
    """True for the first line of a record file: the spec, or an event."""
    if not isinstance(obj, dict):
        return False
    spec = obj.get("spec")
    if isinstance(spec, dict):
        return "eval_name" in spec or "run_id" in spec
    return {"run_id", "sample_id", "type"} <= obj.keys()


def read(paths: list[str], options: Options) -> Answers:
    """Read OpenAI evals record files (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, openai_evals
    >>> answers = openai_evals.read(["tests/data/logs/openai-evals/run_a.jsonl"], Options())
    >>> answers.items
    ['arith.dev.0', 'arith.dev.1', 'arith.dev.2', 'arith.dev.2']
    >>> answers.samples, answers.scores, answers.unscored
    (['0', '0', '0', '1'], [1.0, 0.0, 1.0, 0.0], {'gpt-3.5-turbo': ['arith.dev.3']})
    """
    reject(FORMAT, options, ())
    metric = options.metric
    specs = [_spec(path) for path in paths]
    evals = {path: spec.get("eval_name") for path, spec in zip(paths, specs)}
    evals = {path: None if name is None else text(name) for path, name in evals.items()}
    if len(set(evals.values())) > 1:
        raise EvalbarsError("the record files are of different evals (" + ", ".join(
            f"{e!r} in {p!r}" for p, e in evals.items()) + "); compare runs of one eval")
    names = name_runs([Run(_model(spec, path), (str(spec.get("run_id") or ""),
                                                 os.path.basename(path)))
                       for path, spec in zip(paths, specs)])
    events = {path: _scoring_events(path, metric) for path in paths}
    kinds = {path: kind for path, (kind, _, _) in events.items()}
    if len(set(kinds.values())) > 1:
        raise EvalbarsError("the record files are scored by different events (" + ", ".join(
            f"{k!r} in {p!r}" for p, k in kinds.items()) + "); compare runs of one eval")
    kind = next(iter(kinds.values()))
    metric = metric or _DEFAULT[kind]
    answers = Answers(FORMAT, list(paths), item_name="sample_id", score_name=metric,
                      sample_name=kind)
    for path, name in zip(paths, names):
        index = answers.file(path, LINE)
        _, scored, others = events[path]
        seen: dict[str, int] = {}
        for lineno, item, data in scored:
            value = data.get(metric) if isinstance(data, dict) else None
            try:
                score = number(value)
            except ValueError:
                raise EvalbarsError(f"{metric!r} of the {kind} event at line {lineno} of "
                                    f"{path!r} is {short(value)}, not a number or a boolean") \
                    from None
            if score is None:
                answers.skip(name, item)
                continue
            seen[item] = seen.get(item, -1) + 1
            answers.add(item, name, score, index, lineno, sample=str(seen[item]))
        if kind == "metrics" and metric == "score" and scored and not any(
                isinstance(data, dict) and data.get("score") is not None
                for _, _, data in scored):
            raise EvalbarsError(
                f"every metrics event of {path!r} has a null score: the model-graded eval "
                f"gives its grader's choices no scores (no choice_scores in its modelgraded "
                f"spec), so there is no number to compare")
        scored_ids = {item for _, item, _ in scored}
        for item in others:
            if item not in scored_ids:
                answers.skip(name, item)
    how = "true 1, false 0" if kind == "match" else "model-graded"
    answers.reading = (f"eval {next(iter(evals.values()))!r}, score {metric!r} of each {kind} "
                       f"event ({how})")
    answers.settings = {"metric": metric, "event": kind,
                        "eval_name": next(iter(evals.values()))}
    return answers


_DEFAULT = {"match": "correct", "metrics": "score"}


def _scoring_events(path: str, metric: str | None) -> tuple[str, list, dict]:
    """The kind of event that scores the file's samples (``match``, else ``metrics``), its
    events as (line, sample id, the value of the metric in data), and the other samples.

    Only the value of the metric is kept, not the event: a record file may hold long
    transcripts.
    """
    found: dict[str, list] = {"match": [], "metrics": []}
    others: dict[str, None] = {}
    for lineno, event in _events(path):
        item = label(event.get("sample_id"))
        if item is None:
            raise EvalbarsError(f"sample_id {short(event.get('sample_id'))} at line "
                                f"{lineno} of {path!r} is not a string")
        kind = event.get("type")
        if isinstance(kind, str) and kind in found:
            data = event.get("data")
            keys = {metric} if metric else set(_DEFAULT.values())
            kept = {k: data[k] for k in keys if k in data} if isinstance(data, dict) else None
            found[kind].append((lineno, item, kept))
        else:
            others.setdefault(item)
    kind = "match" if found["match"] or not found["metrics"] else "metrics"
    return kind, found[kind], others


def _spec(path: str) -> dict:
    for _, record in _records(path):
        return record.get("spec") if isinstance(record.get("spec"), dict) else {}
    raise EvalbarsError(f"{path!r} is empty: no spec and no events")


def _model(spec: dict, path: str) -> str:
    fns = spec.get("completion_fns")
    if isinstance(fns, list) and fns:
        return ",".join(map(str, fns))
    name = spec.get("model_name")
    return name if isinstance(name, str) and name else os.path.splitext(os.path.basename(path))[0]


def _records(path: str) -> Iterator[tuple[int, dict]]:
    for lineno, record in _json.lines(path):
        if not isinstance(record, dict):
            raise EvalbarsError(f"line {lineno} of {path!r} is not a JSON object")
        yield lineno, record


def _events(path: str) -> Iterator[tuple[int, dict]]:
    """The event lines (those with a sample_id): not the spec, nor the final report."""
    for lineno, record in _records(path):
        if "sample_id" in record:
            yield lineno, record
        elif not ({"spec", "final_report"} & record.keys()):
            raise EvalbarsError(f"line {lineno} of {path!r} is neither the spec, an event "
                                f"(with a sample_id) nor the final report; keys: "
                                f"{name_list(record)}")
