"""Where an engine's offending rows are, worded as the in-memory reader words them.

An engine numbers each row of a file from 0 (:mod:`evalbars.io.engines.duck`); Parquet
files and tables name rows by that 0-based position, as :class:`~evalbars.io.table.Table`
does, and CSV and JSON Lines files by line: :func:`lines_of` reads the file once more, on
the error path only, to turn record numbers into the line each record starts on (a CSV
header is line 1, blank lines are skipped and a quoted line break counts).

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "s.csv"
>>> _ = path.write_text('id,score\\nq1,1\\n\\n"q\\n2",0\\nq3,1\\n')
>>> lines_of(str(path), "csv", [0, 1, 2])
{0: 2, 1: 4, 2: 6}
>>> counted([2, 4], 7, False)
'lines 2, 4 and 5 more'
"""
from __future__ import annotations

import csv
import io
from typing import Iterable

from ..table import MAX_LISTED
from ..text_files import CSV_FIELD_LIMIT


def counted(nums: list[int], total: int, positions: bool) -> str:
    """``"lines 3, 7 and 4 more"``: the first places of ``total`` (as :func:`~evalbars.io.
    table.places` words them)."""
    unit = "row" if positions else "line"
    text = f"{unit}{'s' if total > 1 else ''} {', '.join(map(str, nums))}"
    if total > len(nums):
        text += f" and {total - len(nums)} more"
    return text + (" (0-based)" if positions else "")


def lines_of(path: str, fmt: str, ordinals: Iterable[int]) -> dict[int, int]:
    """The line each of the 0-based records ``ordinals`` of a CSV or JSON Lines file
    starts on."""
    wanted = set(ordinals)
    found: dict[int, int] = {}
    if not wanted:
        return found
    last = max(wanted)
    with open(path, "rb") as raw, io.TextIOWrapper(raw, encoding="utf-8-sig",
                                                   newline="") as fh:
        if fmt == "csv":
            limit = csv.field_size_limit(CSV_FIELD_LIMIT)
            try:
                reader = csv.reader(fh)
                prev, record = 0, -1  # the header is record -1
                for fields in reader:
                    if fields:
                        if record in wanted:
                            found[record] = prev + 1
                        if record >= last:
                            break
                        record += 1
                    prev = reader.line_num
            finally:
                csv.field_size_limit(limit)
        else:
            record = 0
            for number, text in enumerate(fh, 1):
                if text.strip():
                    if record in wanted:
                        found[record] = number
                    if record >= last:
                        break
                    record += 1
    return found


def where(source, backend, found: list[tuple[int, int]], total: int,
          limit: int = MAX_LISTED) -> tuple[str, str]:
    """``found`` (file index, row) of ``total`` offending rows, sorted, as ``(places,
    label)``: ``("lines 3, 7", "'a.csv'")``; with several files, each file's places
    (``"line 3 of 'a.csv' and row 0 (0-based) of 'b.parquet'"``, label None)."""
    if not backend.positions:
        return "", source.label
    shown = found[:limit]
    by_file: dict[int, list[int]] = {}
    for file, row in shown:
        by_file.setdefault(file, []).append(backend.ordinal(file, row))
    positions = source.fmt not in ("csv", "jsonl")
    if not positions:
        for file, rows in by_file.items():
            lines = lines_of(source.files[file], source.fmt, rows)
            by_file[file] = [lines.get(r, r + 2) for r in rows]
    if len(by_file) == 1 and (source.table is not None or len(source.files) == 1):
        (file, nums), = by_file.items()
        return counted(nums, total, positions), source.file_label(file)
    parts = [f"{counted(nums, len(nums), positions)} of {source.file_label(file)}"
             for file, nums in by_file.items()]
    if total > len(shown):
        parts[-1] += f" and {total - len(shown)} more"
    return " and ".join(parts), None


def at(source, backend, found: list[tuple[int, int]], total: int) -> str:
    """``"at lines 3, 7 of 'a.csv'"`` (or ``"in the Spark DataFrame"`` without places)."""
    text, label = where(source, backend, found, total)
    if not text:
        return f"in {label}"
    return f"at {text}" + ("" if label is None else f" of {label}")
