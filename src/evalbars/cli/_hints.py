"""Errors worded for the command that met them.

The Python API says how to name the models in Python
(:data:`evalbars.io.validate.CHOOSE_MODELS`); on the command line that hint becomes the
flags the command really has, read from its own parser, so compare suggests ``--a and
--b``, ci ``--models`` and gate ``--baseline and --candidate``, never a flag the command
lacks.
"""
from __future__ import annotations

import argparse

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


def for_command(message: str, parser: argparse.ArgumentParser,
                args: argparse.Namespace) -> str:
    """``message`` with its Python hint for naming models replaced by the command's flags
    (left as it is for a command without such a flag)."""
    from ..io.validate import CHOOSE_MODELS

    leaf = command_parser(parser, args)
    flags = model_flags(leaf) if CHOOSE_MODELS in message else None
    return message.replace(CHOOSE_MODELS, f"{flags} with {leaf.prog}") if flags else message
