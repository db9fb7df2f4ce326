"""Read eval scores into one aligned (items x models) matrix, validating everything once.

Three layouts are understood, from CSV, JSON Lines, Parquet or a pandas DataFrame:

- **wide**: an id column plus one score column per model;
- **long**: one row per (item, model) with item, model and score columns;
- **two files**: two inputs, each with an id column and one score column.

Every layout is mapped onto the canonical long table (item, model, score), validated,
and aligned by item id into :class:`ItemScores`. Nothing is dropped, coerced or reordered
silently: bad input raises :class:`~evalbars._errors.EvalbarsError` naming the file,
the line numbers (a CSV header is line 1) or 0-based rows, the columns and the item ids;
``intersect=True`` is the one explicit way to drop items, and the result counts them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ._errors import EvalbarsError
from ._readers import MAX_LISTED, Column, Table, name_list, places, read, sha256, short

SCORE_TYPES = ("auto", "binary", "continuous")
"""Accepted values of ``score_type``."""

ID_NAMES = (
    "id", "qid", "item", "item_id", "question_id", "example_id", "doc_id", "sample_id",
    "query_id",
)
"""Column names (case-insensitive) taken as the item id column when ``item`` is not given."""

SCORE_NAMES = ("score", "correct", "accuracy", "acc", "value")
"""Column names (case-insensitive) taken as the score column when ``score`` is not given."""

MODEL_NAME = "model"
"""A column with this name (case-insensitive) selects the long layout."""

STRAY_SHARE = 0.99
"""An all-integer column with at least this share of 0/1 values and some other value is
treated as a 0/1 column with a typo, and rejected unless ``score_type="continuous"``."""

_SAMPLE_HINT = (
    "repeated sampled answers per item will need a sample column, which is coming in a "
    "later version"
)
_MODELS_HINT = "; or choose the model columns with models= (--models)"
_INTERSECT_HINT = "pass intersect=True (--intersect) to compare on the items every model has"


# --------------------------------------------------------------------------- result


@dataclass(frozen=True, slots=True, eq=False)
class ItemScores:
    """Per-item scores of one or more models, aligned by item id.

    Attributes
    ----------
    items : tuple of str
        Item ids, sorted, so the order of input rows never changes any number.
    models : tuple of str
        Model names, in the order requested (or the order they appear in the input).
    scores : ndarray, shape (n_items, n_models)
        float64, read-only; row ``i`` is item ``items[i]``.
    score_type : str
        ``"binary"`` (every score is 0 or 1) or ``"continuous"``.
    dropped : dict or None
        With ``intersect=True``: for each model, how many of the items it scored were
        dropped because another model has no score for them. None otherwise.
    source : dict
        JSON-safe provenance: ``layout``, ``format``, ``columns`` (``item``, ``model``,
        ``score``, ``models``; ``item`` and ``score`` are per-file lists for two files),
        ``inputs`` (``path`` and ``sha256`` of each file; None for a DataFrame) and
        ``n_items_read`` (distinct item ids read, before any intersection).
    """

    items: tuple[str, ...]
    models: tuple[str, ...]
    scores: np.ndarray
    score_type: str
    dropped: dict[str, int] | None
    source: dict

    def __repr__(self) -> str:
        return f"<ItemScores: {self.describe()}>"

    def column(self, model: str) -> np.ndarray:
        """The scores of ``model``, aligned with :attr:`items` (a read-only view)."""
        if model not in self.models:
            raise EvalbarsError(f"unknown model {short(model)}; models: {name_list(self.models)}")
        return self.scores[:, self.models.index(model)]

    def describe(self) -> str:
        """One line saying what was read and what was chosen."""
        src = self.source
        cols = src["columns"]
        paths = [inp["path"] if inp["path"] is not None else "DataFrame" for inp in src["inputs"]]
        models = ", ".join(repr(m) for m in self.models)
        if src["layout"] == "two-files":
            items = _same_or_pair(cols["item"])
            scores = _same_or_pair(cols["score"])
            what = f"item column {items}, score column {scores}, models {models}"
        elif src["layout"] == "long":
            what = (
                f"item column {cols['item']!r}, model column {cols['model']!r}, "
                f"score column {cols['score']!r}, models {models}"
            )
        else:
            what = f"item column {cols['item']!r}, models {models}"
        kind = "0/1 scores" if self.score_type == "binary" else "continuous scores"
        fmt = "" if src["format"] == "dataframe" else f" {src['format']}"
        text = (
            f"{src['layout']}{fmt} {' + '.join(paths)}: {what} "
            f"({len(self.items)} items, {kind})"
        )
        if self.dropped is not None:
            per_model = ", ".join(f"{m!r} {k}" for m, k in self.dropped.items())
            text += (
                f"; intersect kept {len(self.items)} of {src['n_items_read']} items "
                f"(dropped per model: {per_model})"
            )
        return text


def _same_or_pair(names: Sequence[str]) -> str:
    a, b = names
    return repr(a) if a == b else f"{a!r} / {b!r}"


# --------------------------------------------------------------------------- load


def load(
    data: Any,
    data2: Any = None,
    *,
    item: str | None = None,
    model: str | None = None,
    score: str | None = None,
    models: Sequence[str] | None = None,
    score_type: str = "auto",
    intersect: bool = False,
) -> ItemScores:
    """Read per-item scores from a file or DataFrame and align them by item id.

    Parameters
    ----------
    data : str, os.PathLike or pandas.DataFrame
        A ``.csv``, ``.jsonl`` (``.ndjson``, ``.json-lines``) or ``.parquet`` file (the
        format comes from the extension), or a DataFrame (a named index counts as a column).
    data2 : same as ``data``, optional
        A second input: selects the two-file layout, one model per input.
    item : str, optional
        The item id column. Default: the first column named (any case) id, qid, item,
        item_id, question_id, example_id, doc_id, sample_id or query_id.
    model : str, optional
        The model column; selects the long layout (one row per item and model). Default:
        the long layout is used when a column is named ``model`` (any case).
    score : str, optional
        The score column (long and two-file layouts). Default: the column named score,
        correct, accuracy, acc or value, else the only numeric column left.
    models : sequence of str, optional
        Wide: the model columns (default: every other column holding only numbers,
        except columns named like an id). Long: which values of the model column to keep. Two files: names for the two models
        (default: the file names without extension).
    score_type : {"auto", "binary", "continuous"}
        ``"auto"`` gives ``"binary"`` when every score is 0 or 1, else ``"continuous"``;
        but an all-integer column that is at least 99% 0/1 with some other value (a stray
        2) is an error. ``"binary"`` rejects anything but 0/1; ``"continuous"`` accepts
        any finite number.
    intersect : bool
        Compare on the items every model has a score for, counting the dropped ones in
        :attr:`ItemScores.dropped`. Without it, a missing score is an error.

    Returns
    -------
    ItemScores

    Raises
    ------
    EvalbarsError
        For anything wrong with the input, naming the file, lines or rows, columns and
        item ids: unknown columns or models, empty or duplicate ids, duplicate (item,
        model) rows, non-numeric, non-finite or missing scores, a stray value in a 0/1
        column, items that some model lacks, malformed files.

    Notes
    -----
    Item ids are strings exactly as written ("007" and "7" differ, spaces are kept);
    integer ids from JSON, Parquet or a DataFrame become ``str(int)``. Scores may be
    numbers, numeric strings, booleans or true/false (as 1/0); an empty cell or null is
    a missing score. In a DataFrame, NaN is pandas' missing value and counts as missing;
    in every other source a NaN or infinite score is an error.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from evalbars.ingest import load
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("qid,model_a,model_b\\nq2,1,1\\nq1,1,0\\nq3,0,0\\n")
    >>> data = load(path)
    >>> data.items, data.models, data.score_type
    (('q1', 'q2', 'q3'), ('model_a', 'model_b'), 'binary')
    >>> data.column("model_b")
    array([0., 1., 0.])
    >>> data.describe()  # doctest: +ELLIPSIS
    "wide csv .../scores.csv: item column 'qid', models 'model_a', 'model_b' (3 items, 0/1 scores)"
    """
    models = _check_arguments(item, model, score, models, score_type, intersect)
    if data2 is not None:
        if model is not None:
            raise EvalbarsError(
                "model= names the model column of the long layout; with two inputs each "
                "file holds one model: name them with models=['a', 'b'] (--models)"
            )
        parts = _two_files(read(data), read(data2), item, score, models)
    else:
        table = read(data)
        model_col = _resolve(table, model, "model") if model is not None else _auto_model(table)
        if model_col is not None:
            parts = _long(table, item, model_col, score, models)
        else:
            if score is not None:
                raise EvalbarsError(
                    f"score= names the score column of the long layout (one row per item "
                    f"and model), but {table.label} has no 'model' column: pass model= as "
                    f"well, or, for one column per model, choose them with models="
                )
            parts = _wide(table, item, models)
    return _finish(parts, score_type, intersect)


def _check_arguments(item, model, score, models, score_type, intersect) -> list[str] | None:
    if score_type not in SCORE_TYPES:
        raise EvalbarsError(
            f"score_type={score_type!r} is not one of {', '.join(map(repr, SCORE_TYPES))}"
        )
    for param, value in (("item", item), ("model", model), ("score", score)):
        if value is not None and (not isinstance(value, str) or value == ""):
            raise EvalbarsError(f"{param}= must be a column name (a non-empty str); got {value!r}")
    if not isinstance(intersect, (bool, np.bool_)):
        raise EvalbarsError(f"intersect= must be True or False; got {intersect!r}")
    if models is None:
        return None
    if isinstance(models, str):
        raise EvalbarsError(
            f"models= must be a list of names, not the string {models!r}; "
            f"write models=[{models!r}]"
        )
    models = list(models)
    if not models:
        raise EvalbarsError("models= is empty; give at least one model name, or leave it out")
    for name in models:
        if not isinstance(name, str) or name == "":
            raise EvalbarsError(f"models= must hold non-empty strings; got {name!r}")
    dups = sorted({m for m in models if models.count(m) > 1})
    if dups:
        raise EvalbarsError(f"models= names {name_list(dups)} more than once")
    return models


# --------------------------------------------------------------------------- columns


def _resolve(table: Table, name: str, param: str) -> str:
    """``name`` if ``table`` has that column, else an error listing the columns."""
    if name in table.names:
        return name
    close = [c for c in table.names if c.strip().lower() == name.strip().lower()]
    hint = f" (did you mean {name_list(close)}?)" if close else ""
    what = f"unknown model {name!r} (models=)" if param == "models" else f"{param}={name!r}"
    raise EvalbarsError(
        f"{what}: no such column in {table.label}{hint}; columns: {name_list(table.names)}"
    )


def _named(table: Table, names: Sequence[str], exclude: Sequence[str]) -> list[str]:
    return [c for c in table.names if c not in exclude and c.strip().lower() in names]


def _auto_item(table: Table, exclude: Sequence[str] = ()) -> str:
    found = _named(table, ID_NAMES, exclude)
    if len(found) == 1:
        return found[0]
    if found:
        raise EvalbarsError(
            f"several columns of {table.label} could hold the item ids: {name_list(found)}; "
            f"choose one with item= (--item)"
        )
    raise EvalbarsError(
        f"cannot tell which column of {table.label} holds the item ids: none is named "
        f"{', '.join(ID_NAMES)}; columns: {name_list(table.names)}; pass item= (--item)"
    )


def _auto_model(table: Table) -> str | None:
    found = _named(table, (MODEL_NAME,), ())
    if len(found) > 1:
        raise EvalbarsError(
            f"several columns of {table.label} could hold the model names: {name_list(found)}; "
            f"choose one with model= (--model)"
        )
    return found[0] if found else None


def _auto_score(table: Table, exclude: Sequence[str]) -> str:
    found = _named(table, SCORE_NAMES, exclude)
    if len(found) == 1:
        return found[0]
    if found:
        raise EvalbarsError(
            f"several columns of {table.label} could hold the scores: {name_list(found)}; "
            f"choose one with score= (--score)"
        )
    numeric = [
        c for c in table.names
        if c not in exclude and c.strip().lower() not in ID_NAMES and _numeric(table, c)
    ]
    if len(numeric) == 1:
        return numeric[0]
    which = f"the numeric columns are {name_list(numeric)}" if numeric else "none is numeric"
    raise EvalbarsError(
        f"cannot tell which column of {table.label} holds the scores: none is named "
        f"{', '.join(SCORE_NAMES)} and {which}; columns: {name_list(table.names)}; "
        f"pass score= (--score)"
    )


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
    try:
        return float(value)
    except OverflowError:
        return float("inf")
    except TypeError:
        raise ValueError from None


def _parse_cells(values: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(values)
    try:  # fast path: every cell converts with float()
        numbers = np.fromiter(map(float, values), np.float64, n)
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


def _parse_scores(table: Table, name: str) -> _Parsed:
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
    nonfinite = np.flatnonzero(~np.isfinite(values) & ~missing)
    if bad.size:
        nonfinite = np.setdiff1d(nonfinite, bad)
    parsed = table.memo[key] = _Parsed(values, missing, bad, nonfinite)
    return parsed


def _numeric(table: Table, name: str) -> bool:
    """True when every non-empty cell of the column is a number (finite or not) or true/false."""
    return _parse_scores(table, name).bad.size == 0


def _raw(col: Column, row: int) -> str:
    """The cell as written, for messages."""
    value = col.values[row]
    if col.kind == "float":
        return repr(float(value))
    return short(value.item() if isinstance(value, np.generic) else value, 30)


def _check_values(
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
        f"{_raw(col, r)} at {places(table.numbers([r]), table.positions)}"
        for r in bad[order[:MAX_LISTED]]
    ]
    more = f" and {bad.size - MAX_LISTED} more" if bad.size > MAX_LISTED else ""
    raise EvalbarsError(
        f"column {name!r} of {table.label} has {bad.size} value{'s' if bad.size > 1 else ''} "
        f"that {'are' if bad.size > 1 else 'is'} not a finite number: {', '.join(shown)}{more}; "
        f"scores must be numbers or true/false (leave a cell empty for a missing score){hint}"
    )


def _labels(table: Table, name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
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
                continue
            if value is None:
                empty_rows.append(i)
            elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
                labels.append(str(int(value)))
                continue
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


def _check_labels(table: Table, name: str, what: str, rows: np.ndarray | None = None) -> list[str]:
    """The labels of a column, raising on empty or non-string/int cells among ``rows``."""
    labels, empty, bad = _labels(table, name)
    if rows is not None:
        empty = empty[np.isin(empty, rows)]
        bad = bad[np.isin(bad, rows)]
    if empty.size:
        raise EvalbarsError(
            f"empty {what} in column {name!r} {table.at(empty)}; every row needs one"
        )
    if bad.size:
        col = table.column(name)
        first = bad[np.argsort(table.numbers(bad), kind="stable")[:MAX_LISTED]]
        shown = ", ".join(
            f"{_raw(col, r)} ({type(col.values[r]).__name__})" for r in first
        )
        raise EvalbarsError(
            f"{what}s in column {name!r} must be strings or integers, but {bad.size} "
            f"{'are' if bad.size > 1 else 'is'} not: {shown} {table.at(bad)}; "
            f"convert the column to strings"
        )
    return labels


def _str_array(labels: list[str]) -> np.ndarray:
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


def _duplicates(sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and stop (in sorted order) of each run of equal keys longer than one."""
    same = sorted_keys[1:] == sorted_keys[:-1]
    if not same.any():
        return np.empty(0, np.int64), np.empty(0, np.int64)
    edges = np.diff(np.concatenate(([False], same, [False])).astype(np.int8))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) + 1


