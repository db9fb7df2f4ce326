"""What every analysis records besides its numbers: its checked settings and the
provenance of the data it read."""
from __future__ import annotations

import hashlib

import numpy as np

from ..core.errors import EvalbarsError
from ..core.seeding import check_seed
from ..core.version import __version__
from ..io.ingest import ItemScores
from .results import Settings


def checked_settings(confidence_level: float, n_resamples: int, seed: int) -> Settings:
    """The interval level, bootstrap resamples and seed of an analysis, checked.

    >>> checked_settings(0.9, 2000, 7)
    Settings(confidence_level=0.9, n_resamples=2000, seed=7)
    >>> checked_settings(95, 2000, 7)
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: confidence_level must be between 0 and 1, got 95
    """
    if isinstance(confidence_level, bool) or not 0.0 < float(confidence_level) < 1.0:
        raise EvalbarsError(f"confidence_level must be between 0 and 1, got {confidence_level!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise EvalbarsError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    return Settings(float(confidence_level), int(n_resamples), check_seed(seed))


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
