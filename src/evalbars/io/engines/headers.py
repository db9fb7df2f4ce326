"""The checks on a file's column names that an engine would otherwise smooth over.

DuckDB and Spark rename a repeated or empty column name (``score_1``, ``column2``) where
the in-memory reader refuses it; :func:`check_names` reads only the header of each local
CSV file (the schema of a Parquet file) and raises the in-memory reader's error: an empty
file, a header that is not comma-separated, an empty or repeated column name (and, for a
file that is not UTF-8 or not CSV near its start, what that reader says of it).
:func:`no_rows` is the error for an input with a header and no rows.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "s.csv"
>>> _ = path.write_text("id,score,score\\nq1,1,0\\n")
>>> check_names("csv", [str(path)])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
evalbars.core.errors.EvalbarsError: duplicated column names in the header (line 1) of \
'...s.csv': 'score'; column names must be unique
"""
from __future__ import annotations

import csv
import io

from ...core.errors import EvalbarsError
from ..files import read
from ..table import check_column_names, short
from ..text_files import CSV_FIELD_LIMIT


class _Unreadable(Exception):
    """The file is not UTF-8 or not CSV: the in-memory reader names the problem."""


def _csv_header(path: str) -> tuple[list[str], int] | None:
    """The first record of a CSV file and its line (None for a file of blank lines)."""
    limit = csv.field_size_limit(CSV_FIELD_LIMIT)
    try:
        with open(path, "rb") as raw, io.TextIOWrapper(raw, encoding="utf-8-sig",
                                                       newline="") as fh:
            reader = csv.reader(fh)
            prev = 0
            for record in reader:
                if record:
                    return record, prev + 1
                prev = reader.line_num
    except (UnicodeDecodeError, csv.Error):
        raise _Unreadable from None
    finally:
        csv.field_size_limit(limit)
    return None


def check_names(fmt: str, files: list[str]) -> None:
    """Raise as the in-memory reader does on the header of each CSV file or the schema of
    each Parquet file (JSON Lines keys are checked by the engine)."""
    for path in files:
        if fmt == "csv":
            try:
                found = _csv_header(path)
            except _Unreadable:
                read(path)  # raises the in-memory reader's message (file and line)
                continue
            if found is None:
                raise EvalbarsError(f"{path!r} is empty: no header and no rows")
            header, line = found
            if len(header) == 1 and any(sep in header[0] for sep in (";", "\t", "|")):
                raise EvalbarsError(
                    f"the header of {path!r} is a single column {short(header[0])}: the file "
                    f"does not look comma-separated (evalbars reads CSV with ',' between "
                    f"fields)")
            check_column_names(header, f"the header (line {line}) of {path!r}")
        elif fmt == "parquet":
            try:
                import pyarrow.parquet as pq

                names = [str(n) for n in pq.ParquetFile(path).schema_arrow.names]
            except Exception:  # not Parquet, or no pyarrow: the engine names the problem
                continue
            check_column_names(names, f"the schema of {path!r}")


def no_rows(source) -> EvalbarsError:
    """The error for an input that has columns but no rows, worded per format."""
    label = source.label
    if source.fmt == "csv":
        return EvalbarsError(f"{label} has a header but no rows")
    if source.fmt == "parquet":
        return EvalbarsError(f"{label} has columns but no rows")
    if source.fmt == "jsonl":
        return EvalbarsError(f"{label} has no rows (no JSON objects)")
    return EvalbarsError(f"{label} has no rows")
