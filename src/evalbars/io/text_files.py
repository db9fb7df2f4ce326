"""Read CSV and JSON Lines files into raw columns, each row at the line it starts on.

The cells stay as written (CSV text, JSON objects). Lines are counted from 1 and a CSV
header is line 1; a record that spans several lines (a quoted newline) is reported at its
first line.
"""
from __future__ import annotations

import csv
import itertools
import json
import sys
from array import array
from typing import Any, Sequence

import numpy as np

from ..core.errors import EvalbarsError
from .table import Column, Table, _check_names, places, short


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
