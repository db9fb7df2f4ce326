"""Notebook conveniences: _repr_html_, to_frame() and plot() from any to_dict()."""
import sys
from dataclasses import dataclass

import pytest
from _report_documents import HOSTILE, leaderboard_doc, passk_doc

import evalbars
from evalbars import simulate
from evalbars.analyses import power
from evalbars.analyses.gate import gate
from evalbars.core.errors import EvalbarsError
from evalbars.report.notebook import NotebookMixin, frame_rows


@dataclass(frozen=True, slots=True)
class Holder(NotebookMixin):
    """A slotted frozen result, as evalbars' result classes are."""

    doc: dict

    def to_dict(self) -> dict:
        return self.doc


@pytest.fixture(scope="module")
def compare_doc():
    return evalbars.compare("examples/lesson_pair.csv", n_resamples=1000).to_dict()


def test_the_mixin_keeps_results_slotted():
    assert not hasattr(Holder({}), "__dict__")


def test_repr_html_is_a_compact_escaped_table(compare_doc):
    doc = dict(compare_doc, models=[dict(compare_doc["models"][0], name=HOSTILE),
                                    compare_doc["models"][1]])
    page = Holder(doc)._repr_html_()
    assert HOSTILE not in page and "&lt;script&gt;" in page
    assert page.count("<tr>") == 4       # header, two scores, the gap
    assert "+0.8 to +4.4" in page and "wilson" in page and "<svg" not in page
    plan = Holder(power.solve(gap=0.01, power=0.8, disagreement=0.1).to_dict())._repr_html_()
    assert "<td>n (solved)</td>" in plan and "7,842 questions" in plan


def test_to_frame_is_tidy_and_full_precision(compare_doc):
    frame = Holder(compare_doc).to_frame()
    assert list(frame.columns) == ["quantity", "name", "method", "estimate", "low", "high",
                                   "default", "level"]
    head = frame[frame["default"] & (frame["quantity"] == "difference")].iloc[0]
    assert head["low"] == compare_doc["difference"]["intervals"][0]["low"]
    assert head["name"] == "model_b \u2212 model_a"
    board = Holder(leaderboard_doc()).to_frame()
    assert {"rank", "rank_low", "rank_high", "p_best"} <= set(board.columns)
    assert list(Holder(passk_doc()).to_frame()["quantity"].unique()) == [
        "pass@1", "pass@5", "pass@1 difference"]


def test_frame_rows_of_power_simulate_and_gate():
    plan = power.grid(n=500, disagreement=0.1).to_dict()
    rows = frame_rows(plan)
    assert rows[0]["row"] == "solution" and rows[0]["n"] == 500
    assert [row["gap"] for row in rows[1:]] == [0.005, 0.01, 0.02, 0.05]
    aa = simulate.aa(experiments=200).to_dict()
    assert {row["rate"] for row in frame_rows(aa)} == set(aa["rates"])
    checked = gate("examples/lesson_pair.csv", baseline="model_a", candidate="model_b",
                   max_regression=0.01, n_resamples=500).to_dict()
    assert frame_rows(checked) == frame_rows(checked["comparison"])
    with pytest.raises(EvalbarsError, match="no table for documents of kind 'mystery'"):
        frame_rows({"kind": "mystery"})


def test_plot_gives_the_natural_figure(compare_doc):
    pytest.importorskip("matplotlib")
    figure = Holder(compare_doc).plot()
    assert {line.get_gid() for ax in figure.axes for line in ax.get_lines()} >= {
        "interval:paired (bootstrap)", "interval:model_a"}


def test_missing_pandas_names_the_extra(monkeypatch, compare_doc):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(EvalbarsError, match=r"pip install 'evalbars\[pandas\]'"):
        Holder(compare_doc).to_frame()


@pytest.mark.parametrize("make", [
    lambda: evalbars.ci("examples/lesson_pair.csv", n_resamples=300),
    lambda: evalbars.compare("examples/lesson_pair.csv", n_resamples=300),
    lambda: power.solve(gap=0.01, power=0.8, disagreement=0.1),
])
def test_result_objects_are_notebook_friendly(make):
    result = make()
    if not isinstance(result, NotebookMixin):
        pytest.skip(f"{type(result).__name__} does not inherit NotebookMixin yet (a one-line "
                    "change in its module)")
    assert "<table" in result._repr_html_()
    assert len(result.to_frame()) >= 1
