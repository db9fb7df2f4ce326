"""Parse a JSON document too large to parse whole: its members and array elements one at
a time, each under the caps of one ``.eval`` entry.

Where a JSON value ends is found in the file's bytes without parsing it: a regular
expression steps from bracket to bracket over everything else, strings included
(:func:`_end`), and the scan stops with an error past
:data:`~evalbars.io.logs._zip.MAX_ENTRY_VALUES` opening brackets. The value's ``[``,
``{`` and ``,`` characters are then counted in place (an upper bound on the arrays,
objects and values it holds, as :mod:`evalbars.io.logs._zip` counts them) and its bytes
are parsed only within that cap. Memory is the file's bytes and one element's objects,
whatever the number of elements.

Examples
--------
>>> from evalbars.io.logs import _json_stream
>>> raw = b'{"eval": {"task": "t"}, "samples": [{"id": 1}, {"id": 2}], "end": 1}'
>>> head, samples = _json_stream.members(raw, "samples", "log.json")
>>> head, list(samples)
({'eval': {'task': 't'}, 'end': 1}, [(0, {'id': 1}), (1, {'id': 2})])
>>> _json_stream.outline(raw, cap=3)  # as if the document held too many values
{'eval': {'task': 't'}, 'samples': [{'id': 1}]}
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterator

from ...core.errors import EvalbarsError
from . import _zip

_PLAIN = rb'[^"\[\]{}]*'
_STRING = rb'"[^"\\]*(?:\\.[^"\\]*)*"'
_STEP = re.compile(_PLAIN + rb"(?:" + _STRING + _PLAIN + rb")*[\[\]{}]", re.S)
"""Bytes up to the next bracket outside a string, and that bracket (unrolled: it
backtracks no more than linearly)."""
_STRING_AT = re.compile(_STRING, re.S)
_SCALAR_AT = re.compile(rb"-?(?:Infinity|[0-9][0-9.eE+-]*)|true|false|null|NaN")
"""A number or a literal, loosely: parsing the value that holds it checks it."""
_SPACE = re.compile(rb"[ \t\n\r]*")

_OUTLINE_BRACKETS = 100_000
"""An outline opens a part of more brackets than this without looking for its end."""


class Outline(dict):
    """An object of a document's outline, cut after its first part too large to parse."""


class OutlineList(list):
    """An array of a document's outline: its first element only."""


def values(raw: bytes, start: int = 0, end: int | None = None) -> int:
    """The ``[``, ``{`` and ``,`` characters of ``raw[start:end]`` (counted in place): a
    bound on the values it holds."""
    return raw.count(b"[", start, end) + raw.count(b"{", start, end) + \
        raw.count(b",", start, end)


def outline(raw: bytes, cap: int | None = None) -> Any:
    """The document with each part of more than ``cap`` values (default
    :data:`~evalbars.io.logs._zip.MAX_ENTRY_VALUES`) or :data:`_OUTLINE_BRACKETS`
    opening brackets opened: an array to its first element, an object up to its first
    member opened; None when it is not JSON."""
    cap = _zip.MAX_ENTRY_VALUES if cap is None else cap
    try:
        raw = _utf8(raw, "")
        return _outline(raw, _skip(raw, 0), 0, cap)[0]
    except (ValueError, EvalbarsError, IndexError, RecursionError):
        return None


def _outline(raw: bytes, start: int, depth: int, cap: int) -> tuple[Any, int | None]:
    """(the value at ``start`` or its outline, where it ends or None when it was cut)."""
    try:
        end = _end(raw, start, "", "", _OUTLINE_BRACKETS)
    except EvalbarsError:  # too large to take whole: open it
        end = None
    if end is not None and end - start <= _zip.MAX_METADATA_BYTES and \
            values(raw, start, end) <= cap:
        return json.loads(raw[start:end]), end
    if depth > 32 or raw[start:start + 1] not in (b"[", b"{"):
        raise ValueError("nested too deeply, or a value too long, to outline")
    if raw[start:start + 1] == b"[":
        first = _skip(raw, start + 1)
        if raw[first:first + 1] == b"]":
            return [], first + 1
        return OutlineList([_outline(raw, first, depth + 1, cap)[0]]), None
    members = Outline()

    def take(name: str, at: int) -> int | None:
        members[name], end = _outline(raw, at, depth + 1, cap)
        return end

    return members, _object(raw, start, "", take)


def members(raw: bytes, key: str, path: str) -> tuple[dict, Iterator[tuple[int, Any]]]:
    """The members of the top-level object but ``key``, and the elements of the array at
    ``key`` as ``(index, element)``, parsed one at a time (see the module)."""
    if len(raw) > _zip.MAX_TOTAL_BYTES:
        raise EvalbarsError(f"{path!r} is larger than {_zip.MAX_TOTAL_BYTES:,} bytes "
                            f"(evalbars.io.logs._zip.MAX_TOTAL_BYTES); refusing to read it")
    raw = _utf8(raw, path)
    start = _skip(raw, 0)
    if raw[start:start + 1] != b"{":
        raise EvalbarsError(f"{path!r} does not hold a JSON object")
    head: dict = {}
    spans: list[tuple[int, int]] = [(0, 0)]

    def take(name: str, at: int) -> int:
        if name == key and raw[at:at + 1] == b"[":
            spans[:] = _spans(raw, at, key, path)
            return spans[-1][1]
        end = _end(raw, at, f"member {name!r}", path)
        head[name] = _parse(raw, at, end, f"member {name!r}", path, _zip.MAX_METADATA_BYTES)
        return end

    _object(raw, start, path, take)
    return head, ((k, _parse(raw, a, b, f"{key}[{k}]", path, _zip.MAX_ENTRY_BYTES))
                  for k, (a, b) in enumerate(spans[:-1]))


