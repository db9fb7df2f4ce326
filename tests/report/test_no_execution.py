"""Nothing evalbars writes can execute, and nothing it reads is executed.

- Every string in a report may come from the input (model names, item ids, cluster labels,
  file names). The reports are built here from inputs named to inject HTML, Markdown
  links and images, LaTeX commands, spreadsheet formulas, terminal escape sequences and
  bidirectional overrides, and each output must show them as text: the HTML page has only
  the tags and attributes evalbars writes (no script, no event handler, a
  Content-Security-Policy that forbids both); Markdown (``--format markdown`` and
  ``report -o x.md``) has no raw HTML, link or image syntax from the input, and pipes in
  table cells are escaped; LaTeX has no command but evalbars' own; the terminal report
  and error messages carry no control character.
- A spreadsheet formula such as ``=cmd|' /C calc'!A0`` is only dangerous in a CSV (or
  spreadsheet) file, and evalbars writes none: its outputs are text, JSON, Markdown, HTML,
  LaTeX and images. The source scan below keeps it so; a formula in a model name is shown
  as text in every report.
- No code path unpickles, evaluates or executes its input: the scan of ``src/evalbars``
  finds no pickle (nor marshal, shelve, dill, joblib), eval, exec, compile, __import__,
  yaml.load, subprocess or os.system, and imports modules by name only in the few places
  listed (with the reason each is safe).
"""
from __future__ import annotations

import ast
import contextlib
import html
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import evalbars
from evalbars.cli import main
from evalbars.report.files import (
    html as report_html,
)
from evalbars.report.files import (
    latex as report_latex,
)
from evalbars.report.files import (
    markdown as report_markdown,
)
from evalbars.report.text import render

pd = pytest.importorskip("pandas")

SRC = Path(evalbars.__file__).resolve().parent

SCRIPT = "<script>alert(1)</script>"
FORMULA = "=cmd|' /C calc'!A0"
HOSTILE = [
    SCRIPT,
    "<img src=x onerror=alert(2)>",
    FORMULA,
    "[click me](javascript:alert(3))",
    "![pixel](https://evil.example/p.png)",
    "\\input{/etc/passwd}\\write18{touch pwned}",
    "^^5cinput{x} $x$ & 100% # _ ~ {}",
    "\x1b]0;pwned\x07\x1b[2J\x1b[31mred",
    "two\nlines\n# Heading\n| a | b |",
    "\u202egnp.exe",
]
"""Model names (and, below, ids, clusters and a file name) that try to act."""

CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control characters other than the newline a report may itself use."""


# --------------------------------------------------------------------------- documents


def hostile_frame(n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({name: rng.integers(0, 2, n) for name in HOSTILE})
    frame.insert(0, "id", [f"<b>q{i}</b>" if i % 2 else f"=HYPERLINK(\"x\"){i}" for i in range(n)])
    frame["topic"] = [f"<i>t{i % 4}</i>\x1b[0m" for i in range(n)]
    return frame


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict:
    """Real report documents of every kind whose every name is hostile."""
    from evalbars.analyses.gate import gate
    from evalbars.analyses.leaderboard import leaderboard
    from evalbars.analyses.passk import passk

    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "<svg onload=alert(4)>.csv"
    frame = hostile_frame()
    frame.to_csv(path, index=False)
    a, b = SCRIPT, FORMULA
    samples = pd.read_csv("examples/passk_samples.csv")
    samples["model"] = samples["model"].map({"small": "<script>small", "large": "=1+1|large"})
    options = dict(n_resamples=300)
    return {
        "compare": evalbars.compare(path, a=a, b=b, cluster="topic", margin=0.05,
                                    **options).to_dict(),
        "ci": evalbars.ci(path, **options).to_dict(),  # every hostile name is a model
        "leaderboard": leaderboard(path, models=HOSTILE[3:8], **options).to_dict(),
        "gate": gate(path, baseline=a, candidate=b, max_regression=0.05, **options).to_dict(),
        "passk": passk(samples, k=[1, 2], sample="sample", **options).to_dict(),
    }


KINDS = ("compare", "ci", "leaderboard", "gate", "passk")


# --------------------------------------------------------------------------- HTML


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str, str | None]] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.add(tag)
        self.attributes += [(tag, name, value) for name, value in attrs]


def parse(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser


OWN_TAGS = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p",
            "section", "table", "tr", "th", "td", "figure", "figcaption", "footer", "svg",
            "g", "text", "line", "rect", "circle", "path", "polyline", "polygon", "div",
            "strong", "span", "tspan"}


@pytest.mark.parametrize("kind", KINDS)
def test_html_has_only_our_own_tags_and_no_script(documents, kind):
    page = report_html.render_html(documents[kind])
    found = parse(page)
    assert found.tags <= OWN_TAGS, found.tags - OWN_TAGS
    for tag, name, value in found.attributes:
        assert not name.startswith("on"), (tag, name, value)
        assert "javascript:" not in (value or "").lower(), (tag, name, value)
        assert name not in ("src", "href", "xlink:href", "srcset", "action"), (tag, name)
    assert "default-src 'none'" in page  # the CSP: no script runs, nothing is fetched
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert not CONTROL.search(page)


def test_html_shows_the_hostile_names_as_text(documents):
    page = report_html.render_html(documents["compare"])
    assert html.escape(SCRIPT) in page
    assert f"<td>{html.escape(FORMULA)}</td>" in page  # the formula is text in a cell
    assert "&lt;svg onload=alert(4)&gt;.csv" in page  # the file name, from the provenance
    page = report_html.render_html(documents["ci"])
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in page  # escapes shown, not sent
    assert "two\\x0alines\\x0a# Heading" in page
    compact = report_html.compact_html(documents["compare"])
    assert parse(compact).tags <= OWN_TAGS and "<script" not in compact


# --------------------------------------------------------------------------- Markdown


def markdowns(doc: dict) -> dict[str, str]:
    """The document as ``--format markdown`` prints it and as ``report -o x.md`` writes it."""
    return {"--format markdown": render.render(doc, "markdown"),
            "report -o x.md": report_markdown.render_markdown(doc)}


RAW_HTML = re.compile(r"<(?!/?sub>)[A-Za-z!/?]")
"""A tag start other than the <sub> footer evalbars writes itself."""

LINK = re.compile(r"(?<!\\)\]\(|(?<!\\)\[[^\]]*(?<!\\)\]\s*\[")
"""Markdown link or image syntax: an unescaped ``](`` or ``][``."""


@pytest.mark.parametrize("kind", KINDS)
def test_markdown_has_no_html_links_or_images_from_the_input(documents, kind):
    for how, text in markdowns(documents[kind]).items():
        assert not RAW_HTML.search(text), (how, RAW_HTML.search(text))
        assert not LINK.search(text), (how, LINK.search(text))
        assert not CONTROL.search(text), how
        assert "\n# Heading" not in text, how  # a newline in a name cannot start a block
        if kind in ("ci", "leaderboard"):
            assert "\\[click me\\](javascript:alert(3))" in text, how  # shown as text


@pytest.mark.parametrize("kind", ("compare", "ci", "leaderboard"))
def test_markdown_tables_keep_their_columns(documents, kind):
    for how, text in markdowns(documents[kind]).items():
        for table in re.findall(r"(?:^\|.*\|$\n?)+", text, flags=re.M):
            rows = table.strip("\n").split("\n")
            widths = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
            assert len(widths) == 1, (how, rows)  # an unescaped | would add a column


def test_markdown_shows_the_formula_as_text(documents):
    for how, text in markdowns(documents["compare"]).items():
        assert "=cmd\\|' /C calc'!A0" in text, how  # in a table cell, the pipe escaped
        assert "=cmd|' /C calc'!A0 scored" in text, how  # in the statement, as written


# --------------------------------------------------------------------------- LaTeX


OWN_LATEX = {"begin", "end", "centering", "caption", "label", "toprule", "midrule",
             "bottomrule", "textbackslash", "textless", "textgreater", "textasciitilde",
             "textasciicircum", "textperiodcentered", "usepackage"}


@pytest.mark.parametrize("kind", KINDS)
def test_latex_has_only_our_own_commands(documents, kind):
    tex = report_latex.render_latex(documents[kind])
    body = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    commands = set(re.findall(r"\\([A-Za-z]+)", body.replace("\\\\", "")))
    assert commands <= OWN_LATEX, commands - OWN_LATEX
    assert "^^" not in body  # TeX's ^^5c would be a backslash
    assert not CONTROL.search(tex)
    unescaped = re.findall(r"(?<!\\)[%#&$_]", body)
    assert set(unescaped) <= {"&", "$"}, unescaped  # & separates cells, $-$ is a minus
    if kind == "ci":
        assert "\\textbackslash{}input\\{/etc/passwd\\}" in tex


# --------------------------------------------------------------------------- terminal


@pytest.mark.parametrize("kind", KINDS)
def test_terminal_report_has_no_control_characters(documents, kind):
    text = render.render(documents[kind], "text")
    assert not CONTROL.search(text)
    if kind in ("ci", "leaderboard"):
        assert "\\x1b]0;pwned\\x07\\x1b[2J" in text


def test_cli_output_and_errors_have_no_control_characters(tmp_path):
    path = tmp_path / "\x1b[2Jscores.csv"
    hostile_frame().to_csv(path, index=False)
    runs = [["compare", str(path), "--a", SCRIPT, "--b", HOSTILE[7]],
            ["compare", str(path), "--a", SCRIPT, "--b", HOSTILE[7], "--format", "markdown"],
            ["compare", str(path), "--a", "\x1b[31mnot a model", "--b", SCRIPT],
            ["ci", str(path), "--models", "\x1b]0;x\x07"]]
    for argv in runs:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(argv + ["--n-resamples", "200"])
        assert out.getvalue() or err.getvalue()
        assert not CONTROL.search(out.getvalue() + err.getvalue()), argv


def test_json_escapes_control_characters(documents):
    text = json.dumps(documents["ci"], allow_nan=False)
    assert "\x1b" not in text and "\\u001b" in text


# --------------------------------------------------------------------------- the source


FORBIDDEN_MODULES = {"pickle", "cPickle", "_pickle", "dill", "cloudpickle", "joblib",
                     "marshal", "shelve", "yaml", "subprocess", "pty", "ctypes"}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint", "input"}
FORBIDDEN_ATTRIBUTES = {("os", "system"), ("os", "popen"), ("os", "execv"), ("os", "execvp"),
                        ("os", "spawnv"), ("pd", "read_pickle"), ("pandas", "read_pickle"),
                        ("yaml", "load"), ("pickle", "load"), ("pickle", "loads"),
                        ("np", "load"), ("numpy", "load")}
IMPORTS_BY_NAME = {
    "cli/__init__.py": "the command modules listed by evalbars.cli.command_modules()",
    "__init__.py": "lazy attributes of the package: a fixed table of module names",
    "core/lazy.py": "lazy attributes of evalbars.io and evalbars.stats: a fixed table of "
                    "module names in each package",
    "report/text/render.py": "the kind selects a module from the fixed table "
                             "RENDERER_MODULES; any other kind is refused",
    "io/logs/__init__.py": "the format selects its reader from the fixed table FORMATS; "
                           "any other name is refused by the input checks first",
}
"""Files (under src/evalbars) allowed to call importlib.import_module, and why it is safe."""
MODULES_ALLOWED = {
    ("stats/counts_kernel.py", "ctypes"): "calls the counting kernel it compiles from its own "
                                          "fixed LLVM IR text, on arrays whose types and "
                                          "shapes it checks first; no input reaches the code",
}
"""(file, forbidden module) pairs allowed, and why it is safe."""


def _sources():
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 30
    return files


def test_no_code_path_unpickles_evaluates_or_executes_input():
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(SRC)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(where, node.lineno, f"import {a.name}") for a in node.names
                          if a.name.split(".")[0] in FORBIDDEN_MODULES
                          and (str(where), a.name) not in MODULES_ALLOWED]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] in FORBIDDEN_MODULES:
                    found.append((where, node.lineno, f"from {node.module} import"))
            elif isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                    found.append((where, node.lineno, f"{func.id}()"))
                elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    pair = (func.value.id, func.attr)
                    if pair in FORBIDDEN_ATTRIBUTES:
                        found.append((where, node.lineno, ".".join(pair)))
                    if func.attr == "import_module" and str(where) not in IMPORTS_BY_NAME:
                        found.append((where, node.lineno, "importlib.import_module"))
                for keyword in node.keywords:
                    if keyword.arg in ("allow_pickle", "shell") and not (
                            isinstance(keyword.value, ast.Constant)
                            and keyword.value.value is False):
                        found.append((where, node.lineno, f"{keyword.arg}="))
    assert found == []


def test_the_source_text_names_none_of_them():
    """The plain-text scan the brief asks for, comments and docstrings included."""
    pattern = re.compile(r"\bpickle\b|(?<![\w.])eval\(|(?<![\w.])exec\(|yaml\.load\(")
    hits = [(path.relative_to(SRC), n, line.strip())
            for path in _sources()
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if pattern.search(line)]
    assert hits == []


def test_evalbars_writes_no_csv():
    """Formula injection needs a CSV or spreadsheet file; evalbars writes neither."""
    pattern = re.compile(r"csv\.writer|DictWriter|\.to_csv\(|\.to_excel\(|writerows?\(|"
                         r"openpyxl|xlsxwriter")
    hits = [(path.relative_to(SRC), n) for path in _sources()
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if pattern.search(line)]
    assert hits == []


def test_module_import_by_name_stays_inside_the_package(documents):
    doc = dict(documents["compare"], kind="..os")
    with pytest.raises(ImportError):
        render.render(doc, "text")  # not a kind of RENDERER_MODULES: nothing imported
    assert report_markdown.render_markdown(doc).strip()  # an unknown kind gets generic sections


def test_names_used_as_keys_are_escaped_too():
    """``dropped`` is keyed by model name: keys get the same treatment as values."""
    frame = pd.DataFrame({"id": ["q1", "q2", "q3"], SCRIPT: [1, None, 0],
                          HOSTILE[7]: [0, 1, 1]})
    doc = evalbars.compare(frame, intersect=True, n_resamples=200).to_dict()
    assert set(doc["dropped"]) == {SCRIPT, HOSTILE[7]}
    text = render.render(doc, "text")
    assert "--intersect dropped" in text and not CONTROL.search(text)
    for how, markdown in markdowns(doc).items():
        assert not RAW_HTML.search(markdown) and not CONTROL.search(markdown), how
    page = report_html.render_html(doc)
    assert "<script" not in page and not CONTROL.search(page)
