"""Read CSV, JSON Lines, Parquet files and pandas DataFrames into raw columns.

A reader converts nothing: it returns a :class:`~evalbars.io.table.Table` whose columns hold
the values as the source stored them (CSV text, JSON objects, Arrow/NumPy arrays), and
which can say where any row came from. Lines are counted from 1 and a CSV header is line
1; a record that spans several lines (a quoted newline) is reported at its first line.
Parquet and DataFrame rows are 0-based positions. :mod:`evalbars.io.ingest` turns the raw
values into ids and scores and names every problem by these places.

pandas and pyarrow are optional: they are imported only when a DataFrame is passed or a
Parquet file is read.
"""
from __future__ import annotations

import csv
import hashlib
import itertools
import json
import os
import sys
from array import array
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..core.errors import EvalbarsError
from .table import Column, Table, name_list, places, short


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
    """Hex SHA-256 of a file, read in 1 MiB chunks."""
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
            f"{path!r} is a directory, not a file, and holds no harness logs evalbars "
            f"recognises (lm-eval, inspect or HELM; docs/logs.md); give a results file "
            f"({', '.join(FORMATS)}) or a folder of logs"
        )
    fmt = file_format(path)
    try:
        if fmt == "csv":
            return read_csv(path)
        if fmt == "jsonl":
            return read_jsonl(path)
        return read_parquet(path)
    except OSError as exc:
        raise EvalbarsError(f"could not read {path!r}: {exc.strerror or exc}") from None


def _not_utf8(path: str, exc: UnicodeDecodeError) -> EvalbarsError:
    """Locate the first byte that is not UTF-8 and say which line it is on."""
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        raw.decode("utf-8-sig")
    except UnicodeDecodeError as full:
        line = raw.count(b"\n", 0, full.start) + 1
        return EvalbarsError(
            f"{path!r} is not UTF-8 text (byte 0x{raw[full.start]:02x} at line {line}); "
            f"save it as UTF-8"
        )
    return EvalbarsError(f"{path!r} is not UTF-8 text ({exc.reason}); save it as UTF-8")


def _check_names(names: Sequence[str], where: str) -> None:
    """Column names must be non-empty and unique; ``where`` names the header, keys or schema."""
    seen: dict[str, int] = {}
    dups = []
    for pos, name in enumerate(names, 1):
        if name == "":
            raise EvalbarsError(
                f"column {pos} of {where} has no name"
                + (" (a trailing comma?)" if pos == len(names) else "")
                + "; every column needs a name"
            )
        if name in seen and name not in dups:
            dups.append(name)
        seen.setdefault(name, pos)
    if dups:
        raise EvalbarsError(
            f"duplicated column names in {where}: {name_list(dups)}; "
            f"column names must be unique"
        )


_CSV_CHUNK = 1 << 16
"""Records parsed at a time: rows are stored column by column, so a file's memory is its
cells, not a list per row."""

_CSV_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)
"""Longest CSV cell read (csv's own default, 128 KiB, is shorter than some answers)."""


