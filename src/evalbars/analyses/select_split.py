"""The questions select chooses on and those it confirms on: a split column or a holdout.

:func:`evalbars.analyses.select.select` chooses the winner on one part of the questions
and confirms it once on the other: the parts are the values of a column of the input
(``split=``, ``select_on=``, ``confirm_on=``) or a seeded random share held out
(``holdout=``, of whole clusters when clusters are given).
"""
from __future__ import annotations

import numpy as np

from ..core.errors import EvalbarsError
from ..core.seeding import child_seed
from ..io.ingest import ItemScores
from ..io.table import name_list


def check_split(split, select_on, confirm_on, holdout) -> None:
    if holdout is not None and split is not None:
        raise EvalbarsError("give holdout= (--holdout) or split= (--split), not both")
    if split is None and (select_on is not None or confirm_on is not None):
        raise EvalbarsError("select_on= and confirm_on= (--select-on, --confirm-on) need "
                            "split= (--split COL), the column that holds those values")
    if split is not None and (select_on is None or confirm_on is None):
        raise EvalbarsError(f"split={split!r} needs select_on= and confirm_on= (--select-on, "
                            "--confirm-on): the split values to choose on and to confirm on")
    if split is not None and str(select_on) == str(confirm_on):
        raise EvalbarsError(f"select_on and confirm_on must differ (choosing and confirming "
                            f"on the same questions is the winner's curse); got "
                            f"{str(select_on)!r} twice")
    if holdout is not None and (isinstance(holdout, bool) or not isinstance(
            holdout, (int, float, np.integer, np.floating)) or not 0.0 < holdout < 1.0):
        raise EvalbarsError(f"holdout must be the share of questions held out for the "
                            f"confirmation, between 0 and 1 (0.5 = half); got {holdout!r}")


def by_column(labels: np.ndarray, split: str, select_on, confirm_on):
    values = sorted({label for label in labels.tolist() if label is not None})
    masks = []
    for param, value in (("select_on", select_on), ("confirm_on", confirm_on)):
        mask = labels == str(value)
        if np.count_nonzero(mask) < 2:
            raise EvalbarsError(
                f"{param}={str(value)!r} matches {np.count_nonzero(mask)} question(s) of the "
                f"split column {split!r} (at least 2 are needed); its values: "
                f"{name_list(values)}")
        masks.append(mask)
    info = {"method": "column", "column": split, "select_on": str(select_on),
            "confirm_on": str(confirm_on), "n_select": int(masks[0].sum()),
            "n_confirm": int(masks[1].sum()),
            "n_unused": int(labels.size - masks[0].sum() - masks[1].sum())}
    return masks[0], masks[1], info


def by_holdout(scores: ItemScores, names: tuple[str, ...], holdout: float, seed: int):
    """A seeded random split of questions (of whole clusters, when clusters are given).

    Questions are put in the canonical order of their scores first, so the split, like
    every statistic, depends only on the multiset of rows, not on their order or ids.
    """
    if scores.clusters is None:
        x = scores.scores[:, [scores.models.index(name) for name in names]]
        units, unit = np.lexsort(x.T[::-1]), "items"
        position = np.empty(units.size, np.int64)
        position[units] = np.arange(units.size)
    else:
        labels, position = np.unique(np.asarray(scores.clusters), return_inverse=True)
        units, unit = np.arange(labels.size), "clusters"
    held = round(holdout * units.size)
    if min(held, units.size - held) < 2:
        raise EvalbarsError(
            f"holdout={holdout!r} holds out {held} of the {units.size} {unit} and leaves "
            f"{units.size - held} for choosing; each side needs at least 2")
    rng = np.random.default_rng(child_seed(seed, "select:holdout"))
    confirm_units = np.zeros(units.size, bool)
    confirm_units[rng.permutation(units.size)[:held]] = True
    confirm = confirm_units[position.reshape(-1)]
    info = {"method": "holdout", "holdout": float(holdout), "unit": unit,
            "n_select": int((~confirm).sum()), "n_confirm": int(confirm.sum())}
    return ~confirm, confirm, info