def _check_unique_ids(
    table: Table,
    name: str,
    ids: np.ndarray,
    order: np.ndarray,
    sorted_ids: np.ndarray | None = None,
) -> None:
    """Raise when a wide or single-model column repeats an id (``ids[order]`` is sorted)."""
    starts, stops = _duplicates(ids[order] if sorted_ids is None else sorted_ids)
    if not starts.size:
        return
    groups = [order[a:b] for a, b in zip(starts, stops)]
    groups.sort(key=lambda rows: min(table.numbers(rows)))
    shown = "; ".join(f"{short(str(ids[g[0]]))} at {table.where(g)}" for g in groups[:MAX_LISTED])
    more = ""
    if len(groups) > MAX_LISTED:
        more = f" (and {len(groups) - MAX_LISTED} more repeated ids)"
    raise EvalbarsError(
        f"{len(groups)} item id{'s are' if len(groups) > 1 else ' is'} repeated in column "
        f"{name!r} of {table.label}: {shown}{more}; each item must appear once per model "
        f"({_SAMPLE_HINT})"
    )


# --------------------------------------------------------------------------- layouts


@dataclass(slots=True)
class _Parts:
    """What a layout hands to :func:`_finish`: the aligned matrix and where each cell came from."""

    layout: str
    fmt: str
    tables: list[Table]  # per model
    score_cols: list[str]  # per model: the column its scores came from
    models: list[str]
    items: np.ndarray  # sorted union of item ids
    scores: np.ndarray  # (n_items, n_models), NaN where missing or absent
    rows: np.ndarray  # (n_items, n_models) source row of each cell, -1 where absent
    columns: dict
    inputs: list[Table]
    guessed_models: bool = False  # wide model columns found by auto-detection


