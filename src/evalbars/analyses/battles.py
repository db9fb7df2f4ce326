"""Bradley-Terry ratings from pairwise preference battles (Chatbot Arena style).

Each row is one battle: two models answered the same prompt and a judge (a person or
a model) preferred one of them, or neither. The strengths are fitted by
:func:`evalbars.stats.bradley_terry.fit` and reported on the Elo scale, where 400 points are
10:1 odds, with the mean of the models' ratings at 0.

Uncertainty comes from the resampling engine: battles are the independent unit and are
resampled as wholes; every resample is refitted, and the rating intervals, the rank
intervals and the chance of being first all come from the same resamples.
"""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

import numpy as np

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.errors import EvalbarsError
from ..core.progress import bootstrap_bar
from ..core.records import Record
from ..core.seeding import child_seed
from ..core.types import Interval
from ..core.version import __version__
from ..io.files import read, sha256
from ..io.logs.alpacaeval import battles_table
from ..report.notebook import NotebookMixin
from ..report.text.leaderboard import bradley_terry_statement
from ..stats.bootstrap import percentile_interval
from ..stats.bradley_terry import (
    ELO_PER_LOG_ODDS,
    all_connected,
    fit_stack,
    no_mle_message,
    wins_tables,
)
from ..stats.ranks import rank_uncertainty
from ..stats.resample import BLOCK, bootstrap_sums
from .results import Settings
from .settings import checked_settings

WINNER_WORDS = {"model_a": 1.0, "model_b": 0.0, "tie": 0.5, "tie (bothbad)": 0.5}
"""Winner values read as keywords (checked before model names): the share of the battle
won by the model in the model_a column. Any other value must name one of the row's two
models."""

_MAX_CELLS = 1 << 21
"""Largest (resamples x models x models) array fitted, or (patterns x pairs) block
resampled, at once; the numbers do not depend on it."""

@dataclass(frozen=True, slots=True)
class RatedModel(Record):
    """One model's Bradley-Terry rating (Elo scale, mean 0) with its interval and place.

    ``battles`` counts the model's battles, ``wins`` the ones it won outright and
    ``ties`` the tied ones. Ranks and ``p_best`` are as in
    :func:`evalbars.stats.ranks.rank_uncertainty`, from the ratings.
    """

    name: str
    rating: float
    intervals: tuple[Interval, ...]
    battles: int
    wins: int
    ties: int
    rank: int
    rank_low: int
    rank_high: int
    p_best: float



@dataclass(frozen=True, slots=True, repr=False)
class BradleyTerryResult(NotebookMixin):
    """Ratings of every model (highest first), from ``n_battles`` battles.

    ``resamples_without_mle`` counts the bootstrap resamples in which some group of
    models won (or lost) every resampled battle against the rest, so that no finite
    ratings exist; they are left out of the intervals and reported in ``warnings``.
    """

    n_battles: int
    settings: Settings
    models: tuple[RatedModel, ...]
    resamples_without_mle: int
    statement: str
    warnings: tuple[str, ...]
    provenance: dict

    def model(self, name: str) -> RatedModel:
        """The :class:`RatedModel` called ``name``."""
        for model in self.models:
            if model.name == name:
                return model
        raise KeyError(f"no model {name!r}; have {[m.name for m in self.models]}")

    def to_dict(self) -> dict:
        return json_safe({
            "schema_version": SCHEMA_VERSION, "kind": "bradley-terry",
            "n_battles": self.n_battles, "n_models": len(self.models),
            "settings": self.settings.to_dict(),
            "scale": {"name": "elo", "points_per_log_odds": ELO_PER_LOG_ODDS,
                      "reference": "mean of the models' ratings = 0",
                      "ties": "half a win for each side"},
            "models": [model.to_dict() for model in self.models],
            "resamples_without_mle": self.resamples_without_mle,
            "statement": self.statement, "warnings": list(self.warnings),
            "provenance": self.provenance})


# --- reading battles ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Battles:
    """Battles as indices into ``names`` (sorted): ``first`` < ``second`` and the share
    of the battle won by ``first`` (1, 0.5 or 0)."""

    names: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    share: np.ndarray
    source: dict


