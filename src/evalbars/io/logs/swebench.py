"""SWE-bench evaluation reports (``python -m swebench.harness.run_evaluation``).

Two kinds of file are read (field names from ``swebench/harness/reporting.py`` and
``grading.py`` of the SWE-bench/SWE-bench repository):

- the **run report** ``<model>.<run_id>.json``, written by ``make_run_report``: lists of
  instance ids, ``submitted_ids``, ``resolved_ids``, ``unresolved_ids``,
  ``empty_patch_ids``, ``error_ids``, ``completed_ids``, ``incomplete_ids`` (schema
  version 2, harness v2.1 and later; the v2.0 reports have no ``submitted_ids`` and no
  empty-patch list, and their instances are the resolved, unresolved and error ids);
- the **instance reports** ``logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json``,
  ``{instance_id: {"patch_is_None", "patch_exists", "patch_successfully_applied",
  "resolved", ...}}``: give the files or a folder holding them.

- **model**: the run report's file name before ``.<run_id>.json``, or the folder above an
  instance's folder, with SWE-bench's ``__`` turned back into ``/``;
- **item**: the ``instance_id``; **score** ``resolved``: 1 when the instance is resolved,
  else 0. Unresolved, empty-patch and error instances (the patch did not apply, the tests
  did not run) all score 0, as SWE-bench counts them: its resolved rate is resolved
  instances of the submitted ones. The report says how many of each there were.
  Instances of the dataset without a prediction (``incomplete_ids``) are not items; a
  submitted id in none of the lists was not evaluated and is unscored.
"""
from __future__ import annotations

import os
from typing import Any

from ...core.errors import EvalbarsError
from ..table import name_list
from . import _json
from ._answers import Answers, Options, Run, label, name_runs, reject

FORMAT = "swebench"

INSTANCE_FILE = "report.json"

_OUTCOMES = ("resolved_ids", "unresolved_ids", "empty_patch_ids", "error_ids")
"""The lists that say what became of an instance, in the order they are checked."""


def is_report(obj: Any) -> bool:
    """True for a parsed run report (``resolved_ids`` beside ``unresolved_ids``)."""
    return isinstance(obj, dict) and isinstance(obj.get("resolved_ids"), list) and \
        isinstance(obj.get("unresolved_ids"), list)


def is_instance_report(obj: Any) -> bool:
    """True for a parsed instance ``report.json`` (one instance id -> its outcome)."""
    if not isinstance(obj, dict) or len(obj) != 1:
        return False
    entry = next(iter(obj.values()))
    return isinstance(entry, dict) and "resolved" in entry and "patch_exists" in entry


def read(paths: list[str], options: Options) -> Answers:
    """Read SWE-bench run reports or instance reports (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, swebench
    >>> answers = swebench.read(["tests/data/logs/swebench/openai__gpt-4o.lite_run.json"],
    ...                         Options())
    >>> answers.models[0], answers.items[:2], answers.scores[:2]
    ('openai/gpt-4o', ['astropy__astropy-12907', 'astropy__astropy-14182'], [1.0, 0.0])
    >>> answers.notes[0]
    'openai/gpt-4o: 2 resolved, 2 unresolved, 1 empty patch, 1 error of 6 submitted'
    """
    reject(FORMAT, options, ())
    if options.metric not in (None, "resolved"):
        raise EvalbarsError(f"metric={options.metric!r} (--metric): SWE-bench reports have one "
                            f"score, 'resolved' (1 resolved, 0 otherwise)")
    runs = [run for path in paths for run in _runs(path)]
    names = name_runs([Run(model, (run_id, os.path.basename(path)))
                       for path, model, run_id, _ in runs])
    answers = Answers(FORMAT, list(paths), item_name="instance_id", score_name="resolved")
    for (path, _, _, files), name in zip(runs, names):
        if files is None:
            _read_run_report(answers, path, name)
        else:
            _read_instances(answers, path, name, files)
    answers.reading = ("score 'resolved': 1 resolved; unresolved, empty-patch and error "
                       "instances 0, as SWE-bench counts resolved of submitted")
    answers.settings = {"metric": "resolved", "errors": 0, "empty_patches": 0}
    return answers


def _runs(path: str) -> list[tuple[str, str, str, list[str] | None]]:
    """(path, model, run id, instance report files or None for a run report) per run."""
    if os.path.isdir(path):
        found = sorted(os.path.join(root, INSTANCE_FILE) for root, _, files in os.walk(path)
                       if INSTANCE_FILE in files)
        if not found:
            raise EvalbarsError(f"found no SWE-bench {INSTANCE_FILE} under {path!r}")
        groups: dict[str, list[str]] = {}
        for file in found:
            groups.setdefault(os.path.dirname(os.path.dirname(file)), []).append(file)
        return [(folder, *_instance_run(folder), files) for folder, files in groups.items()]
    if os.path.basename(path) == INSTANCE_FILE:
        folder = os.path.dirname(os.path.dirname(os.path.abspath(path)))
        return [(path, *_instance_run(folder), [path])]
    stem = os.path.basename(path)[:-len(".json")] if path.endswith(".json") else \
        os.path.basename(path)
    model, dot, run_id = stem.rpartition(".")
    return [(path, (model if dot else stem).replace("__", "/"), run_id if dot else "", None)]


