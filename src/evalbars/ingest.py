"""Read eval scores into one aligned (items x models) matrix, validating everything once.

Three layouts are understood, from CSV, JSON Lines, Parquet or a pandas DataFrame:

- **wide**: an id column plus one score column per model;
- **long**: one row per (item, model) with item, model and score columns;
- **two files**: two inputs, each with an id column and one score column.

Optionally a **cluster** column groups the items (document, topic, session) and a
**sample** column tells apart several sampled answers to the same item by the same model
(an epoch or repeat index). Every layout is mapped onto the canonical long table (item,
model, score, cluster, sample), validated, reduced to per-(item, model) sufficient
statistics (answers, sum, sum of squares) and aligned by item id into
:class:`ItemScores`. Nothing is dropped, coerced or reordered silently: bad input raises
:class:`~evalbars._errors.EvalbarsError` naming the file, the line numbers (a CSV header
is line 1) or 0-based rows, the columns and the item ids; ``intersect=True`` is the one
explicit way to drop items, and the result counts them.
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

_SAMPLE_HINT = "pass sample= (--sample COL) if these are several sampled answers per question"
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
        float64, read-only: each item's mean score over its answers (with one answer, the
        answer); row ``i`` is item ``items[i]``.
    score_type : str
        ``"binary"`` (every answer is 0 or 1) or ``"continuous"``.
    dropped : dict or None
        With ``intersect=True``: for each model, how many of the items it answered were
        dropped because another model has no answer for them. None otherwise.
    source : dict
        JSON-safe provenance: ``layout``, ``format``, ``columns`` (``item``, ``model``,
        ``score``, ``models``, ``cluster``, ``sample``; for two files ``item`` and ``score``
        are per-file lists, and so are ``cluster`` and ``sample`` when given, None for a
        file without that column), ``inputs`` (``path`` and ``sha256`` of each file; None
        for a DataFrame) and ``n_items_read`` (distinct item ids read, before any
        intersection).
    counts : ndarray of int64, shape (n_items, n_models)
        Read-only: answers per item and model; all 1 without a sample column.
    sumsq : ndarray, shape (n_items, n_models)
        float64, read-only: sum of the squared answers per item and model (the sum of the
        answers is ``scores * counts``).
    clusters : tuple of str or None
        The cluster label of each item, aligned with :attr:`items`; None without a
        cluster column.
    """

    items: tuple[str, ...]
    models: tuple[str, ...]
    scores: np.ndarray
    score_type: str
    dropped: dict[str, int] | None
    source: dict
    counts: np.ndarray
    sumsq: np.ndarray
    clusters: tuple[str, ...] | None

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
        if src["layout"] == "two-files":
            items = _same_or_pair(cols["item"])
            scores = _same_or_pair(cols["score"])
            what = f"item column {items}, score column {scores}"
        elif src["layout"] == "long":
            what = (
                f"item column {cols['item']!r}, model column {cols['model']!r}, "
                f"score column {cols['score']!r}"
            )
        else:
            what = f"item column {cols['item']!r}"
        answers = ""
        if cols["sample"] is not None:
            what += f", sample column {_given(cols['sample'])!r}"
            low, high = int(self.counts.min()), int(self.counts.max())
            if low == high:
                answers = f", {low} answer{'s' if low > 1 else ''} per question"
            else:
                answers = (f", {low} to {high} answers per question, "
                           f"{self.counts.mean():.1f} on average")
        what += ", models " + ", ".join(repr(m) for m in self.models)
        kind = "0/1 scores" if self.score_type == "binary" else "continuous scores"
        fmt = "" if src["format"] == "dataframe" else f" {src['format']}"
        text = (
            f"{src['layout']}{fmt} {' + '.join(paths)}: {what} "
            f"({len(self.items)} items, {kind}{answers})"
        )
        if self.clusters is not None:
            k = len(set(self.clusters))
            text += (f", clustered by {_given(cols['cluster'])!r} "
                     f"({k} cluster{'s' if k > 1 else ''})")
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


