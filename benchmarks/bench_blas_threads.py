"""The resampling engine with BLAS held to one thread (as it runs) and with BLAS free.

Run by hand: ``python benchmarks/bench_blas_threads.py [--load 1] [--repeat 3]``.

The engine (``evalbars.stats.resample``) runs blocks of resamples on its own threads; inside
them, matrix products (the sign-flip sums ``bits @ d``, the count-vector products of a
many-column bootstrap) go to BLAS. ``--load K`` starts K busy processes first, as on a
machine that is doing anything else (a training job, a browser, another test run);
``--load 0`` measures an idle machine. Printed: the best of ``--repeat`` runs of each
case, both ways, and the ratio measured in this run.
"""
from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import time

import numpy as np

from evalbars.stats import resample as _resample


class _Free:
    """A stand-in for the engine's BLAS controller that limits nothing."""

    def limit(self, **_):
        return contextlib.nullcontext()


def _busy() -> None:
    while True:
        pass


def best(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--load", type=int, default=1, help="busy processes (default 1)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    load = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for process in load:
        process.start()
    rng = np.random.default_rng(0)
    seed = np.random.SeedSequence(1)
    cases = []
    for n in (10_000, 100_000):
        d = rng.normal(size=n)
        cases.append((f"sign-flip, {n:,} questions, 10,000 resamples",
                      lambda d=d: _resample.sign_flip_sums(d, n_resamples=10_000, seed=seed)))
    x = rng.random((10_000, 20))
    cases.append(("bootstrap, 10,000 questions x 20 models, 10,000 resamples",
                  lambda: _resample.bootstrap_sums(x, n_resamples=10_000, seed=seed)))
    print(f"{args.load} busy process(es) running; best of {args.repeat}")
    limited = _resample._blas
    try:
        for label, run in cases:
            held = best(run, args.repeat)
            _resample._blas = _Free
            free = best(run, args.repeat)
            _resample._blas = limited
            print(f"  {label}: BLAS one thread {held:.3f} s, BLAS free {free:.3f} s, "
                  f"ratio {free / held:.1f}x")
    finally:
        _resample._blas = limited
        for process in load:
            process.terminate()


if __name__ == "__main__":
    main()