def _wide(table: Table, item: str | None, models: list[str] | None) -> _Parts:
    item_col = _resolve(table, item, "item") if item is not None else _auto_item(table)
    if models is not None:
        for name in models:
            if name not in table.names:
                _resolve(table, name, "models")
            if name == item_col:
                raise EvalbarsError(
                    f"models= includes {name!r}, which is the item id column of {table.label}"
                )
        model_cols = list(models)
    else:
        model_cols = []
        for name in table.names:
            if name == item_col or name.strip().lower() in ID_NAMES:
                continue  # another id-like column (item= chose between them) is not a model
            parsed = _parse_scores(table, name)
            if parsed.bad.size == 0:
                model_cols.append(name)
            elif table.n_rows - parsed.missing.sum() - parsed.bad.size >= parsed.bad.size:
                # mostly numbers: a model column with typos, not a text column
                _check_values(table, name, parsed, hint=_MODELS_HINT)
        if not model_cols:
            raise EvalbarsError(
                f"found no model columns in {table.label}: no column besides the item column "
                f"{item_col!r} holds only numbers; columns: {name_list(table.names)}; "
                f"name them with models= (--models)"
            )
    labels = _check_labels(table, item_col, "item id")
    ids = _str_array(labels)
    order = np.argsort(ids, kind="stable")
    items = ids[order]
    _check_unique_ids(table, item_col, ids, order, items)
    columns = []
    for name in model_cols:
        parsed = _parse_scores(table, name)
        _check_values(table, name, parsed)
        columns.append(parsed.values[order])
    n_models = len(model_cols)
    return _Parts(
        layout="wide",
        fmt=table.fmt,
        tables=[table] * n_models,
        score_cols=model_cols,
        models=model_cols,
        items=items,
        scores=np.column_stack(columns),
        rows=np.repeat(order[:, None], n_models, axis=1),
        columns={"item": item_col, "model": None, "score": None, "models": list(model_cols)},
        inputs=[table],
        guessed_models=models is None,
    )


