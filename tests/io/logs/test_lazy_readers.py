"""A reader is imported only when its format is read or looked for: a CSV file imports none."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

from evalbars.io import logs

ROOT = Path(__file__).resolve().parents[3]

_LOADED = ("import json, sys, evalbars; {call}; "
           "print(json.dumps(sorted(m for m in sys.modules if m.startswith('evalbars.io.logs.') "
           "and not m.split('.')[-1].startswith('_'))))")


def _readers_after(call: str, *args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _LOADED.format(call=call), *args],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.splitlines()[-1])


def test_every_format_names_the_module_that_reads_it():
    for fmt, module in logs.FORMATS.items():
        reader = importlib.import_module(f"evalbars.io.logs.{module}")
        assert reader.FORMAT == fmt and callable(reader.read)


def test_a_csv_compare_imports_no_log_reader():
    loaded = _readers_after("evalbars.compare(sys.argv[1], n_resamples=100)",
                            str(ROOT / "examples" / "lesson_pair.csv"))
    assert loaded == []


def test_a_csv_compare_on_the_command_line_imports_no_log_reader():
    call = ("from evalbars.cli import main; main(['compare', sys.argv[1], '--n-resamples', "
            "'100', '--format', 'json'])")
    loaded = _readers_after(call, str(ROOT / "examples" / "lesson_pair.csv"))
    assert loaded == []


def test_reading_a_named_format_imports_its_reader_alone():
    loaded = _readers_after("evalbars.load(sys.argv[1], input_format='helm')",
                            str(ROOT / "tests" / "data" / "logs" / "helm" / "suite_v1"))
    assert loaded == ["evalbars.io.logs.helm"]

