"""DuckDB, embedded and in-process: files, globs, remote Parquet and in-process tables.

:func:`open_source` puts any :class:`~evalbars.io.engines.sources.Source` behind one DuckDB
relation with the user's columns plus ``__file`` (the file's index) and ``__row`` (its
0-based row in that file; Parquet's own row numbers, else the order DuckDB reads rows in,
which it keeps). CSV is read with every cell as text, as written, so ids such as "007"
stay themselves and a score cell is parsed once, by :mod:`evalbars.io.engines.sql`.
DuckDB runs multi-threaded and spills to a temporary folder when the input does not fit in
memory. Needs ``pip install 'evalbars[duckdb]'``.

>>> from evalbars.io.engines.sources import describe
>>> backend = open_source(describe("examples/lesson_pair.csv"))
>>> backend.rows("SELECT count(*) FROM evalbars_src")
[(500,)]
>>> backend.kinds["model_a"]
'text'
"""
from __future__ import annotations

import sys
import tempfile
import threading
import time
from typing import Any

from ...core.errors import EvalbarsError
from .headers import check_names
from .sources import ReadError, Source
from .sql import DUCKDB

SRC = "evalbars_src"
"""The name queries give the input relation."""

MEMORY_LIMIT = "1GB"
"""DuckDB's working memory; past it, joins and aggregates spill to a temporary folder."""


def _kind(type_name: str) -> str:
    name = type_name.upper()
    if name in ("VARCHAR", '"NULL"', "NULL"):  # a column of nulls only: empty cells
        return "text"
    if name == "BOOLEAN":
        return "bool"
    if any(name.startswith(t) for t in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
                                        "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")):
        return "int"
    if any(name.startswith(t) for t in ("FLOAT", "DOUBLE", "DECIMAL", "REAL")):
        return "float"
    return "other"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def duckdb_module() -> Any:
    try:
        import duckdb
    except ImportError:
        raise EvalbarsError("engine='duckdb' needs DuckDB: pip install 'evalbars[duckdb]'") \
            from None
    return duckdb


class DuckBackend:
    """Run queries on one input through DuckDB; see :func:`open_source`."""

    name = "duckdb"
    dialect = DUCKDB
    positions = True

    def __init__(self, relation: Any, connection: Any, version: str,
                 total_rows: int | None = None, plain: Any = None) -> None:
        self.relation, self.connection, self.version = relation, connection, version
        self.plain = relation if plain is None else plain  # rows not numbered: faster
        self.total_rows = total_rows  # known before reading (Parquet metadata), else None
        self.names = [str(n) for n in relation.columns if n not in ("__file", "__row")]
        self.kinds = {str(n): _kind(str(t)) for n, t in zip(relation.columns, relation.types)}
        self.src = SRC

    def _run(self, sql: str, label: str | None, relation: Any = None) -> Any:
        duckdb = duckdb_module()
        relation = self.relation if relation is None else relation
        try:
            if label is None or self.connection is None:
                return relation.query(SRC, sql)
            return _with_progress(self.connection, lambda: relation.query(SRC, sql),
                                  label, self.total_rows)
        except duckdb.Error as exc:
            raise ReadError(f"DuckDB could not read the input: "
                                f"{' '.join(str(exc).split())}") from None

    def ordinal(self, file: int, row: int) -> int:
        """The 0-based row, in file ``file``, of the row numbered ``row``: itself."""
        return row

    def rows(self, sql: str) -> list[tuple]:
        """The result of ``sql`` (which reads the input as :data:`SRC`) as tuples."""
        return self._run(sql, None).fetchall()

    def table(self, sql: str, label: str | None = None) -> Any:
        """The result of ``sql`` as a pyarrow Table, showing progress on a terminal; rows
        are not numbered (``__row`` is NULL) unless the format numbers them for free."""
        relation = self._run(sql, label, self.plain)
        try:
            return relation.to_arrow_table() if label is None or self.connection is None \
                else _with_progress(self.connection, relation.to_arrow_table, label,
                                    self.total_rows)
        except duckdb_module().Error as exc:
            raise ReadError(f"DuckDB could not read the input: "
                                f"{' '.join(str(exc).split())}") from None


