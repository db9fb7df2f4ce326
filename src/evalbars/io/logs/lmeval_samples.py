"""The per-question records of one lm-eval (or lmms-eval) task: records, metric, scores.

A samples file is JSON Lines (v0.4.3 and later, lmms-eval) or one JSON array (v0.4.0-0.4.2,
whatever its extension, and v0.3 ``--write_out`` files). Each record is one (question,
filter) with its metrics; :func:`read_task` turns the records of the chosen filter into
rows. Values are read as each version writes them: numbers (lm-eval), text such as
``"True"`` (v0.3 ``--write_out``) and, in lmms-eval, a record per question whose
``score`` field is its score.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ...core.errors import EvalbarsError
from ..table import name_list, short
from . import _json
from ._answers import LINE, Answers, label, number
from .lmeval_layouts import head, is_array

_NOT_METRICS = frozenset({
    "doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
    "doc_hash", "prompt_hash", "target_hash", "task_name", "task", "prompt", "truth",
    "input", "input_media", "token_counts",
})
_TEXT_BOOLS = {"True": 1.0, "False": 0.0}
CORPUS = ("it is stored per question as a list: lm-eval computes it over the whole corpus "
          "(as f1, bleu, mcc), so there is no per-question score to compare")


@dataclass
class State:
    """What the tasks read so far chose and found (shared by every task of a read)."""

    metric: str | None
    wanted_filter: str | None
    labels: dict[str, tuple[str, str]]  # role -> ("task", "") or ("doc", KEY)
    lmms: bool = False  # lmms-eval: a question without the metric is in another metric
    chosen: bool = False  # the metric was given, not the default
    filters: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # task: kept, seen
    hashes: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # item: hash, path, key
    tasks: list[str] = field(default_factory=list)
    counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (model, task): records
    absent: dict[tuple[str, str], int] = field(default_factory=dict)  # (model, task): count
    text_values: bool = False  # a value of a v0.3 --write_out file was read from text
    score_field: bool = False  # a metric's values were records with a 'score'
    arrays: set[str] = field(default_factory=set)  # samples files that are one JSON array

    def __post_init__(self) -> None:
        self.chosen = self.metric is not None

    def where(self, path: str, key: int) -> str:
        """``"line 3 of 'x.jsonl'"``, or ``"index 3 of 'x.json'"`` in a JSON array."""
        return f"{'index' if path in self.arrays else 'line'} {key} of {path!r}"


def records(path: str, answers: Answers, state: State) -> Iterator[tuple[int, int, Any]]:
    """(file index, line or array index, record) of a samples file."""
    if path.endswith(".json") or is_array(head(path)):
        state.arrays.add(path)
        data = _json.load(path)
        if not isinstance(data, list):
            raise EvalbarsError(f"{path!r} is not an lm-eval samples file (one JSON array of "
                                f"per-question records)")
        index = answers.file(path, ("index", "indices"))
        for k, record in enumerate(data):
            yield index, k, record
        return
    index = answers.file(path, LINE)
    for lineno, record in _json.lines(path):
        yield index, lineno, record


def read_task(answers: Answers, state: State, model: str, task: str, path: str,
              listed: list[str]) -> None:
    """Add the scored records of one samples file; ``listed``: the task's metrics in its
    results file (for records without a ``metrics`` list)."""
    kept: str | None = None
    seen: list[str] = []
    text = False
    count = 0
    for file, key, record in records(path, answers, state):
        if not isinstance(record, dict) or "doc_id" not in record:
            raise EvalbarsError(f"{state.where(path, key)} is not an lm-eval per-question record "
                                f"(no doc_id)")
        filter_name = record.get("filter", "none")
        if not isinstance(filter_name, str):
            raise EvalbarsError(f"filter {short(filter_name)} at {state.where(path, key)} is not a "
                                f"string")
        if filter_name not in seen:
            seen.append(filter_name)
        if kept is None and (state.wanted_filter is None or filter_name == state.wanted_filter):
            kept = filter_name
            text = "truth" in record and any(k.startswith("prompt_") for k in record)
            _choose_metric(state, record, task, state.where(path, key), listed, text)
        if filter_name != kept:
            continue
        count += 1
        doc_id = label(record["doc_id"])
        if doc_id is None:
            raise EvalbarsError(f"doc_id {short(record['doc_id'])} at {state.where(path, key)} is "
                                f"not a string or an integer")
        item = f"{task}/{filter_name}/{doc_id}"
        doc_hash = record.get("doc_hash")
        if isinstance(doc_hash, str):
            _check_hash(state, item, doc_hash, path, key)
        if state.lmms and state.metric not in record:
            state.absent[(model, task)] = state.absent.get((model, task), 0) + 1
            continue
        score = _score(state, record.get(state.metric), task, text, state.where(path, key))
        if score is None:
            answers.skip(model, item)
            continue
        labels = {role: _label(role, spec, task, record, state.where(path, key))
                  for role, spec in state.labels.items()}
        answers.add(item, model, score, file, key, labels=labels)
    if not seen:
        raise EvalbarsError(f"{path!r} holds no per-question records")
    if kept is None:
        raise EvalbarsError(f"filter {state.wanted_filter!r} (metric=) is not in {path!r}, "
                            f"whose filters are {name_list(seen)}")
    state.filters[task] = (kept, seen)
    state.counts[(model, task)] = state.counts.get((model, task), 0) + count
    if task not in state.tasks:
        state.tasks.append(task)


def _score(state: State, value: Any, task: str, text: bool, at: str) -> float | None:
    if isinstance(value, dict) and state.lmms:
        if "score" not in value:
            raise EvalbarsError(f"metric {state.metric!r} of task {task!r} holds a record "
                                f"without a 'score' at {at}: lmms-eval scores it only in its "
                                f"aggregation, so there is no per-question score; choose "
                                f"another with metric= (--metric)")
        state.score_field = True
        value = value["score"]
    if _is_list(value, text):
        raise EvalbarsError(f"metric {state.metric!r} of task {task!r} cannot be compared "
                            f"per question: {CORPUS} ({at}); choose another with metric= "
                            f"(--metric)")
    if text and isinstance(value, str):
        state.text_values = True
        value = _TEXT_BOOLS.get(value.strip(), value)
    try:
        return number(value)
    except ValueError:
        raise EvalbarsError(f"metric {state.metric!r} at {at} is {short(value)}, not a "
                            f"number") from None


def _is_list(value: Any, text: bool) -> bool:
    """A per-question list (a corpus-level metric); v0.3 wrote tuples as text."""
    return isinstance(value, (list, tuple)) or \
        (text and isinstance(value, str) and value.lstrip()[:1] in ("(", "["))


def _candidates(record: dict, listed: list[str], text: bool, lmms: bool) -> list[str]:
    """The metrics of a task's first record: its ``metrics`` list, else its results file's
    metric list, else every value that may be a score and is not a known field."""
    names = record.get("metrics")
    if isinstance(names, list):
        return [m for m in names if isinstance(m, str)]
    if listed:
        return list(listed)
    kinds: tuple = (int, float, list, tuple) + ((str,) if text else ()) + \
        ((dict,) if lmms else ())
    return [k for k, v in record.items()
            if k not in _NOT_METRICS and not _write_out_field(k) and isinstance(v, kinds)]


def _write_out_field(key: str) -> bool:
    name, _, number_ = key.rpartition("_")
    return name in ("prompt", "logit") and number_.isdigit()


def _per_question(record: dict, metric: str, text: bool) -> bool:
    value = record.get(metric)
    if isinstance(value, dict):
        value = value.get("score", [])
    return not _is_list(value, text)


def _choose_metric(state: State, record: dict, task: str, at: str, listed: list[str],
                   text: bool) -> None:
    """Check the chosen metric against a task's first record, or choose the default."""
    metrics = _candidates(record, listed, text, state.lmms)
    if state.chosen:
        if state.metric not in metrics and state.metric not in record:
            raise EvalbarsError(f"task {task!r} has no metric {state.metric!r} (metric=); its "
                                f"metrics are {name_list(metrics)} ({at})")
        return
    per_question = [m for m in metrics if _per_question(record, m, text) and (
        m in record or (state.lmms and bool(listed)))]  # lmms: a metric of some questions
    if not metrics:  # no metrics list and no numeric field (a number written as text?)
        raise EvalbarsError(f"task {task!r} has no per-question metric: its first record "
                            f"({at}) names none and holds no number besides lm-eval's own "
                            f"fields")
    if not per_question:
        raise EvalbarsError(
            f"task {task!r} has no per-question metric: {name_list(metrics)} "
            f"{'is' if len(metrics) == 1 else 'are'} stored as lists ({at}); {CORPUS}")
    if state.metric is None:
        state.metric = per_question[0]
    elif state.metric not in metrics:
        how = ("read one task at a time: give its <date>_samples_<task>.jsonl files" if state.lmms
               else "choose one with metric= (--metric), or read one task at a time")
        raise EvalbarsError(
            f"the tasks read have no first metric in common ({state.metric!r} for "
            f"{state.tasks[0]!r}, {per_question[0]!r} for {task!r}); {how}")


def _check_hash(state: State, item: str, doc_hash: str, path: str, key: int) -> None:
    first = state.hashes.setdefault(item, (doc_hash, path, key))
    if first[0] != doc_hash:
        raise EvalbarsError(
            f"item {item!r} is not the same question in every run: doc_hash "
            f"{first[0][:12]}... at {state.where(first[1], first[2])} but {doc_hash[:12]}... at "
            f"{state.where(path, key)}; the runs used different documents (another dataset "
            f"version?), so they cannot be paired")


def _label(role: str, spec: tuple[str, str], task: str, record: dict, where: str) -> str:
    """The question's label of ``role``: its task, or a field of its doc."""
    kind, name = spec
    if kind == "task":
        return task
    doc = record.get("doc")
    value = label(doc.get(name)) if isinstance(doc, dict) else None
    if value is None:
        raise EvalbarsError(f"{role}='doc.{name}': the question at {where} has no string or "
                            f"integer field {name!r}")
    return value