def _long(
    table: Table, item: str | None, model_col: str, score: str | None, models: list[str] | None
) -> _Parts:
    item_col = _resolve(table, item, "item") if item is not None else None
    taken = [model_col] + ([item_col] if item_col else [])
    score_col = _resolve(table, score, "score") if score is not None else _auto_score(table, taken)
    if item_col is None:
        item_col = _auto_item(table, exclude=(model_col, score_col))
    roles = {"item": item_col, "model": model_col, "score": score_col}
    if len(set(roles.values())) < 3:
        raise EvalbarsError(
            "the item, model and score columns must differ; got "
            + ", ".join(f"{k}={v!r}" for k, v in roles.items())
        )
    labels = _labels(table, model_col)[0]
    if models is None:
        _check_labels(table, model_col, "model name")
    index = {name: code for code, name in enumerate(dict.fromkeys(labels))}  # file order
    codes = np.fromiter(map(index.__getitem__, labels), np.int64, len(labels))
    present = [m for m in index if m != ""]
    if models is None:
        models = present
    else:
        unknown = [m for m in models if m not in index]
        if unknown:
            raise EvalbarsError(
                f"unknown model{'s' if len(unknown) > 1 else ''} {name_list(unknown)} (models=): "
                f"not in column {model_col!r} of {table.label}, which holds {name_list(present)}"
            )
    column_of = np.full(len(index), -1, dtype=np.int64)
    column_of[[index[m] for m in models]] = np.arange(len(models))
    model_of_row = column_of[codes]
    rows = np.flatnonzero(model_of_row >= 0)
    model_of_row = model_of_row[rows]

    ids = _str_array(_check_labels(table, item_col, "item id", rows))[rows]
    items, item_of_row = np.unique(ids, return_inverse=True)
    item_of_row = item_of_row.reshape(-1)
    n_models = len(models)
    where = np.full((len(items), n_models), -1, dtype=np.int64)
    where[item_of_row, model_of_row] = rows
    if np.count_nonzero(where >= 0) < rows.size:  # a later row overwrote an earlier one
        _duplicate_pairs(table, ids, item_of_row * n_models + model_of_row, rows, models,
                         model_of_row)
    parsed = _parse_scores(table, score_col)
    _check_values(table, score_col, parsed, rows)
    scores = np.full((len(items), n_models), np.nan)
    scores[item_of_row, model_of_row] = parsed.values[rows]
    return _Parts(
        layout="long",
        fmt=table.fmt,
        tables=[table] * n_models,
        score_cols=[score_col] * n_models,
        models=list(models),
        items=items,
        scores=scores,
        rows=where,
        columns={"item": item_col, "model": model_col, "score": score_col, "models": list(models)},
        inputs=[table],
    )


