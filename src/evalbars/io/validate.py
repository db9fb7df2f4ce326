"""The checks on the answers: clusters, duplicate answers, missing scores and items, score types.

:func:`item_labels` gives each item its one cluster, stratum or split label, rejecting an
item given two;
:func:`check_duplicate_answers` rejects an (item, model, sample) answer given twice;
:func:`check_missing` rejects empty scores and items some model lacks (unless
``intersect``); :func:`check_score_type` applies ``score_type`` to each model's answers,
catching a 0/1 column with a stray value. :func:`check_model_count` refuses a wide
table with more than :data:`MAX_MODEL_COLUMNS` candidate model columns before any cell is
parsed.
"""
from __future__ import annotations

import numpy as np

from ..core.errors import EvalbarsError
from .answers import AnswerParts, equal_runs
from . import messages
from .cells import at_rows, check_labels, label_codes
from .columns import ID_NAMES
from .labels import ROLES
from .table import MAX_LISTED, Table, name_list, short

CHOOSE_MODELS = "models=[...] in Python"
"""How to name the models the analysis reads, worded for Python. The command line puts
the flags of the command that met the error in its place (--a and --b for compare,
--models for ci, ...): see :func:`evalbars.cli._hints.for_command`."""


STRAY_SHARE = 0.99
"""An all-integer column with at least this share of 0/1 values and some other value is
treated as a 0/1 column with a typo, and rejected unless ``score_type="continuous"``."""

MAX_MODEL_COLUMNS = 10_000
"""Most columns a wide table may offer as models when they are not named (``models=``):
each model is parsed, checked and analysed on its own, so a header of 10^6 columns would
run for the better part of an hour; past this the table is refused before any cell is parsed."""


# --------------------------------------------------------------------------- model columns


def check_model_count(table: Table, models: list[str] | None,
                       roles: dict[str, str | None]) -> None:
    """Wide layout, models not named: raise when more than :data:`MAX_MODEL_COLUMNS`
    columns could hold models (all but the item, cluster, sample, run and id-like ones)."""
    if models is not None or len(table.names) <= MAX_MODEL_COLUMNS:
        return
    taken = set(roles.values())
    count = sum(1 for c in table.names if c not in taken and c.strip().lower() not in ID_NAMES)
    if count > MAX_MODEL_COLUMNS:
        raise EvalbarsError(
            f"{table.label} has {count:,} columns that could hold models, more than "
            f"{MAX_MODEL_COLUMNS:,} (evalbars.io.validate.MAX_MODEL_COLUMNS); refusing to "
            f"read them all: pick some ({CHOOSE_MODELS}), or write the scores in the long "
            f"layout (columns id, model, score: one row per item and model)")


# --------------------------------------------------------------------------- clusters, samples


def item_labels(role: str, items: np.ndarray,
                sources: list[tuple[Table, str, np.ndarray, np.ndarray]]) -> np.ndarray:
    """Each item's label of ``role`` (a key of :data:`~evalbars.io.labels.ROLES`: cluster,
    stratum, split), None where no row gives one, as an object array.

    ``sources`` holds (table, label column, rows (sorted), item index of each row).
    Raises on an empty label and on an item given two different labels.
    """
    labels: list[str] = []
    for table, column, rows, _ in sources:
        labels += at_rows(check_labels(table, column, f"{ROLES[role].one} label", rows), rows)
    names, codes = label_codes(labels)
    item_of = np.concatenate([mine for *_, mine in sources])
    label_of = np.full(len(items), -1, np.int64)
    label_of[item_of] = codes
    clash = codes != label_of[item_of]
    if clash.any():
        _label_clash(role, items, sources, names, codes, item_of, clash)
    out = np.full(len(items), None, dtype=object)
    known = label_of >= 0
    out[known] = np.array(names, dtype=object)[label_of[known]]
    return out


def _label_clash(role: str, items: np.ndarray, sources: list, names: list[str],
                 codes: np.ndarray, item_of: np.ndarray, clash: np.ndarray) -> None:
    """Raise naming the first items with two or more labels, the labels and lines."""
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
    raise messages.label_clash(role, sources[0][1], said, bad.size)


def check_duplicate_answers(parts: AnswerParts, cell: np.ndarray) -> None:
    """With a sample or run column: raise naming the answers given on several rows.

    The answers are sorted by ``cell`` (model and item) and sample. An answer is an (item,
    model, sample) triple, with a run column (item, model, run[, sample]).
    """
    keys = (cell,) if parts.samples is None else (cell, parts.samples)
    starts, stops = equal_runs(*keys)
    if not starts.size:
        return

    def first_line(group: tuple[int, int]) -> tuple[int, int]:
        table = parts.tables[parts.model_of[group[0]]]
        return parts.inputs.index(table), min(table.numbers(parts.rows[group[0]:group[1]]))

    def system(j: int) -> str:
        if parts.runs is None:
            return f"model {short(parts.models[j])}"
        return f"model {short(parts.runs[j][0])} run {short(parts.runs[j][1])}"

    groups = sorted(zip(starts, stops), key=first_line)
    said = [f"item {short(str(parts.items[parts.item_of[a]]))} {system(parts.model_of[a])}"
            + ("" if parts.samples is None else
               f" sample {short(parts.sample_names[parts.samples[a]])}")
            + f" {parts.tables[parts.model_of[a]].at(parts.rows[a:b])}"
            for a, b in groups[:MAX_LISTED]]
    raise messages.repeated_answers(parts.runs is not None, parts.samples is not None, said,
                                    len(groups))


