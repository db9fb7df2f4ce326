"""Run every documented command and every harness log through the CLI; keep what it prints.

    python scripts/output_snapshot.py OUT          # before a change
    python scripts/output_snapshot.py OUT2         # after it
    diff -r -x scratch OUT OUT2 && diff -rq OUT/scratch OUT2/scratch

The commands are each ``$ evalbars ...`` line of README.md and docs/*.md (and each bare
``evalbars ...`` line that needs no file of the reader's), again with ``--format json``
and ``--format markdown`` for the analyses; ``evalbars ci LOG`` in text and JSON for every
file under tests/data/logs and, where it is beside the checkout, ../shared/fixtures/logs;
and the HTML, Markdown and LaTeX report of every JSON document a command wrote. For each:
the command, its exit status, stdout and stderr, then a SHA-256 of every file written.
A refactoring must leave all of it byte-identical (matplotlib's SVG files carry random
clip-path ids and a date: they differ on every run).
"""
from __future__ import annotations

import hashlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ANALYSES = ("ci", "compare", "leaderboard", "select", "seeds", "ablation", "passk", "gate",
            "power")


def documented_commands() -> list[str]:
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in page.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line.startswith("$ evalbars "):
                found.append(line[2:])
            elif line.startswith("evalbars ") and "#" not in line and "results.csv" not in line:
                found.append(line)
    return found


LOGS = {"logs": ROOT / "tests" / "data" / "logs",
        "shared-logs": ROOT.parent / "shared" / "fixtures" / "logs"}
"""Log folders, linked into the scratch folder under these names (so that no output
carries a path of this machine)."""


def log_commands() -> list[str]:
    found = []
    for name, folder in LOGS.items():
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if path.suffix in (".md", ".txt") or path.name.startswith("LICENSE"):
                continue
            shown = shlex.quote(f"{name}/{path.relative_to(folder)}")
            found += [f"evalbars ci {shown} --format json", f"evalbars ci {shown}"]
    return found


def main(out: Path) -> int:
    commands = documented_commands() + log_commands()
    commands += [f"{c} --format {fmt}" for c in list(commands) for fmt in ("json", "markdown")
                 if "--format" not in c and ">" not in c and " -o " not in c
                 and c.split()[1] in ANALYSES]
    out.mkdir(parents=True, exist_ok=True)
    scratch = out / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    (scratch / "examples").symlink_to(ROOT / "examples")
    (scratch / "out").mkdir()  # docs/guide.md writes its files there
    for name, folder in LOGS.items():
        if folder.is_dir():
            (scratch / name).symlink_to(folder)
    evalbars = shutil.which("evalbars") or sys.exit("install evalbars first (pip install -e .)")
    for index, command in enumerate(dict.fromkeys(commands)):
        run = subprocess.run(command.replace("evalbars ", f"{shlex.quote(evalbars)} ", 1),
                             shell=True, cwd=scratch, capture_output=True, text=True)
        (out / f"{index:04d}.out").write_text(
            f"$ {command}\nexit {run.returncode}\n--- stdout\n{run.stdout}\n--- stderr\n"
            f"{run.stderr.replace(str(out), 'OUT')}", encoding="utf-8")
    for document in sorted([*scratch.glob("*.json"), *scratch.glob("out/*.json")]):
        for suffix in ("html", "md", "tex"):
            report = f"report_{document.stem}.{suffix}"
            run = subprocess.run([evalbars, "report", "--from-json",
                                  str(document.relative_to(scratch)), "-o", report],
                                 cwd=scratch, capture_output=True, text=True)
            (out / f"{report}.out").write_text(f"exit {run.returncode}\n{run.stdout}\n"
                                               f"{run.stderr}", encoding="utf-8")
    for path in sorted([*scratch.iterdir(), *(scratch / "out").iterdir()]):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            (out / f"file_{path.relative_to(scratch).as_posix().replace('/', '_')}.sha256").write_text(digest + "\n", encoding="utf-8")
    print(f"{len(dict.fromkeys(commands))} commands; outputs in {out}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
