"""The HTML, Markdown and LaTeX reports, the `report` command, and the report in a real browser.

The browser tests drive headless Chromium with the DevTools-protocol client of
``_browser.py``: no extra Python package and no download. They skip only when no
Chromium is installed (``.ci/run`` installs Debian's ``chromium``).
"""
import html
import io
import json
import os

import pytest
from _browser import browser, png_size  # noqa: F401  (browser is a fixture)
from _report_documents import HOSTILE, bradley_terry_doc, leaderboard_doc, passk_doc

import evalbars
from evalbars.cli import main
from evalbars.core import progress as _progress
from evalbars.report.estimates import estimates
from evalbars.report.files import (
    html as report_html,
)
from evalbars.report.files import (
    latex as report_latex,
)
from evalbars.report.files import (
    markdown as report_markdown,
)
from evalbars.report.files.sections import sections
from evalbars.report.text import scores as render

# --- documents of every kind ----------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_compare(tmp_path_factory) -> dict:
    """A comparison whose model and file names are HTML and LaTeX injections."""
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "<img src=x onerror=alert(2)>.csv"
    with open("examples/lesson_pair.csv") as source:
        lines = source.read().splitlines()
    lines[0] = f'qid,model_a,"{HOSTILE}"'
    path.write_text("\n".join(lines) + "\n")
    return evalbars.compare(path, a="model_a", b=HOSTILE, n_resamples=2000, margin=0.01).to_dict()


def documents() -> dict:
    from evalbars.analyses import power
    from evalbars.analyses.gate import gate

    lesson = "examples/lesson_pair.csv"
    return {
        "compare": evalbars.compare(lesson, n_resamples=1000).to_dict(),
        "ci": evalbars.ci("examples/cookbook_topics.csv", item="example_id",
                          n_resamples=1000).to_dict(),
        "gate": gate(lesson, baseline="model_a", candidate="model_b", max_regression=0.01,
                     n_resamples=1000).to_dict(),
        "power": power.grid(n=500, disagreement=0.1).to_dict(),
        "leaderboard": leaderboard_doc(),
        "passk": passk_doc(),
        "bradley-terry": bradley_terry_doc(),
        "unknown": {"schema_version": 1, "kind": "mystery", "statement": "odd", "x": [1, [2]],
                    "rates": {"a": {"rate": 0.5}}, "provenance": {"version": "0.1.0"}},
    }


KINDS = ("compare", "ci", "gate", "power", "leaderboard", "passk", "bradley-terry", "unknown")


@pytest.fixture(scope="module")
def docs() -> dict:
    made = documents()
    assert set(made) == set(KINDS)
    return made


# --- the renderers --------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_renders_in_every_format(docs, kind):
    doc = docs[kind]
    page = report_html.render_html(doc)
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "default-src 'none'" in page
    assert html.escape(doc.get("statement") or doc.get("comparison", {}).get("statement", ""),
                       quote=True) in page
    assert "Provenance" in page
    assert report_markdown.render_markdown(doc).strip()
    assert report_latex.render_latex(doc).startswith("% evalbars")


def test_the_comparison_report_shows_every_interval_test_and_the_provenance(docs):
    doc = docs["compare"]
    page = report_html.render_html(doc)
    for interval in doc["models"][0]["intervals"] + doc["difference"]["intervals"]:
        assert f"<td>{interval['method']}" in page
    for test in doc["tests"]:
        assert f"<td>{test['name']}" in page
    assert "+0.8 to +4.4" in page and "69.2 to 76.9" in page
    assert doc["provenance"]["data_sha256"] in page
    assert doc["provenance"]["inputs"][0]["sha256"] in page
    assert "<svg" in page and "paired (bootstrap)" in page
    assert "unpaired (Wald, for contrast)" in page
    titles = [section.title for section in sections(doc)]
    assert titles == ["Figure", "Scores", "Difference model_b \u2212 model_a", "Agreement",
                      "Tests (two-sided)", "Provenance"]


def test_a_hostile_model_and_file_name_are_text_everywhere(hostile_compare):
    page = report_html.render_html(hostile_compare)
    assert HOSTILE not in page and "<img" not in page
    assert html.escape(HOSTILE) in page
    markdown = report_markdown.render_markdown(hostile_compare)
    assert "<script" not in markdown and "<img" not in markdown
    latex = report_latex.render_latex(hostile_compare)
    assert r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}" in latex


