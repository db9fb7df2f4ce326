"""lm-evaluation-harness ``--log_samples`` output, every version since v0.3.

A run of ``lm_eval --output_path OUT --log_samples`` writes a results file (the aggregate
scores, the model and the task groups) and one samples file per task, one record per
(question, filter) with the per-question metrics; how the files are named and written
changed between versions (:mod:`.lmeval_layouts`). Give evalbars a folder (every run found
under it, each run a model), a results file (its run) or a samples file (that task of its
run).

- **item**: ``task/filter/doc_id`` as one string, e.g. ``gsm8k/strict-match/16``;
- **model**: ``model_name`` of the results file, else the ``pretrained=`` (or ``model=``)
  value of ``config.model_args``, else the model in the samples files' names, else the
  folder's name; two runs of one model are told apart by their dates
  (``name@2025-09-09T13-31-53.431753``);
- **score**: ``metric=`` (``--metric``): a metric name, or ``name,filter`` as lm-eval's
  results spell it (``exact_match,flexible-extract``). Default: the first per-question
  metric of the task (its ``metrics`` list, else its results file's metric list, else its
  first numeric key) and the first filter in its file; the report prints both. Metrics
  stored per question as lists (f1, bleu, mcc, ...) are corpus-level: they have no
  per-question score, and choosing one is an error;
- **cluster**: ``cluster="task"`` (the task, i.e. the subject of a grouped benchmark such
  as MMLU) or ``cluster="doc.KEY"`` (a field of the question). A grouped benchmark is
  *not* clustered unless asked: its subtasks are fixed strata, not a sample of clusters,
  and the report says so, and that ``--stratum task`` weighs them as strata
  (docs/strata.md) and ``--cluster task`` clusters them.

Two runs that give the same item different ``doc_hash`` values did not score the same
question (another dataset version): that is an error naming the item. A read that is
partial says so: a samples file holding fewer questions than its results file counts, a
task of the results file without a samples file, a run made with ``--limit``.
"""
from __future__ import annotations

import math
import os
from typing import Any

from ...core.errors import EvalbarsError
from ..labels import ROLES
from ..table import name_list
from . import _json
from ._answers import Answers, Options, Run, field_path, name_runs, reject
from .lmeval_layouts import Run as LogRun
from .lmeval_layouts import find_runs, is_log, is_record, is_results, model_of, results_tasks
from .lmeval_samples import State, read_task

FORMAT = "lm-eval"

GROUP_HINT = ("--stratum task weighs them as strata (--weights macro: the group's macro "
              "average, docs/strata.md), --cluster task treats them as clusters")
"""The read line's advice on a grouped benchmark's subtasks, a note of its own, left out
when the logs are read with a stratum (or clusters)."""


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
    found = [find_runs(path) for path in paths]
    return read_runs(FORMAT, paths, [run for runs, _ in found for run in runs],
                     [note for _, notes in found for note in notes], options)


def read_runs(fmt: str, paths: list[str], runs: list[LogRun], notes: list[str],
              options: Options, lmms: bool = False) -> Answers:
    """The answers of runs found by a layout module (lm-eval's, or lmms-eval's)."""
    reject(fmt, options, (), clusters=True)
    labels = {role: _label_spec(role, spec) for role, spec in options.labels.items()}
    metric, wanted_filter = _metric_spec(options.metric)
    for run in runs:
        if run.results and run.doc is None:
            run.doc = _json.load(run.results)
    names = name_runs([Run(model_of(run), (run.date or "", os.path.basename(run.folder)))
                       for run in runs])
    answers = Answers(fmt, list(paths), item_name="task/filter/doc_id", score_name="",
                      label_names=options.labels)
    answers.notes += notes
    state = State(metric, wanted_filter, labels, lmms=lmms)
    for run, name in zip(runs, names):
        if run.results:
            answers.file(run.results)
        for task, path in run.samples:
            read_task(answers, state, name, task, path, _listed(run.doc, task))
    answers.score_name = state.metric
    _describe(answers, state, runs, names, options)
    return answers


def _listed(doc: Any, task: str) -> list[str]:
    """The metric names of ``task`` in a results file's ``configs`` (``metric_list``)."""
    configs = doc.get("configs") if isinstance(doc, dict) else None
    config = configs.get(task) if isinstance(configs, dict) else None
    metrics = config.get("metric_list") if isinstance(config, dict) else None
    if not isinstance(metrics, list):
        return []
    return [m["metric"] for m in metrics
            if isinstance(m, dict) and isinstance(m.get("metric"), str)]


# --------------------------------------------------------------------------- options


