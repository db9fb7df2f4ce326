"""Data for the engine tests: bad inputs, a generated long table, the comparison of two loads."""
from __future__ import annotations

import numpy as np

HEAD = "id,topic,epoch,model,score\n"
GOOD = HEAD + "q1,t1,0,b,1\nq1,t1,1,b,0\nq2,t2,0,b,1\nq1,t1,2,b,1\nq1,t1,0,a,1\nq2,t2,0,a,0\n"

BAD_INPUTS = {
    "duplicate pairs": ("id,model,score\nq1,a,1\nq2,a,0\nq1,a,1\nq1,b,0\nq2,b,1\nq2,b,0\n", {}),
    "duplicate samples": (GOOD + "q1,t1,1,b,1\n", dict(sample="epoch")),
    "duplicate runs": ("id,model,seed,score\nq1,a,1,1\nq1,a,1,0\nq1,a,2,1\n",
                       dict(run="seed")),
    "items missing": ("id,model,score\nq1,a,1\nq2,a,0\nq3,a,1\nq1,b,0\n", {}),
    "no common item": ("id,model,score\nq1,a,1\nq2,a,0\nq3,b,1\nq4,b,0\n", {}),
    "non-numeric score": ("id,model,score\nq1,a,1\nq2,a,x\nq1,b,0\nq2,b,1e999\n", {}),
    "unicode digit": ("id,model,score\nq1,a,1\nq2,a,\u0663\nq1,b,0\nq2,b,1\n", {}),
    "missing score": ("id,model,score\nq1,a,1\nq2,a,\nq1,b,0\nq2,b,1\n", {}),
    "stray 2": ("id,model,score\n" + "".join(f"q{i},a,{i % 2}\n" for i in range(150))
                + "q150,a,2\n" + "".join(f"q{i},b,1\n" for i in range(151)), {}),
    "binary refused": ("id,model,score\nq1,a,1\nq2,a,0.5\nq1,b,0\nq2,b,1\n",
                       dict(score_type="binary")),
    "two clusters": (GOOD + "q2,t3,1,b,1\n", dict(cluster="topic", sample="epoch")),
    "empty item": ("id,model,score\nq1,a,1\n,a,0\nq1,b,0\n", {}),
    "empty model": ("id,model,score\nq1,a,1\nq1,,0\n", {}),
    "empty sample": (GOOD + "q2,t2,,a,1\n", dict(sample="epoch")),
    "empty cluster": (GOOD.replace("q2,t2,0,a", "q2,,0,a"), dict(cluster="topic",
                                                                 sample="epoch")),
    "unknown model": (GOOD, dict(sample="epoch", models=["a", "zz"])),
    "no such column": (GOOD, dict(cluster="topics")),
    "same column twice": (GOOD, dict(sample="topic", cluster="topic")),
    "intersect leaves none": ("id,model,score\nq1,a,1\nq2,b,0\n", dict(intersect=True)),
    "blank lines and quoted breaks": ('id,model,score\n\n"q\n1",a,1\n\nq2,a,x\n', {}),
    "repeated column name": ("id,model,score,score\nq1,a,1,0\nq1,b,0,1\n", {}),
    "empty column name": ("id,model,\nq1,a,1\nq1,b,0\n", {}),
    "header only": ("id,model,score\n", {}),
    "not comma-separated": ("id;model;score\nq1;a;1\n", {}),
    "empty file": ("", {}),
}


def long_rows(n_models=4, n_items=60, n_samples=3, continuous=False, seed=1,
              shuffle=True) -> dict:
    """A long table (id, topic, epoch, model, score) as columns, rows in random order."""
    rng = np.random.default_rng(seed)
    model, item, sample = np.meshgrid(np.arange(n_models), np.arange(n_items),
                                      np.arange(n_samples), indexing="ij")
    model, item, sample = model.ravel(), item.ravel(), sample.ravel()
    skill = 0.4 + 0.1 * model + 0.3 * rng.random(n_items)[item]
    score = rng.random(model.size) * skill if continuous else \
        (rng.random(model.size) < np.clip(skill, 0, 1)).astype(float)
    order = rng.permutation(model.size) if shuffle else np.arange(model.size)
    return {"id": [f"q{i:03d}" for i in item[order]],
            "topic": [f"t{i % 7}" for i in item[order]],
            "epoch": [str(s) for s in sample[order]],
            "model": [f"m{m}" for m in model[order]],
            "score": score[order].tolist()}