def _duplicate_pairs(table: Table, ids: np.ndarray, key: np.ndarray, rows: np.ndarray,
                     models: list[str], model_of_row: np.ndarray) -> None:
    """Raise naming the (item, model) pairs that have more than one row."""
    order = np.argsort(key, kind="stable")
    starts, stops = _duplicates(key[order])
    pairs = [(order[a], rows[order[a:b]]) for a, b in zip(starts, stops)]
    pairs.sort(key=lambda pair: min(table.numbers(pair[1])))
    shown = "; ".join(
        f"item {short(str(ids[k]))} model {short(models[model_of_row[k]])} at {table.where(g)}"
        for k, g in pairs[:MAX_LISTED]
    )
    more = f" (and {len(pairs) - MAX_LISTED} more)" if len(pairs) > MAX_LISTED else ""
    raise EvalbarsError(
        f"{len(pairs)} (item, model) pair{'s have' if len(pairs) > 1 else ' has'} more "
        f"than one row in {table.label}: {shown}{more}; each model must have one row "
        f"per item ({_SAMPLE_HINT})"
    )


def _two_files(first: Table, second: Table, item: str | None, score: str | None,
               models: list[str] | None) -> _Parts:
    tables = [first, second]
    if models is not None:
        if len(models) != 2:
            raise EvalbarsError(
                f"with two inputs, models= must give exactly 2 names (one per input); "
                f"got {len(models)}: {name_list(models)}"
            )
        names = list(models)
    else:
        stems = [t.stem for t in tables]
        if None in stems:
            raise EvalbarsError(
                "a DataFrame has no file name to call its model by: name the two models "
                "with models=['a', 'b']"
            )
        if stems[0] == stems[1]:
            raise EvalbarsError(
                f"both inputs are named {stems[0]!r} ({first.label} and {second.label}): "
                f"name the two models with models=['a', 'b'] (--models)"
            )
        names = stems
    item_cols, score_cols, labels, values = [], [], [], []
    for table in tables:
        item_col = _resolve(table, item, "item") if item is not None else _auto_item(table)
        if score is not None:
            score_col = _resolve(table, score, "score")
        else:
            score_col = _auto_score(table, [item_col])
        if score_col == item_col:
            raise EvalbarsError(
                f"the item and score columns of {table.label} must differ; both are {item_col!r}"
            )
        these = _check_labels(table, item_col, "item id")
        ids = _str_array(these)
        order = np.argsort(ids, kind="stable")
        _check_unique_ids(table, item_col, ids, order)
        parsed = _parse_scores(table, score_col)
        _check_values(table, score_col, parsed)
        item_cols.append(item_col)
        score_cols.append(score_col)
        labels.append(these)
        values.append(parsed.values)
    everything = _str_array(labels[0] + labels[1])
    split = [everything[: len(labels[0])], everything[len(labels[0]):]]
    items = np.unique(everything)
    scores = np.full((len(items), 2), np.nan)
    where = np.full((len(items), 2), -1, dtype=np.int64)
    for j in range(2):
        pos = np.searchsorted(items, split[j])
        scores[pos, j] = values[j]
        where[pos, j] = np.arange(len(pos))
    fmt = first.fmt if first.fmt == second.fmt else f"{first.fmt}+{second.fmt}"
    return _Parts(
        layout="two-files",
        fmt=fmt,
        tables=tables,
        score_cols=score_cols,
        models=names,
        items=items,
        scores=scores,
        rows=where,
        columns={"item": item_cols, "model": None, "score": score_cols, "models": names},
        inputs=tables,
    )


