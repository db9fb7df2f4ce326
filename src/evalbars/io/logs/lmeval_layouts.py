"""Where lm-evaluation-harness writes its files, version by version, and the runs found there.

==================  ====================================  ===================================
lm-eval version     aggregate results                     per-question samples
==================  ====================================  ===================================
v0.4.3 and later    ``results_<date>.json``; with         ``samples_<task>_<date>.jsonl``
                    ``--output_path x.json`` (v0.4.8+),
                    ``x_<date>.json``
v0.4.0 - v0.4.2     ``results.json``, or the ``.json``    ``<model_args>_<task>.jsonl``: one
                    given                                 JSON array; ``/``, ``=`` as ``__``
before v0.4         the ``--output_path`` file            ``<model_args>_<task>.jsonl``,
(big-refactor)                                            ``/`` as ``__``
v0.3 --write_out    none beside it                        ``<task>_write_out_info.json``
==================  ====================================  ===================================

A run is a results file with its samples files (one model at one date); samples files
without a results file form one run per model their names carry (else the folder's).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import EvalbarsError
from . import _json

_DATE = r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?"
SAMPLES = re.compile(rf"^samples_(?P<task>.+)_(?P<date>{_DATE})\.jsonl$")
RESULTS = re.compile(rf"^(?P<stem>.+)_(?P<date>{_DATE})\.json$")
WRITE_OUT = re.compile(r"^(?P<task>.+)_write_out_info\.json$")
_ARRAY = re.compile(rb"^\s*\[\s*\{\s*\"doc_id\"\s*:")  # a samples file that is one JSON array
_RESULTS_HEAD = re.compile(rb"^\s*\{\s*\"results\"\s*:\s*\{")
_KEY = re.compile(r"=|__")  # where a key of model_args ends in a file name
_SINGLE = re.compile(r"(?<!_)_(?!_)")  # the underscore between model_args and the task
_MODEL_KEYS = ("pretrained", "model", "path")
_LINE = 1 << 24  # the longest first line read to recognise a JSON Lines file


@dataclass
class Run:
    """One run: its results file (parsed as ``doc``) and its samples files, (task, path)."""

    folder: str
    date: str | None
    results: str | None
    samples: list[tuple[str, str]] = field(default_factory=list)
    doc: Any = None
    model: str | None = None  # from the samples files' names, when no results file names one
    whole: bool = True  # found from a folder or a results file, not from one samples file


def is_results(obj: Any) -> bool:
    """True for a parsed lm-eval results file."""
    return isinstance(obj, dict) and isinstance(obj.get("results"), dict) and \
        any(key in obj for key in ("configs", "config", "versions", "n-shot"))


def is_record(obj: Any) -> bool:
    """True for one parsed per-question record of a samples file."""
    return isinstance(obj, dict) and "doc_id" in obj and \
        any(key in obj for key in ("doc", "arguments", "resps", "filtered_resps", "doc_hash"))


def head(path: str, size: int = 4096) -> bytes:
    """The first ``size`` bytes of a file."""
    with open(path, "rb") as handle:
        return handle.read(size)


def is_array(data: bytes) -> bool:
    """True when a file beginning with ``data`` is one JSON array of per-question records."""
    return bool(_ARRAY.match(data))


def kind(folder: str, name: str) -> str | None:
    """``"results"``, ``"samples"`` or None: what the file ``name`` of ``folder`` is."""
    if SAMPLES.match(name) or WRITE_OUT.match(name):
        return "samples"
    if RESULTS.match(name):
        return "results"
    if not name.endswith((".json", ".jsonl")):
        return None
    path = os.path.join(folder, name)
    data = head(path)
    if is_array(data):
        return "samples"
    if name.endswith(".json"):
        return "results" if _RESULTS_HEAD.match(data) else None
    with open(path, "rb") as handle:
        line = handle.readline(_LINE)
    try:
        return "samples" if is_record(json.loads(line)) else None
    except (ValueError, RecursionError):
        return None


def is_log(path: str, search: bool = False) -> bool:
    """True for a file lm-eval writes, by its name or (one JSON array of records) its head;
    with ``search`` (a folder being searched), also an undated results or samples file."""
    name = os.path.basename(path)
    if SAMPLES.match(name) or RESULTS.match(name) or WRITE_OUT.match(name):
        return True
    if not name.endswith((".json", ".jsonl")) or not os.path.isfile(path):
        return False
    if search:
        return kind(os.path.dirname(path) or ".", name) is not None
    return is_array(head(path))


def find_runs(path: str) -> tuple[list[Run], list[str]]:
    """The runs of a folder (every run under it) or of one file, and notes on what was left."""
    if os.path.isdir(path):
        runs: list[Run] = []
        for root, dirs, files in os.walk(path):
            dirs.sort()
            runs += runs_in(root, sorted(files))
        if not runs:
            raise EvalbarsError(f"found no lm-eval results or samples files under {path!r}")
        kept = [run for run in runs if run.samples]
        if not kept:
            _no_samples(runs[0])
        notes = [f"{run.results!r} has no samples files beside it, so it is not read (lm-eval "
                 f"writes per-question results only with --log_samples)"
                 for run in runs if not run.samples]
        return kept, notes
    folder = os.path.dirname(path) or "."
    name = os.path.basename(path)
    runs = runs_in(folder, sorted(os.listdir(folder)))
    for run in runs:
        if run.results and os.path.basename(run.results) == name:
            if not run.samples:
                _no_samples(run)
            return [run], []
        for task, sample in run.samples:
            if os.path.basename(sample) == name:
                return [Run(folder, run.date, run.results, [(task, sample)], run.doc, run.model,
                            whole=False)], []
    model, task = split_name(name)
    return [Run(folder, None, None, [(task, path)], model=model, whole=False)], []


def _no_samples(run: Run) -> None:
    raise EvalbarsError(
        f"{run.results!r} has no samples files beside it (samples_<task>_<date>.jsonl, or "
        f"<model_args>_<task>.jsonl before v0.4.3): lm-eval writes per-question results "
        f"only with --log_samples")


def runs_in(folder: str, files: list[str]) -> list[Run]:
    """The runs of one folder: dated files grouped by date, undated ones by results file."""
    dated: dict[str, Run] = {}
    undated: list[Run] = []
    loose: list[str] = []
    for name in files:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        what = kind(folder, name)
        match = SAMPLES.match(name) or RESULTS.match(name)
        if match:
            run = dated.setdefault(match["date"], Run(folder, match["date"], None))
            if what == "results":
                run.results = path
            else:
                run.samples.append((match["task"], path))
        elif what == "results":
            doc = _json.peek(path, keep=False)
            if is_results(doc):
                undated.append(Run(folder, None, path, doc=doc))
        elif what == "samples":
            loose.append(name)
    for run in undated:
        claimed = _claim(run, loose)
        loose = [name for name in loose if name not in claimed]
    by_model: dict[str | None, Run] = {}
    for name in loose:
        model, task = split_name(name)
        run = by_model.setdefault(model, Run(folder, None, None, model=model))
        run.samples.append((task, os.path.join(folder, name)))
    return [dated[date] for date in sorted(dated)] + undated + list(by_model.values())


def _claim(run: Run, names: list[str]) -> list[str]:
    """The samples files of an undated results file: ``<model_args>_<task>.jsonl`` per task,
    with ``/`` (before v0.4) or ``/`` and ``=`` (v0.4.0-0.4.2) written as ``__``."""
    config = run.doc.get("config")
    args = config.get("model_args") if isinstance(config, dict) else None
    if not isinstance(args, str):
        return []
    claimed = []
    for task in results_tasks(run.doc):
        for prefix in (re.sub("/|=", "__", args), re.sub("/", "__", args)):
            name = f"{prefix}_{task}.jsonl"
            if name in names and name not in claimed:
                run.samples.append((task, os.path.join(run.folder, name)))
                claimed.append(name)
                break
    return claimed


def results_tasks(doc: Any) -> list[str]:
    """The tasks a results file scored: its ``configs``, else its ``results`` less groups."""
    if not isinstance(doc, dict):
        return []
    configs = doc.get("configs")
    if isinstance(configs, dict) and configs:
        return [str(task) for task in configs]
    results = doc.get("results")
    if not isinstance(results, dict):
        return []
    groups = doc.get("groups") if isinstance(doc.get("groups"), dict) else {}
    members = doc.get("group_subtasks") if isinstance(doc.get("group_subtasks"), dict) else {}
    return [str(task) for task in results if task not in groups and not members.get(task)]


def split_name(name: str) -> tuple[str | None, str]:
    """(model, task) of a samples file named without a date, the model None when its name
    carries none.

    Examples
    --------
    >>> from evalbars.io.logs.lmeval_layouts import split_name
    >>> split_name("pretrained=EleutherAI__pythia-2.8b_winogrande.jsonl")
    ('EleutherAI/pythia-2.8b', 'winogrande')
    >>> split_name("model__gpt-3.5-turbo-0125_wmdp_bio.jsonl"), split_name("_cb.jsonl")
    (('gpt-3.5-turbo-0125', 'wmdp_bio'), (None, 'cb'))
    >>> split_name("winogrande_write_out_info.json"), split_name("samples_arc_easy.json")
    ((None, 'winogrande'), (None, 'arc_easy'))
    """
    match = WRITE_OUT.match(name)
    if match:
        return None, match["task"]
    stem = re.sub(r"\.jsonl?$", "", name)
    if stem.startswith("samples_"):
        return None, stem[len("samples_"):]
    if stem.startswith("_"):
        return None, stem[1:]
    key = _KEY.search(stem, stem.rfind(",") + 1)
    split = _SINGLE.search(stem, key.end()) if key else None
    if split is None:
        return None, stem
    args = dict(_KEY.split(part, 1) for part in stem[:split.start()].split(",")
                if _KEY.search(part))
    model = next((args[k] for k in _MODEL_KEYS if args.get(k)), None)
    return (model.replace("__", "/") if model else None), stem[split.end():]


def model_of(run: Run) -> str:
    """``model_name`` of the results, else the model in ``config.model_args``, else the
    model in the samples files' names, else the folder's name."""
    doc = run.doc
    if isinstance(doc, dict):
        name = doc.get("model_name")
        if isinstance(name, str) and name:
            return name
        config = doc.get("config")
        args = config.get("model_args") if isinstance(config, dict) else None
        if isinstance(args, str) and args:
            pairs = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
            args = pairs or args
        if isinstance(args, dict):
            found = next((args[k] for k in _MODEL_KEYS if args.get(k)), None)
            if found is not None:
                return str(found)
        elif isinstance(args, str) and args:
            return args
    return run.model or os.path.basename(os.path.abspath(run.folder))
