"""The HTML, Markdown and LaTeX reports, the `report` command, and the report in a real browser.

The browser tests drive headless Chromium over the DevTools protocol on a pipe
(``--remote-debugging-pipe``): no extra Python package and no download. They skip only
when no Chromium is installed (``.ci/run`` installs Debian's ``chromium``).
"""
import fcntl
import html
import io
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time

import numpy as np
import pandas as pd
import pytest

import evalbars
from evalbars import _progress, render, report_html, report_latex
from evalbars.cli import main

HOSTILE = "<script>alert(1)</script>"


# --- a minimal DevTools-protocol client -------------------------------------------------


class Chromium:
    """Headless Chromium driven over the DevTools protocol on a pipe (fds 3 and 4)."""

    FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-pipe")

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="evalbars-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def as_fds_3_and_4() -> None:  # in the child, before exec
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_read, replies_write)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [executable, *self.FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            preexec_fn=as_fds_3_and_4, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self._buffer, self._id, self.events = b"", 0, []

    def _message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event.get("method") == method and event.get("sessionId") == session:
                    self.events.remove(event)
                    return event
            self.events.append(self._message(deadline))

    def open(self, url: str) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1000, "height": 900,
                                                         "deviceScaleFactor": 1,
                                                         "mobile": False}, session)
        self.send("Page.navigate", {"url": url}, session)
        self.wait_for("Page.loadEventFired", session)
        return Page(self, session)

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._replies)
        self.profile.cleanup()


class Page:
    """One tab: evaluate JavaScript, send real mouse clicks and keys, take screenshots."""

    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser, self.session = browser, session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str):
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def click(self, selector: str) -> None:
        """A real left click in the middle of the element (scrolled into view)."""
        box = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                            "e.scrollIntoView({block: 'center'});"
                            "const r = e.getBoundingClientRect();"
                            "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def press(self, selector: str, key: str, times: int = 1) -> None:
        """Focus the element and press an arrow key, as a person using the keyboard."""
        codes = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35}
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        for _ in range(times):
            for kind in ("rawKeyDown", "keyUp"):
                self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                     "windowsVirtualKeyCode": codes[key]})

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and refused loads (CSP) seen so far."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(json.dumps(params.get("args"))[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(params["entry"]["text"])
        return found

    def dialogs(self) -> list[dict]:
        return [e for e in self.browser.events if e.get("sessionId") == self.session
                and e.get("method") == "Page.javascriptDialogOpening"]

    def screenshot(self, path) -> bytes:
        """A PNG of the whole page, written to ``path``."""
        height = self.evaluate("document.documentElement.scrollHeight")
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1000, "height": int(height),
                                                         "deviceScaleFactor": 1, "mobile": False})
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        import base64

        png = base64.b64decode(data)
        path.write_bytes(png)
        return png


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        pytest.skip("no Chromium on PATH (.ci/run installs it: apt-get install chromium)")
    chromium = Chromium(executable)
    yield chromium
    chromium.close()


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


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


def leaderboard_doc() -> dict:
    """A hand-made leaderboard document of the documented shape (docs/leaderboard.md)."""
    def model(name, mean, low, high, rank, rank_low, rank_high, p_best):
        return {"name": name, "n": 400, "mean": mean,
                "intervals": [{"method": "wilson", "low": low, "high": high}],
                "rank": rank, "rank_low": rank_low, "rank_high": rank_high, "p_best": p_best}

    return {"schema_version": 1, "kind": "leaderboard", "n_items": 400, "score_type": "binary",
            "settings": {"confidence_level": 0.95, "n_resamples": 2000, "seed": 0},
            "models": [model("gamma", 0.80, 0.758, 0.836, 1, 1, 2, 0.71),
                       model("beta", 0.79, 0.747, 0.827, 2, 1, 2, 0.29),
                       model("alpha", 0.70, 0.653, 0.743, 3, 3, 3, 0.0)],
            "baseline": None,
            "correction": {"method": "holm", "alpha": 0.05, "n_tests": 1, "family": "all pairs"},
            "pairs": [{"a": "beta", "b": "gamma", "estimate": 0.01,
                       "intervals": [{"method": "paired-bootstrap-percentile", "low": -0.01,
                                      "high": 0.03}], "test": "mcnemar-exact",
                       "p_value": 0.4, "p_adjusted": 0.4}],
            "groups": [["gamma", "beta"], ["alpha"]], "statement": "gamma leads.",
            "warnings": [], "provenance": {"version": "0.1.0", "seed": 0, "inputs": []}}


