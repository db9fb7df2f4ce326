"""JSON logs: whole-file documents, parsed once even when detection looked at them
first, and JSON-lines files read line by line.

:func:`peek` parses a file to recognise its format and keeps the result in a single slot;
the reader's :func:`load` of the same unchanged file takes it from there instead of
parsing it again (a log of hundreds of megabytes is parsed once). :func:`lines` yields the
records of a JSON-lines file with their line numbers.
"""
from __future__ import annotations

import json
import os
from typing import Any, Iterator

from ...core.errors import EvalbarsError

_slot: dict[str, Any] = {}


def _stamp(path: str) -> tuple:
    info = os.stat(path)
    return (os.path.abspath(path), info.st_size, info.st_mtime_ns)


def peek(path: str, keep: bool = True) -> Any:
    """The parsed document, or None when the file is not JSON; with ``keep``, kept for
    :func:`load` (until :func:`forget`)."""
    try:
        with open(path, "rb") as handle:
            obj = json.load(handle)
    except (ValueError, OSError, RecursionError):
        return None
    if keep:
        _slot.clear()
        _slot[repr(_stamp(path))] = obj
    return obj


def forget() -> None:
    """Drop the kept document."""
    _slot.clear()


def load(path: str) -> Any:
    """The parsed document; an error naming the file and line when it is not JSON."""
    try:
        cached = _slot.pop(repr(_stamp(path)), None)
        if cached is not None:
            return cached
        with open(path, "rb") as handle:
            return json.load(handle)
    except json.JSONDecodeError as exc:
        raise EvalbarsError(f"{path!r} is not valid JSON: {exc.msg} at line {exc.lineno}") \
            from None
    except UnicodeDecodeError:
        raise EvalbarsError(f"{path!r} is not UTF-8 JSON text") from None
    except ValueError:  # an integer past Python's 4300-digit limit
        raise EvalbarsError(f"{path!r} holds a number too long to read (an integer of more "
                            f"than 4300 digits)") from None
    except RecursionError:
        raise EvalbarsError(f"{path!r} nests JSON arrays or objects too deeply to read") \
            from None


def lines(path: str) -> Iterator[tuple[int, Any]]:
    """``(line number, record)`` for each non-blank line of a JSON-lines file; an error
    naming the file and line where one is not JSON."""
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                yield lineno, json.loads(raw)
            except (ValueError, RecursionError) as exc:
                raise EvalbarsError(f"line {lineno} of {path!r} is not valid JSON ({exc})") \
                    from None
