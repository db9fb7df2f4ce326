"""The keywords that named the models a caller chose, as errors mark them: ``(b=)``.

A reader (:mod:`evalbars.io.layouts`, :mod:`evalbars.io.columns`, the engines) knows only
the list of models it was given and marks an unknown one :data:`UNKNOWN`, ``(models=)``;
:func:`evalbars.io.inputs.read_scores`, told which keyword gave each name, puts that keyword
in its place (:func:`named`); an analysis that hands its models on under other keywords
renames them (:func:`renamed`: gate's ``baseline=`` is compare's ``a=``); the command line
puts the flag there (:func:`evalbars.cli._hints.for_command`): ``(--b)``.
"""
from __future__ import annotations

import contextlib
import re
from typing import Callable, Iterator, Mapping, Sequence

from ..core.errors import EvalbarsError
from .table import name_list, short

UNKNOWN = "(models=)"
"""How a reader marks an unknown model's name as one the caller chose."""

KEYWORDS = ("models", "a", "b", "baseline", "candidate", "candidates", "full", "variants")
"""The keywords of the analyses that name models."""

_WORD = "|".join(KEYWORDS)
_MARK = re.compile(rf"\(((?:{_WORD})=(?: and (?:{_WORD})=)*)\)")


def mark(keywords: Sequence[str]) -> str:
    """How an error marks the models that ``keywords`` named (each keyword once).

    >>> mark(["a", "b"]), mark(["models", "models"])
    ('(a= and b=)', '(models=)')
    """
    return "(" + " and ".join(f"{k}=" for k in dict.fromkeys(keywords)) + ")"


def split(message: str) -> tuple[str, list[str], str] | None:
    """``message`` around its first mark: the text before, the keywords, the text after.

    None when it has no mark of :data:`KEYWORDS` (``(metric=)`` is not one).

    >>> split("unknown models 'y', 'z' (a= and b=): not in column 'model'")
    ("unknown models 'y', 'z' ", ['a', 'b'], ": not in column 'model'")
    """
    found = _MARK.search(message)
    if found is None:
        return None
    words = [word[:-1] for word in found.group(1).split(" and ")]
    return message[:found.start()], words, message[found.end():]


def named(message: str, named_by: Mapping[str, object]) -> str:
    """``message`` with a reader's :data:`UNKNOWN` replaced by the keywords of ``named_by``
    (keyword -> the name or names it gave) whose names the text before it quotes.

    >>> named("unknown model 'z' (models=): no such column", {"a": "x", "b": "z"})
    "unknown model 'z' (b=): no such column"
    """
    head, marker, tail = message.partition(UNKNOWN)
    found = [keyword for keyword, names in named_by.items()
             if any(repr(name) in head or short(name) in head for name in _listed(names))]
    return head + mark(found) + tail if marker and found else message


def renamed(message: str, names: Mapping[str, str]) -> str:
    """``message`` with the keywords of its mark renamed by ``names``, for a caller that
    passed its models on under other keywords.

    >>> renamed("unknown model 'z' (b=); the data has 'x'", {"a": "baseline", "b": "candidate"})
    "unknown model 'z' (candidate=); the data has 'x'"
    """
    parts = split(message)
    if parts is None:
        return message
    head, words, tail = parts
    return head + mark([names.get(word, word) for word in words]) + tail


@contextlib.contextmanager
def rewording(reword: Callable[[str], str]) -> Iterator[None]:
    """Raise the errors of the block with their message passed through ``reword``.

    >>> with rewording(lambda m: renamed(m, {"a": "baseline"})):
    ...     raise EvalbarsError("unknown model 'z' (a=)")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: unknown model 'z' (baseline=)
    """
    try:
        yield
    except EvalbarsError as error:
        message = reword(str(error))
        if message == str(error):
            raise
        raise EvalbarsError(message) from None


def check_known(named_by: Mapping[str, object], models: Sequence[str]) -> None:
    """Refuse a name ``named_by`` gives (keyword -> name or names) that the data's ``models``
    lack, marking the keyword that gave it.

    >>> check_known({"baseline": "z", "candidates": ["x", "y"]}, ["x", "y"])
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: unknown model 'z' (baseline=); the data has 'x', 'y'
    """
    missing = {keyword: [name for name in _listed(names) if name not in models]
               for keyword, names in named_by.items()}
    unknown = list(dict.fromkeys(name for names in missing.values() for name in names))
    if unknown:
        raise EvalbarsError(
            f"unknown model{'s' if len(unknown) > 1 else ''} {name_list(unknown)} "
            f"{mark([keyword for keyword, names in missing.items() if names])}; the data has "
            f"{name_list(models)}")


def _listed(names: object) -> list:
    return [] if names is None else [names] if isinstance(names, str) else list(names)
