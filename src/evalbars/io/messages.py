"""One wording per check on the answers, whichever engine found the fault.

The in-memory reader (:mod:`evalbars.io.validate`, :mod:`evalbars.io.layouts`) and the
DuckDB and Spark engines (:mod:`evalbars.io.engines.checks`) find the same faults with
their own means and place them in their own words (lines of a file, rows of a table);
the sentence that says what is wrong and what to do is built here, once, from those
places. Each function returns the :class:`~evalbars.core.errors.EvalbarsError` to raise.

>>> str(empty_label("item id", "id", "at line 4 of 'a.csv'"))
"empty item id in column 'id' at line 4 of 'a.csv'; every row needs one"
>>> str(missing_scores(["model 'a' has no score for 1 item (empty cell in column 's' at line 3)"]))
"missing scores: model 'a' has no score for 1 item (empty cell in column 's' at line 3); \
fill them, or pass intersect=True (--intersect) to compare on the items every model has"
"""
from __future__ import annotations

from typing import Sequence

from ..core.errors import EvalbarsError
from .labels import ROLES
from .table import MAX_LISTED

INTERSECT_HINT = "pass intersect=True (--intersect) to compare on the items every model has"
"""What to do about items or scores some model lacks, when dropping them is right."""

SAMPLE_HINT = ("pass sample= (--sample COL) if these are several sampled answers per "
               "question, or run= (evalbars seeds --run COL) if they come from several "
               "training runs")
"""What to do about an item repeated for one model, when the repeats are answers."""


def more(total: int, shown: int = MAX_LISTED, what: str = "") -> str:
    """``" (and 3 more)"`` past the ``shown`` places a message lists; "" when none.

    >>> more(8), more(5), more(9, what=" repeated ids")
    (' (and 3 more)', '', ' (and 4 more repeated ids)')
    """
    return f" (and {total - shown} more{what})" if total > shown else ""


def empty_label(what: str, column: str, where: str) -> EvalbarsError:
    """An empty item id, model name, label, sample value or run label at ``where``."""
    return EvalbarsError(f"empty {what} in column {column!r} {where}; every row needs one")


def label_clash(role: str, column: str, said: Sequence[str], total: int) -> EvalbarsError:
    """``total`` items given two labels of ``role``; ``said`` places the first few
    (``"item 'q1' is in 'a' at line 2 and in 'b' at line 5"``)."""
    one = ROLES[role].one
    return EvalbarsError(
        f"{total} item{'s are' if total > 1 else ' is'} assigned to more than one {one} "
        f"(column {column!r}): {'; '.join(said)}{more(total)}; each item belongs to one {one}")


def repeated_pairs(label: str, said: Sequence[str], total: int) -> EvalbarsError:
    """``total`` (item, model) pairs on more than one row of ``label`` (no sample or run
    column); ``said`` places the first few."""
    return EvalbarsError(
        f"{total} (item, model) pair{'s have' if total > 1 else ' has'} more than one row in "
        f"{label}: {'; '.join(said)}{more(total)}; each model must have one row per item "
        f"({SAMPLE_HINT})")


def repeated_answers(has_run: bool, has_sample: bool, said: Sequence[str],
                     total: int) -> EvalbarsError:
    """``total`` answers (item, model[, run][, sample]) given on more than one row."""
    what = "(item, model" + (", run" if has_run else "") + (", sample)" if has_sample else ")")
    fix = ("each answer to a question needs its own sample value" if has_sample
           else "each run answers each question once (pass sample= (--sample COL) if these "
                "are several sampled answers per question)")
    return EvalbarsError(f"{total} {what} answer{'s are' if total > 1 else ' is'} given on "
                         f"more than one row: {'; '.join(said)}{more(total)}; {fix}")


def no_score(name: str, count: int, noun: str, column: str, where: str) -> str:
    """The phrase for model ``name``'s ``count`` empty score cells (``noun``: item, or
    answer with a sample column) in ``column`` at ``where``."""
    s = "s" if count > 1 else ""
    return (f"model {name!r} has no score for {count} {noun}{s} (empty cell{s} in column "
            f"{column!r} {where})")


def missing_scores(said: Sequence[str]) -> EvalbarsError:
    """Empty score cells; ``said`` has a :func:`no_score` phrase per model that has some."""
    return EvalbarsError(f"missing scores: {'; '.join(said)}; fill them, or {INTERSECT_HINT}")


def lacking(name: str, count: int, n_models: int, ids: str) -> str:
    """The phrase for a model lacking ``count`` items the others have (``ids``: the first
    few, and how many more)."""
    others = "the other model has" if n_models == 2 else "other models have"
    return f"{name!r} has no row for {count} item{'s' if count > 1 else ''} that {others} ({ids})"


def absent_items(said: Sequence[str], common: int) -> EvalbarsError:
    """Items some model lacks; ``said`` has a :func:`lacking` phrase per such model."""
    return EvalbarsError(
        f"items are not scored by every model: {'; '.join(said)}; {common} "
        f"item{' is' if common == 1 else 's are'} common to all; {INTERSECT_HINT}")


def no_common_items(said: Sequence[str], two_files: bool = False) -> EvalbarsError:
    """No item is scored by every model: the ids do not match (another id column, another
    spelling); ``said`` gives each model's (or, ``two_files``, each file's) first ids."""
    if two_files:
        what, fix = "the two files share", (
            "check that the id columns hold the same ids, or name the id column of each "
            "file: item=('qid', 'question_id') (--item COL --item COL2)")
    else:
        what, fix = "the models share", ("check that the models were scored on the same "
                                         "questions (ids are compared exactly as written)")
    return EvalbarsError(f"{what} no item id: {'; '.join(said)}; {fix}")


def not_binary(name: str, strays: int, scored: int, kinds: str, where: str,
               binary: bool) -> EvalbarsError:
    """``strays`` of model ``name``'s ``scored`` answers are not 0/1 (values ``kinds``, at
    ``where``): ``score_type='binary'`` was given (``binary``), or the column looks 0/1."""
    them = "them" if strays > 1 else "it"
    if binary:
        return EvalbarsError(
            f"score_type='binary' but model {name!r} has {strays} score"
            f"{'s' if strays > 1 else ''} other than 0 and 1 (values {kinds}) in {where}; fix "
            f"{them}, or use score_type='continuous'")
    return EvalbarsError(
        f"model {name!r} looks 0/1 but {strays} of its {scored} scores "
        f"{'are' if strays > 1 else 'is'} not (values {kinds}) in {where}; fix {them}, or "
        f"pass score_type='continuous' (--score-type continuous) if the scale really has "
        f"other values")