# --------------------------------------------------------------------------- missing answers


def check_missing(parts: AnswerParts, bounds: np.ndarray, has_row: np.ndarray) -> None:
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
                said.append(messages.no_score(name, cells.size, noun, parts.score_cols[j],
                                              table.at(rows)))
        raise messages.missing_scores(said)
    absent = ~has_row
    if absent.any():
        common = int(has_row.all(axis=1).sum())
        if common == 0:
            _share_nothing(parts, has_row)
        said = []
        for j, name in enumerate(parts.models):
            lack = np.flatnonzero(absent[:, j])
            if lack.size:
                more = f" and {lack.size - MAX_LISTED} more" if lack.size > MAX_LISTED else ""
                ids = name_list(parts.items[lack[:MAX_LISTED]].tolist()) + more
                said.append(messages.lacking(name, lack.size, len(parts.models), ids))
        raise messages.absent_items(said, common)


def _share_nothing(parts: AnswerParts, has_row: np.ndarray) -> None:
    """Raise when no item is scored by every model: the ids do not match (another id
    column, another spelling), so dropping the unmatched ones would leave nothing."""
    said = []
    for j, name in enumerate(parts.models):
        mine = np.flatnonzero(has_row[:, j])
        ids = name_list(parts.items[mine[:3]].tolist())
        more = f" and {mine.size - 3} more" if mine.size > 3 else ""
        column = parts.columns["item"]
        if isinstance(column, list):  # one per input file; a file may hold several runs
            column = column[next(k for k, table in enumerate(parts.inputs)
                                 if table is parts.tables[j])]
        whose = parts.tables[j].label if parts.layout == "two-files" else f"model {name!r}"
        line = f"{whose} has {ids}{more} (column {column!r})"
        if line not in said:  # the runs of one file say it once
            said.append(line)
    raise messages.no_common_items(said, two_files=parts.layout == "two-files")


# --------------------------------------------------------------------------- score type


def _num(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def _other_values(parts: AnswerParts, bounds: np.ndarray, column: str) -> str:
    """The first scores other than 0/1 in ``column`` (every system it scores), each placed
    as its table words a place: ``"2 at line 8, 3 at line 12 of 'w.csv'"``."""
    found: dict[int, float] = {}  # row -> value
    for j, col in enumerate(parts.score_cols):
        if col == column:
            values = parts.values[bounds[j]:bounds[j + 1]]
            odd = np.flatnonzero(~np.isnan(values) & (values != 0) & (values != 1))
            found.update(zip(parts.rows[bounds[j]:bounds[j + 1]][odd].tolist(),
                             values[odd].tolist()))
    table = parts.tables[parts.score_cols.index(column)]
    lines = dict(zip(found, table.numbers(list(found))))
    rows = sorted(found, key=lines.__getitem__)
    shown = ", ".join(f"{_num(found[r])} at {table.where([r])}" for r in rows[:MAX_LISTED])
    more = f" and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
    return f"{shown}{more} of {table.label}"


def check_score_type(parts: AnswerParts, bounds: np.ndarray, score_type: str) -> str:
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
        raise messages.not_binary(name, strays.size, v.size, kinds, where,
                                  binary=score_type == "binary")
    if parts.guessed_models and score_type == "auto" and not all_binary and binary_models:
        # judged column by column: with a run column one model column makes several systems
        # (model@run), and a continuous column may hold only 0/1 in one run
        binary = set(binary_models)
        columns = dict.fromkeys(parts.score_cols)
        binary_cols = [c for c in columns
                       if all(m in binary for m, col in zip(parts.models, parts.score_cols)
                              if col == c)]
        others = [c for c in columns if c not in binary_cols]
        if binary_cols and others:
            if len(others) == 1:
                shown = _other_values(parts, bounds, others[0])
            else:
                shown = "; ".join(f"{short(c)}: {_other_values(parts, bounds, c)}"
                                  for c in others[:MAX_LISTED])
            raise EvalbarsError(
                f"the columns of {parts.tables[0].label} taken as models are not on one "
                f"scale: {name_list(binary_cols)} "
                f"{'holds' if len(binary_cols) == 1 else 'hold'} only 0/1 but "
                f"{name_list(others)} {'holds' if len(others) == 1 else 'hold'} other "
                f"values ({shown}); fix a typo, or name the models ({CHOOSE_MODELS}) if a "
                f"column is not a model, or pass --score-type continuous "
                f"(score_type='continuous') if the scale really is wider")
    if score_type == "auto":
        return "binary" if all_binary else "continuous"
    return score_type
