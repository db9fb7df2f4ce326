"""The resampling engine against the random-number floor, measured in one run.

Run by hand: ``python benchmarks/bench_engine.py [--resamples 10000] [--skip-million]
[--skip-naive]``. The header prints the load average: on a shared machine the other jobs
slow the floor and the cases alike, but not equally (the cases use both cores when free),
so ratios from a busy machine are to be re-measured on a quiet one.

The floor is the time numpy's PCG64 needs just to draw the B x n bootstrap indices once,
on one thread (int64, in chunks of at most 2**22 cells, which is faster than one huge
array). Every case generates its data, runs in its own subprocess (so peak memory, the
max RSS above an interpreter that imported numpy, scipy and evalbars, is its own) and is
printed with its ratio to the floor measured in the same run, in wall seconds and in CPU
seconds (summed over threads: the work done, which other jobs on a shared machine disturb
less than the wall time; a case using both cores has a CPU ratio above its wall ratio):

- compare, 2 continuous models, 100,000 and 1,000,000 items: every interval and test;
- leaderboard, 20 continuous models x 10,000 items, all 190 pairs with their tests, and
  the naive way (each model its own bootstrap, each pair its own sign-flip test: timed
  on a few and extrapolated);
- whole process: ``evalbars compare`` on a 10,000-item continuous CSV, and
  ``evalbars --help``.

With llvmlite installed (``evalbars[fast]``) the cases count their resamples with the
compiled kernel, its import and compilation (about 0.06 s) inside the timed call; the
compare cases are run again with ``EVALBARS_NO_KERNEL=1``, numpy alone, for the same
numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np


def make_data(n_models: int, n: int) -> np.ndarray:
    """(n, n_models) continuous scores sharing 70% of a question difficulty."""
    rng = np.random.default_rng(0)
    ease = rng.random(n)
    columns = []
    for k in range(n_models):
        own = np.where(rng.random(n) < 0.7, ease, rng.random(n))
        columns.append(np.clip(0.6 + 0.005 * k + 0.3 * (own - 0.5) + rng.normal(0, 0.05, n),
                               0, 1))
    return np.column_stack(columns)


def scores(n_models: int, n: int):
    import pandas as pd

    from evalbars.io.ingest import load

    frame = pd.DataFrame(make_data(n_models, n), columns=[f"m{k:02d}" for k in range(n_models)])
    frame.insert(0, "qid", [f"q{i:07d}" for i in range(n)])
    return load(frame)


def floor(n: int, b: int) -> dict:
    """Wall and CPU seconds to draw b x n int64 indices once on one thread."""
    rng = np.random.default_rng(0)
    rows = max(1, (1 << 22) // n)
    start, cpu = time.perf_counter(), time.process_time()
    for first in range(0, b, rows):
        rng.integers(0, n, size=(min(rows, b - first), n))
    return {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}


def naive_leaderboard(data: np.ndarray, b: int, sample: int) -> float:
    """Seconds for the naive way: a bootstrap per model, a sign-flip test per pair.

    Each is one B x n draw; ``sample`` models and pairs are timed, the rest extrapolated.
    """
    from evalbars.stats.bootstrap import bootstrap_means
    from evalbars.stats.permutation import sign_flip

    n_models = data.shape[1]
    start = time.perf_counter()
    for k in range(sample):
        bootstrap_means(data[:, k], n_resamples=b, seed=np.random.SeedSequence(k))
    per_model = (time.perf_counter() - start) / sample
    start = time.perf_counter()
    for k in range(sample):
        sign_flip(data[:, k], data[:, k + 1], n_resamples=b, seed=np.random.SeedSequence(k))
    per_pair = (time.perf_counter() - start) / sample
    return n_models * per_model + n_models * (n_models - 1) // 2 * per_pair


def child(case: str, b: int) -> dict:
    import evalbars

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if case.startswith("compare"):
        n = int(case.split(":")[1])
        data = scores(2, n)
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start, cpu = time.perf_counter(), time.process_time()
        evalbars.compare(data, a="m00", b="m01", n_resamples=b)
    elif case == "leaderboard":
        data = scores(20, 10_000)
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start, cpu = time.perf_counter(), time.process_time()
        evalbars.leaderboard(data, n_resamples=b)
    else:
        seconds = naive_leaderboard(make_data(20, 10_000), b, 3)  # one thread: CPU = wall
        return {"seconds": seconds, "cpu": seconds, "mb": 0.0}
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": seconds, "cpu": cpu, "mb": (peak - base) / 1024}


def has_kernel() -> bool:
    import importlib.util

    return importlib.util.find_spec("llvmlite") is not None


def kernel() -> str:
    if not has_kernel():
        return "llvmlite not installed: numpy counts every resample"
    import llvmlite

    return f"llvmlite {llvmlite.__version__}: the compiled kernel counts the resamples"


def run_child(case: str, b: int, numpy_only: bool = False) -> dict:
    env = dict(os.environ, EVALBARS_NO_KERNEL="1") if numpy_only else None
    out = subprocess.run([sys.executable, __file__, "--child", case, "--resamples", str(b)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def wall(argv: list[str]) -> float:
    # With the bytecode cache a user's installed package has (a warm-up run writes it):
    # PYTHONDONTWRITEBYTECODE would compile every module from source in every run.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True, env=env)
    return time.perf_counter() - start


def whole_process() -> tuple[float, float]:
    """Best of 3 wall times after a warm-up run: ``evalbars compare`` on 10,000 continuous
    items; ``--help``."""
    import pandas as pd

    frame = pd.DataFrame(make_data(2, 10_000), columns=["a", "b"])
    frame.insert(0, "qid", [f"q{i:05d}" for i in range(10_000)])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "scores.csv")
        frame.to_csv(path, index=False)
        exe = [sys.executable, "-m", "evalbars"]
        wall(exe + ["compare", path, "--a", "a", "--b", "b"])
        compare = min(wall(exe + ["compare", path, "--a", "a", "--b", "b"]) for _ in range(3))
        helped = min(wall(exe + ["--help"]) for _ in range(3))
    return compare, helped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--skip-million", action="store_true")
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.resamples)))
        return
    b = args.resamples
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"B = {b:,} resamples; floor = numpy PCG64 drawing the B x n int64 indices once, "
          f"one thread; {os.cpu_count()} cores; load average {load}; {kernel()}")
    rows = []
    sizes = (100_000,) if args.skip_million else (100_000, 1_000_000)
    for n in sizes:
        base = floor(n, b)
        found = run_child(f"compare:{n}", b)
        rows.append((f"compare, 2 continuous models, {n:,} items", found, base))
        if has_kernel():
            rows.append(("  numpy alone (EVALBARS_NO_KERNEL=1)",
                         run_child(f"compare:{n}", b, numpy_only=True), base))
    base = floor(10_000, b)
    rows.append(("leaderboard, 20 continuous x 10,000 items, 190 pairs",
                 run_child("leaderboard", b), base))
    if not args.skip_naive:
        rows.append(("  the naive way (a bootstrap per model, a test per pair)",
                     run_child("naive", b), base))
    print(f"{'task':58} {'seconds':>8} {'floor':>7} {'ratio':>6} {'CPU s':>7} {'floor':>7} "
          f"{'ratio':>6} {'peak MB':>8}")
    for label, found, base in rows:
        print(f"{label:58} {found['seconds']:8.2f} {base['seconds']:7.2f} "
              f"{found['seconds'] / base['seconds']:5.1f}x {found['cpu']:7.2f} {base['cpu']:7.2f} "
              f"{found['cpu'] / base['cpu']:5.1f}x {found['mb']:8.0f}")
    compare, helped = whole_process()
    print(f"whole process: evalbars compare, 10,000 continuous items {compare:.2f} s; "
          f"evalbars --help {helped:.2f} s")


if __name__ == "__main__":
    main()