def write_csv(path, columns: dict) -> None:
    names = list(columns)
    lines = [",".join(names)] + [",".join(repr(v) if isinstance(v, float) else str(v)
                                          for v in row) for row in zip(*columns.values())]
    path.write_text("\n".join(lines) + "\n")


def same_fields(memory, engine) -> None:
    """Every field of two ItemScores equal, provenance aside from the engine's record."""
    for name in ("items", "models", "score_type", "dropped", "clusters", "runs"):
        assert getattr(memory, name) == getattr(engine, name), name
    for name in ("scores", "counts", "sumsq"):
        np.testing.assert_array_equal(getattr(memory, name), getattr(engine, name))
    source = dict(engine.source)
    assert source.pop("engine")["name"] in ("duckdb", "spark")
    assert source == memory.source
    assert memory.describe() == engine.describe()


SCORES = ("0", "1", "0.5", "", "x", "2", "true", "1e3", "nan", "-0", ".5")
"""Score cells a random table draws from: numbers, empty cells, text, a stray 2."""


def random_table(rng, case: int) -> tuple[list[str], list[list], dict]:
    """A small long table (id, model, score, topic, ep, seed) with random flaws (repeated
    answers, missing and bad scores, items in two clusters, empty samples) and the loading
    options to read it with."""
    models = rng.sample(["a", "b", "c", "m 1", "Ö"], rng.randint(1, 3))
    items = [rng.choice(["q1", "q2", "007", "7", " q3", "q4"]) for _ in range(rng.randint(1, 6))]
    sample, cluster = rng.random() < 0.4, rng.random() < 0.3
    run = rng.random() < 0.2 and not cluster
    rows = []
    for m in models:
        for item in items:
            for s in range(rng.randint(1, 2) if sample else 1):
                for r in rng.sample(["1", "2", "10"], rng.randint(1, 2)) if run else [None]:
                    score = rng.choice(SCORES) if rng.random() < 0.3 else rng.choice("01")
                    topic = rng.choice(["t1", "t2"]) if rng.random() < 0.1 else \
                        f"t{len(item) % 2}"
                    rows.append([item, m, score, topic, str(s) if rng.random() < 0.9 else "",
                                 r])
    rng.shuffle(rows)
    if rng.random() < 0.2 and rows:
        rows.append(list(rows[0]))
    options = {"sample": "ep"} if sample else {}
    options.update({"cluster": "topic"} if cluster else {})
    options.update({"run": "seed"} if run else {})
    if rng.random() < 0.3:
        options["intersect"] = True
    if rng.random() < 0.2:
        options["score_type"] = rng.choice(["binary", "continuous"])
    return ["id", "model", "score", "topic", "ep", "seed"], rows, options


WIDE_CELLS = ("0", "1", "0.5", "", "x", "2", "true", " 1", "nan", "1e999", "\u0663")
"""Score cells a random wide table draws from."""


