"""Strata of a benchmark: each item's stratum (subject, task), and weights per stratum.

:func:`read_strata` reads the stratum column (``stratum=``, ``--stratum COL``) of the same
data, with the same loading options, and gives each loaded item its label: an item in two
strata, an empty label or a missing column is an error naming it. In harness logs the
column is a field, as for ``cluster=`` (lm-eval: ``"task"``, so the tasks of a group
become strata). :func:`check_nested` refuses clusters that cross strata, and
:func:`read_weights` reads a CSV file of ``stratum,weight`` rows.
"""
from __future__ import annotations

import csv
import dataclasses
import math
import os
import re
from typing import Any, Mapping, Sequence

from ..core.errors import EvalbarsError
from .inputs import read_scores
from .item_scores import ItemScores
from .table import MAX_LISTED, short

__all__ = ["check_nested", "read_strata", "read_weights", "stratum_given", "weights_option"]

_WORDS = [(re.compile(r"\bclusters\b"), "strata"), (re.compile(r"\bcluster\b"), "stratum")]


def _reworded(error: EvalbarsError) -> EvalbarsError:
    """The loader's message about the cluster column, said of the stratum column.

    >>> str(_reworded(EvalbarsError("item 'q1' is in two clusters (--cluster topic)")))
    "item 'q1' is in two strata (--stratum topic)"
    """
    text = str(error)
    for pattern, word in _WORDS:
        text = pattern.sub(word, text)
    return EvalbarsError(text)


def read_strata(data: Any, data2: Any, stratum: str, wanted: Sequence[str] | None,
                load_options: dict, items: Sequence[str]) -> tuple[str, ...]:
    """The stratum label of each of ``items``, read from column ``stratum`` of the data.

    >>> read_strata("examples/strata_subjects.csv", None, "subject", None, {},
    ...             ["q001", "q031"])
    ('algebra', 'biology')
    """
    if not isinstance(stratum, str) or not stratum:
        raise EvalbarsError(f"stratum must name a column of the data; got {stratum!r}")
    if isinstance(data, ItemScores):
        raise EvalbarsError(f"stratum={short(stratum)} reads a column of the data, but data "
                            "is already loaded ItemScores, which keep no stratum column: "
                            "pass the file or DataFrame itself")
    options = {**load_options, "cluster": stratum}
    try:
        loaded = read_scores(data, data2, wanted, **options)
    except EvalbarsError as error:
        raise _reworded(error) from None
    label = dict(zip(loaded.items, loaded.clusters))
    missing = [item for item in items if label.get(item) is None]
    if missing:
        raise EvalbarsError(f"{len(missing)} items have no stratum in column {stratum!r}: "
                            + ", ".join(map(short, missing[:MAX_LISTED])))
    return tuple(label[item] for item in items)


def stratum_given(scores: ItemScores) -> ItemScores:
    """``scores`` as read for an analysis given a stratum: the read line's advice to name
    one (:data:`evalbars.io.logs.lmeval.GROUP_HINT`) is left out of its notes.

    >>> from evalbars.io.ingest import load
    >>> logs = load("tests/data/logs/lm-eval/model_a")
    >>> "--stratum task" in logs.describe(), "--stratum" in stratum_given(logs).describe()
    (True, False)
    """
    source = scores.source
    if source["layout"] != "log":  # a table: no advice, and no log reader imported
        return scores
    from .logs.lmeval import GROUP_HINT

    if GROUP_HINT not in source["log"]["notes"]:
        return scores
    notes = [note for note in source["log"]["notes"] if note != GROUP_HINT]
    return dataclasses.replace(scores, source={**source, "log": {**source["log"],
                                                                  "notes": notes}})


def check_nested(items: Sequence[str], clusters: Sequence[str] | None,
                 strata: Sequence[str]) -> None:
    """Refuse a cluster whose items lie in two strata (clusters nest inside strata).

    >>> check_nested(["q1", "q2"], ["doc1", "doc1"], ["law", "math"])
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: 1 cluster spans several strata: cluster 'doc1' has item 'q1' in stratum 'law' and item 'q2' in stratum 'math'; clusters must nest inside strata
    """
    if clusters is None:
        return
    first: dict[str, tuple[str, str]] = {}
    bad: dict[str, str] = {}
    for item, cluster, label in zip(items, clusters, strata):
        seen = first.setdefault(cluster, (item, label))
        if seen[1] != label and cluster not in bad:
            bad[cluster] = (f"cluster {short(cluster)} has item {short(seen[0])} in stratum "
                            f"{short(seen[1])} and item {short(item)} in stratum {short(label)}")
    if bad:
        said = "; ".join(list(bad.values())[:MAX_LISTED])
        more = f" (and {len(bad) - MAX_LISTED} more)" if len(bad) > MAX_LISTED else ""
        raise EvalbarsError(f"{len(bad)} cluster{'s span' if len(bad) > 1 else ' spans'} "
                            f"several strata: {said}{more}; clusters must nest inside strata")


def read_weights(path: str | os.PathLike) -> dict[str, float]:
    """``{stratum: weight}`` from a CSV file of ``stratum,weight`` rows (a header optional).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "w.csv"
    >>> _ = p.write_text("stratum,weight\\nlaw,2\\nmath,1.5\\n")
    >>> read_weights(p)
    {'law': 2.0, 'math': 1.5}
    """
    name = os.fsdecode(os.fspath(path))
    try:
        with open(name, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except OSError as error:
        raise EvalbarsError(f"cannot read the weights file {name!r}: "
                            f"{error.strerror or error}") from None
    except UnicodeDecodeError:
        raise EvalbarsError(f"the weights file {name!r} is not UTF-8 text") from None
    weights: dict[str, float] = {}
    lines: dict[str, int] = {}
    for line, row in enumerate(rows, start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != 2:
            raise EvalbarsError(f"{name} line {line}: expected 2 fields (stratum,weight); "
                                f"got {len(row)}")
        label, text = row[0].strip(), row[1].strip()
        try:
            value = float(text)
        except ValueError:
            if line == 1 and not weights:
                continue  # a header
            raise EvalbarsError(f"{name} line {line}: the weight of {short(label)} must be a "
                                f"number; got {short(text)}") from None
        if not label:
            raise EvalbarsError(f"{name} line {line}: empty stratum label")
        if not (math.isfinite(value) and value >= 0):
            raise EvalbarsError(f"{name} line {line}: the weight of {short(label)} must be a "
                                f"finite number >= 0; got {short(text)}")
        if label in weights:
            raise EvalbarsError(f"{name} line {line}: stratum {short(label)} is given twice "
                                f"(first on line {lines[label]})")
        weights[label], lines[label] = value, line
    if not weights:
        raise EvalbarsError(f"the weights file {name!r} has no stratum,weight rows")
    return weights


def weights_option(weights: object) -> str | Mapping:
    """``"micro"``, ``"macro"``, a mapping as given, or a path read by :func:`read_weights`.

    >>> weights_option("macro"), weights_option({"law": 1})
    ('macro', {'law': 1})
    """
    if weights in ("micro", "macro") or isinstance(weights, Mapping):
        return weights  # type: ignore[return-value]
    if isinstance(weights, (str, os.PathLike)):
        return read_weights(weights)
    raise EvalbarsError(f"weights must be 'micro', 'macro', a file of stratum,weight rows "
                        f"or a mapping; got {weights!r}")
