"""The `select`, `seeds` and `ablation` file reports (HTML, Markdown, LaTeX): their own
sections, titled and filled as the terminal report, not generic key/value dumps.

The cells are those of the terminal report's tables (report.text.select, seeds and
ablation build both); the numbers checked by value are those of docs/select.md,
docs/seeds.md and docs/ablation.md.
"""
from __future__ import annotations

import csv
import html
import json

import numpy as np
import pytest
from _browser import browser  # noqa: F401  (a fixture)

import evalbars
from evalbars.report.files.html import render_html
from evalbars.report.files.latex import render_latex
from evalbars.report.files.markdown import render_markdown
from evalbars.report.files.sections import Table, sections
from evalbars.report.text.blocks import table
from evalbars.report.text.render import render

KINDS = ("select", "seeds", "ablation")


def _ablation_csv(path) -> str:
    """docs/ablation.md's seeded example data."""
    rng = np.random.default_rng(1)
    n = 1000
    ease = rng.random(n)
    columns = {}
    for name, accuracy in [("base", 0.55), ("full", 0.70), ("no-retrieval", 0.60),
                           ("no-rerank", 0.65), ("no-fewshot", 0.70)]:
        own = np.where(rng.random(n) < 0.8, ease, rng.random(n))
        columns[name] = (own < accuracy).astype(int)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["qid", *columns])
        writer.writerows([f"q{i}", *(int(c[i]) for c in columns.values())] for i in range(n))
    return str(path)


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict:
    data = _ablation_csv(tmp_path_factory.mktemp("ablation") / "ablation.csv")
    return {
        "select": evalbars.select("examples/prompts.csv", baseline="baseline", split="split",
                                  select_on="dev", confirm_on="test",
                                  n_resamples=300).to_dict(),
        "select_no_split": evalbars.select("examples/prompts.csv", baseline="baseline",
                                           n_resamples=300).to_dict(),
        "seeds": evalbars.seeds("examples/seeds.csv", run="seed", n_resamples=300).to_dict(),
        "ablation": evalbars.ablation(data, item="qid", full="full", baseline="base",
                                      n_resamples=300).to_dict(),
    }


TITLES = {
    "select": ["Figure",
               "Candidates against baseline, on the selection questions (95% intervals, "
               "points; p-values holm-adjusted over 20 tests)",
               "The winner's curse (20 candidates)",
               "Held-out confirmation, the result: prompt09 \u2212 baseline on 500 questions "
               "not used for choosing (95% intervals)",
               "Models", "Provenance"],
    "select_no_split": ["Figure",
                        "Candidates against baseline, on all questions (95% intervals, "
                        "points; p-values holm-adjusted over 20 tests)",
                        "The winner's curse (20 candidates)", "Models", "Provenance"],
    "seeds": ["Figure", "Runs (95% intervals over questions, wilson, %)",
              "Recipes (95% intervals over seeds and questions, %)",
              "Variance of one run's score, as standard deviations, in points",
              "Difference curriculum \u2212 baseline: +4.8 points (runs are the unit, "
              "questions paired)", "Provenance"],
    "ablation": ["Figure", "Scores (95% intervals, %)",
                 "Gain of the full system: full \u2212 base +10.7 points (95% intervals)",
                 "Each variant against the full system and the baseline (points; drop = "
                 "full \u2212 variant; p-values holm-adjusted over the 7 comparisons of the "
                 "table)", "Provenance"],
}


def _tables(doc: dict) -> dict[str, Table]:
    return {s.title: b for s in sections(doc) for b in s.blocks if isinstance(b, Table)}


@pytest.mark.parametrize("kind", list(TITLES))
def test_each_kind_has_its_own_sections(docs, kind):
    assert [section.title for section in sections(docs[kind])] == TITLES[kind]


@pytest.mark.parametrize("kind", list(TITLES))
def test_the_tables_are_the_terminal_reports_cell_for_cell(docs, kind):
    doc = docs[kind]
    text = render(doc, "text").splitlines()
    page = render_html(doc)
    shown = [t for t in TITLES[kind] if t not in ("Figure", "Models", "Provenance")]
    for title in shown:
        block = _tables(doc)[title]
        at = text.index(title)
        lines = table(block.header, block.rows)
        assert text[at + 1:at + 1 + len(lines)] == lines, title
        part = page[page.index(f"<h2>{html.escape(title)}</h2>"):]
        part = part[:part.index("</section>")]
        for cell in block.header or []:
            assert f"<th>{html.escape(cell)}</th>" in part, cell
        for cell in (c for row in block.rows for c in row):
            assert f">{html.escape(cell)}</td>" in part, cell


def test_select_numbers_and_split(docs):
    doc = docs["select"]
    tables = _tables(doc)
    first = tables[TITLES["select"][1]].rows[0]
    assert first[:2] == ["prompt09", "+2.4"] and first[4:6] == ["7.6%", "0.07295"]
    confirm = tables[TITLES["select"][3]].rows
    assert confirm[:3] == [["baseline", "70.6%"], ["prompt09", "70.6%"],
                           ["gain", "+0.0 points"]]
    assert ["paired-wald", "\u22123.1 to +3.1"] in confirm and confirm[-1] == [
        "mcnemar-exact p", "1"]
    curse = tables[TITLES["select"][2]].rows
    assert curse[0] == ["best observed gain", "prompt09 +2.4 points"]
    candidates = next(s for s in sections(doc) if s.title == TITLES["select"][1])
    assert candidates.blocks[0] == ("Split: choose on 'split' = 'dev' (500 questions), "
                                    "confirm on 'test' (500 questions).")
    models = next(s for s in sections(doc) if s.title == "Models")
    assert not models.core  # the select Markdown report leaves the models' scores out


