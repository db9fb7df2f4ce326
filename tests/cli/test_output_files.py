"""The files the commands write (report, plot and playground -o): whole or not at all, and
said only once written; Ctrl-C; help and a bare ``evalbars`` (issue 17)."""
import errno
import json
import os
import pathlib

import pytest

import evalbars
from evalbars.cli import build_parser, main

LESSON = str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "lesson_pair.csv")
FAST = ["--n-resamples", "200"]


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def _disk_fills_up(monkeypatch):
    """Path.write_text writes half of the text, then the disk is full."""
    def write_text(self, text, encoding=None, errors=None, newline=None):
        with open(self, "w", encoding=encoding) as handle:
            handle.write(text[:len(text) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)


def _refused_and_untouched(status, out, err, folder, path):
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("evalbars: error: cannot write ")
    assert str(path) in err and "No space left on device" in err and "wrote" not in err
    assert path.read_text() == "the old report\n"
    assert sorted(p.name for p in folder.iterdir()) == [path.name]  # no temporary file


@pytest.mark.parametrize("name", ["r.html", "r.md", "r.tex"])
def test_a_full_disk_leaves_an_existing_report_intact(capsys, monkeypatch, tmp_path, name):
    path = tmp_path / name
    path.write_text("the old report\n")
    _disk_fills_up(monkeypatch)
    _refused_and_untouched(*run(capsys, "report", LESSON, "-o", path, *FAST), tmp_path, path)


def test_a_full_disk_leaves_an_existing_playground_intact(capsys, monkeypatch, tmp_path):
    path = tmp_path / "p.html"
    path.write_text("the old report\n")
    _disk_fills_up(monkeypatch)
    _refused_and_untouched(*run(capsys, "playground", "-o", path), tmp_path, path)


def test_a_full_disk_leaves_an_existing_figure_intact(capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    from evalbars.report import plots

    def save(figure, path):
        pathlib.Path(path).write_bytes(b"\x89PNG half a figure")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(plots, "save", save)
    path = tmp_path / "gap.png"
    path.write_text("the old report\n")
    _refused_and_untouched(*run(capsys, "plot", "gap", LESSON, "-o", path, *FAST), tmp_path,
                           path)


def test_a_written_file_replaces_the_old_one_and_keeps_its_permissions(capsys, tmp_path):
    path = tmp_path / "r.md"
    path.write_text("the old report\n")
    path.chmod(0o640)
    status, out, err = run(capsys, "report", LESSON, "-o", path, *FAST)
    assert status == 0 and err == f"evalbars: wrote {path}\n"
    assert path.read_text().startswith("### evalbars compare")
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]


def test_a_document_that_cannot_render_is_refused_before_anything_is_written(capsys,
                                                                           tmp_path):
    """This one renders as HTML but not as text: 'wrote' was said, then exit 2."""
    doc = evalbars.compare(LESSON, n_resamples=200).to_dict()
    del doc["n_items"]
    saved = tmp_path / "doc.json"
    saved.write_text(json.dumps(doc))
    out_path = tmp_path / "r.html"
    status, out, err = run(capsys, "report", "--from-json", saved, "-o", out_path)
    assert status == 2 and out == "" and "wrote" not in err and err.count("\n") == 1
    assert "lacks the field 'n_items'" in err and not out_path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.json"]


# --- -o says "wrote PATH" and prints no text report ------------------------------------


def test_report_o_prints_no_text_report(capsys, tmp_path):
    path = tmp_path / "r.html"
    assert run(capsys, "report", LESSON, "-o", path, *FAST) == (0, "", f"evalbars: wrote {path}\n")


def test_plot_o_prints_no_text_report(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "gap.svg"
    assert run(capsys, "plot", "gap", LESSON, "-o", path, *FAST) == (
        0, "", f"evalbars: wrote {path}\n")
    assert path.stat().st_size > 0


def test_playground_o_prints_no_simulation(capsys, tmp_path, monkeypatch):
    from evalbars import simulate

    monkeypatch.setattr(simulate, "power", None)  # not run when nothing prints it
    path = tmp_path / "p.html"
    status, out, err = run(capsys, "playground", "-o", path)
    assert status == 0 and out == ""
    assert err == f"evalbars: wrote {path}; open it in a browser (it needs no network)\n"


def test_json_with_o_still_prints_the_document(capsys, tmp_path):
    status, out, err = run(capsys, "report", LESSON, "-o", tmp_path / "r.tex", *FAST,
                           "--format", "json")
    assert status == 0 and json.loads(out)["kind"] == "compare"


# --- Ctrl-C ----------------------------------------------------------------------------


def test_ctrl_c_prints_one_line_and_exits_130(capsys, monkeypatch):
    from evalbars.analyses import compare as api

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "compare", interrupted)
    assert run(capsys, "compare", LESSON) == (130, "", "evalbars: interrupted\n")


def test_ctrl_c_while_writing_leaves_no_temporary_file(capsys, monkeypatch, tmp_path):
    def write_text(self, *args, **kwargs):
        open(self, "w").write("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)
    status, out, err = run(capsys, "report", LESSON, "-o", tmp_path / "r.html", *FAST)
    assert (status, err) == (130, "evalbars: interrupted\n")
    assert list(tmp_path.iterdir()) == []


# --- help ------------------------------------------------------------------------------


def test_a_bare_evalbars_prints_the_help(capsys):
    status, out, err = run(capsys)
    assert status == 0 and err == "" and out == build_parser().format_help()


def test_commands_are_listed_in_the_order_a_user_meets_them():
    commands = build_parser()._subparsers._group_actions[0]
    assert [action.dest for action in commands._choices_actions] == [
        "ci", "compare", "gate", "monitor", "leaderboard", "select", "seeds", "ablation", "passk",
        "power", "report", "plot", "simulate", "playground"]


@pytest.mark.parametrize("command", ["ci", "compare", "gate"])
def test_every_command_shows_an_example(command):
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    assert sub.epilog and sub.epilog.startswith(f"Example: evalbars {command} ")
