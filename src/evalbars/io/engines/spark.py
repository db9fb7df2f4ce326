"""Spark, through pyspark: files in a cluster's storage, or a Spark DataFrame.

:func:`open_source` reads CSV (every cell as text, as written), JSON Lines or Parquet with
Spark, or takes a DataFrame as it is, and registers it as a temporary view for the queries
of :mod:`evalbars.io.engines.sql`. A distributed table has no row order: messages name the
input and the ids but no line or row, and models come in sorted order unless ``models=``
names them. :func:`session` turns ``spark=`` (a SparkSession or a master URL such as
``"local[2]"``) into a session. Needs ``pip install 'evalbars[spark]'`` and Java.

Spark's column types, as the checks know them:

>>> [_kind(t) for t in ("string", "bigint", "double", "boolean", "array<int>")]
['text', 'int', 'float', 'bool', 'other']
"""
from __future__ import annotations

import itertools
import os
import sys
import tempfile
import warnings
from typing import Any

from ...core.errors import EvalbarsError
from .headers import check_names
from .sources import ReadError, Source
from .sql import SPARK

_VIEWS = itertools.count()


def _module() -> Any:
    try:
        import pyspark.sql
    except ImportError:
        raise EvalbarsError("engine='spark' needs pyspark (and Java): pip install "
                            "'evalbars[spark]'") from None
    return pyspark.sql


def session(spark: Any, data: Any = None) -> Any:
    """The SparkSession to use: ``spark`` itself, one started on the master URL ``spark``,
    the session of a Spark DataFrame ``data``, or the active one."""
    sql = _module()
    if isinstance(spark, sql.SparkSession):
        return spark
    if isinstance(spark, str):
        try:
            started = (sql.SparkSession.builder.master(spark).appName("evalbars")
                       .config("spark.ui.showConsoleProgress",  # Spark's bar: terminals only
                               "true" if sys.stderr.isatty() else "false")
                       .config("spark.driver.extraJavaOptions",
                               f"-Dlog4j2.configurationFile={_quiet_log4j()}")
                       .getOrCreate())
            started.sparkContext.setLogLevel("ERROR")  # keep stderr to evalbars' one line
            return started
        except Exception as exc:  # Java missing, a master that does not answer
            raise EvalbarsError(f"could not start Spark on {spark!r}: "
                                f"{' '.join(str(exc).split())[:300]}") from None
    if spark is not None:
        raise EvalbarsError(f"spark= must be a SparkSession or a master URL such as "
                            f"'local[2]'; got {type(spark).__name__}")
    if data is not None and isinstance(data, sql.DataFrame):
        return data.sparkSession
    active = sql.SparkSession.getActiveSession()
    if active is None:
        raise EvalbarsError("engine='spark' needs a Spark session: pass spark= a SparkSession "
                            "or a master URL (spark='local[2]'; --spark-master URL)")
    return active


def _quiet_log4j() -> str:
    """A log4j2 configuration that logs errors only, for the Spark evalbars starts (its
    start-up would otherwise write several lines to stderr)."""
    path = os.path.join(tempfile.gettempdir(), "evalbars-log4j2.properties")
    if not os.path.exists(path):
        with open(path, "w") as fh:
            fh.write("rootLogger.level = error\nrootLogger.appenderRef.stderr.ref = console\n"
                     "appender.console.type = Console\nappender.console.name = console\n"
                     "appender.console.target = SYSTEM_ERR\n"
                     "appender.console.layout.type = PatternLayout\n"
                     "appender.console.layout.pattern = %m%n\n")
    return path


def _uris(files: tuple[str, ...]) -> list[str]:
    """The names ``input_file_name()`` gives the files: local paths as file: URIs."""
    from pathlib import Path

    return [f if "://" in f else Path(os.path.abspath(f)).as_uri() for f in files]