def _given(name: str | list) -> str:
    """The cluster or sample column as passed (two files: from whichever file has it)."""
    return next(n for n in name if n is not None) if isinstance(name, list) else name


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
    cluster: str | None = None,
    sample: str | None = None,
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
        except columns named like an id and the cluster and sample columns). Long: which
        values of the model column to keep. Two files: names for the two models
        (default: the file names without extension).
    score_type : {"auto", "binary", "continuous"}
        Describes the answers. ``"auto"`` gives ``"binary"`` when every answer is 0 or 1,
        else ``"continuous"``; but an all-integer column that is at least 99% 0/1 with
        some other value (a stray 2) is an error. ``"binary"`` rejects anything but 0/1;
        ``"continuous"`` accepts any finite number.
    intersect : bool
        Compare on the items every model has at least one answer for, counting the
        dropped ones in :attr:`ItemScores.dropped` (an empty score is then no answer).
        Without it, a missing score is an error.
    cluster : str, optional
        The column giving each item's cluster (document, topic, session): labels are
        strings as written, one per item. Two files: it may be in one file or both.
    sample : str, optional
        The column telling apart several sampled answers to the same item by the same
        model (an epoch or repeat index). Rows with the same item and model and different
        sample values are answers to one question, reduced to their count, sum and sum
        of squares; questions may have unequal numbers of answers. Works in every layout
        (wide: one row per item and sample); two files: it may be in one file or both.

    Returns
    -------
    ItemScores

    Raises
    ------
    EvalbarsError
        For anything wrong with the input, naming the file, lines or rows, columns and
        item ids: unknown columns or models, empty or duplicate ids, duplicate (item,
        model) rows (with a sample column: duplicate (item, model, sample) rows), items
        assigned to two clusters, empty cluster labels, non-numeric, non-finite or
        missing scores, a stray value in a 0/1 column, items that some model lacks,
        malformed files.

    Notes
    -----
    Item ids, cluster labels and sample values are strings exactly as written ("007" and
    "7" differ, spaces are kept); integers from JSON, Parquet or a DataFrame become
    ``str(int)``. Scores may be numbers, numeric strings, booleans or true/false (as
    1/0); an empty cell or null is a missing score. In a DataFrame, NaN is pandas'
    missing value and counts as missing; in every other source a NaN or infinite score
    is an error. Answers are summed in a fixed order (by item, model and sample value),
    so the order of rows never changes a bit of the result.

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

    Three answers to q1 (epochs 0 to 2) and one to q2, in two topics:

    >>> _ = path.write_text("id,topic,epoch,model,score\\nq1,t1,0,a,1\\nq1,t1,1,a,0\\n"
    ...                     "q2,t2,0,a,1\\nq1,t1,2,a,1\\n")
    >>> data = load(path, cluster="topic", sample="epoch")
    >>> data.scores[:, 0], data.counts[:, 0], data.sumsq[:, 0], data.clusters
    (array([0.66666667, 1.        ]), array([3, 1]), array([2., 1.]), ('t1', 't2'))
    >>> data.describe()  # doctest: +ELLIPSIS
    "long csv ...: ..., sample column 'epoch', models 'a' (2 items, 0/1 scores, 1 to 3 answers per question, 2.0 on average), clustered by 'topic' (2 clusters)"
    """
    models = _check_arguments(item, model, score, models, score_type, intersect, cluster, sample)
    if data2 is not None:
        if model is not None:
            raise EvalbarsError(
                "model= names the model column of the long layout; with two inputs each "
                "file holds one model: name them with models=['a', 'b'] (--models)"
            )
        parts = _two_files(read(data), read(data2), item, score, models, cluster, sample)
    else:
        table = read(data)
        cluster_col = _resolve(table, cluster, "cluster") if cluster is not None else None
        sample_col = _resolve(table, sample, "sample") if sample is not None else None
        model_col = _resolve(table, model, "model") if model is not None else _auto_model(table)
        if model_col is not None:
            parts = _long(table, item, model_col, score, models, cluster_col, sample_col)
        else:
            if score is not None:
                raise EvalbarsError(
                    f"score= names the score column of the long layout (one row per item "
                    f"and model), but {table.label} has no 'model' column: pass model= as "
                    f"well, or, for one column per model, choose them with models="
                )
            parts = _wide(table, item, models, cluster_col, sample_col)
    return _finish(parts, score_type, intersect)


def _check_arguments(
    item, model, score, models, score_type, intersect, cluster, sample
) -> list[str] | None:
    if score_type not in SCORE_TYPES:
        raise EvalbarsError(
            f"score_type={score_type!r} is not one of {', '.join(map(repr, SCORE_TYPES))}"
        )
    for param, value in (("item", item), ("model", model), ("score", score),
                         ("cluster", cluster), ("sample", sample)):
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


def _distinct(table: Table, roles: dict[str, str | None]) -> None:
    """Raise when two roles (item, model, score, cluster, sample) name the same column."""
    given = {role: name for role, name in roles.items() if name is not None}
    if len(set(given.values())) < len(given):
        names = list(given)
        raise EvalbarsError(
            f"the {', '.join(names[:-1])} and {names[-1]} columns of {table.label} must "
            f"differ; got " + ", ".join(f"{k}={v!r}" for k, v in given.items())
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


def _runs(*sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and stop (in sorted order) of each run longer than one of equal key tuples."""
    same = np.logical_and.reduce([key[1:] == key[:-1] for key in sorted_keys])
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
    hint: str = _SAMPLE_HINT,
) -> None:
    """Raise when a wide or single-model column repeats an id (``ids[order]`` is sorted)."""
    starts, stops = _runs(ids[order] if sorted_ids is None else sorted_ids)
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
        f"({hint})"
    )


