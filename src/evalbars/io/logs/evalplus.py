"""EvalPlus ``eval_results.json`` (``evalplus.evaluate``: HumanEval+ and MBPP+).

EvalPlus writes one document per run: ``{"date", "hash", "eval": {task_id: [...]},
"pass_at_k"}``. Since v0.2.1 each task holds one entry per generated sample, in
completion order, with ``base_status`` and ``plus_status`` (``"pass"``, ``"fail"``,
``"timeout"``, or null when the check did not finish); v0.2.0 and before wrote
``{"nfiles", "base": [[status, details], ...], "plus": [...]}`` per task with the statuses
``"success"``, ``"failed"`` and ``"timed out"`` (field names from ``evalplus/evaluate.py``
and ``evalplus/eval/__init__.py`` of the evalplus/evalplus repository).

- **model**: the file name without ``_eval_results.json`` or ``.eval_results.json``
  (EvalPlus names it after the samples file, ``<model>_<backend>_temp_<t>``); for
  ``eval_results.json`` inside a samples folder, the folder's name;
- **item**: the ``task_id``; each generated sample of a task is a **sample**, averaged,
  so a model's mean is EvalPlus's pass@1;
- **score**: ``metric="plus"`` (default, HumanEval+ / MBPP+: the sample passes the base
  *and* the extra tests, as EvalPlus counts it) or ``"base"`` (the original tests only).
  A sample whose status is null (its check did not finish) is unscored.
"""
from __future__ import annotations

import os
from typing import Any

from ...core.errors import EvalbarsError
from ..table import name_list, short
from . import _json
from ._answers import Answers, Options, Run, fixed_metric, name_runs, reject

FORMAT = "evalplus"

METRICS = ("plus", "base")
"""The choices of ``metric=``; the first is the default."""

_STATUS = {"pass": 1.0, "fail": 0.0, "timeout": 0.0,
           "success": 1.0, "failed": 0.0, "timed out": 0.0}
"""Status -> score, for both the v0.2.1+ and the older status words."""

_SUFFIXES = ("_eval_results.json", ".eval_results.json")


def is_log(obj: Any) -> bool:
    """True for a parsed ``eval_results.json`` (either layout)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("eval"), dict) or not obj["eval"]:
        return False
    first = next(iter(obj["eval"].values()))
    if isinstance(first, list):
        return bool(first) and isinstance(first[0], dict) and "base_status" in first[0]
    return isinstance(first, dict) and isinstance(first.get("base"), list)


def read(paths: list[str], options: Options) -> Answers:
    """Read EvalPlus ``eval_results.json`` files (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, evalplus
    >>> answers = evalplus.read(["tests/data/logs/evalplus/humaneval/"
    ...                          "deepseek-coder_vllm_temp_0.8_eval_results.json"], Options())
    >>> answers.items[:4], answers.scores[:4], answers.samples[:4]
    (['HumanEval/0', 'HumanEval/0', 'HumanEval/0', 'HumanEval/1'], [1.0, 1.0, 0.0, 1.0], ['0', '1', '2', '0'])
    >>> answers.reading
    "metric 'plus' (default: base and extra tests pass), 3 samples per task"
    """
    reject(FORMAT, options, ())
    metric = fixed_metric(options, METRICS, "EvalPlus", "base and extra tests")
    names = name_runs([Run(_model(path), (os.path.basename(path),)) for path in paths])
    answers = Answers(FORMAT, list(paths), item_name="task_id", score_name=metric,
                      sample_name="sample")
    per_task: set[int] = set()
    for path, name in zip(paths, names):
        document = _json.load(path)
        if not is_log(document):
            raise EvalbarsError(f"{path!r} is not an EvalPlus eval_results.json (an object "
                                f"whose \"eval\" maps task ids to their samples' statuses)")
        index = answers.file(path, ("", ""))
        for task, entries in document["eval"].items():
            outcomes = _outcomes(task, entries, path)
            if metric == "plus" and outcomes and all(plus is None for _, plus in outcomes):
                raise EvalbarsError(f"task {task!r} of {path!r} has no plus status (an EvalPlus "
                                    f"run with --base-only?); read it with --metric base")
            per_task.add(len(outcomes))
            for k, (base, plus) in enumerate(outcomes):
                score = base if metric == "base" else _both(base, plus)
                if score is None:
                    answers.skip(name, task)
                    continue
                answers.add(task, name, score, index, f"eval[{task!r}][{k}]", sample=str(k))
    counts = ", ".join(map(str, sorted(per_task)))
    answers.reading = (f"metric {metric!r}" + (" (default: base and extra tests pass)"
                       if options.metric is None else "") +
                       f", {counts} sample{'' if per_task == {1} else 's'} per task")
    answers.settings = {"metric": metric}
    return answers


def _model(path: str) -> str:
    name = os.path.basename(path)
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return folder if name == "eval_results.json" and folder else os.path.splitext(name)[0]


def _outcomes(task: str, entries: Any, path: str) -> list[tuple[float | None, float | None]]:
    """(base, plus) score of each sample of ``task``: 1, 0 or None (not checked)."""
    where = f"task {task!r} of {path!r}"
    if isinstance(entries, list):  # v0.2.1 and later
        pairs = []
        for k, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise EvalbarsError(f"sample {k} of {where} is not an object with base_status "
                                    f"and plus_status")
            pairs.append((_score(entry.get("base_status"), f"base_status of sample {k} of {where}"),
                          _score(entry.get("plus_status"), f"plus_status of sample {k} of {where}")))
        return pairs
    if not isinstance(entries, dict) or not isinstance(entries.get("base"), list):
        raise EvalbarsError(f"{where} is neither a list of samples nor an object with a "
                            f"\"base\" list of statuses")
    base, plus = entries["base"], entries.get("plus") or []
    if plus and len(plus) != len(base):
        raise EvalbarsError(f"{where} has {len(base)} base statuses but {len(plus)} plus "
                            f"statuses; they must be one per sample")
    return [(_score(_status(b), f"base status {k} of {where}"),
             _score(_status(plus[k]), f"plus status {k} of {where}") if plus else None)
            for k, b in enumerate(base)]


def _status(entry: Any) -> Any:
    """The status of a v0.2.0 ``[status, details]`` pair (or a bare status)."""
    return entry[0] if isinstance(entry, list) and entry else entry


def _score(status: Any, where: str) -> float | None:
    if status is None:
        return None
    if not isinstance(status, str) or status not in _STATUS:
        raise EvalbarsError(f"the {where} is {short(status)}, not one of "
                            f"{name_list(list(_STATUS))} or null")
    return _STATUS[status]


def _both(base: float | None, plus: float | None) -> float | None:
    """EvalPlus's plus: a pass needs the base and the extra tests to pass."""
    if base == 0.0 or plus == 0.0:
        return 0.0
    if base is None or plus is None:
        return None
    return 1.0
