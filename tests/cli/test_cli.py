"""The CLI mirrors the API: same JSON, exit 2 with one line on bad input, help for all."""
import json
import subprocess
import sys

import pytest

import evalbars
from evalbars.cli import build_parser, main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_equals_the_api(capsys, lesson_path):
    status, out, err = run(capsys, "compare", str(lesson_path), "--a", "model_a", "--b",
                           "model_b", "--format", "json", "--n-resamples", "2000")
    assert status == 0 and err == ""
    api = evalbars.compare(lesson_path, a="model_a", b="model_b", n_resamples=2000).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_ci_json_equals_the_api(capsys, cookbook_path):
    status, out, _ = run(capsys, "ci", str(cookbook_path), "--item", "example_id",
                         "--format", "json", "--seed", "3")
    assert status == 0
    api = evalbars.ci(cookbook_path, item="example_id", seed=3).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_text_report_reads_well(capsys, lesson_path):
    status, out, _ = run(capsys, "compare", str(lesson_path))
    assert status == 0
    for piece in ("Scores (95% intervals, %)", "wilson (default)", "Difference model_b",
                  "paired-bootstrap-percentile (default)", "+0.8 to +4.4",
                  "pairing made the interval", "model_b only 17", "mcnemar-exact (default)",
                  "Result", "seed 0"):
        assert piece in out


def test_markdown_report(capsys, lesson_path):
    status, out, _ = run(capsys, "compare", str(lesson_path), "--format", "markdown")
    assert status == 0
    assert out.startswith("### evalbars compare: 500 questions")
    assert "| paired-bootstrap-percentile (default) | +0.8 to +4.4 |" in out


def test_warnings_go_to_stderr_with_json(capsys, tmp_path):
    path = tmp_path / "small.csv"
    path.write_text("id,m\n" + "".join(f"q{i},{int(i < 19)}\n" for i in range(20)))
    status, out, err = run(capsys, "ci", str(path), "--format", "json")
    assert status == 0
    assert json.loads(out)["warnings"]
    assert err.startswith("evalbars: warning: model 'm'")