def test_equivalence_and_unknown_keys_get_their_own_sections(docs):
    doc = dict(docs["compare"])
    doc["clustered"] = {"cluster": "topic", "n_clusters": 20, "models": {"a": {"se": 0.05}}}
    doc["samples"] = [{"model": "a", "se": 0.02, "se_by_answers": [{"answers": 1, "se": 0.03}]}]
    doc["seeds"] = None
    doc["brand_new"] = [1, 2.5, "x"]
    titles = [section.title for section in sections(doc)]
    assert {"Clustered questions", "Several answers per question", "Brand new"} <= set(titles)
    page = report_html.render_html(doc)
    assert "clustered" not in titles and "models.a.se" in page and "1, 2.5, x" in page
    markdown = report_markdown.render_markdown(doc)
    assert "**Clustered questions**" in markdown and "**Provenance**" in markdown
    gate_titles = [section.title for section in sections(docs["gate"])]
    assert "Non-inferiority and equivalence" in gate_titles


def test_the_markdown_twin_starts_with_the_kinds_own_markdown(docs):
    doc = docs["compare"]
    markdown = report_markdown.render_markdown(doc)
    assert markdown.startswith(render.render_markdown(doc).rstrip("\n"))
    assert "**Provenance**" in markdown


def test_the_latex_table_is_a_paper_table(docs):
    latex = report_latex.render_latex(docs["compare"])
    assert r"\toprule" in latex and r"\bottomrule" in latex
    # the gap, in points, under its own sub-header rather than under "Score (%)"
    assert ("\\midrule\nPaired difference & Gap (points) & 95\\% CI \\\\\n\\midrule\n"
            r"model\_b $-$ model\_a & +2.6 & [+0.8, +4.4] \\") in latex
    caption = latex.split("\\caption{")[1].split("}\n")[0]
    assert caption == (
        r"Scores (\%) on 500 questions with 95\% Wilson confidence intervals. The difference "
        r"is paired on the same questions, with a 95\% paired bootstrap interval (1,000 "
        r"resamples); exact McNemar test p = 0.007. The models disagree on 21 questions.")
    board = report_latex.render_latex(docs["leaderboard"])
    assert r"\begin{tabular}{rlrrrrl}" in board         # model names left-aligned
    assert r"1 & gamma & 80.0 & [75.8, 83.6] & 1--2 & 0.71 & a \\" in board.replace("\u2013",
                                                                                   "--")
    assert "adjusted by" not in board and "holm" not in board
    assert ("Models sharing a letter cannot be separated (paired exact McNemar tests at the "
            r"5\% level, Holm correction over 1 pair).") in board
    passk = report_latex.render_latex(docs["passk"])
    assert "pass@5 (\\%)" in passk and "bootstrap-percentile" not in passk


def test_ratings_are_shown_in_their_own_units(docs):
    doc = docs["bradley-terry"]
    page = report_html.render_html(doc)
    assert "<td>Models" not in page and "<h2>Models</h2>" in page
    first = doc["models"][0]
    interval = first["intervals"][0]
    # Elo-scale ratings, one decimal, never multiplied by 100 as if they were percentages
    assert f'<td class="n">{first["rating"]:.1f}</td>' in page
    assert f"{interval['low']:.1f} to {interval['high']:.1f}".replace("-", "\u2212") in page \
        or f"{interval['low']:.1f} to {interval['high']:.1f}" in page
    assert f"rating (95% intervals, {interval['method']})" in page


def test_estimates_are_tidy_and_keep_full_precision(docs):
    doc = docs["compare"]
    rows = estimates(doc)
    defaults = [row for row in rows if row["default"]]
    assert [row["quantity"] for row in defaults] == ["score", "score", "difference"]
    assert defaults[2]["low"] == doc["difference"]["intervals"][0]["low"]
    assert len(rows) == sum(len(m["intervals"]) for m in doc["models"]) + len(
        doc["difference"]["intervals"])


# --- the report command ---------------------------------------------------------------