def read_csv(path: str) -> Table:
    """Read a comma-separated file with a header row (UTF-8, optional BOM, any line ends)."""
    header: list[str] | None = None
    header_line = 0
    columns: list[list[str]] = []
    starts = array("q")  # the first line of each row
    ragged: list[tuple[int, int]] = []  # (row, number of fields) of rows of the wrong width
    one_line_each = True  # no quoted field holds a line break
    reader = None
    # a cell may be long (a model's answer, a transcript): lift csv's 128 KiB cell limit
    # while reading, and put the process-wide setting back after
    limit = csv.field_size_limit(_CSV_FIELD_LIMIT)
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh)
            n_lines = 0
            while True:
                chunk = list(itertools.islice(reader, _CSV_CHUNK))
                if not chunk:
                    break
                first, n_lines = n_lines + 1, reader.line_num
                one_line_each = one_line_each and n_lines - first + 1 == len(chunk)
                lines: Sequence[int] = range(first, first + len(chunk))
                if [] in chunk:  # blank lines carry nothing: skip them, keeping line numbers
                    kept = [k for k, r in enumerate(chunk) if r]
                    chunk, lines = [chunk[k] for k in kept], [lines[k] for k in kept]
                if header is None and chunk:
                    header, header_line = chunk[0], lines[0]
                    chunk, lines = chunk[1:], lines[1:]
                    columns = [[] for _ in header]
                if not chunk:
                    continue
                width = len(header)
                if set(map(len, chunk)) != {width}:
                    ragged += [(len(starts) + k, len(r)) for k, r in enumerate(chunk)
                               if len(r) != width]
                    chunk = [r if len(r) == width else [""] * width for r in chunk]
                for column, values in zip(columns, zip(*chunk)):
                    column.extend(values)
                starts.extend(lines)
        if not one_line_each:  # a quoted field holds a line break: count lines record by record
            starts = array("q")
            with open(path, newline="", encoding="utf-8-sig") as fh:
                reader = csv.reader(fh)
                prev, seen_header = 0, False
                for record in reader:
                    if record:
                        if seen_header:
                            starts.append(prev + 1)
                        seen_header = True
                    prev = reader.line_num
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    except csv.Error as exc:
        raise EvalbarsError(
            f"cannot parse {path!r} as CSV at line {reader.line_num + 1}: {exc}"
        ) from None
    finally:
        csv.field_size_limit(limit)
    if header is None:
        raise EvalbarsError(f"{path!r} is empty: no header and no rows")
    if len(header) == 1 and any(sep in header[0] for sep in (";", "\t", "|")):
        raise EvalbarsError(
            f"the header of {path!r} is a single column {short(header[0])}: the file does not "
            f"look comma-separated (evalbars reads CSV with ',' between fields)"
        )
    _check_names(header, f"the header (line {header_line}) of {path!r}")
    n_rows = len(starts)
    if not n_rows:
        raise EvalbarsError(f"{path!r} has a header but no rows")
    lines = np.frombuffer(starts, dtype=np.int64).copy()
    if ragged:
        (first, fields), others = ragged[0], [lines[k] for k, _ in ragged[1:]]
        more = f" (and {len(others)} more rows with the wrong number of fields: " \
               f"{places(others, False)})" if others else ""
        raise EvalbarsError(
            f"{path!r} line {lines[first]} has {fields} fields but the header "
            f"has {len(header)}{more}; quote fields that contain commas"
        )
    index = {name: j for j, name in enumerate(header)}

    def get(name: str) -> Column:
        return Column("text", columns[index[name]], dtype="text")

    return Table(
        label=repr(path),
        fmt="csv",
        path=path,
        names=header,
        n_rows=n_rows,
        get=get,
        lines=lines,
    )


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _DuplicateKey(dup)
    return obj


class _DuplicateKey(Exception):
    pass


def read_jsonl(path: str) -> Table:
    """Read JSON Lines: one JSON object per line; blank lines are skipped."""
    decoder = json.JSONDecoder(object_pairs_hook=_unique_keys)
    records: list[dict] = []
    lines: list[int] = []
    lineno = 0
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            for lineno, text in enumerate(fh, 1):
                text = text.strip()
                if not text:
                    continue
                try:
                    obj = decoder.decode(text)
                except json.JSONDecodeError as exc:
                    raise EvalbarsError(
                        f"{path!r} line {lineno} is not valid JSON: {exc.msg} "
                        f"(column {exc.colno})"
                    ) from None
                except ValueError:  # an integer past Python's 4300-digit limit
                    raise EvalbarsError(
                        f"{path!r} line {lineno} holds a number too long to read (an "
                        f"integer of more than 4300 digits)"
                    ) from None
                except _DuplicateKey as exc:
                    raise EvalbarsError(
                        f"{path!r} line {lineno} repeats the key {short(exc.args[0])}; "
                        f"each key may appear once per object"
                    ) from None
                except RecursionError:
                    raise EvalbarsError(
                        f"{path!r} line {lineno} nests JSON arrays or objects too deeply to "
                        f"read; a row is one flat object such as "
                        f'{{"id": "q1", "model": "a", "score": 1}}'
                    ) from None
                if not isinstance(obj, dict):
                    kind = {list: "list", str: "string", bool: "boolean", type(None): "null"}
                    raise EvalbarsError(
                        f"{path!r} line {lineno} is a JSON {kind.get(type(obj), 'number')}"
                        f", not an object; each line must be one object such as "
                        f'{{"id": "q1", "model": "a", "score": 1}}'
                    )
                records.append(obj)
                lines.append(lineno)
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    if not records:
        raise EvalbarsError(f"{path!r} has no rows (no JSON objects)")
    layouts = dict.fromkeys(tuple(r) for r in records)
    names = list(dict.fromkeys(k for keys in layouts for k in keys))
    _check_names(names, f"the keys of {path!r}")

    def get(name: str) -> Column:
        return Column("object", [r.get(name) for r in records], dtype="JSON")

    return Table(
        label=repr(path),
        fmt="jsonl",
        path=path,
        names=names,
        n_rows=len(records),
        get=get,
        lines=np.asarray(lines, dtype=np.int64),
    )


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
    _check_names(names, f"the schema of {path!r}")
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
    _check_names(names, "the DataFrame")
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
