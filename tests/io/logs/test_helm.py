"""HELM per-instance statistics: evalbars.io.logs.helm, through evalbars.io.ingest.load.

The fixtures follow HELM's ``PerInstanceStats`` (instance_id, perturbation,
train_trial_index, stats) and ``Stat`` (name: MetricName {name, split, perturbation},
count, sum, sum_squared, min, max, mean, variance, stddev) from
``helm/benchmark/metrics/metric.py`` and ``statistic.py``, and a ``run_spec.json`` with
``name`` and ``adapter_spec.model``, in a run folder named as helm-run names them.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

SUITE = Path(__file__).parents[2] / "data" / "logs" / "helm" / "suite_v1"
GPT2 = SUITE / "mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"
PYTHIA = SUITE / "mmlu:subject=anatomy,method=multiple_choice_joint,model=eleutherai_pythia-1b"


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def stats_file(tmp_path: Path, entries: list, folder: str = "run,model=m") -> Path:
    path = tmp_path / folder / "per_instance_stats.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries))
    return path


def entry(iid="id0", mean=1.0, name="exact_match", **fields) -> dict:
    return {"instance_id": iid, "train_trial_index": 0,
            "stats": [{"name": {"name": name, "split": "test"}, "mean": mean}], **fields}


def test_suite_folder_two_models_two_trials():
    # exact_match per (instance, trial): gpt2 id0 1 0, id1 1 1, id2 0 0, id3 1 1 (and a
    # perturbed id0, left out); pythia id0 0 0, id1 1 0, id2 0 1, id3 1 1.
    data = load(SUITE)
    assert data.models == ("eleutherai_pythia-1b", "openai/gpt2")
    assert data.items == ("id0", "id1", "id2", "id3")
    assert data.column("openai/gpt2").tolist() == [0.5, 1, 0, 1]
    assert data.column("eleutherai_pythia-1b").tolist() == [0, 0.5, 0.5, 1]
    assert data.counts.min() == data.counts.max() == 2
    text = data.describe()
    assert "scenario 'mmlu:subject=anatomy,method=multiple_choice_joint'" in text
    assert "1 perturbed instance entry left out" in text


def test_run_folders_and_files(tmp_path):
    data = load(GPT2, PYTHIA / "per_instance_stats.json", metric="quasi_exact_match")
    assert data.models == ("openai/gpt2", "eleutherai_pythia-1b")


def test_error_different_scenarios(tmp_path):
    other = stats_file(tmp_path, [entry()], "boolq:model=openai_gpt2")
    assert "different scenarios" in error(GPT2, other)


def test_error_folder_without_stats(tmp_path):
    assert "found no per_instance_stats.json" in error(tmp_path, input_format="helm")


def test_error_not_per_instance_stats(tmp_path):
    path = stats_file(tmp_path, {"instance_id": 1})
    assert "is not HELM per-instance statistics" in error(path)


@pytest.mark.parametrize("bad, message", [
    ({"stats": [], "instance_id": None}, "has no string instance_id"),
    ({"instance_id": "id1", "stats": "none"}, "has no list of stats"),
    (entry("id1", name="f1"), "has no statistic 'exact_match'"),
    (entry("id1", mean="high"), "is 'high', not a number"),
])
def test_error_bad_entries(tmp_path, bad, message):
    assert message in error(stats_file(tmp_path, [entry(), bad]))


def test_error_one_statistic_per_split(tmp_path):
    twice = entry()
    twice["stats"].append({"name": {"name": "exact_match", "split": "valid"}, "mean": 1})
    assert "one per split: 'test', 'valid'" in error(stats_file(tmp_path, [twice]))


def test_error_options_of_other_formats():
    assert "helm logs carry no cluster label" in error(GPT2, cluster="x")