def _read_battles(data, model_a: str, model_b: str, winner: str) -> _Battles:
    from ..io.cells import check_labels
    from ..io.columns import resolve_column

    table = battles_table(data)  # AlpacaEval annotations: one battle per record
    table = read(data) if table is None else table
    columns = {param: resolve_column(table, name, param)
               for param, name in (("model_a", model_a), ("model_b", model_b), ("winner", winner))}
    a = np.array(check_labels(table, columns["model_a"], "model name"), dtype=object)
    b = np.array(check_labels(table, columns["model_b"], "model name"), dtype=object)
    won = np.array(check_labels(table, columns["winner"], "winner"), dtype=object)
    itself = np.flatnonzero(a == b)
    if itself.size:
        raise EvalbarsError(f"a model cannot battle itself: {columns['model_a']!r} and "
                            f"{columns['model_b']!r} are both {a[itself[0]]!r} "
                            f"{table.at(itself)}")
    share = np.array([WINNER_WORDS.get(w, np.nan) for w in won])
    named = np.isnan(share)
    share[named & (won == a)] = 1.0
    share[named & (won == b)] = 0.0
    bad = np.flatnonzero(np.isnan(share))
    if bad.size:
        words = ", ".join(repr(w) for w in WINNER_WORDS)
        raise EvalbarsError(f"winner {won[bad[0]]!r} in column {columns['winner']!r} "
                            f"{table.at(bad)} is neither one of {words} nor one of the row's "
                            "two models")
    names, index = np.unique(np.concatenate([a, b]).astype(str), return_inverse=True)
    i, j = index[:a.size], index[a.size:]
    swap = i > j
    source = {"columns": columns, "inputs": [
        {"path": table.path, "sha256": sha256(table.path) if table.path is not None else None}]}
    return _Battles(tuple(names.tolist()), np.where(swap, j, i), np.where(swap, i, j),
                    np.where(swap, 1.0 - share, share), source)


# --- fitting ----------------------------------------------------------------------------


# --- the API ----------------------------------------------------------------------------


