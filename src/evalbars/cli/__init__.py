"""The command line: parse arguments, call the Python API, render. Nothing else.

Heavy modules (numpy, scipy) are imported only after the arguments are parsed, so
``evalbars --help`` answers at once. Commands live in :mod:`evalbars.cli`; a
command whose exit status depends on the result (a CI gate) sets ``exit_status``, a
function of the document, as a parser default.

May import: every layer (it is the top); the command modules import the Python API only
inside their handlers.
"""
from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys

from ..core.version import __version__

EXIT_BAD_INPUT = 2


def command_modules() -> list[str]:
    """Names of the command modules in this package, in a stable order.

    Every public module of :mod:`evalbars.cli` is a command module with
    ``register(subparsers)``: it only builds argparse parsers (no numpy or scipy at import)
    and sets ``handler(args) -> dict`` on each, which runs the Python API and returns the
    report document that :func:`emit` renders. Add a command by adding a module.
    """
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every command."""
    parser = argparse.ArgumentParser(
        prog="evalbars",
        description="Is that improvement real? Error bars and paired comparisons for eval "
                    "scores.",
        epilog="Example: evalbars compare examples/lesson_pair.csv --a model_a --b model_b")
    parser.add_argument("--version", action="version", version=f"evalbars {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_modules():
        importlib.import_module(f".{name}", __package__).register(commands)
    return parser


def emit(doc: dict, output_format: str) -> None:
    """Write a report document to stdout as JSON, Markdown or the terminal report.

    With JSON, stdout carries the document only and warnings go to stderr.
    """
    from ..report.text.render import render

    if output_format == "json":
        for warning in doc.get("warnings", []):
            print(f"evalbars: warning: {warning}", file=sys.stderr)
        sys.stdout.write(json.dumps(doc, indent=2, allow_nan=False) + "\n")
    else:
        sys.stdout.write(render(doc, output_format))


def _os_error(error: OSError) -> str:
    """``"cannot use 'out.html': Is a directory"``: what the system refused, on one line."""
    where = f"cannot use {error.filename!r}: " if error.filename is not None else ""
    return where + " ".join(str(error.strerror or error).split())


def _damaged(path: str, error: Exception) -> str:
    """What is wrong with a saved document that failed to render (edited, truncated)."""
    what = (f"lacks the field {error.args[0]!r}" if isinstance(error, KeyError)
            else f"has a field of the wrong shape ({type(error).__name__}: {error})")
    return (f"--from-json {path!r} is not a complete report document: it {what}; write it "
            "again with the command's --format json")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``evalbars`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    from ..core.errors import EvalbarsError

    try:
        doc = args.handler(args)
        emit(doc, args.format)
    except EvalbarsError as error:
        print(f"evalbars: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:  # a file the command writes or reads: a folder, no permission
        print(f"evalbars: error: {_os_error(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        if getattr(args, "from_json", None) is None:
            raise  # a bug, not bad input: keep the traceback
        print(f"evalbars: error: {_damaged(args.from_json, error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    exit_status = getattr(args, "exit_status", None)
    return exit_status(doc) if exit_status is not None else 0


if __name__ == "__main__":
    sys.exit(main())
