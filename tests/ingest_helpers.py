"""Helpers shared by the ingest and reader tests (imported, not collected)."""
from __future__ import annotations

from pathlib import Path

import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """Write ``content`` byte for byte (no newline translation)."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message, "messages are one line"
    return message


def cli_error(capsys: pytest.CaptureFixture, *argv) -> str:
    """The one error line ``evalbars ARGV`` prints, without its prefix; asserts exit status 2
    and nothing on stdout."""
    from evalbars.cli import main

    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1, (status, err)
    assert err.startswith("evalbars: error: "), err
    return err[len("evalbars: error: "):-1]
