"""A table of raw columns that knows where each row came from, and the wording of places.

A :class:`Table` is what every reader (:mod:`evalbars.io.text_files`,
:mod:`evalbars.io.files`) returns: named columns holding the values as the source stored
them (:class:`Column`), and each row's line number (CSV, JSON Lines; a CSV header is line
1) or 0-based position (Parquet, DataFrame); :func:`check_column_names` rejects an empty or
repeated column name. :func:`places`, :func:`name_list` and :func:`short` word the lines,
names and values that error messages list, at most :data:`MAX_LISTED` at a time.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..core.errors import EvalbarsError

MAX_LISTED = 5
"""How many offending places, ids or names a message lists before saying "and N more"."""


@dataclass(frozen=True, slots=True, eq=False)
class Column:
    """One column's raw values.

    ``kind`` is one of:

    - ``"text"``: ``values`` is a list of str (CSV cells); ``""`` is an empty cell.
    - ``"object"``: ``values`` is a list of Python objects; ``None`` is null.
    - ``"int"``, ``"float"``, ``"bool"``: ``values`` is a NumPy array; ``null`` marks
      null cells (or is None when there are none). For DataFrames a NaN is pandas'
      missing value and is marked null; for Parquet only Arrow nulls are.

    ``dtype`` names the source type for messages.
    """

    kind: str
    values: Any
    null: np.ndarray | None = None
    dtype: str = ""


class Table:
    """Named raw columns of one input, plus where each row came from.

    Parameters
    ----------
    label : str
        How messages name the input: the path as given, or ``"the DataFrame"``.
    fmt : str
        ``"csv"``, ``"jsonl"``, ``"parquet"`` or ``"dataframe"``.
    path : str or None
        The file path as given (None for a DataFrame).
    names : sequence of str
        Column names in source order (unique).
    n_rows : int
        Number of data rows.
    get : callable
        ``get(name) -> Column``; called at most once per column.
    lines : ndarray or None
        Line number of each row (CSV, JSON Lines); None means 0-based row positions.
    sha256 : str or None
        Hex SHA-256 of the file, when the reader computed it as it read (CSV, JSON Lines).
    """

    def __init__(
        self,
        *,
        label: str,
        fmt: str,
        path: str | None,
        names: Sequence[str],
        n_rows: int,
        get: Callable[[str], Column],
        lines: np.ndarray | None = None,
        sha256: str | None = None,
    ) -> None:
        self.label = label
        self.fmt = fmt
        self.path = path
        self.names = tuple(names)
        self.n_rows = n_rows
        self._get = get
        self._lines = lines
        self.sha256 = sha256
        self._columns: dict[str, Column] = {}
        self.memo: dict = {}
        """Per-load cache for derived values (parsed columns), keyed by the caller."""

    from_log = False
    """True for the scored answers of a harness log (:meth:`evalbars.io.logs.Answers.table`):
    their values were written by the harness, not typed into cells."""

    @property
    def positions(self) -> bool:
        """True when rows are named by 0-based position (Parquet, DataFrame), not by line."""
        return self._lines is None

    @property
    def stem(self) -> str | None:
        """The file name without its extension (None for a DataFrame)."""
        return None if self.path is None else Path(self.path).stem

    def column(self, name: str) -> Column:
        """The raw column ``name`` (which must exist)."""
        col = self._columns.get(name)
        if col is None:
            col = self._columns[name] = self._get(name)
        return col

    def numbers(self, rows: Sequence[int] | np.ndarray) -> list[int]:
        """Line numbers (CSV, JSON Lines) or 0-based positions of ``rows``."""
        rows = np.asarray(rows, dtype=np.int64)
        if self._lines is None:
            return rows.tolist()
        return self._lines[rows].tolist()

    def at(self, rows: Sequence[int] | np.ndarray, limit: int = MAX_LISTED) -> str:
        """Where ``rows`` are, e.g. ``"at lines 3, 7 of 'a.csv'"`` (first ``limit``, a count)."""
        nums = sorted(self.numbers(rows))
        return f"at {places(nums, self._lines is None, limit)} of {self.label}"

    def where(self, rows: Sequence[int] | np.ndarray, limit: int = MAX_LISTED) -> str:
        """Just the places, e.g. ``"lines 3, 7"`` or ``"rows 0, 4 (0-based)"``."""
        return places(sorted(self.numbers(rows)), self._lines is None, limit)


def read_only(array: np.ndarray) -> np.ndarray:
    """``array`` contiguous and read-only: what a loaded result hands out.

    >>> read_only(np.arange(3)).flags.writeable
    False
    """
    array = np.ascontiguousarray(array)
    array.setflags(write=False)
    return array


def places(nums: Sequence[int], positions: bool, limit: int | None = MAX_LISTED) -> str:
    """``"line 3"``, ``"lines 3, 7, 9, 12, 15 and 4 more"``, ``"rows 0, 4 (0-based)"``."""
    unit = "row" if positions else "line"
    shown = list(nums) if limit is None else list(nums)[:limit]
    text = f"{unit}{'s' if len(nums) > 1 else ''} {', '.join(map(str, shown))}"
    if len(nums) > len(shown):
        text += f" and {len(nums) - len(shown)} more"
    if positions:
        text += " (0-based)"
    return text


def name_list(names: Sequence[Any], limit: int = 20) -> str:
    """``'a', 'b', 'c'`` (reprs, shortened), then ``and N more`` past ``limit``."""
    names = list(names)
    shown = ", ".join(short(n) for n in names[:limit])
    if len(names) > limit:
        shown += f" and {len(names) - limit} more"
    return shown or "(none)"


def short(value: Any, width: int = 40) -> str:
    """A one-line repr of ``value``, cut to about ``width`` characters."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4300-digit limit for str(int)
        text = f"<an integer of about {int(value).bit_length() * 0.30103:.0f} digits>"
    return text if len(text) <= width else text[: width - 4] + "...'"


def surrogate(text: str) -> str | None:
    """The first lone UTF-16 surrogate in ``text``, escaped (``"\\ud800"``), or None.

    JSON's ``"\\ud800"`` escape and a Python string can hold one; it is no character, and
    encoding it as UTF-8 (for hashes, seeds, reports) fails.
    """
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as exc:
        return f"\\u{ord(text[exc.start]):04x}"


def not_unicode(what: str, value: str, where: str) -> EvalbarsError:
    """The error for a label or name holding a lone surrogate (see :func:`surrogate`)."""
    return EvalbarsError(
        f"{what} {short(value)} {where} holds a lone UTF-16 surrogate "
        f"({surrogate(value)}), which is not a character; fix the text (in JSON, a "
        f"\\ud800-\\udfff escape must be one half of a surrogate pair)"
    )


def check_column_names(names: Sequence[str], where: str) -> None:
    """Column names must be non-empty, unique and Unicode text; ``where`` names the header,
    keys or schema."""
    seen: dict[str, int] = {}
    dups = []
    for pos, name in enumerate(names, 1):
        if name == "":
            raise EvalbarsError(
                f"column {pos} of {where} has no name"
                + (" (a trailing comma?)" if pos == len(names) else "")
                + "; every column needs a name"
            )
        if surrogate(name) is not None:
            raise not_unicode("the column name", name, f"(column {pos} of {where})")
        if name in seen and name not in dups:
            dups.append(name)
        seen.setdefault(name, pos)
    if dups:
        raise EvalbarsError(
            f"duplicated column names in {where}: {name_list(dups)}; "
            f"column names must be unique"
        )
