"""Read any input into raw columns, by its extension; the Parquet and DataFrame readers.

A reader converts nothing: it returns a :class:`~evalbars.io.table.Table` whose columns hold
the values as the source stored them (CSV text, JSON objects, Arrow/NumPy arrays), and
which can say where any row came from. CSV and JSON Lines are read by
:mod:`evalbars.io.text_files`, by line; Parquet and DataFrame rows are 0-based positions.
:mod:`evalbars.io.ingest` turns the raw values into ids and scores and names every
problem by these places.

pandas and pyarrow are optional: they are imported only when a DataFrame is passed or a
Parquet file is read.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import EvalbarsError
from .table import Column, Table, check_column_names, short
from .text_files import DIGESTS, read_csv, read_jsonl

FORMATS = {
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json-lines": "jsonl",
    ".parquet": "parquet",
}
"""File extension (lower case) -> format name."""


def file_format(path: str) -> str:
    """The format of ``path`` from its extension, or an error listing the supported ones."""
    suffix = Path(path).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        known = ", ".join(FORMATS)
        hint = ""
        if suffix == ".json":
            hint = (" (a .json file must hold one JSON object per line; rename it .jsonl; "
                    "harness logs are recognised by their content: docs/logs.md)")
        elif suffix in (".gz", ".zip", ".bz2", ".xz", ".zst"):
            hint = " (decompress it first)"
        raise EvalbarsError(
            f"cannot tell the format of {path!r} from its extension {suffix or '(none)'!r}{hint}; "
            f"supported: {known}"
        )
    return fmt


def sha256(path: str) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks.

    A named pipe (anything but a regular file) can be read only once: its digest is the
    one computed when a reader read it, and an error if none did (never a wait for data
    that will not come again).
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        known = DIGESTS.get((os.path.abspath(path), info.st_dev, info.st_ino))
        if known is None:
            raise EvalbarsError(f"{path!r} is not a regular file (a named pipe?), so it cannot "
                                f"be read a second time to compute its SHA-256; save it to a "
                                f"file first")
        return known
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_dataframe(data: Any) -> bool:
    """True for a pandas DataFrame, without importing pandas when it isn't loaded."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(data, pd.DataFrame)


def read(data: Any) -> Table:
    """Read a path (CSV, JSON Lines, Parquet, by extension) or a pandas DataFrame."""
    if is_dataframe(data):
        return read_dataframe(data)
    if not isinstance(data, (str, os.PathLike)):
        kind = f"{type(data).__module__}.{type(data).__qualname__}"
        raise EvalbarsError(
            f"data must be a file path (str or os.PathLike) or a pandas DataFrame; got {kind}"
        )
    path = os.fspath(data)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not os.path.exists(path):
        raise EvalbarsError(f"no such file: {path!r}")
    if os.path.isdir(path):
        raise EvalbarsError(
            f"{path!r} is a directory, not a file, and holds no harness log of a format "
            f"evalbars reads (docs/logs.md lists them); give a results file "
            f"({', '.join(FORMATS)}) or a folder of logs"
        )
    fmt = file_format(path)
    if fmt == "parquet" and not os.path.isfile(path):
        raise EvalbarsError(f"{path!r} is not a regular file (a named pipe?); Parquet is read "
                            f"by seeking in it: save it to a file first")
    try:
        if fmt == "csv":
            return read_csv(path)
        if fmt == "jsonl":
            return read_jsonl(path)
        return read_parquet(path)
    except OSError as exc:
        raise EvalbarsError(f"could not read {path!r}: {exc.strerror or exc}") from None


MAX_PARQUET_BYTES = 8 << 30
"""Largest uncompressed size of a Parquet file, as its metadata states: a small file of
constant columns can decode to billions of rows (the cap on zipped logs is the same)."""


