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

from ...core.errors import EvalbarsError
from ..cells import bad_scores_error
from ..labels import ROLES
from ..table import MAX_LISTED, name_list, short
from . import places
from .sql import BAD, EMPTY, canonical

_SAMPLE_HINT = ("pass sample= (--sample COL) if these are several sampled answers per "
                "question, or run= (evalbars seeds --run COL) if they come from several "
                "training runs")


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
    raise EvalbarsError(f"empty {what} in column {ctx.roles[role]!r} {ctx.at(condition)}; "
                        f"every row needs one")


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
    more = f" (and {len(groups) - MAX_LISTED} more)" if len(groups) > MAX_LISTED else ""
    n = len(groups)
    if not has_sample and not has_run:
        raise EvalbarsError(
            f"{n} (item, model) pair{'s have' if n > 1 else ' has'} more than one row in "
            f"{ctx.source.label}: {'; '.join(said)}{more}; each model must have one row per "
            f"item ({_SAMPLE_HINT})")
    what = "(item, model" + (", run" if has_run else "") + (", sample)" if has_sample else ")")
    fix = ("each answer to a question needs its own sample value" if has_sample
           else "each run answers each question once (pass sample= (--sample COL) if these "
                "are several sampled answers per question)")
    raise EvalbarsError(f"{n} {what} answer{'s are' if n > 1 else ' is'} given on more than "
                        f"one row: {'; '.join(said)}{more}; {fix}")


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
    more = f" (and {len(items) - MAX_LISTED} more)" if len(items) > MAX_LISTED else ""
    n, one = len(items), ROLES[role].one
    raise EvalbarsError(
        f"{n} item{'s are' if n > 1 else ' is'} assigned to more than one {one} (column "
        f"{ctx.roles[role]!r}): {'; '.join(said)}{more}; each item belongs to one {one}")


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
    them = "them" if total > 1 else "it"
    if binary:
        raise EvalbarsError(
            f"score_type='binary' but model {name!r} has {total} score{'s' if total > 1 else ''}"
            f" other than 0 and 1 (values {kinds}) in {where}; fix {them}, or use "
            f"score_type='continuous'")
    raise EvalbarsError(
        f"model {name!r} looks 0/1 but {total} of its {scored} scores "
        f"{'are' if total > 1 else 'is'} not (values {kinds}) in {where}; fix {them}, or pass "
        f"score_type='continuous' (--score-type continuous) if the scale really has other "
        f"values")


def missing_scores(ctx: Context, systems: list[tuple[str, str, str | None, int]]) -> None:
    """Raise on empty score cells: ``systems`` holds (name, model, run, count) of each system
    with some."""
    noun = "item" if ctx.roles["sample"] is None else "answer"
    said = []
    for name, model, run, count in systems:
        system = f"model = {ctx.literal(model)}" + ("" if run is None else
                                                     f" AND run = {ctx.literal(run)}")
        s = "s" if count > 1 else ""
        said.append(f"model {name!r} has no score for {count} {noun}{s} (empty cell{s} in "
                    f"column {ctx.roles['score']!r} {ctx.at(f'{system} AND st = {EMPTY}')})")
    raise EvalbarsError(f"missing scores: {'; '.join(said)}; fill them, or pass intersect=True "
                        f"(--intersect) to compare on the items every model has")


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
        raise EvalbarsError(f"the models share no item id: {'; '.join(said)}; check that the "
                            f"models were scored on the same questions (ids are compared "
                            f"exactly as written)")
    for j, name in enumerate(names):
        lacking = np.flatnonzero(~has_row[:, j])
        if lacking.size:
            more = f" and {lacking.size - MAX_LISTED} more" if lacking.size > MAX_LISTED else ""
            others = "the other model has" if len(names) == 2 else "other models have"
            said.append(f"{name!r} has no row for {lacking.size} item"
                        f"{'s' if lacking.size > 1 else ''} that {others} "
                        f"({name_list(items[lacking[:MAX_LISTED]].tolist())}{more})")
    raise EvalbarsError(
        f"items are not scored by every model: {'; '.join(said)}; {common} "
        f"item{' is' if common == 1 else 's are'} common to all; pass intersect=True "
        f"(--intersect) to compare on the items every model has")
