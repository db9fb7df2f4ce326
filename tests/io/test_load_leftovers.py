"""Leftovers of issues #16 and #17 in loading: lists of inputs, hints right for every
command, and format lists taken from evalbars.io.logs.FORMATS."""
import inspect

import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.io import logs
from evalbars.io.logs._answers import Options, reject


def _two_files(tmp_path):
    a, b = tmp_path / "v6.csv", tmp_path / "v7.csv"
    a.write_text("id,score\nq1,1\nq2,0\nq3,1\n")
    b.write_text("id,score\nq1,0\nq2,0\nq3,1\n")
    return a, b


@pytest.mark.parametrize("kind", [list, tuple])
def test_a_list_of_two_paths_is_data_and_data2(tmp_path, kind):
    a, b = _two_files(tmp_path)
    listed, given = evalbars.load(kind([a, b])), evalbars.load(a, b)
    assert listed.models == given.models == ("v6", "v7")
    assert (listed.scores == given.scores).all() and listed.source == given.source


def test_a_list_of_one_path_is_data(tmp_path):
    a, _ = _two_files(tmp_path)
    assert evalbars.load([a]).source == evalbars.load(a).source


def test_a_list_of_logs_reads_them_as_runs():
    folder = "tests/data/logs/helm/suite_v1"
    assert evalbars.load([folder]).models == evalbars.load(folder).models


def test_more_than_two_inputs_say_what_works(tmp_path):
    a, b = _two_files(tmp_path)
    with pytest.raises(EvalbarsError) as error:
        evalbars.load([a, b, a])
    message = str(error.value)
    assert message.startswith("data is a list of 3 inputs, but load reads one or two")
    assert "load('folder/')" in message and "engine='duckdb'" in message
    assert "\n" not in message


@pytest.mark.parametrize("call, start", [
    (lambda a, b: evalbars.load([a, b], b), "data is a list of 2 inputs and data2 is given"),
    (lambda a, b: evalbars.load([]), "data is an empty list: give one or two files"),
    (lambda a, b: evalbars.load([1, 0, 1]), "data is a list of scores, which load does not "
                                            "read: pass it to an analysis, evalbars.ci("),
])
def test_lists_load_cannot_read_suggest_the_call_that_works(tmp_path, call, start):
    with pytest.raises(EvalbarsError) as error:
        call(*_two_files(tmp_path))
    assert str(error.value).startswith(start)


@pytest.mark.parametrize("command", ["compare", "ci", "leaderboard"])
def test_model_with_two_files_suggests_no_flag_the_command_lacks(tmp_path, capsys, command):
    """compare has no --models: the hint was '(--models)' for every command."""
    a, b = _two_files(tmp_path)
    assert main([command, str(a), str(b), "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert "--models" not in err and err.count("\n") == 1
    assert "two inputs hold one model each, named after their files: leave model= out" in err


def test_every_log_format_reads_a_metric():
    """The list of formats metric= applies to was written out, without the new formats;
    every format reads metric= (and refuses a metric its logs lack), so none is listed."""
    for fmt in logs.FORMATS:
        assert reject(fmt, Options(metric="anything"), ()) is None


def test_a_folder_with_no_log_points_to_the_list_of_formats(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to read\n")
    with pytest.raises(EvalbarsError) as error:
        evalbars.load(tmp_path)
    message = str(error.value)
    assert "holds no harness log of a format evalbars reads (docs/logs.md lists them)" in \
        message
    assert "lm-eval, inspect or HELM" not in message


def test_loads_docstring_names_no_partial_list_of_formats():
    """input_format listed six of the eleven log formats: it now points to INPUT_FORMATS."""
    doc = inspect.getdoc(evalbars.load)
    assert ":data:`INPUT_FORMATS`" in doc and ":data:`evalbars.io.logs.FORMATS`" in doc
    assert '"helm", "trec"}' not in doc
    assert set(logs.FORMATS) < set(evalbars.io.ingest.INPUT_FORMATS)


def test_two_files_of_runs_sharing_no_id_are_one_line_naming_each_file(tmp_path):
    """Two files holding several runs each, with no id in common: the error names each
    file once (it used to raise IndexError: the item columns are per file, not per run)."""
    (tmp_path / "a.csv").write_text("id,run,score\nq1,r1,1\nq1,r2,0\n")
    (tmp_path / "b.csv").write_text("id,run,score\nq9,r1,1\nq9,r2,0\n")
    with pytest.raises(EvalbarsError) as caught:
        evalbars.load(str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), run="run")
    message = str(caught.value)
    assert message.startswith("the two files share no item id: ")
    assert message.count("a.csv' has 'q1' (column 'id')") == 1
    assert message.count("b.csv' has 'q9' (column 'id')") == 1


def test_an_analysis_given_a_list_of_paths_reads_the_files():
    """evalbars.ci(["a.csv"]) used to take the path for a score ("is not a finite number");
    a list of paths now reads the files, as load does, and gives what ci("a.csv") gives."""
    listed = evalbars.ci(["examples/lesson_pair.csv"]).to_dict()
    plain = evalbars.ci("examples/lesson_pair.csv").to_dict()
    listed.pop("provenance"), plain.pop("provenance")
    assert listed == plain
    gap = evalbars.compare(["examples/lesson_pair.csv"]).difference.estimate
    assert round(100 * gap, 1) == 2.6  # the lesson's gap (shared/fixtures/EXPECTED.md)
