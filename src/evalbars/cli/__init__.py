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
EXIT_INTERRUPTED = 130


COMMAND_ORDER = ("scores", "gate", "monitor", "leaderboard", "select", "seeds", "ablation",
                 "passk", "power", "report", "plot", "simulate", "playground")
"""The command modules in the order a user meets them, which is the order of the command
list in ``evalbars --help`` (scores holds ci and compare); a module not named here comes
after them, in alphabetical order."""


def command_modules() -> list[str]:
    """Names of the command modules in this package, in :data:`COMMAND_ORDER`.

    Every public module of :mod:`evalbars.cli` is a command module with
    ``register(subparsers)``: it only builds argparse parsers (no numpy or scipy at import)
    and sets ``handler(args) -> dict`` on each, which runs the Python API and returns the
    report document that :func:`emit` renders. A command that writes a file (``-o``) also
    sets ``write_output(args, doc, path)``, which writes it to ``path`` (see
    :func:`_write_output`). Add a command by adding a module.
    """
    names = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return sorted(names, key=lambda name: (COMMAND_ORDER.index(name) if name in COMMAND_ORDER
                                           else len(COMMAND_ORDER), name))


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


def _rendered(doc: dict, output_format: str) -> str:
    """A report document as the text stdout gets: JSON, Markdown or the terminal report."""
    if output_format == "json":
        return json.dumps(doc, indent=2, allow_nan=False) + "\n"
    from ..report.text.render import render

    return render(doc, output_format)


def _warn(doc: dict) -> None:
    for warning in doc.get("warnings", []):
        print(f"evalbars: warning: {warning}", file=sys.stderr)


def emit(doc: dict, output_format: str) -> None:
    """Write a report document to stdout as JSON, Markdown or the terminal report.

    With JSON, stdout carries the document only and warnings go to stderr.
    """
    text = _rendered(doc, output_format)
    if output_format == "json":
        _warn(doc)
    sys.stdout.write(text)


def _write_output(args: argparse.Namespace, doc: dict | None) -> None:
    """The end of a command that writes a file (``-o``): ``args.write_output(args, doc,
    path)`` writes it.

    The document is rendered first (so a damaged one is refused before anything is
    written), the file is written whole or not at all (:func:`evalbars.cli._files.write_file`),
    and only then does stderr say ``wrote PATH``. The text report is not printed (the file
    is the report; its warnings go to stderr); ``--format json`` or ``markdown`` prints
    the document or the Markdown report on stdout as well. ``doc`` is None when the
    command has nothing to print.
    """
    from ..report.escape import visible
    from ._files import write_file

    text = None if doc is None else _rendered(doc, args.format)
    write_file(args.output, lambda path: args.write_output(args, doc, path))
    if doc is not None and args.format != "markdown":
        _warn(doc)
    shown = visible(str(args.output))
    print(f"evalbars: wrote {shown}{getattr(args, 'output_note', '')}", file=sys.stderr)
    if text is not None and args.format != "text":
        sys.stdout.write(text)


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
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # a bare "evalbars": what can it do?
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    from ..core.errors import EvalbarsError

    try:
        doc = args.handler(args)
        if getattr(args, "write_output", None) is None:
            emit(doc, args.format)
        else:
            _write_output(args, doc)
    except KeyboardInterrupt:  # Ctrl-C: no traceback; 130 = 128 + SIGINT, as shells report
        if sys.stderr.isatty():  # over a progress bar's line
            sys.stderr.write("\r" + " " * 60 + "\r")
        print("evalbars: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except EvalbarsError as error:
        from ._hints import for_command, worded

        print(f"evalbars: error: {for_command(worded(error, parser, args), parser, args)}",
              file=sys.stderr)
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
