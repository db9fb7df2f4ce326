"""Harness logs into ItemScores: a log's answers checked and aligned as a table's are.

:func:`read_logs` reads the logs of one format (:mod:`evalbars.io.logs`, one module per
harness) into :class:`~evalbars.io.logs._answers.Answers`, sends their rows through the
long layout and the checks every long table goes through, and records in the provenance
what the reader chose and noted (metric, unscored answers, grouped benchmarks).
"""
from __future__ import annotations

import os

from ..core.errors import EvalbarsError
from . import logs
from .align import aligned_fields
from .files import sha256
from .item_scores import ItemScores
from .layouts import long_layout
from .table import name_list

_LISTED_UNSCORED = 100
"""How many unscored ids per model the provenance keeps (the count is always exact)."""


def read_logs(fmt: str, inputs: list, columns: dict, options: logs.Options,
              models: list[str] | None, score_type: str, intersect: bool) -> ItemScores:
    """Read harness logs of format ``fmt``; table column options are an error here."""
    for param, value in columns.items():
        if value is not None:
            raise EvalbarsError(
                f"{param}= names a column of a table, but the input is a {fmt} log, which "
                f"says what the {param}s are (docs/logs.md); choose the score with metric= "
                f"(--metric)")
    paths = [os.fsdecode(os.fspath(d)) for d in inputs]
    return _from_answers(logs.read(fmt, paths, options), models, score_type, intersect)


def _from_answers(answers: logs.Answers, models: list[str] | None, score_type: str,
                  intersect: bool) -> ItemScores:
    """Validate, reduce and align the rows of a harness log as :func:`load` does a table.

    The rows go through the long layout and the same checks as any long table (duplicate
    answers, items some model lacks, clusters, score types); messages name the log files
    and the lines, entries or queries of the rows at fault.
    """
    names = answers.names()
    table = answers.table()
    silent = [m for m in answers.unscored if m not in set(answers.models)]
    if silent:
        ids = answers.unscored[silent[0]]
        raise EvalbarsError(
            f"model {silent[0]!r} has no scored answer in {answers.label()}: all its "
            f"{len(ids)} answers are unscored (no score, a null or NaN score, or an error; "
            f"ids {name_list(list(dict.fromkeys(ids)), 5)})")
    try:
        parts = long_layout(table, names["item"], names["model"], names["score"], models,
                      answers.label_columns(), names["sample"], ordered=False)
        fields = aligned_fields(parts, score_type, intersect)
    except EvalbarsError as exc:
        if not answers.unscored:
            raise
        raise EvalbarsError(f"{exc} (note: {answers.unscored_text()})") from None
    unscored = {model: {"count": len(ids), "ids": list(dict.fromkeys(ids))[:_LISTED_UNSCORED]}
                for model, ids in answers.unscored.items()}
    notes = list(answers.notes) + ([answers.unscored_text()] if answers.unscored else [])
    fields["source"].update(
        layout="log", format=answers.fmt,
        inputs=[{"path": path, "sha256": sha256(path)} for path in answers.files],
        log={"paths": list(answers.paths), "reading": answers.reading,
             "settings": answers.settings, "unscored": unscored, "notes": notes})
    return ItemScores(**fields)