def _spans(raw: bytes, start: int, key: str, path: str) -> list[tuple[int, int]]:
    """(start, end) of each element of the array at ``start``, then (end, end) of the
    array itself."""
    at, spans = _skip(raw, start + 1), []
    if raw[at:at + 1] == b"]":
        return [(at + 1, at + 1)]
    while True:
        end = _end(raw, at, f"{key}[{len(spans)}]", path)
        spans.append((at, end))
        at = _skip(raw, end)
        if raw[at:at + 1] == b"]":
            return spans + [(at + 1, at + 1)]
        if raw[at:at + 1] != b",":
            raise _broken(raw, at, path)
        at = _skip(raw, at + 1)


def _object(raw: bytes, start: int, path: str,
            take: Callable[[str, int], int | None]) -> int | None:
    """Call ``take(name, start)`` for each member of the object at ``start``, which returns
    where the member's value ends, or None to stop there; where the object ends (None when
    stopped)."""
    at = _skip(raw, start + 1)
    if raw[at:at + 1] == b"}":
        return at + 1
    while True:
        found = _STRING_AT.match(raw, at)
        if found is None:
            raise _broken(raw, at, path)
        name = _parse(raw, at, found.end(), "a member name", path, _zip.MAX_METADATA_BYTES)
        at = _skip(raw, found.end())
        if raw[at:at + 1] != b":":
            raise _broken(raw, at, path)
        end = take(name, _skip(raw, at + 1))
        if end is None:
            return None
        at = _skip(raw, end)
        if raw[at:at + 1] == b"}":
            return at + 1
        if raw[at:at + 1] != b",":
            raise _broken(raw, at, path)
        at = _skip(raw, at + 1)


def _end(raw: bytes, start: int, where: str, path: str, cap: int | None = None) -> int:
    """Where the JSON value at ``start`` ends, found without parsing it; an error past
    ``cap`` (default MAX_ENTRY_VALUES) opening brackets."""
    if raw[start:start + 1] not in (b"[", b"{"):
        found = (_STRING_AT if raw[start:start + 1] == b'"' else _SCALAR_AT).match(raw, start)
        if found is None:
            raise _broken(raw, start, path)
        return found.end()
    cap = _zip.MAX_ENTRY_VALUES if cap is None else cap
    depth, opened, at, match = 1, 1, start + 1, _STEP.match
    while True:
        found = match(raw, at)
        if found is None:
            raise EvalbarsError(f"{path!r} is not valid JSON: {where or 'the document'} is "
                                f"cut short")
        at = found.end()
        if raw[at - 1] in b"[{":
            depth += 1
            opened += 1
            if opened > cap:
                raise _too_many(where, path)
        else:
            depth -= 1
            if not depth:
                return at


def _parse(raw: bytes, start: int, end: int, where: str, path: str, cap: int) -> Any:
    if end - start > cap:
        raise EvalbarsError(f"{where} of {path!r} is larger than {cap:,} bytes "
                            f"(evalbars.io.logs._zip caps); refusing to parse it")
    if values(raw, start, end) > _zip.MAX_ENTRY_VALUES:
        raise _too_many(where, path)
    try:
        return json.loads(raw[start:end])
    except json.JSONDecodeError as exc:
        line = raw.count(b"\n", 0, start) + exc.lineno
        raise EvalbarsError(f"{path!r} is not valid JSON: {exc.msg} at line {line}") from None
    except UnicodeDecodeError:
        raise EvalbarsError(f"{where} of {path!r} is not UTF-8 JSON text") from None
    except RecursionError:
        raise EvalbarsError(f"{where} of {path!r} nests JSON arrays or objects too deeply "
                            f"to read") from None
    except ValueError:  # an integer past Python's 4300-digit limit
        raise EvalbarsError(f"{where} of {path!r} holds a number too long to read") from None


def _too_many(where: str, path: str) -> EvalbarsError:
    return EvalbarsError(
        f"{where} of {path!r} holds more than {_zip.MAX_ENTRY_VALUES:,} JSON values "
        f"(counted as its '[', '{{' and ',' characters; "
        f"evalbars.io.logs._zip.MAX_ENTRY_VALUES); refusing to parse it, which would take "
        f"gigabytes of memory")


def _utf8(raw: bytes, path: str) -> bytes:
    """``raw`` as UTF-8 without a byte-order mark (a UTF-16 or UTF-32 file re-encoded)."""
    encoding = json.detect_encoding(raw)
    if encoding == "utf-8":
        return raw
    try:
        return raw.decode(encoding).encode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        raise EvalbarsError(f"{path!r} is not UTF-8 JSON text") from None


def _skip(raw: bytes, at: int) -> int:
    return _SPACE.match(raw, at).end()


def _broken(raw: bytes, at: int, path: str) -> EvalbarsError:
    what = "the document is cut short" if at >= len(raw.rstrip()) else "unexpected text"
    line = raw.count(b"\n", 0, at) + 1
    return EvalbarsError(f"{path!r} is not valid JSON: {what} at line {line}")
