"""Write examples/passk_samples.csv: two code models, 10 sampled answers per problem.

50 problems in 10 topics; each problem has a difficulty shared by both models (so the
models agree on which problems are hard) plus a topic effect, and model "large" is a
little stronger than model "small". One row per sampled answer:
``question_id, topic, model, sample, correct`` with ``correct`` 1 when the answer passes.

Run from the repository root: ``python examples/make_passk_samples.py``.
"""
import csv
from pathlib import Path

import numpy as np

PROBLEMS, TOPICS, SAMPLES = 50, 10, 10
STRENGTH = {"small": -1.0, "large": -0.3}

rng = np.random.default_rng(2021)
topic_effect = rng.normal(0.0, 0.8, TOPICS)
difficulty = rng.normal(0.0, 1.8, PROBLEMS)
rows = []
for i in range(PROBLEMS):
    topic = i % TOPICS
    for name, strength in STRENGTH.items():
        p = 1.0 / (1.0 + np.exp(-(strength + topic_effect[topic] - difficulty[i])))
        for sample, passed in enumerate(rng.random(SAMPLES) < p):
            rows.append((f"p{i:02d}", f"topic_{topic}", name, sample, int(passed)))

path = Path(__file__).with_name("passk_samples.csv")
with open(path, "w", newline="") as handle:
    writer = csv.writer(handle)
    writer.writerow(["question_id", "topic", "model", "sample", "correct"])
    writer.writerows(rows)
print(f"wrote {path}: {len(rows)} answers")