def _label_spec(role: str, spec: str) -> tuple[str, str]:
    """A per-item label's field: ``("task", "")`` or ``("doc", KEY)``."""
    if spec == "task":
        return ("task", "")
    try:
        return field_path(spec, ("doc",))
    except ValueError:
        raise EvalbarsError(
            f"{role}={spec!r}: lm-eval logs are {ROLES[role].grouped} by 'task' (the subtask "
            f"of a grouped benchmark) or by a field of the question, 'doc.KEY'") from None


def _metric_spec(spec: str | None) -> tuple[str | None, str | None]:
    if spec is None:
        return None, None
    name, comma, filter_name = spec.partition(",")
    if not name or (comma and not filter_name):
        raise EvalbarsError(f"metric={spec!r}: give a metric name, or 'name,filter' such as "
                            f"'exact_match,strict-match'")
    return name, filter_name or None


# --------------------------------------------------------------------------- report


def _describe(answers: Answers, state: State, runs: list[LogRun], names: list[str],
              options: Options) -> None:
    kept = {f for f, _ in state.filters.values()}
    several = sorted({f for _, seen in state.filters.values() for f in seen} - kept)
    how = "chosen" if state.chosen else "the first per-question metric"
    if state.score_field:
        how += "; the 'score' of each question's record"
    if state.text_values:
        how += "; v0.3 --write_out values read from text, 'True' as 1 and 'False' as 0"
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
    partial = [note for run, name in zip(runs, names)
               for note in _partial(run, name, state, answers.fmt)]
    for (name, task), count in state.absent.items():
        partial.append(f"{name!r}, task {task!r}: {count:,} question{'s' if count > 1 else ''} "
                       f"without metric {state.metric!r} (scored by another metric of the "
                       f"task) left out")
    if partial:
        answers.settings["partial"] = partial
        answers.notes += partial
    groups = _groups([run.doc for run in runs], state.tasks)
    if groups:
        answers.settings["groups"] = groups
        if "cluster" not in options.labels:
            answers.notes.append(f"grouped benchmark {name_list(groups)}: its subtasks are "
                                 "fixed strata, not sampled clusters, so they are not "
                                 "clustered")
            if "stratum" not in options.labels:
                answers.notes.append(GROUP_HINT)


def _partial(run: LogRun, name: str, state: State, harness: str) -> list[str]:
    """What a run's results file counts that its samples files do not hold."""
    doc = run.doc
    if not isinstance(doc, dict):
        return []
    notes = []
    read = [task for task, _ in run.samples]
    if run.whole:
        missing = [task for task in results_tasks(doc) if task not in read]
        if missing:
            notes.append(f"{name!r}: {len(missing)} task{'s' if len(missing) > 1 else ''} of "
                         f"{run.results!r} ({name_list(missing, 5)}) ha"
                         f"{'ve' if len(missing) > 1 else 's'} no samples file, so "
                         f"{'they are' if len(missing) > 1 else 'it is'} not read")
    counts = doc.get("n-samples") if isinstance(doc.get("n-samples"), dict) else {}
    for task in read:
        count = counts.get(task) if isinstance(counts.get(task), dict) else {}
        effective, original = count.get("effective"), count.get("original")
        held = state.counts.get((name, task), 0)
        if isinstance(effective, int) and held < effective:
            notes.append(f"{name!r}, task {task!r}: its samples file holds {held:,} of the "
                         f"{effective:,} questions its results file counts; the others are "
                         f"not read")
        if isinstance(effective, int) and isinstance(original, int) and effective < original:
            notes.append(f"{name!r}, task {task!r}: {harness} scored {effective:,} of its "
                         f"{original:,} questions (--limit)")
    config = doc.get("config") if isinstance(doc.get("config"), dict) else {}
    limit = config.get("limit")
    if isinstance(limit, (int, float)) and not isinstance(limit, bool) and not counts \
            and math.isfinite(limit) and limit > 0:
        most = f"{limit:g}" if limit >= 1 else f"{limit:.0%}"  # below 1: a fraction
        notes.append(f"{name!r}: {harness} ran with --limit {limit:g}, so each task holds at "
                     f"most {most} of its questions")
    return notes


def _groups(docs: list, tasks: list[str]) -> list[str]:
    """Groups (from ``group_subtasks``) that two or more of the tasks read belong to."""
    found = []
    for doc in docs:
        subtasks = doc.get("group_subtasks") if isinstance(doc, dict) else None
        if not isinstance(subtasks, dict):
            continue
        for group, members in subtasks.items():
            if isinstance(members, list) and sum(t in members for t in tasks) >= 2 \
                    and group not in found:
                found.append(group)
    return found


__all__ = ["FORMAT", "is_log", "is_record", "is_results", "read", "read_runs"]
