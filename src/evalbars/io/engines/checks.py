"""The messages of the checks, for answers held by an engine.

:mod:`evalbars.io.engines.assemble` finds a problem in the reduced table (counts of bad
cells, empty labels, repeated answers, ...); the functions here then ask the engine for
the first offending rows, in file order, and raise the error the in-memory reader raises
for the same input (:mod:`evalbars.io.layouts`, :mod:`evalbars.io.validate`): the same
words, the same ids, the same lines or rows. Each takes a :class:`Context`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import messages
from ..cells import bad_scores_error
from ..table import MAX_LISTED, name_list, short
from . import places
from .sql import BAD, EMPTY, canonical


@dataclass(frozen=True, slots=True)
class Context:
    """The input, its engine and the columns read: what every message needs."""

    source: Any
    backend: Any
    roles: dict
    chosen: tuple | None  # the models= names, or None for every model

    def query(self, body: str) -> list[tuple]:
        """Run ``body`` (which reads the canonical table as ``canon``) on the engine."""
        kinds = self.backend.kinds
        canon = canonical(self.roles, kinds, self.backend.dialect, self.backend.src,
                          nan_missing=self.source.fmt == "pandas",
                          nan_text=self.source.fmt == "duckdb")
        return self.backend.rows(f"WITH canon AS ({canon}) {body}")

    def chosen_sql(self) -> str:
        """A condition keeping the rows of the chosen models."""
        if self.chosen is None:
            return "TRUE"
        names = ", ".join(map(self.literal, self.chosen))
        return f"model IN ({names})"

    def order(self) -> str:
        return "__file, __row" if self.backend.positions else "item, model"

    def found(self, condition: str) -> tuple[list[tuple[int, int]], int]:
        """The first rows meeting ``condition`` (file, row) and how many there are."""
        total = self.query(f"SELECT count(*) FROM canon WHERE {condition}")[0][0]
        found = self.query(f"SELECT __file, __row FROM canon WHERE {condition} "
                           f"ORDER BY {self.order()} LIMIT {MAX_LISTED}")
        return found, total

    def at(self, condition: str) -> str:
        """Where the rows meeting ``condition`` are: ``"at lines 3, 7 of 'a.csv'"``."""
        return places.at(self.source, self.backend, *self.found(condition))

    def literal(self, value: str) -> str:
        """``value`` as an SQL string literal."""
        return self.backend.dialect.literal(value)


def _empty(column: str) -> str:
    return f"({column} IS NULL OR {column} = '')"


def empty_label(ctx: Context, role: str, what: str, among_chosen: bool = True) -> None:
    """Raise: ``empty item id in column 'id' at line 4 of 'a.csv'; every row needs one``."""
    condition = _empty(role) + (f" AND {ctx.chosen_sql()}" if among_chosen else "")
    raise messages.empty_label(what, ctx.roles[role], ctx.at(condition))


def bad_scores(ctx: Context) -> None:
    """Raise naming the score cells that are not finite numbers within 1e100."""
    condition = f"st = {BAD} AND {ctx.chosen_sql()}"
    total = ctx.query(f"SELECT count(*) FROM canon WHERE {condition}")[0][0]
    found = ctx.query(f"SELECT __file, __row, raw FROM canon WHERE {condition} "
                      f"ORDER BY {ctx.order()} LIMIT {MAX_LISTED}")
    numeric = ctx.backend.kinds[ctx.roles["score"]] != "text"
    shown = []
    for file, row, raw in found:
        text, label = places.where(ctx.source, ctx.backend, [(file, row)], 1)
        cell = repr(float(raw)) if numeric else short(raw, 30)
        shown.append(f"{cell} at {text}" if text else cell)
    non_ascii = any(isinstance(raw, str) and not raw.strip().isascii() for *_, raw in found)
    raise bad_scores_error(ctx.roles["score"], ctx.source.label, total, shown, non_ascii)


def _key(ctx: Context, row: tuple) -> str:
    """SQL matching the answers of one (item, model, run, sample) key."""
    def equal(column: str, value: Any) -> str:
        return f"{column} IS NULL" if value is None else f"{column} = {ctx.literal(value)}"
    return " AND ".join(equal(c, v) for c, v in zip(("item", "model", "run", "sample"), row))


def duplicates(ctx: Context) -> None:
    """Raise naming the (item, model[, run][, sample]) answers given on several rows."""
    has_sample, has_run = ctx.roles["sample"] is not None, ctx.roles["run"] is not None
    groups = ctx.query(
        f"SELECT item, model, run, sample, min(__file) AS f, min(__row) AS r FROM canon "
        f"WHERE {ctx.chosen_sql()} GROUP BY item, model, run, sample HAVING count(*) > 1 "
        f"ORDER BY f, r, item, model, run, sample")
    said = []
    for key in groups[:MAX_LISTED]:
        item, model, run, sample, _, _ = key
        system = f"model {short(model)}" + ("" if not has_run else f" run {short(run)}")
        if not has_sample and not has_run:
            text, label = places.where(ctx.source, ctx.backend, *ctx.found(_key(ctx, key[:4])))
            text = text if label in (None, ctx.source.label) else f"{text} of {label}"
            said.append(f"item {short(item)} {system}" + (f" at {text}" if text else ""))
        else:
            where = ctx.at(_key(ctx, key[:4]))
            said.append(f"item {short(item)} {system}"
                        + (f" sample {short(sample)}" if has_sample else "") + f" {where}")
    if not has_sample and not has_run:
        raise messages.repeated_pairs(ctx.source.label, said, len(groups))
    raise messages.repeated_answers(has_run, has_sample, said, len(groups))


def label_clash(ctx: Context, role: str, items: list[str]) -> None:
    """Raise naming the first ``items`` (sorted ids) given two or more labels of ``role``
    (cluster, stratum, split)."""
    said = []
    for item in items[:MAX_LISTED]:
        mine = f"{_key(ctx, (item,))} AND {ctx.chosen_sql()}"
        labels = ctx.query(f"SELECT DISTINCT {role} FROM canon WHERE {mine} ORDER BY {role}")
        parts = [f"{short(label)} {ctx.at(f'{mine} AND {role} = {ctx.literal(label)}')}"
                 for label, in labels]
        said.append(f"item {short(item)} is in {' and in '.join(parts)}")
    raise messages.label_clash(role, ctx.roles[role], said, len(items))


def _num(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def not_binary(ctx: Context, name: str, model: str, run: str | None, binary: bool) -> None:
    """Raise on system ``name``'s answers other than 0/1: ``score_type='binary'`` given, or
    (``binary`` False) a 0/1 column with a stray value."""
    system = f"model = {ctx.literal(model)}" + ("" if run is None else
                                                 f" AND run = {ctx.literal(run)}")
    odd = f"{system} AND st = 0 AND v <> 0 AND v <> 1"
    total, scored = ctx.query(f"SELECT sum(CASE WHEN v <> 0 AND v <> 1 THEN 1 ELSE 0 END), "
                              f"count(v) FROM canon WHERE {system}")[0]
    kinds = ", ".join(_num(v) for v, in ctx.query(
        f"SELECT DISTINCT v FROM canon WHERE {odd} ORDER BY v LIMIT {MAX_LISTED}"))
    where = f"column {ctx.roles['score']!r} {ctx.at(odd)}"
    raise messages.not_binary(name, total, scored, kinds, where, binary)


def missing_scores(ctx: Context, systems: list[tuple[str, str, str | None, int]]) -> None:
    """Raise on empty score cells: ``systems`` holds (name, model, run, count) of each system
    with some."""
    noun = "item" if ctx.roles["sample"] is None else "answer"
    said = []
    for name, model, run, count in systems:
        system = f"model = {ctx.literal(model)}" + ("" if run is None else
                                                     f" AND run = {ctx.literal(run)}")
        said.append(messages.no_score(name, count, noun, ctx.roles["score"],
                                      ctx.at(f"{system} AND st = {EMPTY}")))
    raise messages.missing_scores(said)


def absent_items(names: list[str], items: Any, has_row: Any, item_column: str) -> None:
    """Raise on items some system has no row for (``has_row``: items x systems).

    >>> absent_items(["a", "b"], np.array(["q1", "q2"]), np.array([[1, 1], [1, 0]]) > 0, "id")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: items are not scored by every model: 'b' has no row \
for 1 item that the other model has ('q2'); 1 item is common to all; pass intersect=True \
(--intersect) to compare on the items every model has
    """
    common = int(has_row.all(axis=1).sum())
    said = []
    if common == 0:
        for j, name in enumerate(names):
            mine = np.flatnonzero(has_row[:, j])
            more = f" and {mine.size - 3} more" if mine.size > 3 else ""
            said.append(f"model {name!r} has {name_list(items[mine[:3]].tolist())}{more} "
                        f"(column {item_column!r})")
        raise messages.no_common_items(said)
    for j, name in enumerate(names):
        lack = np.flatnonzero(~has_row[:, j])
        if lack.size:
            more = f" and {lack.size - MAX_LISTED} more" if lack.size > MAX_LISTED else ""
            ids = name_list(items[lack[:MAX_LISTED]].tolist()) + more
            said.append(messages.lacking(name, lack.size, len(names), ids))
    raise messages.absent_items(said, common)