@pytest.mark.parametrize("argv,message", [
    (["compare", "does/not/exist.csv"], "does/not/exist.csv"),
    (["compare", "examples/lesson_pair.csv", "--a", "model_a", "--b", "zzz"], "zzz"),
    (["compare", "examples/lesson_pair.csv", "--confidence-level", "95"],
     "--confidence-level must be a number strictly between 0 and 1"),
    (["ci", "examples/seeds.csv", "--run", "seed"], "evalbars seeds --run COL"),
    (["compare", "examples/lesson_pair.csv", "--item", "qid", "--metric", "acc"],
     "metric= applies to harness logs"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error:") and message in err
    assert err.count("\n") == 1


def test_every_command_has_help():
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    assert {"ci", "compare"} <= set(commands)
    for name, sub in commands.items():
        assert sub.format_help().strip(), name
        assert sub.description, name


def test_console_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "evalbars", "--version"], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == f"evalbars {evalbars.__version__}"


def test_help_does_not_import_numpy():
    code = ("import sys; from evalbars.cli import build_parser; build_parser(); "
            "print('numpy' in sys.modules, 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_compare_on_a_large_eval_does_not_import_scipy_stats(lesson_path):
    """scipy.stats costs 0.5 s to import, half of a 100,000-question report: only power
    plans and the small-sample coverage warnings need it (both import it when used)."""
    code = ("import sys, evalbars; evalbars.compare(sys.argv[1], n_resamples=100); "
            "print('scipy.stats' in sys.modules, 'scipy.optimize' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(lesson_path)], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False False"


def _parsers(parser, path=()):
    """(command path, parser) of every command and subcommand."""
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        for name, sub in action.choices.items():
            yield (*path, name), sub
            yield from _parsers(sub, (*path, name))


def test_every_command_that_reads_data_takes_every_loading_option():
    from evalbars.cli._options import LOAD_FLAGS

    reading = {path: {action.dest for action in sub._actions}
               for path, sub in _parsers(build_parser())
               if {"data", "pilot"} & {action.dest for action in sub._actions}}
    assert {("ci",), ("compare",), ("leaderboard",), ("select",), ("ablation",), ("passk",),
            ("seeds",), ("gate",), ("report",), ("power",), ("simulate", "misaligned"),
            ("plot", "gap")} <= set(reading)
    for path, dests in reading.items():
        assert set(LOAD_FLAGS) <= dests, path


def test_the_loading_flags_are_the_options_of_load():
    import inspect

    from evalbars.cli._options import LOAD_FLAGS
    from evalbars.io.inputs import LOAD_OPTIONS

    parameters = inspect.signature(evalbars.load).parameters
    assert tuple(LOAD_FLAGS) == LOAD_OPTIONS
    assert {name: spec["default"] for name, spec in LOAD_FLAGS.items()} == \
        {name: parameters[name].default for name in LOAD_OPTIONS}


@pytest.mark.parametrize("command,roles", [
    ("ablation", ["--full", "org/model-b", "--baseline", "org/model-a"]),
    ("select", ["--baseline", "org/model-a"]),
    ("passk", []),
    ("power", ["--gap", "0.05", "--power", "0.8"]),
])
def test_the_log_options_reach_the_reader(capsys, command, roles):
    """These commands had the log flags, or none, while their API did not take them."""
    logs = "tests/data/logs/lm-eval/"
    data = [logs + "model_a", logs + "model_b"]
    status, out, err = run(capsys, command, *(["--pilot", *data] if command == "power"
                                              else data), *roles, "--metric", "f1")
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error: task 'mmlu_mini_anatomy' has no metric 'f1' "
                          "(--metric); ")


def test_a_loading_option_is_named_by_its_flag(capsys):
    """A reader marks the keyword of the option it could not follow; the command line names
    the flag, the Python API keeps the keyword."""
    path = "tests/data/logs/inspect/epochs_a.json"
    status, out, err = run(capsys, "ci", path, "--scorer", "judge")
    assert (status, out) == (2, "")
    assert err == ("evalbars: error: no sample has a score from scorer 'judge' (--scorer); "
                   "scorers: 'match'\n")
    with pytest.raises(evalbars.EvalbarsError) as info:
        evalbars.load(path, scorer="judge")
    assert str(info.value) == ("no sample has a score from scorer 'judge' (scorer=); "
                               "scorers: 'match'")


@pytest.mark.parametrize("argv,flags", [
    (["compare", "DATA"], "--a and --b with evalbars compare"),
    (["ci", "DATA"], "--models with evalbars ci"),
    (["report", "DATA", "-o", "NEVER.html"], "--models with evalbars report"),
    (["leaderboard", "DATA"], "--models with evalbars leaderboard"),
    (["plot", "gap", "DATA", "-o", "NEVER"], "--a and --b with evalbars plot gap"),
])
def test_a_stray_2_names_its_line_and_a_flag_the_command_has(capsys, tmp_path, argv, flags):
    rows = [f"q{i},{i % 2},{(i // 2) % 2}" for i in range(30)]
    rows[6] = "q6,1,2"
    path = tmp_path / "w.csv"
    path.write_text("qid,model_a,model_b\n" + "\n".join(rows) + "\n")
    never = tmp_path / "never.png"
    places = {"DATA": str(path), "NEVER": str(never), "NEVER.html": str(tmp_path / "n.html")}
    assert main([places.get(a, a) for a in argv] + ["--n-resamples", "200"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("evalbars: error: ")
    assert f"'model_b' holds other values (2 at line 8 of '{path}')" in err
    assert f"name the models ({flags}) if a column is not a model" in err
    assert "models=[...]" not in err and not never.exists()
    assert not (tmp_path / "n.html").exists()


@pytest.mark.parametrize("argv,said", [
    (["monitor", "WIDE", "--a", "zzz", "--b", "model_b"],
     "unknown model 'zzz' (--a): no such column in 'WIDE'; columns: 'qid', 'model_a', "
     "'model_b'"),
    (["monitor", "LONG", "--a", "zzz", "--b", "org/b"],
     "unknown model 'zzz' (--a): not in column 'model' of 'LONG', which holds 'org/a', "
     "'org/b'"),
    (["compare", "LONG", "--a", "org/a", "--b", "zzz"],
     "unknown model 'zzz' (--b): not in column 'model' of 'LONG', which holds 'org/a', "
     "'org/b'"),
    (["monitor", "LONG", "--a", "yyy", "--b", "zzz"],
     "unknown models 'yyy', 'zzz' (--a and --b): not in column 'model' of 'LONG'"),
    (["ci", "LONG", "--models", "org/a", "zzz"], "unknown model 'zzz' (--models): "),
    (["report", "WIDE", "-o", "NEVER.md", "--a", "model_a", "--b", "zzz"],
     "unknown model 'zzz' (--b); the data has 'model_a', 'model_b'"),
    (["leaderboard", "WIDE", "--baseline", "zzz"],
     "unknown model 'zzz' (--baseline); the data has 'model_a', 'model_b'"),
    (["gate", "LONG", "--baseline", "org/a", "--candidate", "zzz", "--max-regression", "0.1"],
     "unknown model 'zzz' (--candidate): not in column 'model' of 'LONG'"),
    (["select", "WIDE", "--baseline", "model_a", "--candidates", "zzz"],
     "unknown model 'zzz' (--candidates): no such column in 'WIDE'"),
    (["ablation", "WIDE", "--full", "zzz", "--baseline", "model_a"],
     "unknown model 'zzz' (--full); the data has 'model_a', 'model_b'"),
])
def test_an_unknown_model_names_the_flag_that_gave_it(capsys, tmp_path, argv, said):
    wide, long = tmp_path / "w.csv", tmp_path / "l.csv"
    wide.write_text("qid,model_a,model_b\n" + "".join(f"q{i},{i % 2},1\n" for i in range(9)))
    long.write_text("id,model,score\n" + "".join(f"q{i},org/{m},{i % 2}\n" for i in range(9)
                                                 for m in "ab"))
    places = {"WIDE": str(wide), "LONG": str(long), "NEVER.md": str(tmp_path / "n.md")}
    status, out, err = run(capsys, *[places.get(a, a) for a in argv])
    for name, path in places.items():
        said = said.replace(f"'{name}'", repr(path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"evalbars: error: {said}") and "models=" not in err
    assert "=)" not in err and not (tmp_path / "n.md").exists()


@pytest.mark.parametrize("strata", [[], ["--stratum", "topic"]])
@pytest.mark.parametrize("models", [["x", "y", "z"], ["x"]])
def test_report_kind_compare_with_other_than_two_models_names_the_flags(capsys, tmp_path,
                                                                         strata, models):
    data = tmp_path / "s.csv"
    data.write_text("id,topic,x,y,z\n" + "".join(f"q{i},{'ab'[i % 2]},{i % 2},1,{i % 3 % 2}\n"
                                                 for i in range(12)))
    out = tmp_path / "never.md"
    status, stdout, err = run(capsys, "report", str(data), "-o", str(out), *strata,
                              "--kind", "compare", "--models", *models)
    assert status == 2 and stdout == "" and not out.exists()
    listed = ", ".join(repr(m) for m in models)
    assert err == (f"evalbars: error: --models names the two models of --kind compare, A then "
                   f"B; got {len(models)} ({listed}): write --a A --b B, or --models A B\n")
