"""HELM per-instance statistics (``per_instance_stats.json`` of a ``helm-run`` run folder).

The file is a list of ``PerInstanceStats``: ``instance_id``, ``train_trial_index``,
``perturbation`` (null for the original instance) and ``stats``, a list of statistics
whose ``name`` is a ``MetricName`` (``name``, ``split``, ``perturbation``) and which carry
``count``, ``sum``, ``mean``, ... (field names from HELM's
``helm/benchmark/metrics/metric.py`` and ``statistic.py``). Give a run folder, the file,
or a suite folder holding run folders; the run's ``run_spec.json`` names its model.

- **model**: ``adapter_spec.model`` of ``run_spec.json``, else the ``model=`` part of the
  run folder's name, else the folder's name;
- **item**: the ``instance_id``; each ``train_trial_index`` is a **sample** of it
  (trials differ in their in-context examples), averaged;
- **score**: the ``mean`` of the statistic named by ``metric=`` (default
  ``exact_match``) on the original instance. Perturbed copies (robustness and fairness
  variants) are left out and counted in the report.

All runs read must be of one scenario: instance ids are only unique within one.
"""
from __future__ import annotations

import os
import re
from typing import Any

from ...core.errors import EvalbarsError
from ..table import name_list, short
from . import _json
from ._answers import Answers, Options, Run, label, name_runs, number, reject

FORMAT = "helm"

FILE_NAME = "per_instance_stats.json"

DEFAULT_METRIC = "exact_match"


def is_log(obj: Any) -> bool:
    """True for a parsed ``per_instance_stats.json``."""
    return isinstance(obj, list) and bool(obj) and isinstance(obj[0], dict) and \
        "instance_id" in obj[0] and "stats" in obj[0]


def read(paths: list[str], options: Options) -> Answers:
    """Read HELM per-instance statistics (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, helm
    >>> answers = helm.read(["tests/data/logs/helm/suite_v1"], Options(metric="exact_match"))
    >>> sorted(set(answers.models))
    ['eleutherai_pythia-1b', 'openai/gpt2']
    >>> answers.notes
    ['1 perturbed instance entry left out (originals only)']
    """
    reject(FORMAT, options, ("metric",))
    metric = options.metric or DEFAULT_METRIC
    files = [f for path in paths for f in _files(path)]
    runs = [_run(f) for f in files]
    scenarios = {f: scenario for f, (_, scenario) in zip(files, runs)}
    if len(set(scenarios.values())) > 1:
        raise EvalbarsError("the HELM runs are of different scenarios (" + ", ".join(
            f"{s!r} in {f!r}" for f, s in scenarios.items()) + "); compare one scenario")
    names = name_runs([Run(model, (os.path.basename(os.path.dirname(os.path.abspath(f))),))
                       for f, (model, _) in zip(files, runs)])
    answers = Answers(FORMAT, list(paths), item_name="instance_id", score_name=metric,
                      sample_name="train_trial_index")
    perturbed = 0
    for path, name in zip(files, names):
        index = answers.file(path, ("", ""))
        entries = _json.load(path)
        if not is_log(entries):
            raise EvalbarsError(f"{path!r} is not HELM per-instance statistics (a list of "
                                f"entries with instance_id and stats)")
        for k, entry in enumerate(entries):
            where = f"[{k}]"
            if not isinstance(entry, dict):
                raise EvalbarsError(f"entry {where} of {path!r} is not an object with "
                                    f"instance_id and stats")
            if entry.get("perturbation") is not None:
                perturbed += 1
                continue
            item = label(entry.get("instance_id"))
            trial = label(entry.get("train_trial_index", 0))
            if item is None or trial is None:
                raise EvalbarsError(f"entry {where} of {path!r} has no string instance_id "
                                    f"and integer train_trial_index")
            score = _stat(entry, metric, where, path)
            if score is None:
                answers.skip(name, item)
                continue
            answers.add(item, name, score, index, where, sample=trial)
    answers.reading = (f"scenario {next(iter(scenarios.values()))!r}, the mean of statistic "
                       f"{metric!r}" + ("" if options.metric else " (default)"))
    answers.settings = {"metric": metric, "scenario": next(iter(scenarios.values()))}
    if perturbed:
        answers.notes.append(f"{perturbed} perturbed instance entr"
                             f"{'ies' if perturbed > 1 else 'y'} left out (originals only)")
    return answers


def _files(path: str) -> list[str]:
    if not os.path.isdir(path):
        return [path]
    found = [os.path.join(root, FILE_NAME) for root, dirs, files in sorted(os.walk(path))
             if FILE_NAME in files]
    if not found:
        raise EvalbarsError(f"found no {FILE_NAME} under {path!r}")
    return found


def _run(path: str) -> tuple[str, str]:
    """(model, scenario) of the run that wrote ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    run_name = os.path.basename(folder)
    model = None
    spec_path = os.path.join(folder, "run_spec.json")
    if os.path.exists(spec_path):
        spec = _json.load(spec_path)
        if isinstance(spec, dict):
            if isinstance(spec.get("name"), str):
                run_name = spec["name"] or run_name
            adapter = spec.get("adapter_spec")
            model = adapter.get("model") if isinstance(adapter, dict) else None
    found = re.search(r"(?:^|[,:])model=([^,]+)", run_name)
    if model is None:
        model = found.group(1) if found else run_name
    scenario = re.sub(r"(?<=[:,])model(?:_deployment)?=[^,]*,?", "", run_name).rstrip(",:")
    return str(model), scenario


def _stat(entry: dict, metric: str, where: str, path: str) -> float | None:
    stats = entry.get("stats")
    if not isinstance(stats, list):
        raise EvalbarsError(f"entry {where} of {path!r} has no list of stats")
    found = [s for s in stats if isinstance(s, dict) and isinstance(s.get("name"), dict)
             and s["name"].get("name") == metric and s["name"].get("perturbation") is None]
    if not found:
        names = sorted({s["name"].get("name") for s in stats
                        if isinstance(s, dict) and isinstance(s.get("name"), dict)
                        and isinstance(s["name"].get("name"), str)})
        raise EvalbarsError(f"entry {where} of {path!r} has no statistic {metric!r} "
                            f"(metric=); it has {name_list(names)}")
    if len(found) > 1:
        raise EvalbarsError(f"entry {where} of {path!r} has {len(found)} statistics "
                            f"{metric!r}, one per split: "
                            f"{name_list([s['name'].get('split') for s in found])}")
    try:
        return number(found[0].get("mean"))
    except ValueError:
        raise EvalbarsError(f"the mean of {metric!r} at entry {where} of {path!r} is "
                            f"{short(found[0].get('mean'))}, not a number") from None
