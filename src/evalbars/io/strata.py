"""Strata of a benchmark: each item's stratum (subject, task), and weights per stratum.

The stratum column (``stratum=``, ``--stratum COL``) is read with the scores
(:func:`evalbars.io.ingest.load`, an item in two strata or an empty label an error naming
it); :func:`strata_of` gives each loaded item its label. In harness logs the column is a
field, as for ``cluster=`` (lm-eval: ``"task"``, so the tasks of a group become strata).
:func:`check_nested` refuses clusters that cross strata, and :func:`read_weights` reads a
CSV file of ``stratum,weight`` rows.
"""
from __future__ import annotations

import csv
import math
import os
from typing import Mapping, Sequence

from ..core.errors import EvalbarsError
from .item_scores import ItemScores
from .table import MAX_LISTED, short

__all__ = ["check_nested", "read_weights", "strata_of", "weights_option"]


def strata_of(scores: ItemScores, stratum: str) -> tuple[str, ...]:
    """The stratum label of each item of ``scores``, read with them from column ``stratum``.

    >>> from evalbars.io.ingest import load
    >>> scores = load("examples/strata_subjects.csv", stratum="subject")
    >>> strata_of(scores, "subject")[:2], strata_of(scores, "subject")[-1]
    (('algebra', 'algebra'), 'law')
    """
    labels = scores.label("stratum", stratum).per_item()
    missing = [item for item, label in zip(scores.items, labels) if label is None]
    if missing:
        raise EvalbarsError(f"{len(missing)} items have no stratum in column {stratum!r}: "
                            + ", ".join(map(short, missing[:MAX_LISTED])))
    return labels


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