def passk_doc() -> dict:
    """A hand-made pass@k document of the documented shape."""
    def rows(base: float) -> list[dict]:
        return [{"k": k, "estimate": base + 0.1 * i, "low": base + 0.1 * i - 0.05,
                 "high": base + 0.1 * i + 0.05, "shortcut": base + 0.08 * i}
                for i, k in enumerate((1, 5))]

    return {"schema_version": 1, "kind": "passk",
            "settings": {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0, "k": [1, 5],
                         "method": "bootstrap-percentile", "resample": "questions",
                         "shortcut": "1 - (1 - c/n)^k"},
            "models": [{"name": "small", "n_items": 50, "answers": {"min": 10, "max": 10},
                        "pass_at_k": rows(0.3)},
                       {"name": "large", "n_items": 50, "answers": {"min": 10, "max": 10},
                        "pass_at_k": rows(0.4)}],
            "a": "small", "b": "large",
            "difference": [{"k": 1, "estimate": 0.1, "low": 0.05, "high": 0.15}],
            "statement": "large is ahead.", "warnings": [],
            "provenance": {"version": "0.1.0", "seed": 0, "inputs": []}}


def bradley_terry_doc() -> dict:
    """A real ratings document: models with a rating, not a mean, and no score type."""
    from evalbars.bradley_terry import bradley_terry

    rng = np.random.default_rng(0)
    strength = {"a": 0.3, "b": -0.4, "c": 0.5}
    rows = []
    for _ in range(300):
        first, second = rng.choice(list(strength), size=2, replace=False)
        p_first = 1 / (1 + np.exp(strength[second] - strength[first]))
        rows.append({"model_a": first, "model_b": second,
                     "winner": "model_a" if rng.random() < p_first else "model_b"})
    return bradley_terry(pd.DataFrame(rows), n_resamples=300).to_dict()


def documents() -> dict:
    from evalbars import power
    from evalbars.gate import gate

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
    assert report_html.render_markdown(doc).strip()
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
    assert "<svg" in page and "paired" in page and "unpaired (for contrast)" in page
    titles = [section.title for section in report_html.sections(doc)]
    assert titles == ["Figure", "Scores", "Difference model_b \u2212 model_a", "Agreement",
                      "Tests (two-sided)", "Provenance"]


def test_a_hostile_model_and_file_name_are_text_everywhere(hostile_compare):
    page = report_html.render_html(hostile_compare)
    assert HOSTILE not in page and "<img" not in page
    assert html.escape(HOSTILE) in page
    markdown = report_html.render_markdown(hostile_compare)
    assert "<script" not in markdown and "<img" not in markdown
    latex = report_latex.render_latex(hostile_compare)
    assert r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}" in latex


def test_equivalence_and_unknown_keys_get_their_own_sections(docs):
    doc = dict(docs["compare"])
    doc["clustered"] = {"cluster": "topic", "n_clusters": 20, "models": {"a": {"se": 0.05}}}
    doc["samples"] = [{"model": "a", "se": 0.02, "se_by_answers": [{"answers": 1, "se": 0.03}]}]
    doc["seeds"] = None
    doc["brand_new"] = [1, 2.5, "x"]
    titles = [section.title for section in report_html.sections(doc)]
    assert {"Clustered questions", "Several answers per question", "Brand new"} <= set(titles)
    page = report_html.render_html(doc)
    assert "clustered" not in titles and "models.a.se" in page and "1, 2.5, x" in page
    markdown = report_html.render_markdown(doc)
    assert "**Clustered questions**" in markdown and "**Provenance**" in markdown
    gate_titles = [section.title for section in report_html.sections(docs["gate"])]
    assert "Non-inferiority and equivalence" in gate_titles


def test_the_markdown_twin_starts_with_the_kinds_own_markdown(docs):
    doc = docs["compare"]
    markdown = report_html.render_markdown(doc)
    assert markdown.startswith(render.render_markdown(doc).rstrip("\n"))
    assert "**Provenance**" in markdown


def test_the_latex_table_is_a_paper_table(docs):
    latex = report_latex.render_latex(docs["compare"])
    assert r"\toprule" in latex and r"\bottomrule" in latex
    assert r"model\_b $-$ model\_a (paired) & +2.6 & [+0.8, +4.4] \\" in latex
    assert "mcnemar-exact p = 0.007" in latex
    board = report_latex.render_latex(docs["leaderboard"])
    assert r"1 & gamma & 80.0 & [75.8, 83.6] & 1--2 & 0.71 \\" in board.replace("\u2013", "--")
    assert "pass@5 (\\%)" in report_latex.render_latex(docs["passk"])


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
    rows = report_html.estimates(doc)
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
                           ("r.md", report_html.render_markdown),
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
    (tmp_path / "examples").symlink_to(os.path.join(os.path.dirname(__file__), "..", "examples"))
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


def test_the_report_in_a_real_browser(browser, hostile_compare, tmp_path):
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
def test_every_kind_opens_cleanly_in_a_real_browser(browser, docs, kind, tmp_path):
    path = tmp_path / f"{kind}.html"
    path.write_text(report_html.render_html(docs[kind]), encoding="utf-8")
    page = browser.open(path.as_uri())
    assert page.errors() == []
    assert page.evaluate("document.querySelectorAll('h2').length") >= 1
    page.screenshot(tmp_path / f"{kind}.png")
