"""JSON logs: whole-file documents, parsed once even when detection looked at them
first, and JSON-lines files read line by line.

:func:`peek` parses a file to recognise its format and keeps the result in a single slot;
the reader's :func:`load` of the same unchanged file takes it from there instead of
parsing it again (a log of hundreds of megabytes is parsed once). :func:`lines` yields the
records of a JSON-lines file with their line numbers.

A document of more than :data:`~evalbars.io.logs._zip.MAX_ENTRY_VALUES` JSON values (its
``[``, ``{`` and ``,`` characters, counted as the file is read) would take gigabytes to
parse whole. ``peek(..., partial=True)`` then parses only its outline, and
:func:`records` (an inspect ``.json`` log) parses its array of samples one element at a
time (:mod:`._json_stream`), each under the caps of one ``.eval`` entry.
"""
from __future__ import annotations

import json
import os
from typing import Any, Iterator

from ...core.errors import EvalbarsError
from . import _json_stream, _zip

_slot: dict[str, Any] = {}


def _stamp(path: str) -> tuple:
    info = os.stat(path)
    return (os.path.abspath(path), info.st_size, info.st_mtime_ns)


def peek(path: str, keep: bool = True, partial: bool = False) -> Any:
    """The parsed document, or None when the file is not JSON; with ``keep``, kept for
    :func:`load` (until :func:`forget`).

    With ``partial``, a document too large to parse whole (see the module) comes back as
    its outline, never kept: each object with its members, each array with its first
    element only (:func:`is_partial` tells), enough to recognise its format.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
        if partial and _json_stream.values(raw) > _zip.MAX_ENTRY_VALUES:
            return _json_stream.outline(raw)
        obj = json.loads(raw)
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
    cached = _slot.pop(repr(_stamp(path)), None)
    if cached is not None:
        return cached
    with open(path, "rb") as handle:
        return _parsed(handle.read(), path)


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


def is_partial(obj: Any) -> bool:
    """True for the outline :func:`peek` gives of a document too large to parse whole."""
    return isinstance(obj, (_json_stream.Outline, _json_stream.OutlineList))


def records(path: str, key: str, doc: Any = None) -> tuple[dict, Iterator[tuple[int, Any]]]:
    """The members of the JSON object in ``path`` but ``key``, and ``(index, element)`` of
    the array at ``key`` (absent or not an array: none).

    A file of at most :data:`~._zip.MAX_ENTRY_BYTES` and
    :data:`~._zip.MAX_ENTRY_VALUES` values is parsed whole (``doc``, when given and not
    partial, is used as it is); a larger one a member and an element at a time, each
    refused past the caps of one ``.eval`` entry, before it is parsed. An error names the
    file, and the element or member, when the document is not a JSON object or breaks
    those caps.

    Examples
    --------
    >>> from evalbars.io.logs import _json
    >>> head, samples = _json.records("tests/data/logs/inspect/epochs_a.json", "samples")
    >>> head["eval"]["model"], [sample["id"] for _, sample in samples][:3]
    ('openai/model-a', [1, 1, 2])
    """
    if doc is None or is_partial(doc):
        with open(path, "rb") as handle:
            raw = handle.read()
        if len(raw) <= _zip.MAX_ENTRY_BYTES and \
                _json_stream.values(raw) <= _zip.MAX_ENTRY_VALUES:
            doc = _parsed(raw, path)
        else:
            return _json_stream.members(raw, key, path)
    if not isinstance(doc, dict):
        raise EvalbarsError(f"{path!r} does not hold a JSON object")
    items = doc.get(key)
    head = {name: value for name, value in doc.items() if name != key}
    return head, iter(enumerate(items) if isinstance(items, list) else ())


def _parsed(raw: bytes, path: str) -> Any:
    try:
        return json.loads(raw)
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
