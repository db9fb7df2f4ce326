"""Plain scores from Python: a list, tuple, numpy array or pandas Series as one model.

``evalbars.ci([1, 0, 1, ...])`` reads the scores as one model's, question by question:
:func:`as_tables` turns each such input into a two-column DataFrame (an ``item`` column
numbered in order, zero-padded so that the order is kept, and a score column named after
the model) and names the models of two inputs that have no file name to be called by.
The source description says what was done (``ItemScores.source["note"]``).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import EvalbarsError
from .files import is_dataframe
from .table import short

DEFAULT_NAME = "scores"
"""The model name of one list or array of scores (a pandas Series goes by its name)."""

PLACE_NAMES = ("a", "b")
"""The names of two inputs that have no file name (DataFrames, lists), by their place."""

_COLUMNS = ("item", "model", "score", "cluster", "sample", "run", "stratum", "split", "order")


def is_scores(data: Any) -> bool:
    """True for a list, tuple, numpy array or pandas Series (not a table, path or str).

    A list of paths is not scores: ``ci(["a.csv", "b.csv"])`` reads the files, as load.

    >>> is_scores([1, 0, 1]), is_scores(["a.csv", "b.csv"]), is_scores("a.csv")
    (True, False, False)
    """
    if isinstance(data, (list, tuple)):
        return not data or not all(isinstance(d, (str, os.PathLike)) for d in data)
    kind = type(data)
    return (kind.__name__ == "ndarray" and kind.__module__ == "numpy") or \
        (kind.__name__ == "Series" and kind.__module__.startswith("pandas"))


def _series_name(data: Any) -> str | None:
    name = getattr(data, "name", None) if type(data).__name__ == "Series" else None
    return name if isinstance(name, str) and name != "" else None


def _own_name(data: Any) -> str | None:
    """What an input is called by without models=: a file's stem, a Series' name."""
    if isinstance(data, (str, os.PathLike)):
        return Path(os.fsdecode(os.fspath(data))).stem
    return _series_name(data)


def _frame(data: Any, name: str) -> tuple[Any, str]:
    """``data`` as a DataFrame (item, ``name``) and the words saying so."""
    try:
        import numpy as np
        import pandas as pd
    except ImportError:
        raise EvalbarsError("reading a list of scores needs pandas, an optional extra: pip "
                            "install 'evalbars[pandas]'; or write the scores to a CSV file "
                            "with an id column") from None
    series = type(data).__name__ == "Series"
    if not series:
        array = np.asarray(data, dtype=object)
        if array.ndim != 1:
            raise EvalbarsError(
                f"a {array.ndim}-D array of scores: pass one model's scores as a 1-D list, "
                "array or Series (one per question), or a DataFrame with an id column and "
                "one score column per model")
    n = len(data)
    if n == 0:
        raise EvalbarsError("the list of scores is empty: give one score per question")
    values = data.to_numpy() if series else list(data)
    item = "item" if name != "item" else "item_id"
    index = data.index if series else None
    numbered = index is None or index.equals(pd.RangeIndex(n))
    if numbered:
        width = len(str(n - 1))
        ids = [f"{i:0{width}d}" for i in range(n)]
        where = f"items numbered 0 to {n - 1} in order"
    else:
        ids = list(index)
        where = "items named by its index"
    what = ("a pandas Series" if series else
            "a numpy array" if type(data).__name__ == "ndarray" else f"a {type(data).__name__}")
    frame = pd.DataFrame({item: ids, name: values})
    return frame, f"{what} of {n:,} scores read as model {short(name)}, {where}"


def as_tables(data: Any, data2: Any, models: Sequence[str] | None,
              load_options: dict) -> tuple[Any, Any, Any, str | None]:
    """``(data, data2, models, note)`` for :func:`evalbars.io.ingest.load`.

    Lists, arrays and Series become one-model DataFrames. With two inputs, ``models``
    (when not given) are the inputs' own names (a file's stem, a Series' name), else
    ``'a'`` and ``'b'`` by their place; ``note`` says what was done (None: nothing).

    Examples
    --------
    >>> frame, _, models, note = as_tables([1, 0, 1], None, None, {})
    >>> list(frame["item"]), models, note
    (['0', '1', '2'], ['scores'], "a list of 3 scores read as model 'scores', items \
numbered 0 to 2 in order")
    """
    inputs = [d for d in (data, data2) if d is not None]
    if not any(is_scores(d) for d in inputs) and not (
            len(inputs) == 2 and models is None and any(is_dataframe(d) for d in inputs)):
        return data, data2, models, None
    if isinstance(models, str):
        raise EvalbarsError(f"models= must be a list of names, not the string {models!r}; "
                            f"write models=[{models!r}]")
    wanted = None if models is None else list(models)
    if len(inputs) == 1:
        if wanted is not None and len(wanted) != 1:
            raise EvalbarsError(
                f"one list of scores is one model; models= names it with one name, got "
                f"{len(wanted)}: pass the scores of each model as a column of a DataFrame")
        name = wanted[0] if wanted else _series_name(data) or DEFAULT_NAME
        _no_columns(load_options)
        frame, note = _frame(data, name)
        load_options.setdefault("item", "item" if name != "item" else "item_id")
        return frame, None, [name], note
    notes = []
    if wanted is None:
        own = [_own_name(d) for d in inputs]
        if None in own or own[0] == own[1]:
            wanted = [o if o is not None and own[0] != own[1] else place
                      for o, place in zip(own, PLACE_NAMES)]
            notes.append(f"the models are named {short(wanted[0])} and {short(wanted[1])} by "
                         f"their place (name them with models=[...], or a= and b=)")
        else:
            wanted = own
    elif len(wanted) != 2:
        return data, data2, wanted, None  # load explains: two inputs take two names
    tables = []
    for d, name in zip(inputs, wanted):
        if is_scores(d):
            _no_columns(load_options)
            frame, note = _frame(d, name)
            tables.append(frame)
            notes.insert(len(tables) - 1, note)
        else:
            tables.append(d)
    return tables[0], tables[1], wanted, "; ".join(notes) or None


def _no_columns(load_options: dict) -> None:
    for option in _COLUMNS:
        if load_options.get(option) is not None:
            raise EvalbarsError(
                f"{option}= names a column, but a list of scores has none (one score per "
                f"question, in order); to name columns pass a DataFrame")
