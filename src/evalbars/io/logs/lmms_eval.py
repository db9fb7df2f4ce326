"""lmms-eval ``--log_samples`` output (v0.3 to v0.7): lm-eval's records in lmms-eval's layout.

lmms-eval, the multimodal fork of lm-evaluation-harness, writes
``OUT/<model>/<date>_results.json`` and one ``<date>_samples_<task>.jsonl`` per task, the
date first (``20250301_143022``). Its records are lm-eval's without ``filter`` or
``metrics`` (and, since v0.4, without ``doc`` and ``arguments``); v0.7 flattens ``resps``
and drops it when it equals ``filtered_resps``. Everything else is read as lm-eval's
(:mod:`.lmeval`), with two differences:

- **score**: the value of a metric per question is a number, or a record such as
  ``{"question_id": ..., "score": 1.0, ...}`` whose ``score`` is read (the read line says
  so); a record without ``score`` (scored only in lmms-eval's aggregation) has no
  per-question score. ``--metric`` chooses; the default is the first metric of the task's
  ``metric_list`` in the results file (else the first number in its first record). A
  metric may cover only some questions (MME: perception or cognition): the questions
  without it are left out, and the report says how many;
- **model**: ``model_name`` of the results file, else ``pretrained=`` (or ``model=``) of
  ``config.model_args``, else the folder's name (lmms-eval names it after the model).

Items are ``task/none/doc_id``, as lm-eval's without a filter.
"""
from __future__ import annotations

import os
import re

from ...core.errors import EvalbarsError
from ._answers import Answers, Options
from .lmeval import read_runs
from .lmeval_layouts import Run

FORMAT = "lmms-eval"

_SAMPLES = re.compile(r"^(?P<date>\d{8}_\d{6})_samples_(?P<task>.+)\.jsonl$")
_RESULTS = re.compile(r"^(?P<date>\d{8}_\d{6})_results\.json$")


def is_log(name: str) -> bool:
    """True for a ``<date>_results.json`` or ``<date>_samples_<task>.jsonl`` file name.

    Examples
    --------
    >>> from evalbars.io.logs.lmms_eval import is_log
    >>> is_log("20250102_023823_samples_mme.jsonl"), is_log("samples_mme_2025-01-02.jsonl")
    (True, False)
    """
    return bool(_SAMPLES.match(name) or _RESULTS.match(name))


def read(paths: list[str], options: Options) -> Answers:
    """Read lmms-eval runs from folders, results files or samples files (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, lmms_eval
    >>> run = "tests/data/logs/lmms-eval/lmms-lab__llava-onevision-qwen2-0.5b-ov"
    >>> answers = lmms_eval.read([f"{run}/20250301_143022_samples_pope.jsonl"], Options())
    >>> answers.score_name, answers.items[:2], answers.scores[:2]
    ('pope_accuracy', ['pope/none/0', 'pope/none/1'], [1.0, 0.0])
    """
    runs = [run for path in paths for run in _find_runs(path)]
    return read_runs(FORMAT, paths, runs, [], options, lmms=True)


def _find_runs(path: str) -> list[Run]:
    if os.path.isdir(path):
        runs = []
        for root, dirs, files in os.walk(path):
            dirs.sort()
            runs += _runs_in(root, sorted(files))
        if not runs:
            raise EvalbarsError(f"found no lmms-eval results or samples files under {path!r}")
        return [_with_samples(run) for run in runs]
    folder, name = os.path.dirname(path) or ".", os.path.basename(path)
    match = _SAMPLES.match(name) or _RESULTS.match(name)
    if match is None:
        raise EvalbarsError(f"{path!r} is not named as lmms-eval names its files "
                            f"(<date>_results.json, <date>_samples_<task>.jsonl)")
    run = next(run for run in _runs_in(folder, sorted(os.listdir(folder)))
               if run.date == match["date"])
    if _SAMPLES.match(name):
        return [Run(folder, run.date, run.results, [(match["task"], path)], whole=False)]
    return [_with_samples(run)]


def _runs_in(folder: str, files: list[str]) -> list[Run]:
    """The runs of one folder: results and samples files grouped by their date."""
    runs: dict[str, Run] = {}
    for name in files:
        match = _SAMPLES.match(name) or _RESULTS.match(name)
        if not match:
            continue
        run = runs.setdefault(match["date"], Run(folder, match["date"], None))
        if _RESULTS.match(name):
            run.results = os.path.join(folder, name)
        else:
            run.samples.append((match["task"], os.path.join(folder, name)))
    return [runs[date] for date in sorted(runs)]


def _with_samples(run: Run) -> Run:
    if not run.samples:
        raise EvalbarsError(f"{run.results!r} has no <date>_samples_<task>.jsonl files beside "
                            f"it: lmms-eval writes per-question results only with --log_samples")
    return run
