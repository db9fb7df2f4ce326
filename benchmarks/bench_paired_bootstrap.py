"""Paired bootstrap of a gap: evalbars against scipy.stats.bootstrap and the naive loop.

Run by hand: ``python benchmarks/bench_paired_bootstrap.py [--n 10000] [--resamples 10000]``.
Each method runs in its own subprocess so its peak memory (max RSS above the baseline of
an interpreter that imported numpy and scipy) is its own. Prints seconds, peak MB and the
ratio of each competitor's time to evalbars' time, measured in the same run.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np


def make_data(kind: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    if kind == "binary":
        u = rng.random(n)
        a = (u < 0.7).astype(float)
        b = np.where(rng.random(n) < 0.9, (u < 0.72), rng.random(n) < 0.72).astype(float)
        return a, b
    a = rng.beta(2, 3, n)
    return a, np.clip(a + rng.normal(0.01, 0.1, n), 0, 1)


def run_one(method: str, kind: str, n: int, resamples: int) -> dict:
    from scipy import stats

    from evalbars.stats.bootstrap import bootstrap_means, percentile_interval

    a, b = make_data(kind, n)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    if method == "evalbars":
        gaps = bootstrap_means(b - a, n_resamples=resamples,
                                seed=np.random.SeedSequence(0))
        ci = percentile_interval(gaps[:, 0], method="p", confidence_level=0.95)
        low, high = ci.low, ci.high
    elif method == "scipy":
        res = stats.bootstrap((a, b), lambda x, y, axis=-1: y.mean(axis) - x.mean(axis),
                              paired=True, n_resamples=resamples, rng=np.random.default_rng(0))
        low, high = res.confidence_interval
    else:  # the naive loop of seed 004
        rng = np.random.default_rng(0)
        d = b - a
        boot = np.array([rng.choice(d, size=len(d), replace=True).mean()
                         for _ in range(resamples)])
        low, high = np.percentile(boot, [2.5, 97.5])
    seconds = time.perf_counter() - start
    peak_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    return {"seconds": seconds, "peak_mb": peak_mb, "low": float(low), "high": float(high)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--one", nargs=2, metavar=("METHOD", "KIND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(*args.one, args.n, args.resamples)))
        return
    print(f"paired bootstrap of the gap, n = {args.n:,} items, {args.resamples:,} resamples")
    for kind in ("binary", "continuous"):
        results = {}
        for method in ("evalbars", "scipy", "naive"):
            out = subprocess.run(
                [sys.executable, __file__, "--one", method, kind, "--n", str(args.n),
                 "--resamples", str(args.resamples)], capture_output=True, text=True, check=True)
            results[method] = json.loads(out.stdout)
        ours = results["evalbars"]["seconds"]
        for method, r in results.items():
            ratio = "" if method == "evalbars" else f"  evalbars is {r['seconds'] / ours:,.0f}x faster"
            print(f"  {kind:<10} {method:<9} {r['seconds']:8.3f} s  peak {r['peak_mb']:7.0f} MB  "
                  f"CI [{r['low']:+.4f}, {r['high']:+.4f}]{ratio}")


if __name__ == "__main__":
    main()
