"""The strata section in the file reports (HTML, Markdown, LaTeX) and `evalbars plot strata`.

Every number shown is the document's, rounded as the terminal report rounds it: the
cells of the HTML and Markdown tables are those of report.text.strata's tables, and the
figure's lines are the document's intervals.
"""
from __future__ import annotations

import html
import json

import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.report.files.html import render_html
from evalbars.report.files.latex import render_latex
from evalbars.report.files.markdown import render_markdown
from evalbars.report.text.render import render
from evalbars.report.text.strata import strata_tables

DATA = "examples/strata_subjects.csv"


def _docs():
    return {
        "ci": evalbars.ci(DATA, stratum="subject", n_resamples=300).to_dict(),
        "compare": evalbars.compare(DATA, stratum="subject", weights="macro",
                                    n_resamples=300).to_dict(),
        "leaderboard": evalbars.leaderboard(DATA, stratum="subject", weights="macro",
                                            n_resamples=300).to_dict(),
    }


@pytest.mark.parametrize("kind", ["ci", "compare", "leaderboard"])
def test_html_shows_every_cell_of_the_strata_tables(kind):
    doc = _docs()[kind]
    page = render_html(doc)
    assert page.count("<h2>Strata</h2>") == 1
    assert "<h2>Strata</h2><table" not in page  # the generic key/value table is gone
    section = page[page.index("<h2>Strata</h2>"):]
    section = section[:section.index("</section>")]
    for _, header, rows in strata_tables(doc):
        for cell in header + [c for row in rows for c in row]:
            assert html.escape(cell) in section, cell
    assert "over 4 strata of &#x27;subject&#x27;" in section


@pytest.mark.parametrize("kind", ["ci", "compare", "leaderboard"])
def test_markdown_file_has_the_section_once_as_the_terminal_markdown(kind):
    doc = _docs()[kind]
    file_md = render_markdown(doc)
    assert file_md.count("**Strata**") == 1
    assert "| column | subject |" not in file_md  # no generic table
    section = render(doc, "markdown")
    start = section.index("**Strata**")
    end = section.index("<sub>")
    assert section[start:end].strip() in file_md


def test_latex_table_of_strata():
    doc = _docs()["compare"]
    tex = render_latex(doc)
    assert tex.count(r"\begin{table}") == 2
    assert r"\label{tab:evalbars-compare-strata}" in tex
    row = doc["strata"]["strata"][3]  # law
    a = row["models"][0]
    assert (f"law & 20 & 0.25 & {100 * a['mean']:.1f} [{100 * a['interval']['low']:.1f}, "
            f"{100 * a['interval']['high']:.1f}]") in tex
    head = doc["strata"]["models"][0]
    assert (f"macro average (equal weights) & 200 & 1 & {100 * head['estimate']:.1f} "
            f"[{100 * head['intervals'][0]['low']:.1f}") in tex
    plain = render_latex(evalbars.compare(DATA, n_resamples=300).to_dict())
    assert plain.count(r"\begin{table}") == 1


def test_gate_latex_takes_the_comparison_strata():
    doc = evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                        stratum="subject", n_resamples=300).to_dict()
    assert r"\label{tab:evalbars-compare-strata}" in render_latex(doc)


def test_plot_strata_from_data_and_from_json(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "s.svg"
    assert main(["plot", "strata", DATA, "--stratum", "subject", "--weights", "macro",
                 "--n-resamples", "300", "-o", str(out)]) in (0, None)
    drawn = out.read_text()
    assert "interval:macro average · model_a" in drawn and "interval:law · model_b" in drawn
    saved = tmp_path / "lb.json"
    main(["leaderboard", DATA, "--stratum", "subject", "--n-resamples", "300",
          "--format", "json"])
    saved.write_text(capsys.readouterr().out)
    out2 = tmp_path / "lb.svg"
    assert main(["plot", "strata", "--from-json", str(saved), "-o", str(out2)]) in (0, None)
    assert "interval:micro average · model_b" in out2.read_text()
    capsys.readouterr()


def test_plot_strata_errors(tmp_path, capsys):
    out = str(tmp_path / "x.png")
    assert main(["plot", "strata", DATA, "-o", out]) == 2
    assert "plot strata needs --stratum COL" in capsys.readouterr().err
    saved = tmp_path / "ci.json"
    saved.write_text(json.dumps(evalbars.ci(DATA, n_resamples=100).to_dict()))
    assert main(["plot", "strata", "--from-json", str(saved), "-o", out]) == 2
    assert "needs a ci or compare document made with stratum=" in capsys.readouterr().err
    assert main(["plot", "strata", "--from-json", str(saved), "--stratum", "subject",
                 "-o", out]) == 2
    assert "a --from-json document already holds its strata" in capsys.readouterr().err


def test_forest_of_a_gate_document_is_its_comparison():
    pytest.importorskip("matplotlib")
    from evalbars.report.plots.strata import strata_forest
    doc = evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                        stratum="subject", n_resamples=300).to_dict()
    lines = {line.get_gid(): line for line in strata_forest(doc).axes[0].get_lines()}
    head = doc["comparison"]["strata"]["models"][1]["intervals"][0]
    assert list(lines["interval:micro average · model_b"].get_xdata()) == pytest.approx(
        [100 * head["low"], 100 * head["high"]])
    with pytest.raises(EvalbarsError, match="or a leaderboard or gate document"):
        strata_forest({"kind": "gate", "comparison": {}})
