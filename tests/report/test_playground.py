"""The playground page: self-contained, faithful to evalbars.simulate, and working in a browser.

The browser tests use the DevTools-protocol client of _browser.py (headless Chromium;
they skip only when no Chromium is installed).
"""
import json
import math
import re

import numpy as np
import pytest
from _browser import browser, png_size  # noqa: F401  (browser is a fixture)

from evalbars import simulate
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.report.playground import playground_html, write_playground
from evalbars.simulate import _pairs

RATES = ("paired", "bars", "ahead")


def test_the_page_is_self_contained():
    page = playground_html()
    assert "default-src 'none'" in page and "__SETTINGS__" not in page
    assert set(re.findall(r"https?://[^\"'\s<]+", page)) == {"http://www.w3.org/2000/svg"}
    for forbidden in (" src=", "href=", "fetch(", "XMLHttpRequest", "WebSocket", "import(",
                      "innerHTML", "eval("):
        assert forbidden not in page, forbidden
    assert 'const INITIAL = {"correlation": 0.7, "gap": 0.03, "n": 1000, "seed": 1};' in page


@pytest.mark.parametrize("settings,message", [
    ({"n": 750}, "n must be between 100 and 5000 in steps of 100"),
    ({"n": 50}, "n must be"),
    ({"gap": 0.2}, "gap must be between -0.05 and 0.1"),
    ({"correlation": 0.33}, "correlation must be"),
    ({"correlation": float("nan")}, "correlation must be"),
    ({"seed": -1}, "seed must be a non-negative integer"),
    ({"seed": 2**32}, "seed must be at most 4,294,967,295 for the page's 32-bit generator"),
])
def test_starting_settings_are_checked(settings, message):
    with pytest.raises(EvalbarsError, match=message):
        playground_html(**settings)


def test_the_command_writes_the_page_and_prints_the_same_experiment(tmp_path, capsys):
    out = tmp_path / "p.html"
    assert main(["playground", "-o", str(out), "--gap", "0", "--n", "500", "--format",
                 "json"]) == 0
    captured = capsys.readouterr()
    assert out.read_text() == playground_html(gap=0.0, n=500)
    expected = simulate.power(accuracy=0.7, correlation=0.7, gap=0.0, n=500, seed=1).to_dict()
    assert json.loads(captured.out) == json.loads(json.dumps(expected))
    assert "open it in a browser" in captured.err
    assert main(["playground", "-o", str(out), "--n", "123"]) == 2


# --- in a real browser ----------------------------------------------------------------


@pytest.fixture
def open_page(browser, tmp_path):  # noqa: F811
    def opener(**settings):
        path = write_playground(tmp_path / "playground.html", **settings)
        return browser.open(path.as_uri())
    return opener


def rates(page) -> dict:
    return {name: page.evaluate(f"document.getElementById('rate-{name}').textContent")
            for name in RATES}


def share(text: str) -> float:
    return float(text.split("%")[0]) / 100


def test_the_page_computes_what_evalbars_simulate_computes(open_page):
    page = open_page()
    for gap in (-0.05, -0.01, 0.0, 0.03, 0.1):
        low, high = _pairs._correlation_range(0.7, gap)
        for correlation in np.linspace(0, 1, 21):
            js = page.evaluate(f"pairSpec(0.7, {gap}, {correlation})")
            python = _pairs.disagreement_from_correlation(0.7, gap, correlation)
            assert page.evaluate(f"disagreementFromCorrelation(0.7, {gap}, {correlation})") == \
                pytest.approx(python, abs=1e-12)
            if low <= correlation <= high:
                spec = _pairs.pair_spec(0.7, gap, None, float(correlation))
                assert js["cells"] == pytest.approx(list(spec.probabilities), abs=1e-12)
                assert not js["capped"]
            else:
                assert js["capped"]
    counts = np.random.default_rng(0).integers(0, 40, size=(50, 3))
    for both, a_only, b_only in counts:
        n = int(both + a_only + b_only + 10)
        gap, half = _pairs.paired_wald(np.array([a_only]), np.array([b_only]), n, 1.959963984540054)
        js = page.evaluate(f"pairedWald({a_only}, {b_only}, {n})")
        assert (js["gap"], js["half"]) == pytest.approx((gap[0], half[0]), abs=1e-12)
        python = _pairs.bars_do_not_overlap(np.array([both + a_only]), np.array([both + b_only]),
                                            n, 1.959963984540054)
        assert page.evaluate(f"barsDoNotOverlap({both + a_only}, {both + b_only}, {n})") == \
            bool(python[0])
    for n in (100, 125, 500, 1000, 4999):
        assert page.evaluate(f"atLeast(0.008, {n})") == _pairs.at_least(0.008, n)
    assert page.errors() == []


