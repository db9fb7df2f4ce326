"""Per-item labels and arrival order, read with the scores (io/labels.py): read once, ask
many questions."""
import json
import subprocess
import sys

import numpy as np
import pytest

import evalbars
from evalbars.core.errors import EvalbarsError
from evalbars.io.labels import ROLES, ItemLabels

pandas = pytest.importorskip("pandas")


def _long(n=40, seed=0):
    rng = np.random.default_rng(seed)
    return pandas.DataFrame({
        "id": [f"q{i:02d}" for i in range(n)] * 2, "model": ["a"] * n + ["b"] * n,
        "score": rng.integers(0, 2, 2 * n), "doc": [f"d{i // 4}" for i in range(n)] * 2,
        "subject": [f"s{i // 10}" for i in range(n)] * 2,
        "half": ["x" if i % 2 else "y" for i in range(n)] * 2})


def test_load_carries_every_label_named():
    data = evalbars.load(_long(), cluster="doc", stratum="subject", split="half")
    assert data.clusters[:5] == ("d0", "d0", "d0", "d0", "d1")
    stratum, split = data.labels["stratum"], data.labels["split"]
    assert (stratum.column, stratum.names) == ("subject", ("s0", "s1", "s2", "s3"))
    assert stratum.codes.tolist() == [i // 10 for i in range(40)]
    assert split.per_item()[:3] == ("y", "x", "y") and split.codes.dtype == np.int64
    assert not stratum.codes.flags.writeable
    # what the read line and the report's provenance say is unchanged by the labels
    plain = evalbars.load(_long(), cluster="doc")
    assert data.describe() == plain.describe() and data.source == plain.source


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_each_role_is_checked_in_its_own_words(engine):
    pytest.importorskip("duckdb")
    for role, column in (("cluster", "doc"), ("stratum", "subject"), ("split", "half")):
        two = _long()
        two.loc[50, column] = "zz"
        with pytest.raises(EvalbarsError) as found:
            evalbars.load(two, engine=engine, **{role: column})
        one = ROLES[role].one
        assert str(found.value) == (
            f"1 item is assigned to more than one {one} (column {column!r}): item 'q10' is in "
            f"{two.loc[10, column]!r} at row 10 (0-based) of the DataFrame and in 'zz' at row "
            f"50 (0-based) of the DataFrame; each item belongs to one {one}")
        empty = _long()
        empty.loc[7, column] = ""
        with pytest.raises(EvalbarsError, match=f"^empty {one} label in column {column!r} at "
                                                r"row 7 \(0-based\) of the DataFrame"):
            evalbars.load(empty, engine=engine, **{role: column})


def test_every_engine_and_layout_reads_the_same_labels(tmp_path):
    pytest.importorskip("duckdb")
    frame = _long()
    path = tmp_path / "long.csv"
    frame.to_csv(path, index=False)
    wide = frame.pivot(index=["id", "doc", "subject", "half"], columns="model",
                       values="score").reset_index()
    wide_path = tmp_path / "wide.csv"
    wide.to_csv(wide_path, index=False)
    options = {"cluster": "doc", "stratum": "subject", "split": "half"}
    found = [evalbars.load(source, engine=engine, **options)
             for source in (frame, path, wide_path) for engine in ("memory", "duckdb")]
    first = found[0]
    for other in found[1:]:
        assert other.items == first.items and other.clusters == first.clusters
        for role in ("stratum", "split"):
            assert other.labels[role].per_item() == first.labels[role].per_item()


def test_two_files_carry_a_label_from_either_file(tmp_path):
    (tmp_path / "base.csv").write_text("id,subject,score\nq1,law,1\nq2,math,0\n")
    (tmp_path / "tuned.csv").write_text("id,score\nq2,1\nq1,1\n")
    data = evalbars.load(tmp_path / "base.csv", tmp_path / "tuned.csv", stratum="subject")
    assert data.labels["stratum"].per_item() == ("law", "math")


def test_logs_read_labels_as_fields():
    data = evalbars.load("tests/data/logs/lm-eval/model_a", stratum="task")
    tasks = data.labels["stratum"].per_item()
    assert data.labels["stratum"].names == ("mmlu_mini_anatomy", "mmlu_mini_astronomy")
    assert all(item.startswith(task + "/") for item, task in zip(data.items, tasks))
    # read with a stratum, the read line no longer advises naming one
    assert "--stratum task" in evalbars.load("tests/data/logs/lm-eval/model_a").describe()
    assert "--stratum" not in data.describe()


def test_item_labels_and_subsets():
    labels = ItemLabels.of("topic", ["t2", None, "t1"])
    assert labels.names == ("t1", "t2") and labels.codes.tolist() == [1, -1, 0]
    assert labels.per_item() == ("t2", None, "t1")
    assert labels.subset(np.array([True, False, True])).per_item() == ("t2", "t1")
    data = evalbars.load(_long(), cluster="doc", stratum="subject")
    part = data.subset(np.arange(40) % 10 == 0)
    assert part.items == ("q00", "q10", "q20", "q30")
    assert part.labels["stratum"].per_item() == ("s0", "s1", "s2", "s3")
    assert part.clusters == ("d0", "d2", "d5", "d7") and part.scores.shape == (4, 2)


def test_a_label_column_is_not_a_model_and_not_another_role():
    frame = _long().pivot(index=["id", "doc"], columns="model", values="score").reset_index()
    frame["rank"] = np.arange(len(frame))  # numbers: a model, unless named as a label
    assert evalbars.load(frame, models=None, split="rank").models == ("a", "b")
    with pytest.raises(EvalbarsError, match="the item, cluster and stratum columns of the "
                                            "DataFrame must differ"):
        evalbars.load(frame, cluster="doc", stratum="doc")
    with pytest.raises(EvalbarsError, match=r"^stratum= must be a column name \(a non-empty "
                                            r"str\); got 3$"):
        evalbars.load(frame, stratum=3)


_COUNT_OPENS = """
import os, sys, evalbars
opened = {}
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        name = os.path.basename(os.fsdecode(args[0]))
        opened[name] = opened.get(name, 0) + 1
sys.addaudithook(hook)
evalbars.compare("examples/strata_subjects.csv", stratum="subject", n_resamples=200)
evalbars.leaderboard("examples/strata_subjects.csv", stratum="subject", n_resamples=200)
evalbars.select("examples/prompts.csv", baseline="baseline", split="split",
                select_on="dev", confirm_on="test", n_resamples=200)
evalbars.monitor("examples/lesson_pair.csv")
evalbars.ci("examples/cookbook_topics.csv", item="example_id", cluster="topic_id",
            n_resamples=200)
print(json.dumps({k: v for k, v in opened.items() if k.endswith(".csv")}))
"""


def test_every_analysis_opens_its_file_once():
    # Python's audit hook sees every open (builtins.open, io.FileIO, os.open); in a child
    # process, as a hook cannot be removed. Before the labels were read with the scores,
    # stratum=, split= and the monitor's order read each file twice.
    done = subprocess.run([sys.executable, "-c", "import json\n" + _COUNT_OPENS],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "strata_subjects.csv": 2, "prompts.csv": 1, "lesson_pair.csv": 1,  # 2: two analyses
        "cookbook_topics.csv": 1}


def test_the_readme_example_runs():
    import doctest
    import pathlib
    text = (pathlib.Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    block = text.split("**Read once, ask many questions**")[1].split("```python")[1]
    block = block.split("```")[0]
    test = doctest.DocTestParser().get_doctest(block, {"evalbars": evalbars}, "README.md",
                                               "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries == 4