def read_parquet(path: str) -> Table:
    """Read a Parquet file with pyarrow (optional dependency), one column at a time.

    Only the columns the analysis asks for are decoded (a transcript column beside the
    scores is never read), and a file whose metadata states more than
    :data:`MAX_PARQUET_BYTES` uncompressed is refused before anything is decoded.
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise EvalbarsError(
            f"reading Parquet ({path!r}) needs pyarrow: pip install 'evalbars[parquet]'"
        ) from None

    def failed(exc: Exception) -> EvalbarsError:
        return EvalbarsError(f"cannot read {path!r} as Parquet: {' '.join(str(exc).split())}")

    try:
        parquet = pq.ParquetFile(path)
        meta = parquet.metadata
        size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        names = [str(n) for n in parquet.schema_arrow.names]
    except (pa.ArrowException, ValueError, OSError) as exc:
        raise failed(exc) from None
    if size > MAX_PARQUET_BYTES:
        raise EvalbarsError(f"{path!r} decodes to {size:,} bytes, more than {MAX_PARQUET_BYTES:,} "
                            "(evalbars.io.files.MAX_PARQUET_BYTES); refusing to read it")
    check_column_names(names, f"the schema of {path!r}")
    if meta.num_rows == 0:
        raise EvalbarsError(f"{path!r} has columns but no rows")

    def get(name: str) -> Column:
        try:
            column = parquet.read(columns=[name]).column(0)
        except (pa.ArrowException, ValueError, OSError) as exc:
            raise failed(exc) from None
        return _arrow_column(column, pa)

    return Table(
        label=repr(path), fmt="parquet", path=path, names=names, n_rows=meta.num_rows, get=get
    )


def _arrow_column(chunked: Any, pa: Any) -> Column:
    kind_of = pa.types
    arr = chunked.combine_chunks() if chunked.num_chunks != 1 else chunked.chunk(0)
    if kind_of.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    typ = arr.type
    null = arr.is_null().to_numpy(zero_copy_only=False) if arr.null_count else None
    if kind_of.is_integer(typ):
        filled = arr.fill_null(0) if null is not None else arr
        return Column("int", filled.to_numpy(zero_copy_only=False), null, str(typ))
    if kind_of.is_floating(typ):
        values = arr.to_numpy(zero_copy_only=False).astype(np.float64)
        return Column("float", values, null, str(typ))
    if kind_of.is_boolean(typ):
        filled = arr.fill_null(False) if null is not None else arr
        return Column("bool", filled.to_numpy(zero_copy_only=False), null, str(typ))
    return Column("object", arr.to_pylist(), dtype=str(typ))


def read_dataframe(df: Any) -> Table:
    """Read a pandas DataFrame; a named (single-level) index becomes a leading column."""
    import pandas as pd

    if isinstance(df.columns, pd.MultiIndex):
        raise EvalbarsError(
            "the DataFrame has MultiIndex columns; flatten them to single names first"
        )
    frame = df
    if df.index.name is not None and not isinstance(df.index, pd.MultiIndex):
        if df.index.name in df.columns:
            raise EvalbarsError(
                f"the DataFrame's index and one of its columns are both named "
                f"{short(df.index.name)}; rename one"
            )
        frame = df.reset_index()
    names = [str(c) for c in frame.columns]
    check_column_names(names, "the DataFrame")
    if len(frame) == 0:
        raise EvalbarsError("the DataFrame has no rows")

    def get(name: str) -> Column:
        return _pandas_column(frame.iloc[:, names.index(name)], pd)

    return Table(
        label="the DataFrame", fmt="dataframe", path=None, names=names, n_rows=len(frame), get=get
    )


def _pandas_column(series: Any, pd: Any) -> Column:
    dtype = series.dtype
    name = str(dtype)
    isna = series.isna().to_numpy(dtype=bool)
    null = isna if isna.any() else None
    if isinstance(dtype, np.dtype):
        if dtype.kind in "iu":
            return Column("int", series.to_numpy(), None, name)
        if dtype.kind == "f":
            return Column("float", series.to_numpy(dtype=np.float64), null, name)
        if dtype.kind == "b":
            return Column("bool", series.to_numpy(), None, name)
    else:
        api = pd.api.types
        if api.is_bool_dtype(dtype):
            return Column("bool", series.to_numpy(dtype=bool, na_value=False), null, name)
        if api.is_integer_dtype(dtype):
            values = series.to_numpy(dtype=dtype.numpy_dtype, na_value=0)
            return Column("int", values, null, name)
        if api.is_float_dtype(dtype):
            return Column("float", series.to_numpy(dtype=np.float64, na_value=np.nan), null, name)
    values = series.to_numpy(dtype=object)
    if null is not None:
        values = values.copy()
        values[null] = None
    return Column("object", values.tolist(), dtype=name)
