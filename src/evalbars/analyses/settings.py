"""What every analysis records besides its numbers: its checked settings and the
provenance of the data it read."""
from __future__ import annotations

import hashlib

import numpy as np

from ..core.arguments import check_confidence_level
from ..core.errors import EvalbarsError
from ..core.seeding import check_seed
from ..core.version import __version__
from ..io.ingest import ItemScores
from .results import Settings

MIN_RESAMPLES = 100
"""Fewest bootstrap resamples an analysis accepts: below it a 95% percentile interval
rests on two or three resamples per tail and can miss its own estimate."""
MAX_RESAMPLES = 10**7
"""Most bootstrap resamples an analysis accepts: beyond it the Monte Carlo error is far
below the printed precision, and every resample costs memory (8 bytes per statistic)
and time."""


def check_resamples(n_resamples: object, *, positive: str = "a positive integer") -> int:
    """``n_resamples`` as an int from :data:`MIN_RESAMPLES` to :data:`MAX_RESAMPLES`.

    ``positive`` words the refusal of a value that is not a positive integer at all.

    >>> check_resamples(2000)
    2000
    >>> check_resamples(5)
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: n_resamples (--n-resamples) must be at least 100, \
got 5: with fewer, a bootstrap interval's ends rest on a handful of resamples and it can \
exclude its own estimate
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise EvalbarsError(f"n_resamples must be {positive}, got {n_resamples!r}")
    if n_resamples < MIN_RESAMPLES:
        raise EvalbarsError(
            f"n_resamples (--n-resamples) must be at least {MIN_RESAMPLES}, got {n_resamples}: "
            "with fewer, a bootstrap interval's ends rest on a handful of resamples and it can "
            "exclude its own estimate")
    if n_resamples > MAX_RESAMPLES:
        raise EvalbarsError(
            f"n_resamples (--n-resamples) must be at most {MAX_RESAMPLES:,}, got "
            f"{n_resamples:,}: more resamples change no printed digit and would need "
            "8 bytes of memory each per statistic and hours of computing")
    return int(n_resamples)


def checked_settings(confidence_level: float, n_resamples: int, seed: int) -> Settings:
    """The interval level, bootstrap resamples and seed of an analysis, checked.

    >>> checked_settings(0.9, 2000, 7)
    Settings(confidence_level=0.9, n_resamples=2000, seed=7, alternative='two-sided')
    >>> checked_settings(95, 2000, 7)
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: confidence_level must be a number strictly between \
0 and 1 (0.95 for 95%), got 95
    """
    level = check_confidence_level(confidence_level)
    return Settings(level, check_resamples(n_resamples), check_seed(seed))


def provenance(scores: ItemScores, settings: Settings) -> dict:
    """The ``provenance`` of a report: version, seed, the files read, what was read from
    them and a SHA-256 of the aligned data (scores, answer counts, item ids, clusters)."""
    digest = hashlib.sha256()
    for array in (scores.scores, scores.counts, scores.sumsq):
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update("\x00".join(scores.items).encode("utf-8"))
    if scores.clusters is not None:
        digest.update(b"\x01" + "\x00".join(scores.clusters).encode("utf-8"))
    source = {key: value for key, value in scores.source.items() if key != "inputs"}
    return {
        "version": __version__,
        "seed": settings.seed,
        "inputs": scores.source.get("inputs", []),
        "source": {**source, "description": scores.describe()},
        "data_sha256": digest.hexdigest(),
    }
