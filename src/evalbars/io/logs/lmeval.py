"""lm-evaluation-harness ``--log_samples`` output.

A run of ``lm_eval --output_path OUT --log_samples`` writes ``results_<date>.json`` (the
aggregate scores, the model and the task groups) and one ``samples_<task>_<date>.jsonl``
per task, one line per (question, filter) with the per-question metrics. Give evalbars a
folder (every run found under it, each run a model), a results file (its run) or a
samples file (that task of its run); old samples files that are one JSON array are read
too.

- **item**: ``task/filter/doc_id`` as one string, e.g. ``gsm8k/strict-match/16``;
- **model**: ``model_name`` of the results file, else the ``pretrained=`` (or ``model=``)
  value of ``config.model_args``, else the folder's name; two runs of one model are told
  apart by their dates (``name@2025-09-09T13-31-53.431753``);
- **score**: ``metric=`` (``--metric``): a metric name, or ``name,filter`` as lm-eval's
  results spell it (``exact_match,flexible-extract``). Default: the first per-question
  metric of the task (its ``metrics`` list, or for files without one its first numeric
  key) and the first filter in its file; the report prints both. Metrics stored per
  question as lists (f1, bleu, mcc, ...) are corpus-level: they have no per-question
  score, and choosing one is an error;
- **cluster**: ``cluster="task"`` (the task, i.e. the subject of a grouped benchmark such
  as MMLU) or ``cluster="doc.KEY"`` (a field of the question). A grouped benchmark is
  *not* clustered unless asked: its subtasks are fixed strata, not a sample of clusters,
  and the report says so and how to cluster them.

Two runs that give the same item different ``doc_hash`` values did not score the same
question (another dataset version): that is an error naming the item.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from ...core.errors import EvalbarsError
from ..table import name_list, short
from . import _json
from ._answers import LINE, Answers, Options, Run, field_path, label, name_runs, number, reject

FORMAT = "lm-eval"

_DATE = r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?"
_SAMPLES = re.compile(rf"^samples_(?P<task>.+)_(?P<date>{_DATE})\.jsonl$")
_RESULTS = re.compile(rf"^results_(?P<date>{_DATE})\.json$")
_NOT_METRICS = frozenset({
    "doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
    "doc_hash", "prompt_hash", "target_hash", "task_name", "task", "prompt", "truth",
})
_WRITE_OUT = re.compile(r"^(?:prompt|logit|truth)_\d+$")  # fields of old write_out files
_CORPUS = ("it is stored per question as a list: lm-eval computes it over the whole corpus "
           "(as f1, bleu, mcc), so there is no per-question score to compare")


def is_samples_file(name: str) -> bool:
    """True for a ``samples_<task>_<date>.jsonl`` or ``results_<date>.json`` file name."""
    return bool(_SAMPLES.match(name) or _RESULTS.match(name))


def is_results(obj: Any) -> bool:
    """True for a parsed lm-eval results file."""
    return isinstance(obj, dict) and isinstance(obj.get("results"), dict) and \
        any(key in obj for key in ("configs", "config", "versions", "n-shot"))


def is_record(obj: Any) -> bool:
    """True for one parsed per-question record of a samples file."""
    return isinstance(obj, dict) and "doc_id" in obj and \
        any(key in obj for key in ("doc", "arguments", "resps", "filtered_resps", "doc_hash"))


@dataclass
class _Run:
    folder: str
    date: str | None
    results: str | None
    samples: list[tuple[str, str]] = field(default_factory=list)  # (task, path)


def read(paths: list[str], options: Options) -> Answers:
    """Read lm-eval runs from folders, results files or samples files (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, lmeval
    >>> answers = lmeval.read(["tests/data/logs/lm-eval/gsm8k"], Options())
    >>> answers.items, answers.scores
    (['gsm8k/strict-match/0', 'gsm8k/strict-match/1'], [1.0, 0.0])
    >>> answers.unscored
    {'org/math-7b': ['gsm8k/strict-match/2']}
    """
    reject(FORMAT, options, ("metric",), clusters=True)
    cluster = _cluster_spec(options.cluster)
    metric, wanted_filter = _metric_spec(options.metric)
    runs = [run for path in paths for run in _find_runs(path)]
    results = [_json.load(run.results) if run.results else None for run in runs]
    names = name_runs([Run(_model(res, run.folder), (run.date or "", os.path.basename(
        run.folder))) for run, res in zip(runs, results)])
    answers = Answers(FORMAT, list(paths), item_name="task/filter/doc_id", score_name="",
                      cluster_name=options.cluster)
    state = _State(metric, wanted_filter, cluster)
    for run, res, name in zip(runs, results, names):
        if run.results:
            answers.file(run.results)
        for task, path in run.samples:
            _read_task(answers, state, name, task, path)
    answers.score_name = state.metric
    _describe(answers, state, runs, results, options)
    return answers


# --------------------------------------------------------------------------- runs


def _find_runs(path: str) -> list[_Run]:
    name = os.path.basename(path)
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        runs = []
        for root, dirs, files in os.walk(path):
            dirs.sort()
            runs += _runs_in(root, sorted(files))
        if not runs:
            raise EvalbarsError(f"found no lm-eval results or samples files under {path!r}")
        return _with_samples(runs)
    match = _RESULTS.match(name)
    if match:
        return _with_samples([run for run in _runs_in(folder, sorted(os.listdir(folder)))
                              if run.date == match["date"]] or [_Run(folder, None, path)])
    match = _SAMPLES.match(name)
    date = match["date"] if match else None
    task = match["task"] if match else _task_of(name)
    results = os.path.join(folder, f"results_{date}.json") if date else None
    return [_Run(folder, date, results if results and os.path.exists(results) else None,
                 [(task, path)])]


def _runs_in(folder: str, files: list[str]) -> list[_Run]:
    """The runs of one folder: results and samples files grouped by their date."""
    runs: dict[str, _Run] = {}
    for name in files:
        match = _RESULTS.match(name) or _SAMPLES.match(name)
        if not match:
            continue
        run = runs.setdefault(match["date"], _Run(folder, match["date"], None))
        if name.startswith("results_"):
            run.results = os.path.join(folder, name)
        else:
            run.samples.append((match["task"], os.path.join(folder, name)))
    return [runs[date] for date in sorted(runs)]


def _with_samples(runs: list[_Run]) -> list[_Run]:
    for run in runs:
        if not run.samples:
            raise EvalbarsError(
                f"{run.results!r} has no samples_<task>_<date>.jsonl files beside it: "
                f"lm-eval writes per-question results only with --log_samples")
    return runs


def _task_of(name: str) -> str:
    """The task of an undated or old samples file: its name less prefix and suffixes."""
    stem = re.sub(r"\.jsonl?$", "", name)
    stem = re.sub(r"^samples_", "", stem)
    return re.sub(r"_write_out_info$", "", stem)


def _model(results: dict | None, folder: str) -> str:
    """``model_name``, else the model in ``config.model_args``, else the folder's name."""
    if isinstance(results, dict):
        name = results.get("model_name")
        if isinstance(name, str) and name:
            return name
        config = results.get("config")
        args = config.get("model_args") if isinstance(config, dict) else None
        if isinstance(args, str) and args:
            pairs = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
            args = pairs or args
        if isinstance(args, dict):
            found = next((args[k] for k in ("pretrained", "model", "path") if args.get(k)), None)
            if found is not None:
                return str(found)
        elif isinstance(args, str) and args:
            return args
    return os.path.basename(os.path.abspath(folder))


# --------------------------------------------------------------------------- options


def _cluster_spec(spec: str | None) -> tuple[str, str] | None:
    if spec is None:
        return None
    if spec == "task":
        return ("task", "")
    try:
        return field_path(spec, ("doc",))
    except ValueError:
        raise EvalbarsError(
            f"cluster={spec!r}: lm-eval logs are clustered by 'task' (the subtask of a "
            f"grouped benchmark) or by a field of the question, 'doc.KEY'") from None


def _metric_spec(spec: str | None) -> tuple[str | None, str | None]:
    if spec is None:
        return None, None
    name, comma, filter_name = spec.partition(",")
    if not name or (comma and not filter_name):
        raise EvalbarsError(f"metric={spec!r}: give a metric name, or 'name,filter' such as "
                            f"'exact_match,strict-match'")
    return name, filter_name or None


# --------------------------------------------------------------------------- samples


@dataclass
class _State:
    metric: str | None
    wanted_filter: str | None
    cluster: tuple[str, str] | None
    chosen: bool = False  # the metric was given, not the default
    filters: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # task: (kept, seen)
    hashes: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # item: hash, path, key
    tasks: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.chosen = self.metric is not None


def _where(path: str, key: int) -> str:
    return f"{'index' if path.endswith('.json') else 'line'} {key} of {path!r}"


def _records(path: str, answers: Answers) -> Iterator[tuple[int, int, Any]]:
    """(file index, line or array index, record) of a samples file."""
    if path.endswith(".json"):
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


def _read_task(answers: Answers, state: _State, model: str, task: str, path: str) -> None:
    kept: str | None = None
    seen: list[str] = []
    for file, key, record in _records(path, answers):
        if not isinstance(record, dict) or "doc_id" not in record:
            raise EvalbarsError(f"{_where(path, key)} is not an lm-eval per-question record "
                                f"(no doc_id)")
        filter_name = record.get("filter", "none")
        if not isinstance(filter_name, str):
            raise EvalbarsError(f"filter {short(filter_name)} at {_where(path, key)} is not a "
                                f"string")
        if filter_name not in seen:
            seen.append(filter_name)
        if kept is None and (state.wanted_filter is None or filter_name == state.wanted_filter):
            kept = filter_name
            _choose_metric(state, record, task, _where(path, key))
        if filter_name != kept:
            continue
        doc_id = label(record["doc_id"])
        if doc_id is None:
            raise EvalbarsError(f"doc_id {short(record['doc_id'])} at {_where(path, key)} is "
                                f"not a string or an integer")
        item = f"{task}/{filter_name}/{doc_id}"
        doc_hash = record.get("doc_hash")
        if isinstance(doc_hash, str):
            _check_hash(state, item, doc_hash, path, key)
        value = record.get(state.metric)
        if isinstance(value, (list, tuple)):
            raise EvalbarsError(f"metric {state.metric!r} of task {task!r} cannot be compared "
                                f"per question: {_CORPUS} ({_where(path, key)}); choose another "
                                f"with metric= (--metric)")
        try:
            score = number(value)
        except ValueError:
            raise EvalbarsError(f"metric {state.metric!r} at {_where(path, key)} is "
                                f"{short(value)}, not a number") from None
        if score is None:
            answers.skip(model, item)
            continue
        cluster = None if state.cluster is None else _cluster(state, task, record, path, key)
        answers.add(item, model, score, file, key, cluster=cluster)
    if not seen:
        raise EvalbarsError(f"{path!r} holds no per-question records")
    if kept is None:
        raise EvalbarsError(f"filter {state.wanted_filter!r} (metric=) is not in {path!r}, "
                            f"whose filters are {name_list(seen)}")
    state.filters[task] = (kept, seen)
    if task not in state.tasks:
        state.tasks.append(task)


def _choose_metric(state: _State, record: dict, task: str, where: str) -> None:
    """Check the chosen metric against a task's first record, or choose the default."""
    listed = record.get("metrics")
    if isinstance(listed, list):
        metrics = [m for m in listed if isinstance(m, str)]
    else:  # older files: every number or list that is not a known field
        metrics = [k for k, v in record.items()
                   if k not in _NOT_METRICS and not _WRITE_OUT.match(k)
                   and isinstance(v, (int, float, list, tuple))]
    if state.chosen:
        if state.metric not in metrics and state.metric not in record:
            raise EvalbarsError(f"task {task!r} has no metric {state.metric!r} (metric=); its "
                                f"metrics are {name_list(metrics)} ({where})")
        return
    per_question = [m for m in metrics if not isinstance(record.get(m), (list, tuple))]
    if not per_question:
        raise EvalbarsError(
            f"task {task!r} has no per-question metric: {name_list(metrics)} "
            f"{'is' if len(metrics) == 1 else 'are'} stored as lists ({where}); {_CORPUS}")
    if state.metric is None:
        state.metric = per_question[0]
    elif state.metric not in metrics:
        raise EvalbarsError(
            f"the tasks read have no first metric in common ({state.metric!r} for "
            f"{state.tasks[0]!r}, {per_question[0]!r} for {task!r}); choose one with metric= "
            f"(--metric), or read one task at a time")


def _check_hash(state: _State, item: str, doc_hash: str, path: str, key: int) -> None:
    first = state.hashes.setdefault(item, (doc_hash, path, key))
    if first[0] != doc_hash:
        raise EvalbarsError(
            f"item {item!r} is not the same question in every run: doc_hash "
            f"{first[0][:12]}... at {_where(first[1], first[2])} but {doc_hash[:12]}... at "
            f"{_where(path, key)}; the runs used different documents (another dataset "
            f"version?), so they cannot be paired")


def _cluster(state: _State, task: str, record: dict, path: str, key: int) -> str:
    kind, name = state.cluster
    if kind == "task":
        return task
    doc = record.get("doc")
    value = label(doc.get(name)) if isinstance(doc, dict) else None
    if value is None:
        raise EvalbarsError(f"cluster='doc.{name}': the question at {_where(path, key)} has "
                            f"no string or integer field {name!r}")
    return value


# --------------------------------------------------------------------------- report


def _describe(answers: Answers, state: _State, runs: list[_Run], results: list,
              options: Options) -> None:
    kept = {f for f, _ in state.filters.values()}
    several = sorted({f for _, seen in state.filters.values() for f in seen} - kept)
    how = "chosen" if state.chosen else "the first per-question metric"
    filt = f"filter {name_list(sorted(kept))}"
    if options.metric is None or state.wanted_filter is None:
        filt += " (the first in each file" + (f"; also there: {name_list(several)}" if several
                                              else "") + ")"
    tasks = f"{len(state.tasks)} task{'s' if len(state.tasks) > 1 else ''} " \
            f"({name_list(state.tasks, 5)})"
    answers.reading = f"metric {state.metric!r} ({how}), {filt}, {tasks}"
    answers.settings = {"metric": state.metric, "metric_chosen": state.chosen,
                        "filters": {t: f for t, (f, _) in state.filters.items()},
                        "tasks": list(state.tasks),
                        "runs": [{"results": run.results, "date": run.date,
                                  "samples": [p for _, p in run.samples]} for run in runs]}
    groups = _groups(results, state.tasks)
    if groups:
        answers.settings["groups"] = groups
        if options.cluster is None:
            answers.notes.append(
                f"grouped benchmark {name_list(groups)}: its subtasks are fixed strata, not "
                f"sampled clusters, so they are not clustered; --cluster task treats them as "
                f"clusters")


def _groups(results: list, tasks: list[str]) -> list[str]:
    """Groups (from ``group_subtasks``) that two or more of the tasks read belong to."""
    found = []
    for res in results:
        subtasks = res.get("group_subtasks") if isinstance(res, dict) else None
        if not isinstance(subtasks, dict):
            continue
        for group, members in subtasks.items():
            if isinstance(members, list) and sum(t in members for t in tasks) >= 2 \
                    and group not in found:
                found.append(group)
    return found
