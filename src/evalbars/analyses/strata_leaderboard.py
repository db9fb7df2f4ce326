"""The strata section of a leaderboard: every model's weighted aggregate and every pair's
gap paired within strata.

With ``stratum=`` (``--stratum COL``) :func:`evalbars.leaderboard` adds a ``strata``
section: each model's aggregate exactly as :func:`evalbars.ci` gives it (its own stream,
keyed by its name), in the order of the aggregates (highest first, ties by name), and
each pair's stratified gap and tests exactly as :func:`evalbars.compare` gives them for
that pair (the stream of the sorted pair), the headline test's p-value adjusted over the
pairs with the leaderboard's correction. Pairs: every pair (``a`` the lower place of the
aggregates, so the gap is at least 0), or each model against the baseline.
"""
from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

from ..stats import multiplicity
from .measures import Prepared
from .results import Settings, Strata, StrataPair
from .strata import paired_within, stratify

__all__ = ["ranked_strata"]


def ranked_strata(data: Prepared, labels: Sequence[str], column: str,
                  weights: str | Mapping, settings: Settings, *,
                  weights_file: str | None = None, baseline: str | None = None,
                  correction: str = "holm") -> Strata:
    """The leaderboard's strata section (labels in ``data``'s item order).

    Examples
    --------
    >>> import evalbars
    >>> r = evalbars.leaderboard("examples/strata_subjects.csv", stratum="subject",
    ...                          weights="macro", n_resamples=200)
    >>> [(m.name, round(m.estimate, 4)) for m in r.strata.models]
    [('model_a', 0.5819), ('model_b', 0.575)]
    >>> pair = r.strata.pairs[0]
    >>> pair.a, pair.b, round(pair.difference.estimate, 4), pair.tests[0].name
    ('model_b', 'model_a', 0.0069, 'stratified-mcnemar-exact')
    """
    found = stratify(data, labels, column, weights, settings, weights_file=weights_file)
    where = {model.name: k for k, model in enumerate(found.models)}
    order = sorted(where, key=lambda name: (-found.models[where[name]].estimate, name))
    if baseline is None:
        family = [(order[j], order[i]) for i in range(len(order))
                  for j in range(i + 1, len(order))]
    else:
        family = [(baseline, name) for name in order if name != baseline]
    gaps = [paired_within(data, labels, weights, settings, pair) for pair in family]
    adjusted = multiplicity.adjust([tests[0].p_value for _, tests in gaps], method=correction)
    pairs = tuple(StrataPair(a, b, gap, tests, float(p))
                  for (a, b), (gap, tests), p in zip(family, gaps, adjusted))
    pick = [where[name] for name in order]
    rows = tuple(dataclasses.replace(row, means=tuple(row.means[k] for k in pick),
                                     intervals=tuple(row.intervals[k] for k in pick))
                 for row in found.rows)
    return dataclasses.replace(found, names=tuple(order), rows=rows,
                               models=tuple(found.models[k] for k in pick), pairs=pairs)
