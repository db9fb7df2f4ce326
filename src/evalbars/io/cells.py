"""Score cells and labels: parse the raw values of a column, once, and say what is wrong.

A score cell is a number, a numeric string, a boolean or true/false (1/0); an empty cell
or null is a missing score; anything else (text, NaN, an infinity, a number beyond
:data:`MAX_ABS_SCORE`, a string Python's ``float`` would read with ``_`` digit separators
or with digits other than ASCII's, such as Arabic-Indic or fullwidth ones) is an error
naming the column, the value and its line or row. Labels (item ids, model
names, sample values, cluster labels) are strings exactly as written, or integers from
JSON, Parquet or a DataFrame as ``str(int)``; an empty string is an empty label in every
format, as an empty CSV cell is, and a label holding a lone UTF-16 surrogate is refused.
An order column (:func:`order_values`) holds numbers or ISO 8601 timestamps. Parsed
columns are cached per load in :attr:`Table.memo`.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import numpy as np

from ..core.errors import EvalbarsError
from .messages import empty_label
from .table import MAX_LISTED, Column, Table, not_unicode, short, surrogate

MAX_ABS_SCORE = 1e100
"""Largest score magnitude accepted. Sums, squares and the third moments some intervals
use stay finite far beyond any real score (the cube of 1e100 is 1e300); 1e200 would
overflow them and end in an unreadable numerical error instead of a message."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True, eq=False)
class _Parsed:
    values: np.ndarray  # float64; NaN where missing or invalid
    missing: np.ndarray  # bool: empty cell / null
    bad: np.ndarray  # rows holding something that is not a number
    nonfinite: np.ndarray  # rows holding NaN or an infinity


