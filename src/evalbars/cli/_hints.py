"""Errors worded for the command that met them.

The Python API says how to name the models in Python
(:data:`evalbars.io.validate.CHOOSE_MODELS`); on the command line that hint becomes the
flags the command really has, read from its own parser, so compare suggests ``--a and
--b``, ci ``--models`` and gate ``--baseline and --candidate``, never a flag the command
lacks. An unknown model's mark of the keyword that named it (``(a=)``,
:mod:`evalbars.io.keywords`) becomes the flag that did: ``(--a)``; so does the mark of a
loading option a reader's error names (``(metric=)`` becomes ``(--metric)``).
"""
from __future__ import annotations

import argparse
import re

from ._options import LOAD_FLAGS, flags

_LOAD_MARK = re.compile(rf"\(({'|'.join(LOAD_FLAGS)})=\)")
"""The mark of a loading option in an error: ``(metric=)``, ``(scorer=)``."""

MODEL_FLAGS = (("--models",), ("--a", "--b"), ("--baseline", "--candidate"),
               ("--full", "--baseline", "--variants"), ("--baseline", "--candidates"))
"""The sets of flags that name the models a command reads, the first a command has wins."""


def _and(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def command_parser(parser: argparse.ArgumentParser,
                   args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` ran: ``evalbars plot gap``'s, not ``plot``'s."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if chosen in action.choices:
                return command_parser(action.choices[chosen], args)
    return parser


def model_flags(parser: argparse.ArgumentParser) -> str | None:
    """How this command's parser names models, as '--a and --b'; None if it cannot.

    >>> demo = argparse.ArgumentParser()
    >>> _ = demo.add_argument("--a"), demo.add_argument("--b")
    >>> model_flags(demo)
    '--a and --b'
    """
    options = {flag for action in parser._actions for flag in action.option_strings}
    return next((_and(flags) for flags in MODEL_FLAGS if options.issuperset(flags)), None)


def naming_flags(head: str, parser: argparse.ArgumentParser,
                 args: argparse.Namespace) -> str | None:
    """The flags of ``parser`` whose names ``head`` (a message before its mark) quotes, as
    '--a and --b'.

    >>> demo = argparse.ArgumentParser()
    >>> _ = demo.add_argument("--a"), demo.add_argument("--b")
    >>> naming_flags("unknown model 'zzz' ", demo, demo.parse_args(["--a", "zzz"]))
    '--a'
    """
    from ..io.table import short

    known = {flag for flags in MODEL_FLAGS for flag in flags}
    found = []
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        names = value if isinstance(value, list) else [value]
        flag = next((f for f in action.option_strings if f in known), None)
        if flag and any(n is not None and short(n) in head for n in names):
            found.append(flag)
    return _and(tuple(found)) if found else None


def load_flags(message: str, parser: argparse.ArgumentParser) -> str:
    """``message`` with the marks of loading options replaced by the flags of ``parser``
    that give them (left as they are for an option it lacks).

    >>> demo = argparse.ArgumentParser()
    >>> _ = demo.add_argument("--metric")
    >>> load_flags("task 't' has no metric 'f1' (metric=); also (scorer=)", demo)
    "task 't' has no metric 'f1' (--metric); also (scorer=)"
    """
    options = {flag for action in parser._actions for flag in action.option_strings}

    def flag(found: re.Match) -> str:
        spelled = flags([found.group(1)])[0]
        return f"({spelled})" if spelled in options else found.group(0)

    return _LOAD_MARK.sub(flag, message)


def worded(error, parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """An error about one argument, naming it by the flag of the command that met it
    (``--confidence-level``); any other error as it is.

    >>> from evalbars.core.errors import EvalbarsError
    >>> demo = argparse.ArgumentParser()
    >>> _ = demo.add_argument("--confidence-level", type=float)
    >>> worded(EvalbarsError.argument("confidence_level", 95.0, "below 1"), demo,
    ...        demo.parse_args([]))
    '--confidence-level must be below 1, got 95.0'
    """
    leaf = command_parser(parser, args)
    flag = next((action.option_strings[-1] for action in leaf._actions
                 if action.dest == error.parameter and action.option_strings), None)
    return str(error) if flag is None else error.worded(flag)


def for_command(message: str, parser: argparse.ArgumentParser,
                args: argparse.Namespace) -> str:
    """``message`` with its Python hints for naming models and its marks of loading options
    replaced by the command's flags (left as they are for a command without such a flag).

    >>> demo = argparse.ArgumentParser(prog="evalbars demo")
    >>> _ = demo.add_argument("--a"), demo.add_argument("--b")
    >>> for_command("unknown model 'zzz' (b=): not in column 'model'", demo,
    ...             demo.parse_args(["--a", "x", "--b", "zzz"]))
    "unknown model 'zzz' (--b): not in column 'model'"
    """
    from ..io.keywords import split
    from ..io.validate import CHOOSE_MODELS

    leaf = command_parser(parser, args)
    message = load_flags(message, leaf)
    choose = model_flags(leaf) if CHOOSE_MODELS in message else None
    if choose:
        message = message.replace(CHOOSE_MODELS, f"{choose} with {leaf.prog}")
    parts = split(message)
    named = naming_flags(parts[0], leaf, args) if parts else None
    return f"{parts[0]}({named}){parts[2]}" if named else message