def test_the_defaults_and_a_run_of_fake_experiments(open_page, tmp_path):
    page = open_page()
    assert page.errors() == []
    reading = page.evaluate("document.getElementById('reading').textContent")
    assert reading.startswith("The two bars overlap by") and "excludes zero" in reading
    assert set(rates(page).values()) == {"\u2013"}
    assert page.evaluate("document.querySelectorAll('#figure line').length") > 20
    page.click("#run")
    seen = {name: share(text) for name, text in rates(page).items()}
    assert 0.70 <= seen["paired"] <= 0.86      # seed 000: "roughly three runs out of four"
    assert seen["bars"] <= 0.03                # "about once in a hundred"
    assert seen["ahead"] >= 0.9
    python = simulate.power(gap=0.03, n=1000, correlation=0.7, experiments=20_000, seed=0)
    for name, rule in (("paired", "paired-wald"), ("bars", "bars_do_not_overlap")):
        p = python.rate(rule).value
        assert abs(seen[name] - p) < 4 * math.sqrt(p * (1 - p) / 500) + 0.005
    assert page.evaluate("document.querySelectorAll('#strip line').length") == 41
    assert "seed 1" in page.evaluate("document.getElementById('run-info').textContent")
    page.click("#run")  # the next press uses the next seed: new numbers
    assert "seed 2" in page.evaluate("document.getElementById('run-info').textContent")
    png = page.screenshot(tmp_path / "playground.png")
    assert png_size(png)[1] > 1000
    assert page.errors() == []


def test_moving_the_sliders_to_two_identical_models(open_page):
    page = open_page()
    page.click("#run")
    page.press("#gap", "ArrowLeft", 6)       # 3 points -> 0, in steps of 0.5
    page.press("#n", "ArrowLeft", 5)         # 1,000 -> 500 questions, in steps of 100
    assert page.evaluate("document.getElementById('gap-out').textContent") == "+0.0"
    assert page.evaluate("document.getElementById('n-out').textContent") == "500"
    assert set(rates(page).values()) == {"\u2013"}   # old results are cleared
    page.click("#run")
    seen = {name: share(text) for name, text in rates(page).items()}
    assert 0.02 <= seen["paired"] <= 0.09      # "about 5% of the time"
    assert 0.25 <= seen["ahead"] <= 0.40       # "roughly a third"
    aa = simulate.aa(n=500, correlation=0.7, experiments=20_000, seed=0)
    p = aa.rate("gap_at_least_threshold").value
    assert abs(seen["ahead"] - p) < 4 * math.sqrt(p * (1 - p) / 500)
    assert page.errors() == []


def test_correlation_zero_makes_pairing_useless_and_impossible_ones_are_said(open_page):
    page = open_page()
    page.press("#correlation", "Home")
    reading = page.evaluate("document.getElementById('reading').textContent")
    assert "is about as wide as the unpaired one" in reading and "1.0 times" not in reading
    widths = page.evaluate("(() => { const s = settings(); "
                           "const e = expectedIntervals(s, pairSpec(0.7, s.gap, s.correlation));"
                           "return [e.paired[1], e.unpaired[1]]; })()")
    assert widths[0] == pytest.approx(widths[1], rel=1e-12)
    page.press("#correlation", "End")
    derived = page.evaluate("document.getElementById('derived').textContent")
    assert "impossible with this gap; using 0.929" in derived
    assert page.errors() == []


def test_the_three_things_to_try_buttons(open_page):
    page = open_page(correlation=0.0, gap=0.0, n=200)
    page.click("button[data-n='500']")
    values = "[inputs.correlation.value, inputs.gap.value, inputs.n.value].join()"
    assert page.evaluate(values) == "0.7,0,500"
    assert 0.02 <= share(rates(page)["paired"]) <= 0.09
    assert page.errors() == []


def test_the_width_is_worded_narrower_wider_or_about_the_same(open_page):
    page = open_page()
    assert page.evaluate("widthWords(1, 1.8)") == "is 1.8 times narrower than the unpaired one"
    assert page.evaluate("widthWords(1.34, 1)") == "is 1.3 times wider than the unpaired one"
    assert page.evaluate("widthWords(1, 1.04)") == "is about as wide as the unpaired one"
    assert page.evaluate("widthWords(0, 1)").startswith("has no width")
    assert page.errors() == []


def test_an_invalid_seed_is_refused_in_the_page_not_replaced(open_page):
    page = open_page()
    info = "document.getElementById('run-info').textContent"
    for typed in ("abc", "-3", "1.5", "4294967296", ""):
        page.evaluate(f"document.getElementById('seed').value = {json.dumps(typed)}")
        page.click("#run")
        assert page.evaluate(info) == (
            "No experiments run: the seed must be a whole number from 0 to 4,294,967,295; "
            f'got "{typed}".'), typed
        assert set(rates(page).values()) == {"\u2013"}          # nothing was run
        assert page.evaluate("document.getElementById('seed').value") == typed
    page.evaluate("document.getElementById('seed').value = ' 7 '")
    page.click("#run")
    assert page.evaluate(info).startswith("500 experiments with seed 7;")
    assert page.errors() == []


def test_at_400_px_nothing_overflows(open_page, tmp_path):
    page = open_page()
    page.send("Emulation.setDeviceMetricsOverride", {"width": 400, "height": 900,
                                                     "deviceScaleFactor": 1, "mobile": False})
    page.click("#run")
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.evaluate("document.querySelector('.controls').getBoundingClientRect().right")
    for slider in ("correlation", "gap", "n"):
        right = page.evaluate(f"document.getElementById('{slider}').getBoundingClientRect().right")
        assert right <= box, slider
    assert page.errors() == []
