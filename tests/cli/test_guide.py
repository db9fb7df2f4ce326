"""Every command in docs/guide.md runs and prints the output lines the guide shows.

A command is a line starting with ``$ evalbars`` inside a ```` ```console ```` block; the
lines after it, up to the next command, are output the command must print, in that order
(``...`` stands for lines left out). Commands run in order, in one scratch folder that
links to ``examples/``, so a file one command writes (``> result.json``) is there for the
next. A command whose subcommand does not exist yet is skipped, with the reason. The
guide's ``$ mkdir -p out`` makes the folder its files go to (so a reader's checkout stays
clean); here it makes that folder in the scratch folder.
"""
import shlex
from pathlib import Path

import pytest

from evalbars.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide.md"


def guide_commands() -> list[tuple[str, list[str]]]:
    """(command line, expected output lines) for every command of the guide, in order."""
    found, fence, console = [], False, False
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence, console = not fence, (not fence and line.strip() == "```console")
            continue
        if not console:
            continue
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line.rstrip())
    return found


COMMANDS = guide_commands()
SUBCOMMANDS = set(build_parser()._subparsers._group_actions[0].choices)


def is_mkdir(command: str) -> bool:
    return shlex.split(command)[0] == "mkdir"


def mkdir(command: str, folder: Path) -> None:
    """``mkdir -p DIR...`` of the guide, inside ``folder``."""
    argv = shlex.split(command)
    assert argv[:2] == ["mkdir", "-p"] and len(argv) > 2, command
    for name in argv[2:]:
        (folder / name).mkdir(parents=True, exist_ok=True)


def split(command: str) -> tuple[list[str], str | None]:
    """The arguments after ``evalbars``, and the file stdout is redirected to (or None)."""
    argv = shlex.split(command)
    assert argv[0] == "evalbars", command
    if ">" in argv:
        at = argv.index(">")
        return argv[1:at], argv[at + 1]
    return argv[1:], None


def run(argv: list[str], redirect: str | None, capsys) -> tuple[int, str]:
    status = main(argv)
    out = capsys.readouterr().out
    if redirect is not None:
        Path(redirect).write_text(out, encoding="utf-8")
    return status, out


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("guide")
    (folder / "examples").symlink_to(ROOT / "examples")
    return folder


def test_the_guide_has_commands_for_every_part_of_the_story():
    used = {split(command)[0][0] for command, _ in COMMANDS if not is_mkdir(command)}
    assert {"simulate", "ci", "compare", "plot", "playground", "passk", "power", "leaderboard",
            "report", "gate"} <= used
    assert len(COMMANDS) >= 20


@pytest.mark.parametrize("command,expected", COMMANDS, ids=[c[:60] for c, _ in COMMANDS])
def test_guide_command(command, expected, scratch, monkeypatch, capsys):
    if is_mkdir(command):
        mkdir(command, scratch)
        return
    for earlier, _ in COMMANDS:  # run alone (-k): the folders come first
        if earlier == command:
            break
        if is_mkdir(earlier):
            mkdir(earlier, scratch)
    argv, redirect = split(command)
    if argv[0] not in SUBCOMMANDS:
        pytest.skip(f"'evalbars {argv[0]}' does not exist yet (being built); the guide "
                    "already documents it")
    if argv[0] == "plot":
        pytest.importorskip("matplotlib")
    monkeypatch.chdir(scratch)
    if "--from-json" in argv and not Path(argv[argv.index("--from-json") + 1]).exists():
        wanted = argv[argv.index("--from-json") + 1]
        for earlier, _ in COMMANDS:  # run alone (-k): make the file an earlier command writes
            if not is_mkdir(earlier) and split(earlier)[1] == wanted:
                run(*split(earlier), capsys)
    status, out = run(argv, redirect, capsys)
    assert status == 0, f"{command} exited with {status}"
    lines, position = out.splitlines(), 0
    for line in expected:
        if line == "...":
            continue
        assert line in lines[position:], (f"{command}: the guide shows\n  {line}\nbut the "
                                          f"command printed\n{out}")
        position = lines.index(line, position) + 1
    if "-o" in argv:
        assert Path(argv[argv.index("-o") + 1]).stat().st_size > 0
