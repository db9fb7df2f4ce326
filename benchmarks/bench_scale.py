"""Reading at scale: DuckDB and Spark against the in-memory reader, and where auto switches.

Run by hand: ``python benchmarks/bench_scale.py [--rows 10000000] [--big] [--spark]
[--csv-rows 2000000] [--crossover] [--wide-rows 1000000]``. Writes its data to a temporary folder (``--keep DIR``
keeps it there), then times each command in a fresh process and prints its wall time,
rows per second and peak memory (the resident set size of the process and its children):

- ``--rows`` answer rows in Parquet (default 10^7: 100 models x 10,000 items x 10
  samples, 0/1 scores), read by ``evalbars leaderboard --baseline m000 --engine duckdb``;
- ``--big``: the same with 10^8 rows (1,000 models x 10,000 items x 10 samples);
- ``--spark``: the ``--rows`` file on Spark ``local[2]``, and whether its JSON equals
  DuckDB's (provenance aside);
- ``--csv-rows`` long CSV rows (two models; default 2,000,000), loaded by
  ``evalbars.load`` with ``engine="memory"`` and ``engine="duckdb"``;
- ``--crossover``: the load time of both engines on CSV files of 10^4 to 10^6 rows, to
  place :data:`evalbars.io.engines.choose.AUTO_BYTES`;
- ``--wide-rows``: a wide CSV of that many items (id, model_a, model_b; default 0, none)
  and the same scores as two one-model files, loaded with both engines.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

_LOAD = """
import sys, evalbars
data = evalbars.load(*sys.argv[1:-1], engine=sys.argv[-1])
print(len(data.items), len(data.models))
"""


def write_parquet(path: Path, n_models: int, n_items: int, n_samples: int) -> int:
    """A long Parquet file (id, model, sample, score), one row group per model, in model
    order; returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    skill = rng.random(n_items)
    ids = pa.array(np.repeat([f"i{i:05d}" for i in range(n_items)], n_samples))
    samples = pa.array(np.tile(np.arange(n_samples, dtype=np.int16), n_items))
    schema = pa.schema([("id", pa.string()), ("model", pa.string()), ("sample", pa.int16()),
                        ("score", pa.int8())])
    with pq.ParquetWriter(path, schema) as writer:
        for m in range(n_models):
            p = np.repeat(np.clip(skill + 0.002 * m - 0.1, 0, 1), n_samples)
            score = (rng.random(p.size) < p).astype(np.int8)
            model = pa.array([f"m{m:03d}" if n_models <= 1000 else f"m{m:05d}"] * p.size)
            writer.write_table(pa.table([ids, model, samples, pa.array(score)], schema=schema))
    return n_models * n_items * n_samples


def write_csv(path: Path, rows: int) -> None:
    """``rows`` long CSV rows (id, model, score): rows / 2 items, two models, 0/1 scores."""
    rng = np.random.default_rng(1)
    n = rows // 2
    a, b = (rng.random(n) < 0.7).astype(int), (rng.random(n) < 0.72).astype(int)
    with open(path, "w") as handle:
        handle.write("id,model,score\n")
        handle.writelines(f"q{i:07d},model_a,{x}\nq{i:07d},model_b,{y}\n"
                          for i, (x, y) in enumerate(zip(a, b)))


def write_wide(folder: Path, rows: int) -> tuple[Path, Path, Path]:
    """A wide CSV of ``rows`` items (id, model_a, model_b; 0/1) and the same scores as two
    files, one model each (id, score)."""
    rng = np.random.default_rng(2)
    a, b = (rng.random(rows) < 0.7).astype(int), (rng.random(rows) < 0.72).astype(int)
    wide, one, two = folder / "wide.csv", folder / "model_a.csv", folder / "model_b.csv"
    with open(wide, "w") as w, open(one, "w") as f, open(two, "w") as g:
        w.write("id,model_a,model_b\n")
        f.write("id,score\n")
        g.write("id,score\n")
        for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
            w.write(f"q{i:07d},{x},{y}\n")
            f.write(f"q{i:07d},{x}\n")
            g.write(f"q{i:07d},{y}\n")
    return wide, one, two


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak memory (GB) and stdout of ``argv`` run in a fresh process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)  # this process's own peak memory
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{err.read()}")
        return wall, usage.ru_maxrss / 2**20, out.read()


def report(what: str, rows: int, wall: float, peak: float) -> None:
    print(f"{what:<52} {rows:>12,} rows {wall:8.1f} s {rows / wall:>12,.0f} rows/s "
          f"peak {peak:5.2f} GB", flush=True)


def leaderboard(path: Path, engine: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "evalbars", "leaderboard", str(path), "--baseline", "m000",
            "--sample", "sample", "--engine", engine, "--format", "json", *extra]


def _without_provenance(text: str) -> dict:
    doc = json.loads(text)
    doc["provenance"]["source"].pop("engine")
    doc["provenance"].pop("data_sha256")
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--csv-rows", type=int, default=2_000_000)
    parser.add_argument("--big", action="store_true")
    parser.add_argument("--spark", action="store_true")
    parser.add_argument("--crossover", action="store_true")
    parser.add_argument("--wide-rows", type=int, default=0)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="evalbars-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"data in {folder}")
    if args.crossover:
        for rows in (10_000, 30_000, 100_000, 300_000, 1_000_000):
            path = folder / f"cross_{rows}.csv"
            write_csv(path, rows)
            size = path.stat().st_size / 2**20
            for engine in ("memory", "duckdb"):
                wall, _, _ = min(timed([sys.executable, "-c", _LOAD, str(path), engine])
                                 for _ in range(3))
                report(f"load {size:6.1f} MiB CSV, {engine}", rows, wall, float("nan"))
    if args.csv_rows:
        path = folder / "long.csv"
        write_csv(path, args.csv_rows)
        for engine in ("duckdb", "memory"):
            wall, peak, _ = timed([sys.executable, "-c", _LOAD, str(path), engine])
            report(f"load CSV, {engine}", args.csv_rows, wall, peak)
    if args.wide_rows:
        wide, one, two = write_wide(folder, args.wide_rows)
        for what, paths in (("wide CSV", [wide]), ("two CSV files", [one, two])):
            for engine in ("duckdb", "memory"):
                wall, peak, _ = timed([sys.executable, "-c", _LOAD, *map(str, paths), engine])
                report(f"load {what}, {engine}", args.wide_rows * 2, wall, peak)
    n_items, n_samples = 10_000, 10
    n_models = max(1, args.rows // (n_items * n_samples))
    path = folder / f"answers_{n_models}x{n_items}x{n_samples}.parquet"
    if not path.exists():
        write_parquet(path, n_models, n_items, n_samples)
    rows = n_models * n_items * n_samples
    wall, peak, duck = timed(leaderboard(path, "duckdb"))
    report(f"leaderboard, {n_models} models, Parquet, duckdb", rows, wall, peak)
    if args.spark:
        wall, peak, spark = timed(leaderboard(path, "spark", "--spark-master", "local[2]"))
        report(f"leaderboard, {n_models} models, Parquet, spark local[2]", rows, wall, peak)
        same = _without_provenance(duck) == _without_provenance(spark)
        print(f"spark JSON equals duckdb JSON (provenance aside): {same}")
    if args.big:
        big = folder / f"answers_1000x{n_items}x{n_samples}.parquet"
        if not big.exists():
            write_parquet(big, 1000, n_items, n_samples)
        wall, peak, _ = timed(leaderboard(big, "duckdb"))
        report("leaderboard, 1000 models, Parquet, duckdb", 10**8, wall, peak)


if __name__ == "__main__":
    main()
