"""Which engine reads the data: ``engine=`` as given, or ``"auto"``'s choice.

``"auto"`` keeps the in-memory reader for everything it always read (small files, pandas
DataFrames, harness logs) and hands DuckDB a long-layout file of :data:`AUTO_BYTES` or
more, a glob or a URL (which the in-memory reader cannot read), when DuckDB is installed;
a wide file, or two files, of that size only with a sample column (several answers per
question, which the reduction folds; with one answer per (item, model) the in-memory
reader is as fast and needs less memory, docs/scale.md). A long table held by an engine
(DuckDB, Arrow, polars, Spark) is reduced where it lives, a wide one (one column per
model) read in memory (:func:`in_memory`).

>>> pick("examples/lesson_pair.csv", None, "auto", None, None)
'memory'
>>> pick("examples/lesson_pair.csv", None, "gpu", None, None)
Traceback (most recent call last):
...
evalbars.core.errors.EvalbarsError: engine='gpu' is not one of 'auto', 'memory', 'duckdb', \
'spark'
"""
from __future__ import annotations

import dataclasses
import glob
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.errors import EvalbarsError
from ..columns import auto_model
from ..files import FORMATS
from . import sources

ENGINES = ("auto", "memory", "duckdb", "spark")
"""Accepted values of ``engine``."""

AUTO_BYTES = 16 << 20
"""From this size on (16 MiB of CSV, JSON Lines or Parquet) ``"auto"`` reads a long table
with DuckDB (a wide table or two files: with a sample column). Measured by benchmarks/bench_scale.py (docs/scale.md): on CSV with one answer
per (item, model), where the reduction keeps every row, DuckDB catches up with the
in-memory reader at about 5 MiB (300,000 rows) and is ahead at 18 MiB; with several answers
per question, or Parquet, much earlier. Every smaller input is read, and reported, exactly
as before."""


def _has_duckdb() -> bool:
    return importlib.util.find_spec("duckdb") is not None


def pick(data: Any, data2: Any, engine: str, spark: Any, model: str | None,
         sample: str | None = None) -> str:
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
        if data2 is not None and not _two_local_files(data, data2):
            raise EvalbarsError(f"engine={engine!r} reads one table (long, or wide from one "
                                f"file); two inputs are read with engine='memory' unless "
                                f"both are local CSV, JSON Lines or Parquet files")
        return engine
    if spark is not None or kind == "spark":
        return "spark"
    if kind in ("duckdb", "arrow", "polars"):  # long: reduced in DuckDB; wide: in memory
        columns = data.column_names if kind == "arrow" else data.columns
        table = sources.header(sources.TABLE_LABELS[kind], kind, [str(c) for c in columns])
        return "duckdb" if model is not None or auto_model(table) is not None else "memory"
    if data2 is not None:
        size = [sources.total_bytes(d) for d in (data, data2)]
        return "duckdb" if sample is not None and _has_duckdb() and \
            _two_local_files(data, data2) and None not in size and sum(size) >= AUTO_BYTES \
            else "memory"
    if kind is not None or not isinstance(data, (str, os.PathLike)):
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
    long = auto_model(sources.header(source.label, source.fmt, backend.names)) is not None
    return "duckdb" if long or sample is not None else "memory"


def _two_local_files(data: Any, data2: Any) -> bool:
    """True when both inputs are local table files (no glob, URL or table)."""
    for one in (data, data2):
        if sources.table_kind(one) is not None or not isinstance(one, (str, os.PathLike)):
            return False
        path = os.fsdecode(os.fspath(one))
        if "://" in path or not os.path.isfile(path) or \
                Path(path).suffix.lower() not in FORMATS:
            return False
    return True


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


def reduce_with(engine: str, data: Any, data2: Any, spark: Any, memory: Callable[[], Any],
                **options: Any) -> dict:
    """Read, check and reduce ``data`` with ``engine`` (``"duckdb"`` or ``"spark"``): the
    fields of an :class:`~evalbars.io.item_scores.ItemScores`. ``memory()`` reads the same
    input with the in-memory reader, whose message a problem of a wide table or of two
    files gets (:mod:`~evalbars.io.engines.wide`, :mod:`~evalbars.io.engines.two_files`)."""
    from .assemble import reduce_in_engine

    if data2 is not None:
        return _reduce_two(engine, data, data2, spark, memory, options)
    source = sources.describe(data)
    try:
        backend = _open(engine, source, spark, data)
        if _one_wide_file(source, backend, options["model"]):
            from .wide import reduce_wide

            return reduce_wide(source, backend, lambda: _fields(memory()), **{
                k: options[k] for k in ("item", "score", "models", "score_type", "intersect",
                                        "labels", "sample", "run")})
        return reduce_in_engine(source, backend, **options)
    except sources.ReadError:
        in_own_words(source)
        raise


def _open(engine: str, source: sources.Source, spark: Any, data: Any) -> Any:
    """The backend of ``engine`` reading ``source``."""
    if engine == "duckdb":
        from .duck import open_source

        return open_source(source)
    from . import spark as spark_engine

    return spark_engine.open_source(source, spark_engine.session(spark, data))


def _reduce_two(engine: str, data: Any, data2: Any, spark: Any, memory: Callable[[], Any],
                options: dict) -> dict:
    """Two local files, one model each, reduced by the engine (:mod:`~evalbars.io.engines.
    two_files`)."""
    from .two_files import reduce_two

    if engine == "duckdb":
        from .duck import duckdb_module

        duckdb_module()  # DuckDB missing: that is the error, not the files
    else:
        from . import spark as spark_engine

        spark = spark_engine.session(spark, data)  # as are the session's errors
    pair = [sources.describe(d) for d in (data, data2)]
    try:
        backends = [_open(engine, s, spark, d) for s, d in zip(pair, (data, data2))]
    except EvalbarsError:
        return _fields(memory())  # a file the engine cannot open: the in-memory reader's words
    options = {k: v for k, v in options.items() if k != "model"}
    return reduce_two(pair, backends, lambda: _fields(memory()), **options)


def _one_wide_file(source: sources.Source, backend: Any, model: str | None) -> bool:
    """True for one local file without a model column: the wide layout, which the engines
    read from such a file (globs, URLs and tables of that layout are refused)."""
    if model is not None or source.table is not None or source.remote or \
            source.label != repr(source.files[0]):  # a glob, even of one file
        return False
    return auto_model(sources.header(source.label, source.fmt, backend.names)) is None


def _fields(scores: Any) -> dict:
    """The fields of an :class:`~evalbars.io.item_scores.ItemScores`."""
    return {f.name: getattr(scores, f.name) for f in dataclasses.fields(scores) if f.init}


def in_own_words(source: sources.Source) -> None:
    """Raise the in-memory reader's message (file and line) on a local file of ``source``
    that an engine could not parse: each file is read once more, on this error path only.
    Returns when that reader reads every file (the engine's own words are then raised)."""
    from ..files import read

    for path in () if source.remote else source.files:
        read(path)
