"""Read CSV and JSON Lines files into raw columns, each row at the line it starts on.

The cells stay as written (CSV text, JSON objects). Lines are counted from 1 and a CSV
header is line 1; a record that spans several lines (a quoted newline) is reported at its
first line.
"""
from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import os
import stat
import sys
from array import array
from typing import Any, Sequence

import numpy as np

from ..core.errors import EvalbarsError
from .table import Column, Table, check_column_names, not_unicode, places, short, surrogate


class _Hashed(io.FileIO):
    """A file that adds every byte read to ``digest``; ``done`` once it reached the end."""

    def __init__(self, path: str, digest: Any) -> None:
        super().__init__(path, "rb")
        self.digest, self.done = digest, False

    def readinto(self, buffer: Any) -> int | None:
        n = super().readinto(buffer)
        if n:
            self.digest.update(memoryview(buffer)[:n])
        elif n == 0:
            self.done = True
        return n

    def readall(self) -> bytes:
        data = super().readall()
        self.digest.update(data)
        self.done = True
        return data


DIGESTS: dict[tuple, str] = {}
"""SHA-256 of the files that are not regular (named pipes) read so far, by path and inode:
they can be read only once, so :func:`evalbars.io.files.sha256` looks them up here."""


class _Source:
    """A file's bytes for a reader that may open it more than once, and their SHA-256.

    A regular file is opened again each time and hashed as it is first read through (no
    second reading to hash it); anything else (a named pipe) can be read
    only once, so its bytes are read into memory first.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._digest = hashlib.sha256()
        self._data: bytes | None = None
        self._first: _Hashed | None = None
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            with open(path, "rb") as fh:
                self._data = fh.read()
            self._digest.update(self._data)
            DIGESTS[(os.path.abspath(path), info.st_dev, info.st_ino)] = self.sha256()

    def bytes(self) -> Any:
        """The file opened for reading bytes."""
        if self._data is not None:
            return io.BytesIO(self._data)
        if self._first is None:
            self._first = _Hashed(self.path, self._digest)
            return io.BufferedReader(self._first, 1 << 16)
        return open(self.path, "rb")

    def text(self) -> Any:
        """The file opened as UTF-8 text (a byte-order mark skipped, line ends kept)."""
        return io.TextIOWrapper(self.bytes(), encoding="utf-8-sig", newline="")

    def sha256(self) -> str | None:
        """Hex SHA-256 of the whole file, or None if it was never read to its end."""
        whole = self._data is not None or (self._first is not None and self._first.done)
        return self._digest.hexdigest() if whole else None


def _not_utf8(source: _Source, exc: UnicodeDecodeError) -> EvalbarsError:
    """Locate the first byte that is not UTF-8 and say which line it is on."""
    path = source.path
    with source.bytes() as fh:
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


_CSV_CHUNK = 1 << 16
"""Records parsed at a time: rows are stored column by column, so a file's memory is its
cells, not a list per row."""

CSV_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)
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
    limit = csv.field_size_limit(CSV_FIELD_LIMIT)
    source = _Source(path)
    try:
        with source.text() as fh:
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
            with source.text() as fh:
                reader = csv.reader(fh)
                prev, seen_header = 0, False
                for record in reader:
                    if record:
                        if seen_header:
                            starts.append(prev + 1)
                        seen_header = True
                    prev = reader.line_num
    except UnicodeDecodeError as exc:
        raise _not_utf8(source, exc) from None
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
    check_column_names(header, f"the header (line {header_line}) of {path!r}")
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
        sha256=source.sha256(),
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
    source = _Source(path)
    try:
        with source.text() as fh:
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
        raise _not_utf8(source, exc) from None
    if not records:
        raise EvalbarsError(f"{path!r} has no rows (no JSON objects)")
    layouts = dict.fromkeys(tuple(r) for r in records)
    names = list(dict.fromkeys(k for keys in layouts for k in keys))
    odd = next((name for name in names if surrogate(name) is not None), None)
    if odd is not None:
        line = next(n for r, n in zip(records, lines) if odd in r)
        raise not_unicode("the key", odd, f"at line {line} of {path!r}")
    check_column_names(names, f"the keys of {path!r}")

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
        sha256=source.sha256(),
    )
