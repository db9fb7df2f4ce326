"""Write examples/prompts.csv: seed 000's "Break It 4", twenty prompts with no true effect.

A baseline prompt and 20 variants answer the same 1,000 questions, 0/1 scored. The
baseline is right on each question with probability 0.70; every variant has the same
accuracy and disagrees with the baseline on 10% of the questions (half of them won, half
lost), independently of the other variants. The ``split`` column puts the first 500
questions in ``dev`` (to choose on) and the other 500 in ``test`` (to confirm on).

Run from the repository root: ``python examples/make_prompts.py`` (fixed seed; the file
is the same on every run).
"""
import csv
from pathlib import Path

import numpy as np

N_QUESTIONS, N_PROMPTS = 1000, 20
ACCURACY, DISAGREEMENT = 0.70, 0.10

rng = np.random.default_rng(20240917)
baseline = rng.random(N_QUESTIONS) < ACCURACY
lose = DISAGREEMENT / 2 / ACCURACY          # P(variant wrong | baseline right)
win = DISAGREEMENT / 2 / (1 - ACCURACY)     # P(variant right | baseline wrong)
prompts = []
for _ in range(N_PROMPTS):
    flip = rng.random(N_QUESTIONS) < np.where(baseline, lose, win)
    prompts.append(baseline ^ flip)

path = Path(__file__).with_name("prompts.csv")
with open(path, "w", newline="") as handle:
    writer = csv.writer(handle)
    names = [f"prompt{k:02d}" for k in range(1, N_PROMPTS + 1)]
    writer.writerow(["qid", "split", "baseline"] + names)
    for i in range(N_QUESTIONS):
        split = "dev" if i < N_QUESTIONS // 2 else "test"
        writer.writerow([f"q{i:04d}", split, int(baseline[i])] + [int(p[i]) for p in prompts])
print(f"wrote {path}: {N_QUESTIONS} questions, baseline + {N_PROMPTS} prompts")
