"""Write examples/strata_subjects.csv: two models on 200 questions in 4 subjects of unequal
size (30, 60, 90, 20), the example of docs/strata.md. Run from the repo root:
``python examples/make_strata.py``."""
import csv

import numpy as np

SUBJECTS = [("algebra", 30, 0.45), ("biology", 60, 0.8), ("history", 90, 0.7), ("law", 20, 0.35)]

rng = np.random.default_rng(18)
rows, i = [], 1
for name, n, p in SUBJECTS:
    for _ in range(n):
        a = int(rng.random() < p)
        b = a if rng.random() < 0.6 else int(rng.random() < p + 0.12)
        rows.append((f"q{i:03d}", name, a, b))
        i += 1
with open("examples/strata_subjects.csv", "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["id", "subject", "model_a", "model_b"])
    writer.writerows(rows)
