"""A 20-model leaderboard: evalbars against looping scipy.stats.bootstrap over the pairs.

Run by hand: ``python benchmarks/bench_leaderboard.py [--models 20] [--n 10000]
[--resamples 10000] [--scipy-pairs 3] [--kind binary|continuous]``.

evalbars draws one resample of the questions for all models and reads every pairwise
gap (190 for 20 models) and every rank from it; the competitor runs
``scipy.stats.bootstrap((a, b), ..., paired=True, method="percentile")`` once per pair.
scipy is timed on ``--scipy-pairs`` pairs and extrapolated to all pairs (the full loop
would take several minutes); the output says so. scipy runs with ``batch=1000``, which
bounds its memory and is faster than its default (all resamples at once) on this machine.
Each side runs in its own subprocess so that its peak memory (max RSS above an
interpreter that imported numpy, scipy and evalbars) is its own, and ``--repeat`` times,
keeping the fastest (timings on a shared machine only ever get slower). Printed: seconds,
peak MB, the ratio measured in this run, and the intervals of the timed pairs from both
sides.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np


def make_data(kind: str, n_models: int, n: int) -> np.ndarray:
    """(n, n_models) scores: models 0.5 points apart sharing 70% of a question difficulty."""
    rng = np.random.default_rng(0)
    ease = rng.random(n)
    columns = []
    for k in range(n_models):
        own = np.where(rng.random(n) < 0.7, ease, rng.random(n))
        mean = 0.60 + 0.005 * k
        if kind == "binary":
            columns.append((own < mean).astype(float))
        else:
            columns.append(np.clip(mean + 0.3 * (own - 0.5) + rng.normal(0, 0.05, n), 0, 1))
    return np.column_stack(columns)


def timed_pairs(n_models: int, count: int) -> list[tuple[int, int]]:
    """``count`` pairs spread over the leaderboard (lower index, higher index)."""
    pairs = [(i, j) for i in range(n_models) for j in range(i + 1, n_models)]
    step = max(1, len(pairs) // count)
    return pairs[::step][:count]


def run_one(side: str, args: argparse.Namespace) -> dict:
    import pandas as pd
    from scipy import stats

    from evalbars import leaderboard

    x = make_data(args.kind, args.models, args.n)
    names = [f"model{k:02d}" for k in range(args.models)]
    frame = pd.DataFrame(x, columns=names)
    frame.insert(0, "qid", [f"q{i}" for i in range(args.n)])
    pairs = timed_pairs(args.models, args.scipy_pairs)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        found = []
        if side == "evalbars":
            board = leaderboard(frame, n_resamples=args.resamples, seed=0)
            for i, j in pairs:
                pair = board.pair(names[i], names[j])
                interval = pair.interval("paired-bootstrap-percentile")
                sign = 1.0 if pair.b == names[j] else -1.0
                found.append(sorted((sign * interval.low, sign * interval.high)))
            n_pairs = len(board.pairs)
        else:
            for i, j in pairs:
                result = stats.bootstrap(
                    (x[:, i], x[:, j]), lambda a, b, axis=-1: b.mean(axis) - a.mean(axis),
                    paired=True, n_resamples=args.resamples, method="percentile",
                    batch=1000, rng=np.random.default_rng(0))
                found.append([float(v) for v in result.confidence_interval])
            n_pairs = len(pairs)
        best = min(best, time.perf_counter() - start)
    seconds = best
    peak_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    return {"seconds": seconds, "peak_mb": peak_mb, "pairs": n_pairs, "intervals": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--scipy-pairs", type=int, default=3)
    parser.add_argument("--kind", choices=("binary", "continuous"), default="binary")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the fastest counts")
    parser.add_argument("--one", choices=("evalbars", "scipy"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args)))
        return
    all_pairs = args.models * (args.models - 1) // 2
    print(f"leaderboard of {args.models} models ({all_pairs} pairs), {args.n:,} questions "
          f"({args.kind}), {args.resamples:,} resamples, fastest of {args.repeat} runs")
    results = {}
    for side in ("evalbars", "scipy"):
        out = subprocess.run(
            [sys.executable, __file__, "--one", side, "--models", str(args.models), "--n",
             str(args.n), "--resamples", str(args.resamples), "--scipy-pairs",
             str(args.scipy_pairs), "--kind", args.kind, "--repeat", str(args.repeat)],
            capture_output=True, text=True, check=True)
        results[side] = json.loads(out.stdout)
    ours, theirs = results["evalbars"], results["scipy"]
    per_pair = theirs["seconds"] / theirs["pairs"]
    extrapolated = per_pair * all_pairs
    print(f"  evalbars leaderboard (everything: {ours['pairs']} pairs with intervals and "
          f"tests, model intervals, ranks): {ours['seconds']:8.2f} s  peak "
          f"{ours['peak_mb']:6.0f} MB")
    print(f"  scipy.stats.bootstrap(paired=True), {theirs['pairs']} pairs timed: "
          f"{theirs['seconds']:8.2f} s  peak {theirs['peak_mb']:6.0f} MB  "
          f"({per_pair:.2f} s a pair)")
    print(f"  scipy for all {all_pairs} pairs, extrapolated from {theirs['pairs']} timed pairs "
          f"(not run in full): {extrapolated:,.0f} s")
    print(f"  ratio (scipy for all pairs / evalbars): {extrapolated / ours['seconds']:,.0f}x")
    print("  timed pairs, 95% percentile interval of the gap (evalbars | scipy):")
    for (i, j), mine, other in zip(timed_pairs(args.models, args.scipy_pairs),
                                   ours["intervals"], theirs["intervals"]):
        print(f"    model{j:02d} - model{i:02d}: [{mine[0]:+.4f}, {mine[1]:+.4f}] | "
              f"[{other[0]:+.4f}, {other[1]:+.4f}]")


if __name__ == "__main__":
    main()
