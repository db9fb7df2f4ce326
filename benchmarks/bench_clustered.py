"""Clustered standard errors and the cluster bootstrap on a million items.

Run by hand: ``python benchmarks/bench_clustered.py [--items 1000000] [--clusters 10000]``.
Times evalbars' clustered SE against statsmodels' OLS cluster fit (the independent
implementation the tests check against), measured in the same run, and the cluster
bootstrap of a paired gap with 10,000 resamples, with its peak memory (max RSS growth).
"""
from __future__ import annotations

import argparse
import resource
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--clusters", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    args = parser.parse_args()

    import statsmodels.api as sm

    from evalbars.clustering import clustered_se, cluster_bootstrap_means

    rng = np.random.default_rng(0)
    clusters = rng.integers(0, args.clusters, args.items)
    difficulty = rng.normal(0, 1, args.clusters)[clusters]
    a = (rng.random(args.items) < 1 / (1 + np.exp(-(difficulty + 0.8)))).astype(float)
    b = (rng.random(args.items) < 1 / (1 + np.exp(-(difficulty + 0.9)))).astype(float)
    labels = clusters.astype(str)

    start = time.perf_counter()
    ours = clustered_se(a, labels)
    ours_s = time.perf_counter() - start
    start = time.perf_counter()
    fit = sm.OLS(a, np.ones((args.items, 1))).fit(cov_type="cluster",
                                                  cov_kwds={"groups": clusters})
    theirs_s = time.perf_counter() - start
    print(f"clustered SE, {args.items:,} items in {args.clusters:,} clusters:")
    print(f"  evalbars     {ours_s:7.3f} s  SE {ours.se:.6f}")
    print(f"  statsmodels  {theirs_s:7.3f} s  SE {fit.bse[0]:.6f}  "
          f"evalbars is {theirs_s / ours_s:.1f}x faster")

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    gaps = cluster_bootstrap_means(b - a, labels, n_resamples=args.resamples,
                                   seed=np.random.SeedSequence(0))[:, 0]
    seconds = time.perf_counter() - start
    peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    low, high = np.quantile(gaps, [0.025, 0.975])
    print(f"cluster bootstrap of the paired gap, {args.resamples:,} resamples: {seconds:.2f} s, "
          f"peak +{peak:.0f} MB, 95% CI [{low:+.5f}, {high:+.5f}]")


if __name__ == "__main__":
    main()