def _instance_run(model_folder: str) -> tuple[str, str]:
    """(model, run id) of the folder ``<run_id>/<model>`` of instance reports."""
    model_folder = os.path.abspath(model_folder)
    return (os.path.basename(model_folder).replace("__", "/"),
            os.path.basename(os.path.dirname(model_folder)))


def _ids(report: dict, key: str, path: str) -> list[str]:
    ids = report.get(key, [])
    if not isinstance(ids, list):
        raise EvalbarsError(f"{key} of {path!r} is not a list of instance ids")
    bad = [k for k, value in enumerate(ids) if label(value) is None]
    if bad:
        raise EvalbarsError(f"{key}[{bad[0]}] of {path!r} is {ids[bad[0]]!r}, not an "
                            f"instance id")
    return [label(value) for value in ids]


def _read_run_report(answers: Answers, path: str, name: str) -> None:
    report = _json.load(path)
    if not is_report(report):
        raise EvalbarsError(f"{path!r} is not a SWE-bench run report (an object with "
                            f"resolved_ids and unresolved_ids lists)")
    outcome: dict[str, str] = {}
    for key in _OUTCOMES:
        for iid in _ids(report, key, path):
            if iid in outcome:
                where = f"twice in {key}" if outcome[iid] == key else \
                    f"in both {outcome[iid]} and {key}"
                raise EvalbarsError(f"instance {iid!r} is {where} of {path!r}")
            outcome[iid] = key
    if "submitted_ids" in report:
        submitted = _ids(report, "submitted_ids", path)
        stray = [iid for iid in outcome if iid not in set(submitted)]
        if stray:
            raise EvalbarsError(f"{path!r} lists {len(stray)} instance(s) that are not in its "
                                f"submitted_ids: {name_list(stray, 5)}")
    else:
        submitted = sorted(outcome)
        answers.notes.append(f"{name}: a SWE-bench v2.0 report (no submitted_ids): its "
                             f"instances are its resolved, unresolved and error ids")
    index = answers.file(path, ("", ""))
    for iid in submitted:
        key = outcome.get(iid)
        if key is None:
            answers.skip(name, iid)
        else:
            answers.add(iid, name, 1.0 if key == "resolved_ids" else 0.0, index, f"{key}")
    counts = {key: sum(1 for k in outcome.values() if k == key) for key in _OUTCOMES}
    _note(answers, name, counts, len(submitted))
    incomplete = _ids(report, "incomplete_ids", path) if "incomplete_ids" in report else []
    if incomplete:
        answers.notes.append(f"{name}: {len(incomplete)} dataset instance"
                             f"{'s' if len(incomplete) > 1 else ''} without a prediction "
                             f"(incomplete_ids), not items; SWE-bench's rate over all "
                             f"{report.get('total_instances', '?')} counts them unresolved")


def _read_instances(answers: Answers, folder: str, name: str, files: list[str]) -> None:
    counts = dict.fromkeys(_OUTCOMES, 0)
    for path in files:
        report = _json.load(path)
        if not is_instance_report(report):
            raise EvalbarsError(f"{path!r} is not a SWE-bench instance report (one instance id "
                                f"-> resolved, patch_exists, ...)")
        iid, entry = next(iter(report.items()))
        if not isinstance(entry["resolved"], bool):
            raise EvalbarsError(f"resolved of {iid!r} in {path!r} is {entry['resolved']!r}, "
                                f"not true or false")
        if entry["resolved"]:
            key = "resolved_ids"
        elif entry.get("patch_is_None") or not entry.get("patch_exists"):
            key = "empty_patch_ids"
        else:  # make_run_report counts a patch that did not apply as unresolved too
            key = "unresolved_ids"
        counts[key] += 1
        answers.add(iid, name, 1.0 if entry["resolved"] else 0.0,
                    answers.file(path, ("entry", "entries")), repr(iid))
    _note(answers, name, counts, len(files))


def _note(answers: Answers, name: str, counts: dict[str, int], submitted: int) -> None:
    empty, errors = counts["empty_patch_ids"], counts["error_ids"]
    parts = [f"{counts['resolved_ids']} resolved", f"{counts['unresolved_ids']} unresolved"]
    if empty:
        parts.append(f"{empty} empty patch{'es' if empty > 1 else ''}")
    if errors:
        parts.append(f"{errors} error{'s' if errors > 1 else ''}")
    answers.notes.append(f"{name}: {', '.join(parts)} of {submitted} submitted")
