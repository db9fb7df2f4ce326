"""What makes a report document: its schema version, and JSON-safe values.

A result's ``to_dict()`` is its report document (schema_version 1, docs/json.md); every
renderer reads only that document.
"""
from __future__ import annotations

import math

SCHEMA_VERSION = 1


def json_safe(value: object) -> object:
    """Replace non-finite floats (not valid JSON) by None, recursively.

    >>> json_safe({"low": float("nan"), "ends": (1.0, float("inf"))})
    {'low': None, 'ends': [1.0, None]}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value
