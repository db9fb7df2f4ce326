"""Ingest speed and memory: a 1,000,000-row long CSV and a 200,000-line lm-eval samples file.

Run by hand: ``python benchmarks/bench_ingest.py [--rows 1000000] [--lines 200000]``.
Writes both files to a temporary folder, then reads each with
:func:`evalbars.io.ingest.load` (validation, reduction and alignment included) in a fresh
process, and prints the file size, the best wall time of a few runs and the peak memory
(resident set size) of the process, next to the memory of a process that only imported
evalbars. The lm-eval lines look like real ones (a question, a few-shot prompt, the
response, filters, hashes), about 0.9 kB each.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

_MEASURE = """
import resource, sys, time
from evalbars.io.ingest import load
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
data = load(sys.argv[1])
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(seconds, before, peak, len(data.items), len(data.models))
"""


def write_long_csv(path: Path, rows: int, rng: np.random.Generator) -> None:
    """``rows`` rows of (id, model, score): rows / 2 items answered by two models."""
    n = rows // 2
    a = (rng.random(n) < 0.7).astype(int)
    b = (rng.random(n) < 0.72).astype(int)
    with open(path, "w") as handle:
        handle.write("id,model,score\n")
        handle.writelines(f"q{i:07d},model_a,{x}\nq{i:07d},model_b,{y}\n"
                          for i, (x, y) in enumerate(zip(a, b)))


def write_lm_eval(folder: Path, lines: int, rng: np.random.Generator) -> Path:
    """A results file and one samples file of ``lines`` questions, as lm-eval writes them."""
    date = "2025-01-01T00-00-00.000001"
    shots = "Question: What is 12 + 30?\nAnswer: 12 + 30 = 42. #### 42\n\n" * 4
    with open(folder / f"samples_bench_{date}.jsonl", "w") as handle:
        for i, correct in enumerate(rng.random(lines) < 0.7):
            question = f"Question {i}: a train leaves at {i % 24}:00 and travels {i % 97} km..."
            record = {
                "doc_id": i, "doc": {"question": question, "answer": "#### 42"},
                "target": "#### 42",
                "arguments": {"gen_args_0": {"arg_0": shots + question + "\nAnswer:",
                                             "arg_1": {"until": ["Question:"]}}},
                "resps": [["The answer is 42."]], "filtered_resps": ["42"],
                "filter": "strict-match", "metrics": ["exact_match"],
                "doc_hash": hashlib.sha256(question.encode()).hexdigest(),
                "prompt_hash": hashlib.sha256(shots.encode()).hexdigest(),
                "target_hash": hashlib.sha256(b"#### 42").hexdigest(),
                "exact_match": float(correct),
            }
            handle.write(json.dumps(record) + "\n")
    results = folder / f"results_{date}.json"
    results.write_text(json.dumps({"results": {"bench": {}}, "configs": {},
                                   "model_name": "bench-model"}))
    return results


def measure(path: Path, repeat: int) -> tuple[float, float, float, int, int]:
    """Best time (s), import-only and peak memory (MB), items and models, over fresh runs."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], check=True,
                             capture_output=True, text=True).stdout.split()
        runs.append(out)
    best = min(runs, key=lambda r: float(r[0]))
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / 2**20  # ru_maxrss: KiB on Linux
    return (float(best[0]), int(best[1]) * scale, max(int(r[2]) for r in runs) * scale,
            int(best[3]), int(best[4]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        csv_path = folder / "long.csv"
        write_long_csv(csv_path, args.rows, rng)
        log_path = write_lm_eval(folder, args.lines, rng)
        sizes = {csv_path: csv_path.stat().st_size,
                 log_path: sum(p.stat().st_size for p in folder.glob("samples_*"))}
        for label, path in ((f"long CSV, {args.rows:,} rows", csv_path),
                            (f"lm-eval samples, {args.lines:,} lines", log_path)):
            seconds, base, peak, items, models = measure(path, args.repeat)
            print(f"{label} ({sizes[path] / 1e6:.0f} MB): {seconds:.2f} s, peak memory "
                  f"{peak:.0f} MB ({base:.0f} MB after import; {items:,} items, "
                  f"{models} model{'s' if models > 1 else ''})")


if __name__ == "__main__":
    main()
