"""Write examples/seeds.csv: two training recipes, 5 runs (seeds) each, on 300 questions.

Each question has a difficulty shared by both recipes plus a small recipe-specific twist
(the recipes do not agree perfectly question by question); each run has a seed effect
(some runs come out better than others); and checkpoints mostly agree on which questions
they get right: 80% of answers come from one draw per question, shared by every run,
the rest from a fresh draw. The "curriculum" recipe is a little stronger than the
"baseline" one. Answers are 0/1, one row per (question, recipe, run):
``question_id, model, seed, correct``. Seeds are numbered 0 to 4 in each recipe; run 0 of
one recipe has nothing to do with run 0 of the other.

Run from the repository root: ``python examples/make_seeds.py``.
"""
import csv
from pathlib import Path

import numpy as np

QUESTIONS, SEEDS = 300, 5
STRENGTH = {"baseline": 0.9, "curriculum": 1.1}  # logits
SEED_SD, TWIST_SD, DIFFICULTY_SD, SHARED = 0.15, 0.4, 2.0, 0.8

rng = np.random.default_rng(2030)
difficulty = rng.normal(0.0, DIFFICULTY_SD, QUESTIONS)
common = rng.random(QUESTIONS)
rows = []
for name, strength in STRENGTH.items():
    twist = rng.normal(0.0, TWIST_SD, QUESTIONS)
    for seed in range(SEEDS):
        logit = strength + rng.normal(0.0, SEED_SD) + twist - difficulty
        draw = np.where(rng.random(QUESTIONS) < SHARED, common, rng.random(QUESTIONS))
        correct = draw < 1.0 / (1.0 + np.exp(-logit))
        rows += [(f"q{i:03d}", name, seed, int(c)) for i, c in enumerate(correct)]

path = Path(__file__).with_name("seeds.csv")
with open(path, "w", newline="") as handle:
    writer = csv.writer(handle)
    writer.writerow(["question_id", "model", "seed", "correct"])
    writer.writerows(rows)
print(f"wrote {path}: {len(rows)} answers")