def test_report_writes_what_the_json_document_renders_to(tmp_path, capsys):
    out = tmp_path / "report.html"
    status = main(["report", "examples/lesson_pair.csv", "-o", str(out), "--format", "json",
                   "--n-resamples", "1000"])
    captured = capsys.readouterr()
    assert status == 0 and captured.err == f"evalbars: wrote {out}\n"
    doc = json.loads(captured.out)
    assert doc["kind"] == "compare"
    assert out.read_text() == report_html.render_html(doc)
    saved = tmp_path / "doc.json"
    saved.write_text(captured.out)
    for name, renderer in (("again.html", report_html.render_html),
                           ("r.md", report_markdown.render_markdown),
                           ("r.tex", report_latex.render_latex)):
        assert main(["report", "--from-json", str(saved), "-o", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_text() == renderer(doc)


def test_report_kind_is_compare_for_two_models_and_ci_otherwise(tmp_path, capsys):
    three = tmp_path / "three.csv"
    three.write_text("id,a,b,c\n" + "".join(f"q{i},{i % 2},{i % 3 > 0:d},1\n" for i in range(30)))
    cases = [(["examples/lesson_pair.csv"], "compare"),
             ([str(three)], "ci"),
             ([str(three), "--a", "a", "--b", "c"], "compare"),
             ([str(three), "--models", "a", "b"], "compare"),
             (["examples/lesson_pair.csv", "--kind", "ci"], "ci")]
    for argv, kind in cases:
        assert main(["report", *argv, "-o", str(tmp_path / "r.html"), "--format", "json",
                     "--n-resamples", "200"]) == 0
        assert json.loads(capsys.readouterr().out)["kind"] == kind, argv


@pytest.mark.parametrize("argv,message", [
    (["examples/lesson_pair.csv", "-o", "r.pdf"], "must end in one of .html"),
    (["-o", "r.html"], "give a results file DATA, or --from-json FILE"),
    (["examples/lesson_pair.csv", "--from-json", "x.json", "-o", "r.html"], "not both"),
    (["--from-json", "examples/lesson_pair.csv", "-o", "r.html"], "is not JSON"),
    (["--from-json", "missing.json", "-o", "r.html"], "cannot read --from-json"),
    (["examples/lesson_pair.csv", "--models", "model_a", "--a", "model_a", "-o", "r.html"],
     "give one or the other"),
])
def test_report_errors_are_one_line_with_exit_2(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
    assert main(["report", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evalbars: error:") and message in err and err.count("\n") == 1


def test_not_a_report_document(tmp_path, capsys):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    assert main(["report", "--from-json", str(path), "-o", str(tmp_path / "r.html")]) == 2
    assert "not an evalbars report document" in capsys.readouterr().err


class FakeTerminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_bar_on_a_terminal_and_none_when_piped():
    for tty in (True, False):
        stream = FakeTerminal(tty)
        bar = _progress.Progress("bootstrap", 100, stream=stream, delay=0.0)
        for _ in range(4):
            bar(25)
        bar.close()
        text = stream.getvalue()
        if tty:
            assert "bootstrap [" in text and "100%" in text and text.endswith("\r")
        else:
            assert text == ""


def test_long_report_runs_are_quiet_when_piped(tmp_path, capsys):
    assert main(["report", "examples/cookbook_topics.csv", "--item", "example_id",
                 "--score-type", "continuous", "-o", str(tmp_path / "r.html")]) == 0
    assert capsys.readouterr().err == f"evalbars: wrote {tmp_path / 'r.html'}\n"


# --- in a real browser ----------------------------------------------------------------


def test_the_report_in_a_real_browser(browser, hostile_compare, tmp_path):  # noqa: F811
    path = tmp_path / "report.html"
    path.write_text(report_html.render_html(hostile_compare), encoding="utf-8")
    page = browser.open(path.as_uri())
    assert page.errors() == [] and page.dialogs() == []
    assert page.evaluate("document.querySelectorAll('script, img, iframe, object').length") == 0
    text = page.evaluate("document.body.innerText")
    assert HOSTILE in text and "<img src=x onerror=alert(2)>.csv" in text
    assert "Non-inferiority and equivalence" in text
    width = page.evaluate("document.querySelector('svg').getBoundingClientRect().width")
    assert width > 500
    png = page.screenshot(tmp_path / "report.png")
    assert png_size(png)[0] == 1000 and png_size(png)[1] > 1500


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_opens_cleanly_in_a_real_browser(browser, docs, kind, tmp_path):  # noqa: F811
    path = tmp_path / f"{kind}.html"
    path.write_text(report_html.render_html(docs[kind]), encoding="utf-8")
    page = browser.open(path.as_uri())
    assert page.errors() == []
    assert page.evaluate("document.querySelectorAll('h2').length") >= 1
    page.screenshot(tmp_path / f"{kind}.png")


def test_the_svg_gap_contrasts_clustered_with_clustered_and_marks_n_in_grey():
    from evalbars.analyses import power
    from evalbars.report.files.figure import figure_for
    from evalbars.report.files.svg import COLORS, MARK

    doc = evalbars.compare("examples/cookbook_topics.csv", cluster="topic_id",
                           n_resamples=300).to_dict()
    svg, _ = figure_for(doc)
    assert "paired (clustered CR1)" in svg and "unpaired (clustered CR1, for contrast)" in svg
    assert "gap, points (95% intervals)<" in svg and "paired-cluster-cr1" not in svg
    plan, _ = figure_for(power.grid(n=500, disagreement=0.1).to_dict())
    assert f'fill="{MARK}">n = 500<' in plan and MARK not in COLORS


def test_a_clustered_latex_caption_names_the_clusters_and_no_resamples_for_cr1():
    doc = evalbars.compare("examples/cookbook_topics.csv", cluster="topic_id",
                           n_resamples=300).to_dict()
    latex = report_latex.render_latex(doc)
    assert ("with a 95\\% paired clustered CR1 interval; cluster sign-flip permutation test "
            "p = ") in latex
    assert r"Questions are clustered by topic\_id (20 clusters)" in latex
    assert "resamples" not in latex and "cluster-cr1" not in latex


def test_an_ablation_gets_a_paper_table_not_a_dump():
    pd = pytest.importorskip("pandas")
    import numpy as np

    rng = np.random.default_rng(1)       # docs/ablation.md's seeded example
    n = 1000
    ease = rng.random(n)
    frame = pd.DataFrame({"qid": [f"q{i}" for i in range(n)]})
    for name, accuracy in [("base", 0.55), ("full", 0.70), ("no-retrieval", 0.60),
                           ("no-rerank", 0.65), ("no-fewshot", 0.70)]:
        own = np.where(rng.random(n) < 0.8, ease, rng.random(n))
        frame[name] = (own < accuracy).astype(int)
    doc = evalbars.ablation(frame, item="qid", full="full", baseline="base",
                            n_resamples=1000).to_dict()
    latex = report_latex.render_latex(doc)
    assert r"\begin{tabular}{lrrrrrr}" in latex and '"method"' not in latex
    assert ("Model & Score (\\%) & 95\\% CI & full $-$ model (points) & 95\\% CI & Holm p & "
            "Share of gain \\\\") in latex
    retrieval = next(v for v in doc["variants"] if v["name"] == "no-retrieval")
    drop, share = retrieval["drop"], retrieval["share"]
    row = next(line for line in latex.splitlines() if line.startswith("no-retrieval &"))
    assert row == (f"no-retrieval & {100 * retrieval['mean']:.1f} & "
                   f"[{100 * retrieval['interval']['low']:.1f}, "
                   f"{100 * retrieval['interval']['high']:.1f}] & "
                   f"+{100 * drop['estimate']:.1f} & [+{100 * drop['intervals'][0]['low']:.1f}, "
                   f"+{100 * drop['intervals'][0]['high']:.1f}] & \\textless{{}} 0.001 & "
                   f"{100 * share['estimate']:.0f}\\% [{100 * share['low']:.0f}, "
                   f"{100 * share['high']:.0f}] \\\\")
    assert drop["p_adjusted"] < 0.001
    assert "\nbase (baseline) & 57.0" in latex and "\nfull & 67.7" in latex   # no "full (full system)"
    rerank = next(v for v in doc["variants"] if v["name"] == "no-rerank")
    assert rerank["drop"]["p_adjusted"] == 1.0 and "& +1.0 & " in latex
    low = -100 * rerank["drop"]["intervals"][0]["low"]
    assert f"no-rerank & 66.7 & [63.7, 69.6] & +1.0 & [$-${low:.1f}, " in latex
    assert " & 1.000 & " in latex
    assert "Holm-adjusted over the 7 comparisons" in latex and "holm" not in latex
    assert "and the full system minus each model, in points" in latex   # not "system full"
