"""io/arguments.py: the inputs load reads, given as a list or one by one."""
import pytest

import evalbars
from evalbars.core.errors import EvalbarsError


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


def test_an_analysis_given_a_list_of_paths_reads_the_files():
    """evalbars.ci(["a.csv"]) used to take the path for a score ("is not a finite number");
    a list of paths now reads the files, as load does, and gives what ci("a.csv") gives."""
    listed = evalbars.ci(["examples/lesson_pair.csv"]).to_dict()
    plain = evalbars.ci("examples/lesson_pair.csv").to_dict()
    listed.pop("provenance"), plain.pop("provenance")
    assert listed == plain
    gap = evalbars.compare(["examples/lesson_pair.csv"]).difference.estimate
    assert round(100 * gap, 1) == 2.6  # the lesson's gap, 73.2% to 75.8%