def random_wide_table(rng) -> tuple[list[str], list[list], dict]:
    """A small wide table (an id column, one to three model columns, a text column, a topic
    column, an ep and a seed column when read as samples and runs) with random flaws (repeated ids and (item, sample) pairs, bad,
    empty and stray cells, items in two clusters, empty labels, a repeated or empty column
    name) and the options to read it with."""
    models = rng.sample(["a", "b", "m 1", "\u00d6", "q"], rng.randint(1, 3))
    items = [rng.choice(["q1", "q2", "007", "7", " q3", "q4", ""]) if rng.random() < 0.05
             else f"q{k}" for k in range(rng.randint(1, 7))]
    sample, cluster = rng.random() < 0.3, rng.random() < 0.3
    run = rng.random() < 0.2
    many = rng.random() < 0.15  # a long 0/1 column, where one 2 is a stray value
    rows = []
    for k, item in enumerate(items * (40 if many else 1)):
        item = f"{item}_{k}" if many else item
        for s in range(rng.randint(1, 2) if sample else 1):
            for r in rng.sample(["1", "2", "10"], rng.randint(1, 2)) if run else [None]:
                cells = [rng.choice(WIDE_CELLS) if rng.random() < (0.01 if many else 0.06)
                         else rng.choice("01") for _ in models]
                topic = rng.choice(["t1", "t2", ""]) if rng.random() < 0.03 else \
                    f"t{len(item) % 2}"
                rows.append([item, *cells, rng.choice(["x", "y z"]), topic]
                            + ([str(s) if rng.random() < 0.98 else ""] if sample else [])
                            + ([r] if run else []))
    rng.shuffle(rows)
    if rng.random() < 0.1 and rows:
        rows.append(list(rows[0]))
    header = ["id", *models, "note", "topic"] + ["ep"] * sample + ["seed"] * run
    if rng.random() < 0.05:
        header[1] = rng.choice(["", "id", "note"])
    options = {"sample": "ep"} if sample else {}
    options.update({"cluster": "topic"} if cluster else {})
    options.update({"run": "seed"} if run else {})
    if rng.random() < 0.25:
        options["intersect"] = True
    if rng.random() < 0.2:
        options["score_type"] = rng.choice(["binary", "continuous"])
    if rng.random() < 0.2:
        options["models"] = rng.sample(models + (["note"] if rng.random() < 0.2 else []),
                                       1 + (len(models) > 1))
    if rng.random() < 0.03:
        options["score"] = models[0]
    return header, rows, options


def random_pair(rng) -> tuple[list[tuple[list[str], list[list]]], dict]:
    """Two small one-model files (header and rows each) with random flaws (repeated ids,
    items one file lacks, missing, bad and stray scores, items in two clusters, a column
    one file lacks) and the options to read them with."""
    sample, cluster, run = rng.random() < 0.3, rng.random() < 0.3, rng.random() < 0.15
    pool = [f"q{k}" for k in range(rng.randint(1, 6))]
    files = []
    for _ in range(2):
        # with runs every system has pool[0]: the in-memory reader fails (IndexError in
        # validate._share_nothing) on runs of two files sharing no item
        items = [q for q in pool if rng.random() < 0.93 or run and q == pool[0]] or pool[:1]
        with_topic = cluster and rng.random() < 0.9
        with_ep = sample and rng.random() < 0.9
        header = ["id", "score"] + ["topic"] * with_topic + ["ep"] * with_ep + ["seed"] * run
        rows = []
        for item in items:
            for s in range(rng.randint(1, 2) if with_ep else 1):
                for r in ["1", rng.choice("12")] if run else [None]:
                    score = rng.choice(SCORES) if rng.random() < 0.08 else rng.choice("01")
                    row = [item, score]
                    if with_topic:
                        row.append(rng.choice(["t1", "t2"]) if rng.random() < 0.05
                                   else f"t{item[-1]}")
                    if with_ep:
                        row.append(str(s))
                    rows.append(row + ([r] if run else []))
        rng.shuffle(rows)
        if rng.random() < 0.08 and rows:
            rows.append(list(rows[0]))
        files.append((header, rows))
    options = {"sample": "ep"} if sample else {}
    options.update({"cluster": "topic"} if cluster else {})
    options.update({"run": "seed"} if run else {})
    if rng.random() < 0.3:
        options["intersect"] = True
    if rng.random() < 0.15:
        options["score_type"] = rng.choice(["binary", "continuous"])
    if rng.random() < 0.15:
        options["models"] = rng.choice([["x", "y"], ["x"], ["x", "x"]])
    return files, options
