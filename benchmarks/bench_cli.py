"""Wall time of the command line: `evalbars --help`, and `evalbars compare` on 100,000 items.

Run by hand: ``python benchmarks/bench_cli.py [--n 100000] [--repeat 3]``. Writes a
0/1 CSV to a temporary folder, runs the installed `evalbars` command (every interval and
test, 10,000 resamples) and prints the best of a few runs.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np


def best_time(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    exe = shutil.which("evalbars")
    if exe is None:
        raise SystemExit("install evalbars first: pip install .")
    rng = np.random.default_rng(0)
    u = rng.random(args.n)
    a = (u < 0.7).astype(int)
    b = np.where(rng.random(args.n) < 0.9, u < 0.72, rng.random(args.n) < 0.72).astype(int)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.csv"
        with open(path, "w") as handle:
            handle.write("qid,model_a,model_b\n")
            handle.writelines(f"q{i:07d},{x},{y}\n" for i, (x, y) in enumerate(zip(a, b)))
        help_s = best_time([exe, "--help"], args.repeat)
        json_s = best_time([exe, "compare", str(path), "--format", "json"], args.repeat)
        text_s = best_time([exe, "compare", str(path)], args.repeat)
    print(f"evalbars --help: {help_s:.3f} s")
    print(f"evalbars compare, {args.n:,} items, 0/1, json: {json_s:.3f} s; text: {text_s:.3f} s")


if __name__ == "__main__":
    main()
