"""What an engine reads: files (a path, a glob, a remote URL) or a table where it lives.

:func:`describe` tells apart a path (CSV, JSON Lines or Parquet by its extension; a glob
such as ``logs/*.parquet`` expands to its files, sorted) from a table already held by an
engine: a DuckDB relation, a pyarrow Table, a polars or pandas DataFrame, a Spark
DataFrame. The result, a :class:`Source`, names the input the way messages do and lists
its files with their SHA-256 for the provenance.

>>> src = describe("examples/lesson_pair.csv")
>>> src.fmt, src.files, src.label
('csv', ('examples/lesson_pair.csv',), "'examples/lesson_pair.csv'")
>>> table_kind([1, 2]) is None
True
"""
from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import Any

from ...core.errors import EvalbarsError
from ..files import file_format, is_dataframe, sha256
from ..table import Column, Table

TABLE_LABELS = {
    "duckdb": "the DuckDB relation",
    "arrow": "the Arrow table",
    "polars": "the polars DataFrame",
    "pandas": "the DataFrame",
    "spark": "the Spark DataFrame",
}
"""How messages name a table passed in place of a file, by its kind."""


class ReadError(EvalbarsError):
    """The engine could not parse the input (a ragged CSV row, bytes that are not UTF-8, a
    line that is not JSON): :func:`evalbars.io.engines.choose.reduce_with` words it as the
    in-memory reader does when that reader finds the problem too."""


@dataclass(frozen=True, slots=True)
class Source:
    """One input of an engine.

    ``fmt`` is ``"csv"``, ``"jsonl"`` or ``"parquet"`` for files, else the table kind
    (a key of :data:`TABLE_LABELS`); ``files`` are the paths read (empty for a table),
    ``table`` the table object; ``remote`` is True for URLs (s3://, https://, ...), which
    are read by the engine and not hashed.
    """

    label: str
    fmt: str
    files: tuple[str, ...]
    table: Any = None
    remote: bool = False

    def inputs(self) -> list[dict]:
        """The provenance of the input: each file's path and SHA-256 (None for a table or
        a remote file)."""
        if self.table is not None:
            return [{"path": None, "sha256": None}]
        return [{"path": path, "sha256": None if self.remote else sha256(path)}
                for path in self.files]

    def file_label(self, index: int) -> str:
        """How messages name file ``index`` (the table itself for a table)."""
        return self.label if self.table is not None else repr(self.files[index])


def header(label: str, fmt: str, names: list[str]) -> Table:
    """A :class:`~evalbars.io.table.Table` of column names only: what :mod:`evalbars.io.columns`
    needs to tell which columns hold the items, models and scores (the engine holds the
    cells, so asking for one is an error)."""
    def cells(name: str) -> Column:
        raise EvalbarsError(f"the cells of column {name!r} of {label} are read by the engine")

    return Table(label=label, fmt=fmt, path=None, names=names, n_rows=0, get=cells)


def table_kind(data: Any) -> str | None:
    """The kind of table ``data`` is (a key of :data:`TABLE_LABELS`), or None.

    Checked by the class's module, so that no engine is imported to look.
    """
    module = type(data).__module__.split(".")[0]
    name = type(data).__name__
    if module == "duckdb" and "Relation" in name:
        return "duckdb"
    if module == "pyarrow" and name == "Table":
        return "arrow"
    if module == "polars" and name == "DataFrame":
        return "polars"
    if module == "pyspark" and name == "DataFrame":
        return "spark"
    if is_dataframe(data):
        return "pandas"
    return None


def _remote(path: str) -> bool:
    return "://" in path and not path.startswith("file://")


def describe(data: Any) -> Source:
    """The :class:`Source` of ``data``: a table, or a path, glob or URL of files."""
    kind = table_kind(data)
    if kind is not None:
        return Source(label=TABLE_LABELS[kind], fmt=kind, files=(), table=data)
    if not isinstance(data, (str, os.PathLike)):
        raise EvalbarsError(
            f"data must be a file path, a glob or a table (DuckDB relation, pyarrow Table, "
            f"polars, pandas or Spark DataFrame); got {type(data).__module__}."
            f"{type(data).__qualname__}")
    path = os.fsdecode(os.fspath(data))
    fmt = file_format(path)
    if _remote(path):
        return Source(label=repr(path), fmt=fmt, files=(path,), remote=True)
    if glob.has_magic(path):
        files = tuple(sorted(glob.glob(path)))
        if not files:
            raise EvalbarsError(f"no file matches {path!r}")
        odd = [f for f in files if file_format(f) != fmt]
        if odd:
            raise EvalbarsError(f"{path!r} matches files of another format: {odd[0]!r}; "
                                f"a glob reads files of one format")
        return Source(label=repr(path), fmt=fmt, files=files)
    if not os.path.isfile(path):
        raise EvalbarsError(f"no such file: {path!r}")
    return Source(label=repr(path), fmt=fmt, files=(path,))


def total_bytes(data: Any) -> int | None:
    """The size on disk of a local file or glob (None for tables, URLs and non-files)."""
    if not isinstance(data, (str, os.PathLike)) or is_dataframe(data):
        return None
    path = os.fsdecode(os.fspath(data))
    if _remote(path):
        return None
    files = sorted(glob.glob(path)) if glob.has_magic(path) else [path]
    try:
        return sum(os.path.getsize(f) for f in files) if files else None
    except OSError:
        return None