def test_seeds_numbers_and_the_parts_of_the_difference(docs):
    doc = docs["seeds"]
    tables = _tables(doc)
    recipes = tables[TITLES["seeds"][2]]
    assert recipes.rows[0][:6] == ["baseline", "5", "67.5", "2.9", "62.1 to 73.0", "24.5"]
    assert tables[TITLES["seeds"][1]].rows[1] == ["", "1", "70.7", "65.3 to 75.5"]
    assert tables[TITLES["seeds"][3]].rows == [["baseline", "2.6", "2.7", "47%"],
                                               ["curriculum", "2.0", "2.6", "38%"]]
    difference = next(s for s in sections(doc) if s.title == TITLES["seeds"][4])
    assert difference.blocks[0].rows[0] == ["seeds-t (default), 11.1 df", "+0.3 to +9.3"]
    assert difference.blocks[1] == (
        "Standard error 2.0 points from seeds of baseline 1.1, seeds of curriculum 0.9, "
        "questions 1.4 (as standard deviations; variances add).")


def test_ablation_numbers_and_the_shares_note(docs):
    doc = docs["ablation"]
    tables = _tables(doc)
    assert tables[TITLES["ablation"][1]].rows[2] == ["no-retrieval", "variant", "59.4",
                                                     "56.3 to 62.4"]
    gain = tables[TITLES["ablation"][2]].rows
    assert ["paired-wald", "+7.7 to +13.7"] in gain
    assert gain[-2:] == [["mcnemar-exact p", "5.854e-12"], ["holm p", "2.927e-11"]]
    assert tables[TITLES["ablation"][3]].rows[0][:2] == ["no-retrieval", "+8.3"]
    variants = next(s for s in sections(doc) if s.title == TITLES["ablation"][3])
    assert variants.blocks[-1] == ("Shares add up to 82%; they are not additive in general "
                                   "(parts can overlap or depend on each other).")


@pytest.mark.parametrize("kind", KINDS)
def test_keys_no_builder_shows_still_get_a_generic_section(docs, kind):
    doc = dict(docs[kind], brand_new={"x": 1.5})
    titles = [section.title for section in sections(doc)]
    assert titles == TITLES[kind][:-1] + ["Brand new", "Provenance"]
    assert "<td>x</td>" in render_html(doc)
    markdown = render_markdown(doc)
    assert markdown.startswith(render(doc, "markdown").rstrip("\n"))
    assert "**Brand new**" in markdown and markdown.count("**Provenance**") == 1
    for title in TITLES[kind][1:4]:  # the kind's own tables, once: not repeated after it
        assert markdown.count(f"**{title}**") == 1, title


def test_latex_of_select_and_seeds_is_one_table_per_section(docs):
    seeds = render_latex(docs["seeds"])
    assert seeds.count(r"\begin{table}") == 4
    assert r"\caption{Runs (95\% intervals over questions, wilson, \%)}" in seeds
    assert r"baseline & 5 & 67.5 & 2.9 & 62.1 to 73.0 & 24.5 & " in seeds
    assert (r"\caption{Difference curriculum $-$ baseline: +4.8 points (runs are the unit, "
            "questions paired)}") in seeds
    select = render_latex(docs["select"])
    assert select.count(r"\begin{table}") == 4
    assert r"prompt08 & $-$2.4 & " in select and r"& 7.6\% & 0.07295 & " in select
    assert r"(\$\pm$" not in select and r"($\pm$" in select  # the Monte Carlo error
    assert "\u00b1" not in select and "\u2212" not in select
    assert render_latex(docs["ablation"]).count(r"\begin{table}") == 1  # its paper table


def test_hostile_recipe_names_are_text_in_every_format(docs):
    hostile = "cur_ric & <b>%"
    doc = json.loads(json.dumps(docs["seeds"]).replace("curriculum", hostile))
    latex = render_latex(doc)
    assert r"cur\_ric \& \textless{}b\textgreater{}\%" in latex and "<b>" not in latex
    page = render_html(doc)
    assert "<b>" not in page and "cur_ric &amp; &lt;b&gt;%" in page
    assert "<b>" not in render_markdown(doc)


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_opens_cleanly_in_a_real_browser(browser, docs, kind, tmp_path):  # noqa: F811
    path = tmp_path / f"{kind}.html"
    path.write_text(render_html(docs[kind]), encoding="utf-8")
    page = browser.open(path.as_uri())
    assert page.errors() == []
    headings = page.evaluate("[...document.querySelectorAll('h2')].map(h => h.innerText)")
    assert headings == TITLES[kind][1:]


def test_the_html_scores_heading_of_a_one_sided_ci_says_bounds():
    scores = next(s for s in sections(evalbars.ci("examples/cookbook_topics.csv", alternative="greater").to_dict()) if s.title == "Scores")
    assert scores.blocks[0] == "one-sided 95% bounds, %; the first bound is the default."
    two_sided = evalbars.ci("examples/cookbook_topics.csv").to_dict()
    scores = next(s for s in sections(two_sided) if s.title == "Scores")
    assert scores.blocks[0] == "95% intervals, %; the first interval is the default."
