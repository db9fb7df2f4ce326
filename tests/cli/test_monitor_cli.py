"""`evalbars monitor`, `gate --sequential` and `plot monitor` mirror the API."""
from __future__ import annotations

import json

import pytest

import evalbars
from evalbars.cli import main
from evalbars.cli.monitor import METHODS
from evalbars.stats.sequential import METHODS as STATS_METHODS

LESSON = "examples/lesson_pair.csv"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_method_choices_are_the_registry():
    assert METHODS == ("auto", *STATS_METHODS)


def test_monitor_json_equals_the_api(capsys):
    status, out, err = run(capsys, "monitor", LESSON, "--every", "25", "--margin", "0.05",
                           "--format", "json")
    assert status == 0 and "file order" in err
    api = evalbars.monitor(LESSON, every=25, margin=0.05).to_dict()
    assert json.loads(out) == json.loads(json.dumps(api))


def test_monitor_text_and_markdown(capsys):
    status, out, _ = run(capsys, "monitor", LESSON, "--every", "100")
    assert status == 0
    for piece in ("Monitor: model_b \u2212 model_a", "Looks", "questions  last id",
                  "q0499", "Result", "Price:", "Waudby-Smith & Ramdas (2023)"):
        assert piece in out
    status, out, _ = run(capsys, "monitor", LESSON, "--every", "100", "--format", "markdown")
    assert status == 0 and out.startswith("### Monitor: model_b \u2212 model_a")


@pytest.mark.parametrize("argv, message", [
    ([LESSON, "--order", "nope"], "order='nope': no such column in"),
    ([LESSON, "--every", "0"], "every= (--every) must be a positive integer"),
    (["examples/cookbook_topics.csv", "--method", "discordant", "--cluster", "topic_id"],
     "needs independent questions"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "monitor", *argv)
    assert status == 2 and out == ""
    assert err.startswith("evalbars: error: ") and message in err and err.count("\n") == 1


def test_gate_sequential_exit_status_and_json(capsys):
    argv = ["gate", LESSON, "--baseline", "model_a", "--candidate", "model_b",
            "--max-regression", "0.01", "--sequential", "--format", "json"]
    status, out, _ = run(capsys, *argv)
    api = evalbars.gate(LESSON, baseline="model_a", candidate="model_b",
                        max_regression=0.01, sequential=True).to_dict()
    assert status == 0 and json.loads(out) == json.loads(json.dumps(api))
    status, out, _ = run(capsys, "gate", LESSON, "--baseline", "model_b", "--candidate",
                         "model_a", "--max-regression", "0.01", "--sequential")
    assert status == 3 and out.startswith("INCONCLUSIVE (sequential)")


def test_gate_order_without_sequential_is_refused(capsys):
    status, _, err = run(capsys, "gate", LESSON, "--max-regression", "0.01", "--every", "5")
    assert status == 2 and "add sequential=True (--sequential)" in err


def test_plot_monitor_from_data_and_from_json(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    figure = tmp_path / "monitor.svg"
    status, _, err = run(capsys, "plot", "monitor", LESSON, "--every", "10", "-o", str(figure))
    assert status == 0 and "wrote" in err and figure.read_text().startswith("<?xml")
    saved = tmp_path / "gate.json"
    status, out, _ = run(capsys, "gate", LESSON, "--max-regression", "0.01", "--sequential",
                         "--format", "json")
    saved.write_text(out)
    status, _, err = run(capsys, "plot", "monitor", "--from-json", str(saved), "-o",
                         str(tmp_path / "gate.png"))
    assert status == 0


def test_plot_monitor_reads_back_the_sequence():
    pytest.importorskip("matplotlib")
    doc = evalbars.monitor(LESSON, every=50).to_dict()
    figure = evalbars.plots.monitor(doc)
    lines = {line.get_gid(): line for line in figure.axes[0].get_lines()}
    assert list(lines["sequence:low"].get_xdata()) == doc["path"]["n"]
    assert list(lines["sequence:high"].get_ydata()) == pytest.approx(
        [100 * v for v in doc["path"]["high"]])
    with pytest.raises(evalbars.EvalbarsError, match="needs a monitor document"):
        evalbars.plots.monitor({"kind": "compare"})
