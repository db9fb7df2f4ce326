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
  (trials differ in their in-context examples), averaged. Runs with annotator (LLM-judge)
  metrics write two entries per instance and trial, each with some of the statistics:
  they are merged, and a statistic found in both is an error;
- **score**: the ``mean`` of the statistic named by ``metric=`` (default
  ``exact_match``) on the original instance, in one split: ``eval_split=`` (``--eval-split``),
  else ``test`` as HELM reports it, else the only split the run has; instances of other
  splits are left out and counted in the report. Perturbed copies (robustness and
  fairness variants) are left out and counted too.

All runs read must be of one scenario: instance ids are only unique within one.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from ...core.errors import EvalbarsError
from ..table import name_list, short
from . import _json
from ._answers import Answers, Options, Run, label, name_runs, number, reject, text

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
    ['1 perturbed instance left out (originals only)']
    """
    reject(FORMAT, options, ("eval_split",))
    metric = options.metric or DEFAULT_METRIC
    files = [f for path in paths for f in _files(path)]
    runs = [_run(f) for f in files]
    scenarios = {f: scenario for f, (_, scenario) in zip(files, runs)}
    if len(set(scenarios.values())) > 1:
        raise EvalbarsError("the HELM runs are of different scenarios (" + ", ".join(
            f"{s!r} in {f!r}" for f, s in scenarios.items()) + "); compare one scenario")
    names = name_runs([Run(model, (os.path.basename(os.path.dirname(os.path.abspath(f))),))
                       for f, (model, _) in zip(files, runs)])
    instances = {path: _instances(path) for path in files}
    split = _split(instances, metric, options.eval_split)
    answers = Answers(FORMAT, list(paths), item_name="instance_id", score_name=metric,
                      sample_name="train_trial_index")
    perturbed = merged = 0
    elsewhere: dict[str, int] = {}
    for path, name in zip(files, names):
        index = answers.file(path, ("entry", "entries"))
        for (item, trial, perturbation), found in instances[path].items():
            if perturbation is not None:
                perturbed += 1
                continue
            merged += len(found.entries) > 1
            chosen = found.stats.get((metric, split))
            if chosen is None:
                other = [s for (m, s) in found.stats if m == metric]
                if not other:
                    raise EvalbarsError(
                        f"entry {found.entries[0]} of {path!r} has no statistic {metric!r} "
                        f"(metric=); it has {name_list(sorted({m for m, _ in found.stats}))}")
                elsewhere[other[0]] = elsewhere.get(other[0], 0) + 1
                continue
            where, value = chosen
            score = _mean(value, metric, where, path)
            if score is None:
                answers.skip(name, item)
                continue
            answers.add(item, name, score, index, where, sample=trial)
    _describe(answers, next(iter(scenarios.values())), metric, split, options,
              perturbed, merged, elsewhere)
    return answers


def _describe(answers: Answers, scenario: str, metric: str, split: str, options: Options,
              perturbed: int, merged: int, elsewhere: dict[str, int]) -> None:
    answers.reading = (f"scenario {scenario!r}, split {split!r}"
                       + ("" if options.eval_split else " (default)")
                       + f", the mean of statistic {metric!r}"
                       + ("" if options.metric else " (default)"))
    answers.settings = {"metric": metric, "split": split, "scenario": scenario}
    if merged:
        answers.notes.append(f"{merged} instance{'s' if merged > 1 else ''} had their "
                             f"statistics in two entries (annotator metrics): merged")
    for other, count in sorted(elsewhere.items()):
        answers.notes.append(f"{count} instance{'s' if count > 1 else ''} of split {other!r} "
                             f"left out (split {split!r} is read; choose with --eval-split)")
    if perturbed:
        answers.notes.append(f"{perturbed} perturbed instance{'s' if perturbed > 1 else ''} "
                             f"left out (originals only)")


@dataclass
class _Instance:
    entries: list[str]  # where its entries are: "[0]", "[7]"
    stats: dict[tuple[str, str | None], tuple[str, Any]]  # (metric, split) -> (entry, mean)


def _instances(path: str) -> dict[tuple[str, str, str | None], _Instance]:
    """(instance_id, trial, perturbation) -> its statistics, merged over its entries."""
    entries = _json.load(path)
    if not is_log(entries):
        raise EvalbarsError(f"{path!r} is not HELM per-instance statistics (a list of "
                            f"entries with instance_id and stats)")
    found: dict[tuple[str, str, str | None], _Instance] = {}
    for k, entry in enumerate(entries):
        where = f"[{k}]"
        if not isinstance(entry, dict):
            raise EvalbarsError(f"entry {where} of {path!r} is not an object with "
                                f"instance_id and stats")
        item = label(entry.get("instance_id"))
        trial = label(entry.get("train_trial_index", 0))
        if item is None or trial is None:
            raise EvalbarsError(f"entry {where} of {path!r} has no string instance_id "
                                f"and integer train_trial_index")
        perturbation = entry.get("perturbation")
        key = (item, trial, None if perturbation is None else text(perturbation))
        instance = found.setdefault(key, _Instance([], {}))
        instance.entries.append(where)
        stats = entry.get("stats")
        if not isinstance(stats, list):
            raise EvalbarsError(f"entry {where} of {path!r} has no list of stats")
        for stat in stats:
            name = stat.get("name") if isinstance(stat, dict) else None
            if not isinstance(name, dict) or not isinstance(name.get("name"), str) or \
                    name.get("perturbation") is not None:
                continue
            split = name.get("split")
            split = None if split is None else text(split)
            if (name["name"], split) in instance.stats:
                raise EvalbarsError(
                    f"statistic {name['name']!r} of split {split!r} is given twice for "
                    f"instance {item!r}, trial {trial}, in {path!r}: at entries "
                    f"{instance.stats[(name['name'], split)][0]} and {where}")
            instance.stats[(name["name"], split)] = (where, stat.get("mean"))
    return found


def _split(instances: dict[str, dict], metric: str, wanted: str | None) -> str | None:
    """The split read: ``wanted``, else test, else the only split ``metric`` is given in."""
    splits = sorted({s for found in instances.values() for key, instance in found.items()
                     if key[2] is None for m, s in instance.stats if m == metric},
                    key=str)
    if wanted is not None:
        if wanted not in splits and splits:
            raise EvalbarsError(f"eval_split={wanted!r}: the HELM runs give statistic {metric!r} "
                                f"in split{'s' if len(splits) > 1 else ''} "
                                f"{name_list(splits)}")
        return wanted
    if "test" in splits or not splits:
        return "test"
    if len(splits) > 1:
        raise EvalbarsError(f"the HELM runs give statistic {metric!r} in splits "
                            f"{name_list(splits)} and none is 'test': choose one with "
                            f"eval_split= (--eval-split)")
    return splits[0]


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


def _mean(value: Any, metric: str, where: str, path: str) -> float | None:
    try:
        return number(value)
    except ValueError:
        raise EvalbarsError(f"the mean of {metric!r} at entry {where} of {path!r} is "
                            f"{short(value)}, not a number") from None
