"""The result of reading: per-item scores of one or more models, aligned by item id."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from ..core.errors import EvalbarsError
from .labels import Arrival, ItemLabels
from .table import name_list, read_only, short


@dataclass(frozen=True, slots=True, eq=False)
class ItemScores:
    """Per-item scores of one or more models, aligned by item id.

    Attributes
    ----------
    items : tuple of str
        Item ids, sorted, so the order of input rows never changes any number.
    models : tuple of str
        Model names, in the order requested (or the order they appear in the input). With
        a run column, the scored systems: one ``"model@run"`` per (model, run) pair, model
        by model, runs in natural order (``"a@2"`` before ``"a@10"``); :attr:`runs` says
        which is which.
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
        ``score``, ``models`` (with a run column: the models, not the systems),
        ``cluster``, ``sample``, ``run``; for two files ``item`` and ``score`` are per-file
        lists, and so are ``cluster`` and ``sample`` when given, None for a file without
        that column), ``inputs`` (``path`` and ``sha256`` of each file; None
        for a DataFrame) and ``n_items_read`` (distinct item ids read, before any
        intersection). For a harness log, ``layout`` is ``"log"``, ``format`` the log
        format, ``columns`` says what the items, models, scores, clusters and samples are,
        ``inputs`` lists every file read, and ``log`` holds ``paths`` (as given),
        ``reading`` (the choices made, as the report prints them), ``settings`` (the same,
        per format), ``unscored`` (per model: ``count`` and the first ids of answers left
        out for want of a score) and ``notes`` (what the report must say).
    counts : ndarray of int64, shape (n_items, n_models)
        Read-only: answers per item and model; all 1 without a sample column.
    sumsq : ndarray, shape (n_items, n_models)
        float64, read-only: sum of the squared answers per item and model (the sum of the
        answers is ``scores * counts``).
    clusters : tuple of str or None
        The cluster label of each item, aligned with :attr:`items`; None without a
        cluster column.
    runs : tuple of (str, str) or None
        With a run column: ``runs[j] = (model, run)`` for the system ``models[j]``, so
        the columns of :attr:`scores` are the scored (model, run) systems and
        ``{m for m, _ in runs}`` are the models (recipes). None without a run column.
    labels : mapping of str to ItemLabels
        The other per-item labels read, by role: ``"stratum"`` (``stratum=``) and
        ``"split"`` (``split=``), each an :class:`~evalbars.io.labels.ItemLabels` aligned
        with :attr:`items`; empty when none was named.
    arrival : Arrival or None
        When each answer came in (:class:`~evalbars.io.labels.Arrival`): read from one
        wide or long table, from its ``order=`` column or else its rows; None for other
        inputs.
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
    runs: tuple[tuple[str, str], ...] | None
    labels: Mapping[str, ItemLabels] = field(default_factory=dict)
    arrival: Arrival | None = None

    def __repr__(self) -> str:
        return f"<ItemScores: {self.describe()}>"

    def column(self, model: str) -> np.ndarray:
        """The scores of ``model``, aligned with :attr:`items` (a read-only view)."""
        if model not in self.models:
            raise EvalbarsError(f"unknown model {short(model)}; models: {name_list(self.models)}")
        return self.scores[:, self.models.index(model)]

    def label(self, role: str, column: str) -> ItemLabels:
        """The per-item labels of ``role`` (``"stratum"``, ``"split"``) read from
        ``column``; an error when the data was loaded without them.

        >>> from evalbars.io.ingest import load
        >>> data = load("examples/strata_subjects.csv", stratum="subject")
        >>> data.label("stratum", "subject").names[:2]
        ('algebra', 'biology')
        >>> data.label("split", "half")
        Traceback (most recent call last):
        ...
        evalbars.core.errors.EvalbarsError: split='half' names a column of the input, but \
these results were loaded without it: load them with evalbars.load(..., split='half'), or \
pass the file or DataFrame
        """
        found = self.labels.get(role)
        if found is not None and found.column == column:
            return found
        loaded = "" if found is None else f" (they carry {role}={found.column!r})"
        raise EvalbarsError(
            f"{role}={short(column)} names a column of the input, but these results were "
            f"loaded without it{loaded}: load them with evalbars.load(..., "
            f"{role}={short(column)}), or pass the file or DataFrame")

    def subset(self, keep: np.ndarray) -> "ItemScores":
        """The same results on the items ``keep`` selects (a boolean mask), every per-item
        array and label cut alike.

        >>> from evalbars.io.ingest import load
        >>> data = load("examples/lesson_pair.csv")
        >>> data.subset(np.arange(500) < 3).items
        ('q0000', 'q0001', 'q0002')
        """
        return ItemScores(
            items=tuple(np.asarray(self.items)[keep].tolist()), models=self.models,
            scores=read_only(self.scores[keep]), score_type=self.score_type,
            dropped=self.dropped, source=self.source, counts=read_only(self.counts[keep]),
            sumsq=read_only(self.sumsq[keep]),
            clusters=None if self.clusters is None
            else tuple(np.asarray(self.clusters, dtype=object)[keep].tolist()),
            runs=self.runs, labels={role: labels.subset(keep)
                                    for role, labels in self.labels.items()},
            arrival=None if self.arrival is None else self.arrival.subset(keep))

    def describe(self) -> str:
        """One line saying what was read and what was chosen."""
        src = self.source
        cols = src["columns"]
        if src["layout"] == "log":
            log = src["log"]
            head = f"{src['format']} log {' + '.join(log['paths'])}"
            what = f"{log['reading']}, item {cols['item']!r}"
        else:
            paths = [inp["path"] if inp["path"] is not None else "DataFrame"
                     for inp in src["inputs"]]
            fmt = "" if src["format"] == "dataframe" else f" {src['format']}"
            head = f"{src['layout']}{fmt} {' + '.join(paths)}"
            what = self._columns_read()
        answers = ""
        if cols["sample"] is not None:
            low, high = int(self.counts.min()), int(self.counts.max())
            if low == high:
                answers = f", {low} answer{'s' if low > 1 else ''} per question"
            else:
                answers = (f", {low} to {high} answers per question, "
                           f"{self.counts.mean():.1f} on average")
        if self.runs is None:
            what += ", models " + ", ".join(repr(m) for m in self.models)
        else:
            per_model = Counter(model for model, _ in self.runs)
            what += ", models " + ", ".join(
                f"{m!r} ({k} run{'s' if k > 1 else ''})" for m, k in per_model.items())
        kind = "0/1 scores" if self.score_type == "binary" else "continuous scores"
        text = f"{head}: {what} ({len(self.items)} items, {kind}{answers})"
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
        if src["layout"] == "log":
            text += "".join(f"; {note}" for note in src["log"]["notes"])
        if src.get("note"):  # how plain Python scores were read (io/sequences.py)
            text += f"; {src['note']}"
        return text

    def _columns_read(self) -> str:
        cols = self.source["columns"]
        layout = self.source["layout"]
        if layout == "two-files":
            items = _same_or_pair(cols["item"])
            scores = _same_or_pair(cols["score"])
            what = f"item column {items}, score column {scores}"
        elif layout == "long":
            what = (
                f"item column {cols['item']!r}, model column {cols['model']!r}, "
                f"score column {cols['score']!r}"
            )
        else:
            what = f"item column {cols['item']!r}"
        if cols["sample"] is not None:
            what += f", sample column {_given(cols['sample'])!r}"
        if cols["run"] is not None:
            what += f", run column {cols['run']!r}"
        return what


def _same_or_pair(names: Sequence[str]) -> str:
    a, b = names
    return repr(a) if a == b else f"{a!r} / {b!r}"


def _given(name: str | list) -> str:
    """The cluster or sample column as passed (two files: from whichever file has it)."""
    return next(n for n in name if n is not None) if isinstance(name, list) else name