def _pick(labels: list[str], rows: np.ndarray) -> list[str]:
    """``labels`` at ``rows`` (sorted, distinct row numbers)."""
    return labels if rows.size == len(labels) else [labels[r] for r in rows.tolist()]


def _codes(labels: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct labels, sorted, and the position of each label among them.

    A dict finds them in one pass (fast for the few distinct samples or clusters of many
    rows); sorting the distinct labels makes the codes independent of the row order.
    """
    names = sorted(dict.fromkeys(labels))
    index = {name: code for code, name in enumerate(names)}
    return names, np.fromiter(map(index.__getitem__, labels), np.int64, len(labels))


# --------------------------------------------------------------------------- layouts


@dataclass(slots=True)
class _Parts:
    """What a layout hands to :func:`_finish`: every answer read and where it came from.

    An answer is one score cell: one row of the long layout, or one model's cell of a wide
    row. The per-answer arrays are aligned; :func:`_finish` sorts them by model, item and
    sample.
    """

    layout: str
    fmt: str
    tables: list[Table]  # per model
    score_cols: list[str]  # per model: the column its scores came from
    models: list[str]
    items: np.ndarray  # sorted union of item ids
    columns: dict
    inputs: list[Table]
    item_of: np.ndarray  # per answer: its item's index in items
    model_of: np.ndarray  # per answer: its model's index in models
    values: np.ndarray  # per answer: the score, NaN where the cell is empty
    rows: np.ndarray  # per answer: its row in tables[model]
    samples: np.ndarray | None = None  # per answer: index in sample_names (-1: no column)
    sample_names: list[str] | None = None
    clusters: np.ndarray | None = None  # per item: its cluster label (None if no row gives one)
    guessed_models: bool = False  # wide model columns found by auto-detection


def _wide(table: Table, item: str | None, models: list[str] | None,
          cluster_col: str | None, sample_col: str | None) -> _Parts:
    extra = [c for c in (cluster_col, sample_col) if c is not None]
    item_col = _resolve(table, item, "item") if item is not None else _auto_item(table, extra)
    roles = {"item": item_col, "cluster": cluster_col, "sample": sample_col}
    _distinct(table, roles)
    if models is not None:
        for name in models:
            if name not in table.names:
                _resolve(table, name, "models")
            role = next((k for k, v in roles.items() if v == name), None)
            if role is not None:
                raise EvalbarsError(
                    f"models= includes {name!r}, which is the "
                    f"{'item id' if role == 'item' else role} column of {table.label}"
                )
        model_cols = list(models)
    else:
        model_cols = []
        for name in table.names:
            if name in roles.values() or name.strip().lower() in ID_NAMES:
                continue  # the item, cluster, sample and other id-like columns are not models
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
    ids = _str_array(_check_labels(table, item_col, "item id"))
    samples = sample_names = None
    if sample_col is None:
        order = np.argsort(ids, kind="stable")
        items = ids[order]
        _check_unique_ids(table, item_col, ids, order, items)
        item_of_row = np.empty(len(ids), np.int64)
        item_of_row[order] = np.arange(len(ids))
    else:
        items, item_of_row = np.unique(ids, return_inverse=True)
        item_of_row = item_of_row.reshape(-1)
        sample_names, sample_of_row = _codes(_check_labels(table, sample_col, "sample value"))
        order = np.lexsort((sample_of_row, item_of_row))
        samples = sample_of_row[order]
        _check_unique_samples(table, item_col, sample_col, items, item_of_row[order], samples,
                              sample_names, order)
    values = []
    for name in model_cols:
        parsed = _parse_scores(table, name)
        _check_values(table, name, parsed)
        values.append(parsed.values[order])
    n_models = len(model_cols)
    clusters = None
    if cluster_col is not None:
        clusters = _item_clusters(items, [(table, cluster_col, np.arange(len(ids)), item_of_row)])
    return _Parts(
        layout="wide",
        fmt=table.fmt,
        tables=[table] * n_models,
        score_cols=model_cols,
        models=model_cols,
        items=items,
        columns={"item": item_col, "model": None, "score": None, "models": list(model_cols),
                 "cluster": cluster_col, "sample": sample_col},
        inputs=[table],
        item_of=np.tile(item_of_row[order], n_models),
        model_of=np.repeat(np.arange(n_models), len(order)),
        values=np.concatenate(values),
        rows=np.tile(order, n_models),
        samples=None if samples is None else np.tile(samples, n_models),
        sample_names=sample_names,
        clusters=clusters,
        guessed_models=models is None,
    )


def _check_unique_samples(table: Table, item_col: str, sample_col: str, items: np.ndarray,
                          item_of: np.ndarray, samples: np.ndarray, sample_names: list[str],
                          order: np.ndarray) -> None:
    """Wide layout: raise naming the (item, sample) pairs on several rows (sorted by both)."""
    starts, stops = _runs(item_of, samples)
    if not starts.size:
        return
    groups = sorted(zip(starts, stops), key=lambda g: min(table.numbers(order[g[0]:g[1]])))
    shown = "; ".join(
        f"item {short(str(items[item_of[a]]))} sample {short(sample_names[samples[a]])} at "
        f"{table.where(order[a:b])}" for a, b in groups[:MAX_LISTED]
    )
    more = f" (and {len(groups) - MAX_LISTED} more)" if len(groups) > MAX_LISTED else ""
    raise EvalbarsError(
        f"{len(groups)} (item, sample) pair{'s are' if len(groups) > 1 else ' is'} repeated "
        f"in columns {item_col!r}, {sample_col!r} of {table.label}: {shown}{more}; each row "
        f"holds one answer per model, so each (item, sample) pair must appear once"
    )


def _long(table: Table, item: str | None, model_col: str, score: str | None,
          models: list[str] | None, cluster_col: str | None, sample_col: str | None) -> _Parts:
    extra = [c for c in (cluster_col, sample_col) if c is not None]
    item_col = _resolve(table, item, "item") if item is not None else None
    taken = [model_col, *extra] + ([item_col] if item_col else [])
    score_col = _resolve(table, score, "score") if score is not None else _auto_score(table, taken)
    if item_col is None:
        item_col = _auto_item(table, exclude=(model_col, score_col, *extra))
    _distinct(table, {"item": item_col, "model": model_col, "score": score_col,
                      "cluster": cluster_col, "sample": sample_col})
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
    samples = sample_names = None
    if sample_col is None:
        where = np.full((len(items), n_models), -1, dtype=np.int64)
        where[item_of_row, model_of_row] = rows
        if np.count_nonzero(where >= 0) < rows.size:  # a later row overwrote an earlier one
            _duplicate_pairs(table, ids, item_of_row * n_models + model_of_row, rows, models,
                             model_of_row)
    else:
        sample_names, samples = _codes(
            _pick(_check_labels(table, sample_col, "sample value", rows), rows))
    parsed = _parse_scores(table, score_col)
    _check_values(table, score_col, parsed, rows)
    clusters = None
    if cluster_col is not None:
        clusters = _item_clusters(items, [(table, cluster_col, rows, item_of_row)])
    return _Parts(
        layout="long",
        fmt=table.fmt,
        tables=[table] * n_models,
        score_cols=[score_col] * n_models,
        models=list(models),
        items=items,
        columns={"item": item_col, "model": model_col, "score": score_col,
                 "models": list(models), "cluster": cluster_col, "sample": sample_col},
        inputs=[table],
        item_of=item_of_row,
        model_of=model_of_row,
        values=parsed.values[rows],
        rows=rows,
        samples=samples,
        sample_names=sample_names,
        clusters=clusters,
    )


def _duplicate_pairs(table: Table, ids: np.ndarray, key: np.ndarray, rows: np.ndarray,
                     models: list[str], model_of_row: np.ndarray) -> None:
    """Raise naming the (item, model) pairs that have more than one row."""
    order = np.argsort(key, kind="stable")
    starts, stops = _runs(key[order])
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
               models: list[str] | None, cluster: str | None, sample: str | None) -> _Parts:
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
    for param, name in (("cluster", cluster), ("sample", sample)):
        if name is not None and name not in first.names and name not in second.names:
            raise EvalbarsError(
                f"{param}={name!r}: no such column in {first.label} nor in {second.label}; "
                f"columns: {name_list(first.names)} and {name_list(second.names)}"
            )
    item_cols, score_cols, cluster_cols, sample_cols, labels, values = [], [], [], [], [], []
    sample_labels: list[str] = []
    for table in tables:
        cluster_col = cluster if cluster in table.names else None
        sample_col = sample if sample in table.names else None
        extra = [c for c in (cluster_col, sample_col) if c is not None]
        item_col = _resolve(table, item, "item") if item is not None else _auto_item(table, extra)
        if score is not None:
            score_col = _resolve(table, score, "score")
        else:
            score_col = _auto_score(table, [item_col, *extra])
        _distinct(table, {"item": item_col, "score": score_col, "cluster": cluster_col,
                          "sample": sample_col})
        these = _check_labels(table, item_col, "item id")
        if sample_col is None:
            ids = _str_array(these)
            order = np.argsort(ids, kind="stable")
            hint = _SAMPLE_HINT if sample is None else \
                f"{table.label} has no sample column {sample!r}"
            _check_unique_ids(table, item_col, ids, order, hint=hint)
        else:
            sample_labels += _check_labels(table, sample_col, "sample value")
        parsed = _parse_scores(table, score_col)
        _check_values(table, score_col, parsed)
        item_cols.append(item_col)
        score_cols.append(score_col)
        cluster_cols.append(cluster_col)
        sample_cols.append(sample_col)
        labels.append(these)
        values.append(parsed.values)
    sizes = [len(these) for these in labels]
    items, item_of = np.unique(_str_array(labels[0] + labels[1]), return_inverse=True)
    item_of = item_of.reshape(-1)
    per_file = np.split(item_of, [sizes[0]])
    samples = sample_names = None
    if sample is not None:
        sample_names, codes = _codes(sample_labels)
        samples = np.full(sum(sizes), -1, np.int64)
        samples[np.repeat([col is not None for col in sample_cols], sizes)] = codes
    clusters = None
    if cluster is not None:
        clusters = _item_clusters(items, [
            (table, col, np.arange(size), mine)
            for table, col, size, mine in zip(tables, cluster_cols, sizes, per_file)
            if col is not None
        ])
    fmt = first.fmt if first.fmt == second.fmt else f"{first.fmt}+{second.fmt}"
    return _Parts(
        layout="two-files",
        fmt=fmt,
        tables=tables,
        score_cols=score_cols,
        models=names,
        items=items,
        columns={"item": item_cols, "model": None, "score": score_cols, "models": names,
                 "cluster": None if cluster is None else cluster_cols,
                 "sample": None if sample is None else sample_cols},
        inputs=tables,
        item_of=item_of,
        model_of=np.repeat([0, 1], sizes),
        values=np.concatenate(values),
        rows=np.concatenate([np.arange(size) for size in sizes]),
        samples=samples,
        sample_names=sample_names,
        clusters=clusters,
    )


# --------------------------------------------------------------------------- clusters, samples


def _item_clusters(items: np.ndarray,
                   sources: list[tuple[Table, str, np.ndarray, np.ndarray]]) -> np.ndarray:
    """Each item's cluster label (None where no row gives one), as an object array.

    ``sources`` holds (table, cluster column, rows (sorted), item index of each row).
    Raises on an empty label and on an item given two different labels.
    """
    labels: list[str] = []
    for table, column, rows, _ in sources:
        labels += _pick(_check_labels(table, column, "cluster label", rows), rows)
    names, codes = _codes(labels)
    item_of = np.concatenate([mine for *_, mine in sources])
    cluster_of = np.full(len(items), -1, np.int64)
    cluster_of[item_of] = codes
    clash = codes != cluster_of[item_of]
    if clash.any():
        _cluster_clash(items, sources, names, codes, item_of, clash)
    out = np.full(len(items), None, dtype=object)
    known = cluster_of >= 0
    out[known] = np.array(names, dtype=object)[cluster_of[known]]
    return out


def _cluster_clash(items: np.ndarray, sources: list, names: list[str], codes: np.ndarray,
                   item_of: np.ndarray, clash: np.ndarray) -> None:
    """Raise naming the first items with two or more cluster labels, the labels and lines."""
    source = np.concatenate([np.full(len(rows), k) for k, (_, _, rows, _) in enumerate(sources)])
    rows = np.concatenate([rows for _, _, rows, _ in sources])
    bad = np.unique(item_of[clash])
    said = []
    for i in bad[:MAX_LISTED]:
        mine = np.flatnonzero(item_of == i)
        places_of = []
        for code in np.unique(codes[mine]):
            these = mine[codes[mine] == code]
            where = " and ".join(sources[k][0].at(rows[these[source[these] == k]])
                                 for k in np.unique(source[these]))
            places_of.append(f"{short(names[code])} {where}")
        said.append(f"item {short(str(items[i]))} is in {' and in '.join(places_of)}")
    more = f" (and {bad.size - MAX_LISTED} more)" if bad.size > MAX_LISTED else ""
    raise EvalbarsError(
        f"{bad.size} item{'s are' if bad.size > 1 else ' is'} assigned to more than one "
        f"cluster (column {sources[0][1]!r}): {'; '.join(said)}{more}; each item belongs to "
        f"one cluster"
    )


def _check_duplicate_answers(parts: _Parts, cell: np.ndarray) -> None:
    """With a sample column: raise naming the (item, model, sample) answers on several rows.

    The answers are sorted by ``cell`` (model and item) and sample.
    """
    starts, stops = _runs(cell, parts.samples)
    if not starts.size:
        return

    def first_line(group: tuple[int, int]) -> tuple[int, int]:
        table = parts.tables[parts.model_of[group[0]]]
        return parts.inputs.index(table), min(table.numbers(parts.rows[group[0]:group[1]]))

    groups = sorted(zip(starts, stops), key=first_line)
    shown = "; ".join(
        f"item {short(str(parts.items[parts.item_of[a]]))} model "
        f"{short(parts.models[parts.model_of[a]])} sample "
        f"{short(parts.sample_names[parts.samples[a]])} "
        f"{parts.tables[parts.model_of[a]].at(parts.rows[a:b])}"
        for a, b in groups[:MAX_LISTED]
    )
    more = f" (and {len(groups) - MAX_LISTED} more)" if len(groups) > MAX_LISTED else ""
    raise EvalbarsError(
        f"{len(groups)} (item, model, sample) answer{'s are' if len(groups) > 1 else ' is'} "
        f"given on more than one row: {shown}{more}; each answer to a question needs its own "
        f"sample value"
    )


# --------------------------------------------------------------------------- checks


def _num(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def _check_score_type(parts: _Parts, bounds: np.ndarray, score_type: str) -> str:
    """Apply ``score_type`` to each model's answers; return the type of them all."""
    all_binary = True
    binary_models = []
    for j, name in enumerate(parts.models):
        values = parts.values[bounds[j]:bounds[j + 1]]
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
        rows = parts.rows[bounds[j]:bounds[j + 1]][strays]
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


def _check_missing(parts: _Parts, bounds: np.ndarray, has_row: np.ndarray) -> None:
    """Without intersect: raise on empty score cells, then on items some model has no row for."""
    empty = np.isnan(parts.values)
    if empty.any():
        noun = "item" if parts.samples is None else "answer"
        said = []
        for j, name in enumerate(parts.models):
            cells = np.flatnonzero(empty[bounds[j]:bounds[j + 1]])
            if cells.size:
                table = parts.tables[j]
                rows = parts.rows[bounds[j]:bounds[j + 1]][cells]
                said.append(
                    f"model {name!r} has no score for {cells.size} {noun}"
                    f"{'s' if cells.size > 1 else ''} (empty cell{'s' if cells.size > 1 else ''}"
                    f" in column {parts.score_cols[j]!r} {table.at(rows)})"
                )
        raise EvalbarsError(f"missing scores: {'; '.join(said)}; fill them, or {_INTERSECT_HINT}")
    absent = ~has_row
    if absent.any():
        common = int(has_row.all(axis=1).sum())
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


def _per_cell(cell: np.ndarray, shape: tuple[int, int], weights: np.ndarray | None = None
              ) -> np.ndarray:
    """Sum ``weights`` (or count) per (model, item) cell, as an (n_items, n_models) array."""
    n_items, n_models = shape
    total = np.bincount(cell, weights=weights, minlength=n_items * n_models)
    return total.reshape(n_models, n_items).T


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.setflags(write=False)
    return array


def _finish(parts: _Parts, score_type: str, intersect: bool) -> ItemScores:
    shape = (len(parts.items), len(parts.models))
    cell = parts.model_of * shape[0] + parts.item_of
    # one fixed order (model, item, sample) for every check and sum, whatever the row order
    order = np.argsort(cell, kind="stable") if parts.samples is None else \
        np.lexsort((parts.samples, cell))
    cell = cell[order]
    for name in ("item_of", "model_of", "values", "rows", "samples"):
        if getattr(parts, name) is not None:
            setattr(parts, name, getattr(parts, name)[order])
    if parts.samples is not None:
        _check_duplicate_answers(parts, cell)
    bounds = np.searchsorted(parts.model_of, np.arange(shape[1] + 1))
    kind = _check_score_type(parts, bounds, score_type)
    if not intersect:
        _check_missing(parts, bounds, _per_cell(cell, shape) > 0)
    valid = ~np.isnan(parts.values)
    answered, values = cell[valid], parts.values[valid]
    counts = _per_cell(answered, shape)
    scored = counts > 0
    keep = scored.all(axis=1)
    n_keep = int(keep.sum())
    if n_keep == 0:
        per_model = ", ".join(f"{m!r} {int(c)}" for m, c in zip(parts.models, scored.sum(axis=0)))
        raise EvalbarsError(
            f"no item has a score for every model (items scored per model: {per_model}); "
            f"check that the item ids match across models"
        )
    dropped = None
    if intersect:
        dropped = {m: int(c) - n_keep for m, c in zip(parts.models, scored.sum(axis=0))}
    counts = counts[keep]
    sums = _per_cell(answered, shape, values)[keep]
    sumsq = _per_cell(answered, shape, values * values)[keep]
    inputs = [
        {"path": t.path, "sha256": sha256(t.path) if t.path is not None else None}
        for t in parts.inputs
    ]
    source = {
        "layout": parts.layout,
        "format": parts.fmt,
        "columns": parts.columns,
        "inputs": inputs,
        "n_items_read": shape[0],
    }
    return ItemScores(
        items=tuple(parts.items[keep].tolist()),
        models=tuple(parts.models),
        scores=_read_only(sums / counts),
        score_type=kind,
        dropped=dropped,
        source=source,
        counts=_read_only(counts.astype(np.int64)),
        sumsq=_read_only(sumsq),
        clusters=None if parts.clusters is None else tuple(parts.clusters[keep].tolist()),
    )


__all__ = ["ItemScores", "load", "SCORE_TYPES", "ID_NAMES", "SCORE_NAMES"]
