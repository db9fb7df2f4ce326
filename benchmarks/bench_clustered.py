"""Clustered standard errors and the cluster bootstrap on a million items.

Run by hand: ``python benchmarks/bench_clustered.py [--items 1000000] [--clusters 10000]``.
Times evalbars' clustered SE against statsmodels' OLS cluster fit (the independent
implementation the tests check against), measured in the same run on the same integer
cluster ids; then evalbars alone on the same clusters named by strings (a numpy string
array, and a Python object array as the API passes them). Each time is the best of
``--repeats`` runs. Then the cluster bootstrap of a paired gap with 10,000 resamples:
its time, and its peak memory (tracemalloc, which sees numpy's allocations, in a separate
run so tracing does not slow the timed one). Last, the exact cluster sign-flip test on the
same items grouped into 20 clusters: all 2**20 sign patterns, counted by meet in the middle.
"""
from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np


def best_of(repeats: int, call):
    """(smallest wall time in seconds, last result) over ``repeats`` calls."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--clusters", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import statsmodels.api as sm

    from evalbars.stats.cluster_resampling import cluster_bootstrap_means, cluster_sign_flip
    from evalbars.stats.clustering import clustered_se

    rng = np.random.default_rng(0)
    clusters = rng.integers(0, args.clusters, args.items)
    difficulty = rng.normal(0, 1, args.clusters)[clusters]
    a = (rng.random(args.items) < 1 / (1 + np.exp(-(difficulty + 0.8)))).astype(float)
    b = (rng.random(args.items) < 1 / (1 + np.exp(-(difficulty + 0.9)))).astype(float)
    text = np.char.add("doc-", clusters.astype(str))
    objects = text.astype(object)
    ones = np.ones((args.items, 1))

    ours_s, ours = best_of(args.repeats, lambda: clustered_se(a, clusters))
    theirs_s, fit = best_of(args.repeats, lambda: sm.OLS(a, ones).fit(
        cov_type="cluster", cov_kwds={"groups": clusters}))
    text_s, by_text = best_of(args.repeats, lambda: clustered_se(a, text))
    objects_s, by_objects = best_of(args.repeats, lambda: clustered_se(a, objects))
    assert abs(by_text.se / ours.se - 1) < 1e-12 and abs(by_objects.se / ours.se - 1) < 1e-12
    print(f"clustered SE, {args.items:,} items in {args.clusters:,} clusters "
          f"(best of {args.repeats}):")
    print(f"  statsmodels, integer ids     {theirs_s:7.3f} s  SE {fit.bse[0]:.10f}")
    print(f"  evalbars, integer ids        {ours_s:7.3f} s  SE {ours.se:.10f}  "
          f"{theirs_s / ours_s:5.1f}x faster than statsmodels")
    print(f"  evalbars, numpy string ids   {text_s:7.3f} s  "
          f"{theirs_s / text_s:5.1f}x statsmodels' speed (which was given integers)")
    print(f"  evalbars, Python str objects {objects_s:7.3f} s  "
          f"{theirs_s / objects_s:5.1f}x statsmodels' speed (which was given integers)")

    def bootstrap(labels):
        return cluster_bootstrap_means(b - a, labels, n_resamples=args.resamples,
                                       seed=np.random.SeedSequence(0))[:, 0]

    print(f"cluster bootstrap of the paired gap, {args.resamples:,} resamples:")
    for name, labels in (("integer ids", clusters), ("Python str objects", objects)):
        seconds, gaps = best_of(max(1, args.repeats // 2), lambda: bootstrap(labels))
        tracemalloc.start()
        bootstrap(labels)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        low, high = np.quantile(gaps, [0.025, 0.975])
        print(f"  {name:20s} {seconds:6.2f} s, peak +{peak:.0f} MB traced, "
              f"95% CI [{low:+.5f}, {high:+.5f}]")

    twenty = clusters % 20
    seconds, flipped = best_of(args.repeats, lambda: cluster_sign_flip(a, b, twenty))
    assert flipped.exact
    print(f"exact cluster sign-flip, 20 clusters (2**20 sign patterns): {seconds * 1e3:.2f} ms "
          f"(best of {args.repeats}), p {flipped.p_value:.6g}")


if __name__ == "__main__":
    main()