def _resampled(battles: _Battles, pair_of: np.ndarray, settings: Settings, progress):
    """Yield (wins, games) per block of resamples: (R, K) arrays over the K observed pairs.

    Battles are the unit. Each distinct (pair, outcome) is one row with its multiplicity,
    led by its row number, so the engine's canonical order, and so every draw, is the
    same whichever slice of pair columns is resampled: memory stays bounded and the
    numbers do not depend on it.
    """
    codes = pair_of * 3 + (2 * battles.share).astype(np.int64)
    patterns, multiplicity = np.unique(codes, return_counts=True)
    rows = np.arange(patterns.size, dtype=float)
    pattern_pair, pattern_share = patterns // 3, (patterns % 3) / 2.0
    n_pairs = int(pair_of.max()) + 1
    per_slice = max(1, _MAX_CELLS // max(patterns.size, 1) // 2)
    parent = child_seed(settings.seed, "bradley-terry")
    for block, start in enumerate(range(0, settings.n_resamples, BLOCK)):
        size = min(BLOCK, settings.n_resamples - start)
        seed = np.random.SeedSequence(parent.entropy, spawn_key=parent.spawn_key + (block,))
        wins, games = np.empty((size, n_pairs)), np.empty((size, n_pairs))
        for low in range(0, n_pairs, per_slice):
            high = min(n_pairs, low + per_slice)
            inside = (pattern_pair[:, None] == np.arange(low, high)).astype(float)
            units = np.column_stack([rows, inside * pattern_share[:, None], inside])
            sums = bootstrap_sums(units, n_resamples=size, seed=seed, multiplicity=multiplicity)
            wins[:, low:high] = sums[:, 1:1 + high - low]
            games[:, low:high] = sums[:, 1 + high - low:]
        if progress is not None:
            progress(size)
        yield wins, games


def bradley_terry(
    data,
    *,
    model_a: str = "model_a",
    model_b: str = "model_b",
    winner: str = "winner",
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    progress: bool = False,
) -> BradleyTerryResult:
    """Bradley-Terry ratings of models from pairwise battles, with bootstrap intervals.

    Parameters
    ----------
    data : path or pandas.DataFrame
        One row per battle (CSV, JSON Lines, Parquet or a DataFrame), or AlpacaEval
        annotations, a file or a folder of them: one battle per record (docs/logs.md).
    model_a, model_b, winner : str
        Column names: the two models of the battle, and the outcome: ``"model_a"``,
        ``"model_b"``, ``"tie"`` or ``"tie (bothbad)"`` (see :data:`WINNER_WORDS`), or
        the name of the winning model.
    confidence_level, n_resamples, seed
        Interval level, bootstrap resamples of the battles, and the seed (recorded).
    progress : bool
        Show a progress bar on stderr (only when stderr is a terminal).

    Returns
    -------
    BradleyTerryResult
        ``to_dict()`` is the ``bradley-terry`` report document (docs/leaderboard.md).

    Notes
    -----
    A tie counts as half a win for each side, so a model that ties every battle with
    another gets the same rating. Ratings are ``400 / ln(10)`` times the maximum
    likelihood log-strengths (:func:`fit`), shifted so that their mean is 0; the chance
    that i beats j is ``1 / (1 + 10^(-(R_i - R_j) / 400))``. Intervals are percentile
    intervals over bootstrap resamples of battles (stream ``bradley-terry``); a
    resample in which the ratings are not finite (some group of models won or lost every
    resampled battle against the rest) is left out and counted. The ratings must be
    finite for the data themselves, or the call fails naming the models at fault.

    Examples
    --------
    >>> import pandas as pd
    >>> battles = pd.DataFrame({
    ...     "model_a": ["x", "x", "y", "y", "z", "x"] * 20,
    ...     "model_b": ["y", "z", "z", "x", "x", "y"] * 20,
    ...     "winner": ["model_a", "model_a", "tie", "model_a", "model_b", "x"] * 20})
    >>> r = bradley_terry(battles, n_resamples=500)
    >>> [(m.name, round(m.rating), m.rank) for m in r.models]
    [('x', 180, 1), ('y', -4, 2), ('z', -176, 3)]
    """
    settings = checked_settings(confidence_level, n_resamples, seed)
    battles = _read_battles(data, model_a, model_b, winner)
    names, m = battles.names, len(battles.names)
    pair_codes, pair_of = np.unique(battles.first * m + battles.second, return_inverse=True)
    pairs = np.column_stack([pair_codes // m, pair_codes % m])
    wins = np.bincount(pair_of, weights=battles.share, minlength=len(pairs))
    games = np.bincount(pair_of, minlength=len(pairs)).astype(float)
    observed = wins_tables(pairs, wins[None, :], games[None, :], m)
    if not all_connected(observed)[0]:
        raise EvalbarsError(no_mle_message(observed[0], names))
    ratings = fit_stack(observed)[0]

    bar = bootstrap_bar(progress, 1, settings.n_resamples)
    try:
        replicates = np.concatenate([
            fit_stack(wins_tables(pairs, w, g, m))
            for w, g in _resampled(battles, pair_of, settings, bar)])
    finally:
        if bar is not None:
            bar.close()
    finite = ~np.isnan(replicates[:, 0])
    if not finite.any():
        raise EvalbarsError(f"in none of the {settings.n_resamples} bootstrap resamples of the "
                            f"{battles.first.size} battles are the ratings finite: too few "
                            "battles for intervals (or raise n_resamples)")
    replicates = replicates[finite]
    rank, low, high, best = rank_uncertainty(replicates, ratings,
                                             confidence_level=settings.confidence_level)
    outright = np.bincount(np.where(battles.share == 1.0, battles.first, battles.second)[
        battles.share != 0.5], minlength=m)
    tied = np.bincount(np.concatenate([battles.first, battles.second])[
        np.tile(battles.share == 0.5, 2)], minlength=m)
    played = np.bincount(np.concatenate([battles.first, battles.second]), minlength=m)
    rated = tuple(
        RatedModel(names[k], float(ratings[k]), (percentile_interval(
            replicates[:, k], method="bootstrap-percentile",
            confidence_level=settings.confidence_level),), int(played[k]), int(outright[k]),
            int(tied[k]), int(rank[k]), int(low[k]), int(high[k]), float(best[k]))
        for k in sorted(range(m), key=lambda k: (-ratings[k], names[k])))
    dropped = int(np.count_nonzero(~finite))
    warnings = () if not dropped else (
        f"in {dropped} of {settings.n_resamples} bootstrap resamples of the battles "
        f"({dropped / settings.n_resamples:.1%}) some group of models won or lost every "
        "resampled battle against the rest, so no finite ratings exist; these resamples are "
        "left out, which makes the intervals too narrow: models with few battles need more",)
    digest = hashlib.sha256("\x00".join(names).encode("utf-8"))
    digest.update(np.ascontiguousarray(np.column_stack([pairs, wins, games])).tobytes())
    provenance = {"version": __version__, "seed": settings.seed,
                  "inputs": battles.source["inputs"], "columns": battles.source["columns"],
                  "data_sha256": digest.hexdigest()}
    result = BradleyTerryResult(battles.first.size, settings, rated, dropped, "", warnings,
                                provenance)
    return dataclasses.replace(result, statement=bradley_terry_statement(result.to_dict()))