# --------------------------------------------------------------------------- checks


def _num(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def _check_score_type(parts: _Parts, score_type: str) -> str:
    """Apply ``score_type`` per model; return the type of the whole matrix."""
    all_binary = True
    binary_models = []
    for j, name in enumerate(parts.models):
        values = parts.scores[:, j]
        scored = np.flatnonzero(~np.isnan(values))
        v = values[scored]
        is01 = (v == 0) | (v == 1)
        if is01.all():
            binary_models.append(name)
            continue
        all_binary = False
        if score_type == "continuous":
            continue
        strays = scored[~is01]
        integer = bool(np.all(v == np.round(v)))
        if score_type == "auto" and not (integer and is01.mean() >= STRAY_SHARE):
            continue
        table = parts.tables[j]
        rows = parts.rows[strays, j]
        kinds = ", ".join(_num(x) for x in np.unique(values[strays])[:MAX_LISTED])
        where = f"column {parts.score_cols[j]!r} {table.at(rows)}"
        if score_type == "binary":
            raise EvalbarsError(
                f"score_type='binary' but model {name!r} has {strays.size} score"
                f"{'s' if strays.size > 1 else ''} other than 0 and 1 (values {kinds}) in "
                f"{where}; fix {'them' if strays.size > 1 else 'it'}, or use "
                f"score_type='continuous'"
            )
        raise EvalbarsError(
            f"model {name!r} looks 0/1 but {strays.size} of its {v.size} scores "
            f"{'are' if strays.size > 1 else 'is'} not (values {kinds}) in {where}; fix "
            f"{'them' if strays.size > 1 else 'it'}, or pass score_type='continuous' "
            f"(--score-type continuous) if the scale really has other values"
        )
    if parts.guessed_models and score_type == "auto" and not all_binary and binary_models:
        others = [m for m in parts.models if m not in binary_models]
        raise EvalbarsError(
            f"the columns of {parts.tables[0].label} taken as models are not on one scale: "
            f"{name_list(binary_models)} {'holds' if len(binary_models) == 1 else 'hold'} "
            f"only 0/1 but {name_list(others)} "
            f"{'holds' if len(others) == 1 else 'hold'} other values; name the model columns "
            f"with models= (--models), or pass score_type='continuous' if they are all models"
        )
    if score_type == "auto":
        return "binary" if all_binary else "continuous"
    return score_type


def _check_missing(parts: _Parts) -> None:
    """Without intersect: raise on empty score cells, then on items some model has no row for."""
    empty = (parts.rows >= 0) & np.isnan(parts.scores)
    if empty.any():
        said = []
        for j, name in enumerate(parts.models):
            cells = np.flatnonzero(empty[:, j])
            if cells.size:
                table = parts.tables[j]
                said.append(
                    f"model {name!r} has no score for {cells.size} item"
                    f"{'s' if cells.size > 1 else ''} (empty cell{'s' if cells.size > 1 else ''}"
                    f" in column {parts.score_cols[j]!r} {table.at(parts.rows[cells, j])})"
                )
        raise EvalbarsError(f"missing scores: {'; '.join(said)}; fill them, or {_INTERSECT_HINT}")
    absent = parts.rows < 0
    if absent.any():
        common = int((~absent).all(axis=1).sum())
        said = []
        for j, name in enumerate(parts.models):
            lacking = np.flatnonzero(absent[:, j])
            if lacking.size:
                ids = name_list(parts.items[lacking[:MAX_LISTED]].tolist())
                more = ""
                if lacking.size > MAX_LISTED:
                    more = f" and {lacking.size - MAX_LISTED} more"
                said.append(
                    f"{name!r} has no row for {lacking.size} item"
                    f"{'s' if lacking.size > 1 else ''} that "
                    f"{'the other model has' if len(parts.models) == 2 else 'other models have'} "
                    f"({ids}{more})"
                )
        raise EvalbarsError(
            f"items are not scored by every model: {'; '.join(said)}; {common} "
            f"item{' is' if common == 1 else 's are'} common to all; {_INTERSECT_HINT}"
        )


def _finish(parts: _Parts, score_type: str, intersect: bool) -> ItemScores:
    kind = _check_score_type(parts, score_type)
    if not intersect:
        _check_missing(parts)
    scored = ~np.isnan(parts.scores)
    keep = scored.all(axis=1)
    n_keep = int(keep.sum())
    if n_keep == 0:
        counts = ", ".join(f"{m!r} {int(c)}" for m, c in zip(parts.models, scored.sum(axis=0)))
        raise EvalbarsError(
            f"no item has a score for every model (items scored per model: {counts}); "
            f"check that the item ids match across models"
        )
    dropped = None
    if intersect:
        dropped = {m: int(c) - n_keep for m, c in zip(parts.models, scored.sum(axis=0))}
    scores = np.ascontiguousarray(parts.scores[keep], dtype=np.float64)
    scores.setflags(write=False)
    inputs = [
        {"path": t.path, "sha256": sha256(t.path) if t.path is not None else None}
        for t in parts.inputs
    ]
    source = {
        "layout": parts.layout,
        "format": parts.fmt,
        "columns": parts.columns,
        "inputs": inputs,
        "n_items_read": int(len(parts.items)),
    }
    return ItemScores(
        items=tuple(parts.items[keep].tolist()),
        models=tuple(parts.models),
        scores=scores,
        score_type=kind,
        dropped=dropped,
        source=source,
    )


__all__ = ["ItemScores", "load", "SCORE_TYPES", "ID_NAMES", "SCORE_NAMES"]