def _cell(value: Any) -> float | None:
    """One score cell: a float, None for missing; raises ValueError when not a number."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "":
            return None
        if text == "true":
            return 1.0
        if text == "false":
            return 0.0
        if not plain_number_text(text):
            raise ValueError
    try:
        return float(value)
    except OverflowError:
        return float("inf")
    except TypeError:
        raise ValueError from None


def plain_number_text(text: str) -> bool:
    """False for text that ``float`` reads but a number is not written so: with ``_``
    (``float("1_0")`` is 10.0: a typo, not a number) or a character that is not ASCII
    (``float("\u0663")`` is 3.0, an Arabic-Indic digit, as are fullwidth digits: numbers
    are written in ASCII). The harness-log readers hold their score strings to it too.

    >>> plain_number_text("1.5e3"), plain_number_text("1_0"), plain_number_text("\uff13")
    (True, False, False)
    """
    return "_" not in text and text.isascii()


def _unusual(values: list) -> bool:
    """True when a string cell holds ``_`` (which ``float`` would skip) or a character that
    is not ASCII (``float`` reads every script's digits: ``"\u0663"``, fullwidth ``"３"``)."""
    try:
        return not plain_number_text("".join(values))
    except TypeError:  # not all strings
        return not all(plain_number_text(v) for v in values if isinstance(v, str))


def _parse_cells(values: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(values)
    try:  # fast path: every cell converts with float() (and all are ASCII without a "_")
        numbers = np.fromiter(map(float, values), np.float64, n)
        if not _unusual(values):
            return numbers, np.zeros(n, bool), np.empty(0, np.int64)
    except (ValueError, TypeError, OverflowError):
        pass
    out = [0.0] * n
    missing = np.zeros(n, bool)
    bad = []
    nan = float("nan")
    for i, value in enumerate(values):
        try:
            number = _cell(value)
        except ValueError:
            bad.append(i)
            number = nan
        if number is None:
            missing[i] = True
            number = nan
        out[i] = number
    return np.array(out, dtype=np.float64), missing, np.asarray(bad, dtype=np.int64)


def parse_scores(table: Table, name: str) -> _Parsed:
    """A column as float scores (parsed once) and its missing, non-numeric, non-finite cells."""
    key = ("scores", name)
    if key in table.memo:
        return table.memo[key]
    col = table.column(name)
    if col.kind in ("text", "object"):
        values, missing, bad = _parse_cells(col.values)
    else:
        values = np.array(col.values, dtype=np.float64)
        missing = col.null.copy() if col.null is not None else np.zeros(len(values), bool)
        bad = np.empty(0, np.int64)
    values[missing] = np.nan
    values[bad] = np.nan
    with np.errstate(invalid="ignore"):
        nonfinite = np.flatnonzero(~(np.abs(values) <= MAX_ABS_SCORE) & ~missing)
    if bad.size:
        nonfinite = np.setdiff1d(nonfinite, bad)
    parsed = table.memo[key] = _Parsed(values, missing, bad, nonfinite)
    return parsed


def is_numeric(table: Table, name: str) -> bool:
    """True when every non-empty cell of the column is a number (finite or not) or true/false."""
    return parse_scores(table, name).bad.size == 0


def raw_cell(col: Column, row: int) -> str:
    """The cell as written, for messages."""
    value = col.values[row]
    if col.kind == "float":
        return repr(float(value))
    return short(value.item() if isinstance(value, np.generic) else value, 30)


def check_values(
    table: Table, name: str, parsed: _Parsed, rows: np.ndarray | None = None, hint: str = ""
) -> None:
    """Raise on non-numeric or non-finite scores (only among ``rows`` when given)."""
    bad = np.union1d(parsed.bad, parsed.nonfinite)
    if rows is not None and bad.size:
        bad = bad[np.isin(bad, rows)]
    if not bad.size:
        return
    col = table.column(name)
    order = np.argsort(table.numbers(bad), kind="stable")
    shown = [
        f"{raw_cell(col, r)} at {table.where([r])}"  # a log's table names its file and record
        for r in bad[order[:MAX_LISTED]]
    ]
    non_ascii = col.kind in ("text", "object") and any(
        isinstance(col.values[r], str) and not col.values[r].strip().isascii()
        for r in bad[order].tolist())
    raise bad_scores_error(name, table.label, int(bad.size), shown, non_ascii, hint,
                           from_log=table.from_log)


def bad_scores_error(column: str, label: str, total: int, shown: list[str],
                     non_ascii: bool, hint: str = "", *, from_log: bool = False) -> EvalbarsError:
    """The error for ``total`` score cells of ``column`` that are not finite numbers,
    ``shown`` the first of them ('x at line 3'); the in-memory reader and the engines
    word it alike. The scores of a harness log (``from_log``) were written by the
    harness, so the fix is in the log, not in a cell.

    >>> print(bad_scores_error("score", "'a.csv'", 1, ["'x' at line 3"], False))
    column 'score' of 'a.csv' has 1 value that is not a finite number within \u00b11e100: 'x' at line 3; scores must be such numbers or true/false (leave a cell empty for a missing score)
    >>> print(bad_scores_error("acc", "the helm log 'run'", 1, ["1e+200 at entry [1] of 'p.json'"],
    ...                        False, from_log=True))
    column 'acc' of the helm log 'run' has 1 value that is not a finite number within \u00b11e100: 1e+200 at entry [1] of 'p.json'; scores must be such numbers, and the harness wrote this one: fix the log or remove that record
    """
    more = f" and {total - MAX_LISTED} more" if total > MAX_LISTED else ""
    if non_ascii:
        hint = "; only the ASCII digits 0-9 are read as digits" + hint
    if from_log:
        fix = ("scores must be such numbers, and the harness wrote "
               f"{'these' if total > 1 else 'this one'}: fix the log or remove "
               f"{'those records' if total > 1 else 'that record'}")
    else:
        fix = ("scores must be such numbers or true/false (leave a cell empty for a missing "
               "score)")
    return EvalbarsError(
        f"column {column!r} of {label} has {total} value{'s' if total > 1 else ''} "
        f"that {'are' if total > 1 else 'is'} not a finite number within \u00b11e100: "
        f"{', '.join(shown)}{more}; {fix}{hint}"
    )


# --------------------------------------------------------------------------- labels


def column_labels(table: Table, name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Ids (or model names) of a column as strings, with the rows that are empty or not str/int."""
    key = ("labels", name)
    if key in table.memo:
        return table.memo[key]
    col = table.column(name)
    empty: np.ndarray = np.empty(0, np.int64)
    bad: np.ndarray = np.empty(0, np.int64)
    if col.kind == "text":
        labels = col.values
        if "" in labels:
            empty = np.flatnonzero(np.fromiter((v == "" for v in labels), bool, len(labels)))
    elif col.kind == "object":
        labels = []
        empty_rows, bad_rows = [], []
        for i, value in enumerate(col.values):
            if isinstance(value, str):
                labels.append(value)
                if value == "":  # as an empty CSV cell: one rule for every format
                    empty_rows.append(i)
                continue
            if value is None:
                empty_rows.append(i)
            elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
                try:
                    labels.append(str(int(value)))
                    continue
                except ValueError:  # past Python's 4300-digit limit for str(int)
                    bad_rows.append(i)
            else:
                bad_rows.append(i)
            labels.append("")
        empty = np.asarray(empty_rows, dtype=np.int64)
        bad = np.asarray(bad_rows, dtype=np.int64)
    elif col.kind == "int":
        labels = [str(v) for v in col.values.tolist()]
        if col.null is not None:
            empty = np.flatnonzero(col.null)
            for i in empty.tolist():
                labels[i] = ""
    else:  # float, bool
        labels = [""] * table.n_rows
        null = col.null if col.null is not None else np.zeros(table.n_rows, bool)
        empty = np.flatnonzero(null)
        bad = np.flatnonzero(~null)
    result = table.memo[key] = (labels, empty, bad)
    return result


def check_labels(table: Table, name: str, what: str, rows: np.ndarray | None = None) -> list[str]:
    """The labels of a column, raising on empty or non-string/int cells among ``rows``."""
    labels, empty, bad = column_labels(table, name)
    if rows is not None:
        empty = empty[np.isin(empty, rows)]
        bad = bad[np.isin(bad, rows)]
    if empty.size:
        raise empty_label(what, name, table.at(empty))
    if bad.size:
        col = table.column(name)
        first = bad[np.argsort(table.numbers(bad), kind="stable")[:MAX_LISTED]]
        shown = ", ".join(
            f"{raw_cell(col, r)} ({type(col.values[r]).__name__})" for r in first
        )
        raise EvalbarsError(
            f"{what}s in column {name!r} must be strings or integers, but {bad.size} "
            f"{'are' if bad.size > 1 else 'is'} not: {shown} {table.at(bad)}; "
            f"convert the column to strings"
        )
    odd = _surrogates(table, name, labels)
    if rows is not None and odd.size:
        odd = odd[np.isin(odd, rows)]
    if odd.size:
        raise not_unicode(what, labels[odd[0]], f"in column {name!r} {table.at(odd)}")
    return labels


def _surrogates(table: Table, name: str, labels: list[str]) -> np.ndarray:
    """The rows whose label holds a lone UTF-16 surrogate (a JSON ``"\\ud800"``, a Python
    string), sorted by line: no character, it cannot be hashed or written as UTF-8."""
    key = ("surrogates", name)
    if key not in table.memo:
        try:
            "".join(labels).encode("utf-8")
            odd = np.empty(0, np.int64)
        except UnicodeEncodeError:
            odd = np.asarray([i for i, v in enumerate(labels) if surrogate(v) is not None],
                             dtype=np.int64)
            odd = odd[np.argsort(table.numbers(odd), kind="stable")]
        table.memo[key] = odd
    return table.memo[key]


def str_array(labels: list[str]) -> np.ndarray:
    """A NumPy array of ids that sorts, compares and searches fast, and keeps every id exact."""
    if not labels:
        return np.array([], dtype=str)
    if max(map(len, labels)) <= 64 and "\x00" not in "".join(labels):
        return np.array(labels, dtype=str)  # fixed width: fastest to sort
    try:  # numpy >= 2: variable width, keeps trailing NULs
        from numpy.dtypes import StringDType

        return np.array(labels, dtype=StringDType())
    except ImportError:  # pragma: no cover - numpy < 2
        out = np.empty(len(labels), dtype=object)
        out[:] = labels
        return out


def at_rows(labels: list[str], rows: np.ndarray) -> list[str]:
    """``labels`` at ``rows`` (sorted, distinct row numbers)."""
    return labels if rows.size == len(labels) else [labels[r] for r in rows.tolist()]


def label_codes(labels: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct labels, sorted, and the position of each label among them.

    A dict finds them in one pass (fast for the few distinct samples or clusters of many
    rows); sorting the distinct labels makes the codes independent of the row order.
    """
    names = sorted(dict.fromkeys(labels))
    index = {name: code for code, name in enumerate(names)}
    return names, np.fromiter(map(index.__getitem__, labels), np.int64, len(labels))


# --------------------------------------------------------------------------- order


def _timestamps(table: Table, name: str, rows: np.ndarray) -> np.ndarray:
    """ISO 8601 timestamps (``2026-12-01T15:13:38Z``, with or without a zone) as seconds."""
    col = table.column(name)
    out = np.empty(rows.size)
    zoned = None
    for k, row in enumerate(rows.tolist()):
        value = col.values[row]
        try:
            if not isinstance(value, str):
                raise ValueError
            stamp = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise EvalbarsError(
                f"the order column {name!r} must hold numbers (a sequence number, Unix "
                f"time) or ISO 8601 timestamps; {raw_cell(col, row)} {table.at([row])} is "
                "neither") from None
        if zoned is None:
            zoned = stamp.tzinfo is not None
        elif zoned != (stamp.tzinfo is not None):
            raise EvalbarsError(
                f"the order column {name!r} mixes timestamps with and without a time zone "
                f"({raw_cell(col, row)} {table.at([row])}); they cannot be ordered")
        out[k] = (stamp if zoned else stamp.replace(tzinfo=timezone.utc)).timestamp()
    return out


def order_values(table: Table, name: str, rows: np.ndarray) -> np.ndarray:
    """The order column ``name`` at ``rows``, as numbers (timestamps as Unix seconds)."""
    parsed = parse_scores(table, name)
    missing = rows[parsed.missing[rows]]
    if missing.size:
        raise EvalbarsError(f"empty order value in column {name!r} {table.at(missing)}; every "
                            "row of the compared models needs one")
    bad = rows[np.isin(rows, parsed.bad)]
    if bad.size == rows.size:
        return _timestamps(table, name, rows)
    odd = bad if bad.size else rows[np.isin(rows, parsed.nonfinite)]
    if odd.size:
        first = odd[np.argsort(table.numbers(odd), kind="stable")[:1]]
        raise EvalbarsError(
            f"the order column {name!r} must hold numbers (a sequence number, Unix time) or "
            f"ISO 8601 timestamps; {raw_cell(table.column(name), int(first[0]))} "
            f"{table.at(first)} is {'not a number' if bad.size else 'not finite'}, while "
            "other rows hold numbers")
    return parsed.values[rows]
