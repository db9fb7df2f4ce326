"""Names a package hands out from its modules, each imported on first use.

``import evalbars.io`` (or ``evalbars.stats``) stays light: a name of its face is imported
from its module when it is first asked for, then kept. The table of names and modules is
fixed in the package: nothing a user passes picks a module.
"""
from __future__ import annotations

import importlib
import sys
from typing import Callable


def lazy_face(package: str, homes: dict[str, str]) -> tuple[Callable, Callable]:
    """``__getattr__`` and ``__dir__`` for ``package``, whose name ``n`` lives in its
    module ``homes[n]``.

    >>> getattr_, dir_ = lazy_face("evalbars.io", {"load": "ingest"})
    >>> getattr_("load").__name__, "load" in dir_()
    ('load', True)
    """
    def __getattr__(name: str):
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
