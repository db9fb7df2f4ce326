"""One module per CLI command group; each has ``register(subparsers)``.

A module's ``register`` only builds argparse parsers (no numpy or scipy at import) and
sets ``handler`` on each parser: ``handler(args) -> dict`` runs the Python API and
returns the report document, which the CLI renders. Every public module in this package
is a command module: add a command by adding a module.
"""
from __future__ import annotations

import pkgutil


def command_modules() -> list[str]:
    """Names of the command modules in this package, in a stable order."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