def _kind(type_name: str) -> str:
    if type_name in ("string", "void"):  # void: a column of nulls only, empty cells
        return "text"
    if type_name == "boolean":
        return "bool"
    if type_name in ("tinyint", "smallint", "int", "bigint", "byte", "short", "long"):
        return "int"
    if type_name in ("float", "double") or type_name.startswith("decimal"):
        return "float"
    return "other"


class SparkBackend:
    """Run queries on one input through a SparkSession; see :func:`open_source`.

    Rows read from files are numbered by ``monotonically_increasing_id()``, which grows
    with the position in each file (Spark reads a file's splits in order); an error turns
    those numbers into 0-based rows by counting (:meth:`ordinal`). A DataFrame has no row
    order: its rows are not numbered (:attr:`positions` is False).
    """

    name = "spark"
    dialect = SPARK

    def __init__(self, frame: Any, spark: Any, files: tuple[str, ...] = ()) -> None:
        import pyspark

        self.spark, self.version = spark, pyspark.__version__
        self.src = f"evalbars_src_{next(_VIEWS)}"
        self.names = [f.name for f in frame.schema.fields]
        self.kinds = {f.name: _kind(f.dataType.simpleString()) for f in frame.schema.fields}
        self.positions = bool(files)
        functions = _module().functions
        if files:
            uris = functions.array(*[functions.lit(u) for u in _uris(files)])
            file = functions.coalesce(
                functions.array_position(uris, functions.input_file_name()) - 1,
                functions.lit(0)).cast("bigint")
            row = functions.monotonically_increasing_id()
        else:
            file, row = functions.lit(0).cast("bigint"), functions.lit(None).cast("bigint")
        frame.select("*", file.alias("__file"), row.alias("__row")) \
            .createOrReplaceTempView(self.src)

    def ordinal(self, file: int, row: int) -> int:
        """The 0-based row, in file ``file``, of the row numbered ``row``."""
        return self.rows(f"SELECT count(*) FROM {self.src} WHERE __file = {int(file)} "
                         f"AND __row < {int(row)}")[0][0]

    def rows(self, sql: str) -> list[tuple]:
        """The result of ``sql`` (which reads the input as :attr:`src`) as tuples."""
        return [tuple(row) for row in self._sql(sql).collect()]

    def table(self, sql: str, label: str | None = None) -> Any:
        """The result of ``sql`` as a pyarrow Table."""
        frame = self._sql(sql)
        try:
            with warnings.catch_warnings():  # pyspark's advice on its pandas version
                warnings.simplefilter("ignore", FutureWarning)
                return frame.toArrow()
        except Exception as exc:
            raise ReadError(f"Spark could not read the input: "
                                f"{' '.join(str(exc).split())[:300]}") from None

    def _sql(self, sql: str) -> Any:
        try:
            return self.spark.sql(sql)
        except Exception as exc:
            raise ReadError(f"Spark could not read the input: "
                                f"{' '.join(str(exc).split())[:300]}") from None


def open_source(source: Source, spark: Any) -> SparkBackend:
    """A :class:`SparkBackend` reading ``source``: files, or a Spark DataFrame."""
    if source.table is not None:
        if source.fmt != "spark":
            raise EvalbarsError(f"engine='spark' reduces a Spark DataFrame or files; "
                                f"{source.label} is reduced in process by DuckDB "
                                f"(engine='duckdb')")
        return SparkBackend(source.table, source.table.sparkSession)
    if not source.remote:
        check_names(source.fmt, list(source.files))
    reader = spark.read
    try:
        if source.fmt == "csv":
            frame = reader.csv(list(source.files), header=True, inferSchema=False,
                               multiLine=True, escape='"', mode="FAILFAST")
        elif source.fmt == "parquet":
            frame = reader.parquet(*source.files)
        else:
            frame = reader.json(list(source.files), mode="FAILFAST")
    except Exception as exc:
        raise ReadError(f"Spark cannot read {source.label}: "
                            f"{' '.join(str(exc).split())[:300]}") from None
    return SparkBackend(frame, spark, source.files)
