"""Which engine reads the data: ``engine=`` as given, or ``"auto"``'s choice.

``"auto"`` keeps the in-memory reader for everything it always read (small files, two
files, pandas DataFrames, harness logs, wide tables) and hands DuckDB a long-layout file
of :data:`AUTO_BYTES` or more, a glob or a URL (which the in-memory reader cannot read),
when DuckDB is installed; a long table held by an engine (DuckDB, Arrow, polars, Spark) is
reduced where it lives, a wide one (one column per model) read in memory
(:func:`in_memory`).

>>> pick("examples/lesson_pair.csv", None, "auto", None, None)
'memory'
>>> pick("examples/lesson_pair.csv", None, "gpu", None, None)
Traceback (most recent call last):
...
evalbars.core.errors.EvalbarsError: engine='gpu' is not one of 'auto', 'memory', 'duckdb', \
'spark'
"""
from __future__ import annotations

import glob
import importlib.util
import os
from typing import Any

from ...core.errors import EvalbarsError
from ..columns import _auto_model
from . import sources

ENGINES = ("auto", "memory", "duckdb", "spark")
"""Accepted values of ``engine``."""

AUTO_BYTES = 16 << 20
"""From this size on (16 MiB of CSV, JSON Lines or Parquet) ``"auto"`` reads a long table
with DuckDB. Measured by benchmarks/bench_scale.py (docs/scale.md): on CSV with one answer
per (item, model), where the reduction keeps every row, DuckDB catches up with the
in-memory reader at about 5 MiB (300,000 rows) and is ahead at 18 MiB; with several answers
per question, or Parquet, much earlier. Every smaller input is read, and reported, exactly
as before."""


def _has_duckdb() -> bool:
    return importlib.util.find_spec("duckdb") is not None


def pick(data: Any, data2: Any, engine: str, spark: Any, model: str | None) -> str:
    """The engine (``"memory"``, ``"duckdb"`` or ``"spark"``) that reads ``data``."""
    if engine not in ENGINES:
        raise EvalbarsError(f"engine={engine!r} is not one of {', '.join(map(repr, ENGINES))}")
    kind = sources.table_kind(data)
    if engine == "memory":
        if kind == "spark":
            raise EvalbarsError("engine='memory' reads files and in-process tables; a Spark "
                                "DataFrame is reduced where it lives: use engine='auto'")
        return "memory"
    if engine != "auto":
        if engine == "duckdb" and kind == "spark":
            raise EvalbarsError("a Spark DataFrame is reduced by Spark: use engine='spark' "
                                "(or 'auto')")
        if data2 is not None:
            raise EvalbarsError(f"engine={engine!r} reads one long table (columns such as id, "
                                f"model, score); two files are read with engine='memory'")
        return engine
    if spark is not None or kind == "spark":
        return "spark"
    if kind in ("duckdb", "arrow", "polars"):  # long: reduced in DuckDB; wide: in memory
        columns = data.column_names if kind == "arrow" else data.columns
        table = sources.header(sources.TABLE_LABELS[kind], kind, [str(c) for c in columns])
        return "duckdb" if model is not None or _auto_model(table) is not None else "memory"
    if data2 is not None or kind is not None or not isinstance(data, (str, os.PathLike)):
        return "memory"
    path = os.fsdecode(os.fspath(data))
    if not _has_duckdb():
        return "memory"
    many = glob.has_magic(path) and not os.path.exists(path) or "://" in path
    size = sources.total_bytes(path)
    if many:
        return "duckdb"
    if size is None or size < AUTO_BYTES:
        return "memory"
    try:
        source = sources.describe(path)
    except EvalbarsError:
        return "memory"  # not a table file: the in-memory reader says what is wrong
    if model is not None:
        return "duckdb"
    from .duck import open_source

    try:
        backend = open_source(source)
    except EvalbarsError:
        return "memory"  # DuckDB cannot make it out: the in-memory reader says what is wrong
    table = sources.header(source.label, source.fmt, backend.names)
    return "duckdb" if _auto_model(table) is not None else "memory"


def for_logs(engine: str, fmt: str) -> str:
    """The engine of harness logs of format ``fmt``: always ``"memory"``, their own readers.

    >>> for_logs("auto", "helm")
    'memory'
    """
    if engine not in ENGINES:
        raise EvalbarsError(f"engine={engine!r} is not one of {', '.join(map(repr, ENGINES))}")
    if engine not in ("auto", "memory"):
        raise EvalbarsError(f"engine={engine!r} reads tables; {fmt} logs are read in memory "
                            f"(engine='auto' or 'memory')")
    return "memory"


def in_memory(data: Any) -> Any:
    """``data`` as the in-memory reader reads it: a DuckDB relation, Arrow or polars table
    as a pandas DataFrame (the wide layout, which the engines do not read); anything else
    as it is."""
    kind = sources.table_kind(data)
    if kind not in ("duckdb", "arrow", "polars"):
        return data
    try:
        import pandas  # noqa: F401
    except ImportError:
        raise EvalbarsError(f"reading {sources.TABLE_LABELS[kind]} in memory (a wide table, "
                            f"or engine='memory') needs pandas: pip install "
                            f"'evalbars[pandas]'") from None
    return data.df() if kind == "duckdb" else data.to_pandas()


def reduce_with(engine: str, data: Any, spark: Any, **options: Any) -> dict:
    """Read, check and reduce ``data`` with ``engine`` (``"duckdb"`` or ``"spark"``): the
    fields of an :class:`~evalbars.io.item_scores.ItemScores`."""
    from .assemble import reduce_in_engine

    source = sources.describe(data)
    if engine == "duckdb":
        from .duck import open_source

        backend = open_source(source)
    else:
        from . import spark as spark_engine

        backend = spark_engine.open_source(source, spark_engine.session(spark, data))
    return reduce_in_engine(source, backend, **options)
