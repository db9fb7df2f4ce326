"""The files the commands write (``report``, ``plot``, ``playground -o``): whole or not at all.

Each file is written to a temporary file in the folder it goes to and renamed into place
(``os.replace``) only once it is complete, so a full disk, a refused write or Ctrl-C leaves
an existing file as it was and no temporary file behind.

May import: evalbars.core (the error class).
"""
from __future__ import annotations

import os
import secrets
import stat
from typing import Callable

from ..core.errors import EvalbarsError


def _reason(error: OSError) -> str:
    return " ".join(str(error.strerror or error).split())


def write_file(path: str, write: Callable[[str], object]) -> None:
    """Write the file ``path``: ``write(temporary)`` writes all of it to a temporary path
    (a hidden file beside ``path``, with the same suffix), which then replaces ``path``.

    A failure removes the temporary file, leaves ``path`` untouched and becomes one
    :class:`EvalbarsError` naming ``path``. An existing file keeps its permissions; a
    symbolic link is written through.
    """
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise EvalbarsError(f"cannot write {path!r}: Is a directory")
    folder, name = os.path.split(target)
    suffix = os.path.splitext(name)[1]
    try:
        for _ in range(100):
            temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp{suffix}")
            try:
                with open(temporary, "xb"):
                    break
            except FileExistsError:
                continue
        else:
            raise OSError(f"no free temporary name in {folder!r}")
    except OSError as error:
        raise EvalbarsError(f"cannot write {path!r}: {_reason(error)}") from None
    existed = os.path.exists(target)
    try:
        if existed:
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        write(temporary)
        os.replace(temporary, target)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if not isinstance(error, OSError):
            raise
        kept = f"; {path!r} is unchanged" if existed else ""
        raise EvalbarsError(f"cannot write {path!r}: {_reason(error)}{kept}") from None


def write_text(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to the file ``path``, whole or not at all (:func:`write_file`)."""
    from pathlib import Path

    write_file(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
