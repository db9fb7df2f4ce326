"""Seeds: every random draw comes from a child stream of the user's seed, keyed by name.

The key makes streams stable: the bootstrap of model ``"b"`` draws the same numbers
whether or not another model is added to the comparison.
"""
from __future__ import annotations

import zlib

import numpy as np

from .errors import EvalbarsError


def check_seed(seed: object) -> int:
    """Return ``seed`` as a non-negative int, or raise EvalbarsError."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise EvalbarsError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def child_seed(seed: int, key: str) -> np.random.SeedSequence:
    """The SeedSequence for the stream named ``key`` under ``seed``.

    >>> first = child_seed(0, "model:a").generate_state(2)
    >>> bool((first == child_seed(0, "model:a").generate_state(2)).all())
    True
    """
    return np.random.SeedSequence(check_seed(seed), spawn_key=(zlib.crc32(key.encode("utf-8")),))
