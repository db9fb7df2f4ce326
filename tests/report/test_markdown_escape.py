"""Markdown shows bare URLs and backticks in names as text, and ``wrote PATH`` shows a
path's control characters as escapes (issue 17, item 19)."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

import evalbars
from evalbars.cli import main
from evalbars.report.escape import md_safe
from evalbars.report.text import render

pd = pytest.importorskip("pandas")

LESSON = str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "lesson_pair.csv")


def test_md_safe_breaks_autolinks_and_code_spans():
    assert md_safe("http://evil.example/x") == "http\\://evil.example/x"
    assert md_safe("HTTPS://e.io ftp://f.io") == "HTTPS\\://e.io ftp\\://f.io"
    assert md_safe("www.x.com WWW.y.org") == "www\\.x.com WWW\\.y.org"
    assert md_safe("a`b") == "a\\`b"
    # a backslash of the name cannot undo the escape that follows it
    assert md_safe("a\\`b") == "a\\\\\\`b"
    assert md_safe("a\\b") == "a\\b"  # not before punctuation: left alone


def test_a_markdown_report_has_no_bare_url_or_backtick_from_names(tmp_path):
    rng = np.random.default_rng(0)
    names = ["http://evil.example/x", "www.x.com", "odd`name"]
    frame = pd.DataFrame({name: rng.integers(0, 2, 40) for name in names})
    frame.insert(0, "id", range(40))
    path = tmp_path / "s.csv"
    frame.to_csv(path, index=False)
    doc = evalbars.ci(path, n_resamples=200).to_dict()
    text = render.render(doc, "markdown")
    assert "http://" not in text and "www.x" not in text
    assert "odd\\`name" in text and "odd`name" not in text.replace("\\`", "")


def test_wrote_path_shows_control_characters_as_escapes(capsys, tmp_path):
    path = tmp_path / "r\x1b[2J.md"
    status = main(["report", LESSON, "-o", str(path), "--n-resamples", "200"])
    err = capsys.readouterr().err
    assert status == 0 and path.exists()
    assert "\x1b" not in err and "r\\x1b[2J.md" in err


def test_emails_and_mentions_in_names_stay_text():
    assert md_safe("ping @octocat") == "ping @&#8203;octocat"
    assert md_safe("a.b@example.com") == "a.b@&#8203;example.com"
    assert md_safe("x @ y") == "x @ y"          # an @ that starts nothing is left alone
    rng = np.random.default_rng(0)
    names = ["team@example.com", "@octocat-model"]
    frame = pd.DataFrame({name: rng.integers(0, 2, 40) for name in names})
    frame.insert(0, "id", range(40))
    text = render.render(evalbars.ci(frame, item="id", n_resamples=200).to_dict(), "markdown")
    assert "team@&#8203;example.com" in text and "@&#8203;octocat-model" in text
    assert "@example" not in text and "@octocat" not in text
    # GitHub's own Markdown (cmark-gfm with its autolink extension) links the raw address,
    # and a backslash does not stop it; the escaped one stays text
    cmarkgfm = pytest.importorskip("cmarkgfm")
    html = cmarkgfm.github_flavored_markdown_to_html
    assert "mailto:" in html("team@example.com") and "mailto:" in html("team\\@example.com")
    assert "<a" not in html(text)