class _Rows:
    """One stderr line, redrawn, saying how far DuckDB has read (terminals only)."""

    def __init__(self, label: str, total: int | None, stream: Any = None) -> None:
        self.label, self.total = label, total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.drawn = False

    def draw(self, share: float) -> None:
        """Show ``share`` (0 to 1) of the input read: rows when their number is known."""
        text = f"{self.label}: {int(share * self.total):,} of {self.total:,} rows read" \
            if self.total else f"{self.label}: {share:.0%} read"
        self.stream.write(f"\r{text:<72}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * 72 + "\r")
            self.stream.flush()


def _with_progress(connection: Any, work: Any, label: str, total: int | None) -> Any:
    """Run ``work()`` while a thread redraws DuckDB's progress on stderr (terminals only)."""
    bar = _Rows(label, total)
    if not bar.enabled:
        return work()
    stop = threading.Event()

    def poll() -> None:
        start = time.monotonic()
        while not stop.wait(0.25):
            try:
                share = connection.query_progress()
            except Exception:  # the query finished between two polls
                return
            if share is not None and share > 0 and time.monotonic() - start > 0.5:
                bar.draw(min(share, 100.0) / 100)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    try:
        return work()
    finally:
        stop.set()
        thread.join()
        bar.close()


def open_source(source: Source) -> DuckBackend:
    """A :class:`DuckBackend` reading ``source`` (files, a glob, a URL or a table)."""
    duckdb = duckdb_module()
    if source.fmt == "duckdb":
        relation = source.table.query(
            SRC, f"SELECT *, 0 AS __file, row_number() OVER () - 1 AS __row FROM {SRC}")
        return DuckBackend(relation, None, duckdb.__version__)
    if not source.remote:
        check_names(source.fmt, list(source.files))
    connection = duckdb.connect(config={"memory_limit": MEMORY_LIMIT,
                                        "temp_directory": tempfile.gettempdir()})
    try:
        connection.execute("SET enable_progress_bar_print = false")  # ours is on stderr
        # Parquet statistics leave out NaN, and DuckDB 2.0 folds isnan(score) to false from
        # them under a GROUP BY: a NaN score would pass as a number
        connection.execute("SET disabled_optimizers = 'statistics_propagation'")
        if source.table is not None:
            connection.register("evalbars_table", source.table)
            sql = "SELECT *, 0 AS __file, row_number() OVER () - 1 AS __row FROM evalbars_table"
        elif source.fmt == "parquet":
            files = "[" + ", ".join(map(_literal, source.files)) + "]"
            sql = (f"SELECT * EXCLUDE (filename, file_row_number), "
                   f"coalesce(list_position({files}, filename) - 1, 0) AS __file, "
                   f"file_row_number AS __row FROM read_parquet({files}, filename=true, "
                   f"file_row_number=true, union_by_name=true)")
        else:
            reader = ("read_csv({path}, header=true, all_varchar=true, delim=',', quote='\"', "
                      "escape='\"')" if source.fmt == "csv" else
                      "read_json({path}, format='newline_delimited', records='true')")
            sql = " UNION ALL BY NAME ".join(
                f"SELECT *, {k} AS __file, row_number() OVER () - 1 AS __row "
                f"FROM {reader.format(path=_literal(path))}"
                for k, path in enumerate(source.files))
        relation = connection.sql(sql)
        plain = None if source.fmt == "parquet" else connection.sql(
            sql.replace("row_number() OVER () - 1", "CAST(NULL AS BIGINT)"))
        mixed = [name for name, kind in zip(relation.columns, relation.types)
                 if str(kind).upper() == "JSON"]  # JSON values of several types: as text
        if mixed:
            replace = ", ".join(f"{DUCKDB.q(n)} ->> '$' AS {DUCKDB.q(n)}" for n in mixed)
            relation, plain = (r.query(SRC, f"SELECT * REPLACE ({replace}) FROM {SRC}")
                               for r in (relation, plain))
        total = relation.query(SRC, f"SELECT count(*) FROM {SRC}").fetchall()[0][0] \
            if source.fmt == "parquet" else None  # from the metadata, nothing decoded
    except duckdb.Error as exc:
        raise ReadError(f"DuckDB cannot read {source.label}: "
                            f"{' '.join(str(exc).split())}") from None
    return DuckBackend(relation, connection, duckdb.__version__, total, plain)
