"""Tests for stratum= / --stratum in the gate (evalbars.analyses.gate): the one-sided
decision on the stratified gap.

References: the deciding interval is ``estimate ± t(1 - alpha, df) se`` with the stratified
SE and the Satterthwaite df computed here by a plain loop over strata (Cochran, Sampling
Techniques, 5.7 and 5A.5), the quantile and the non-inferiority p-value from scipy.stats.t;
the gap itself is compare's (tests/analyses/test_strata_reports.py).
"""
from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

import evalbars
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError
from evalbars.report.text.render import render

DATA = "examples/strata_subjects.csv"


def _columns():
    with open(DATA, newline="") as f:
        rows = list(csv.DictReader(f))
    return ([r["subject"] for r in rows], np.array([float(r["model_a"]) for r in rows]),
            np.array([float(r["model_b"]) for r in rows]))


def _loop(d, labels, weights):
    """The stratified estimate, SE and Satterthwaite df of ``d``, by a plain loop."""
    est = var = denominator = 0.0
    for label, w in weights.items():
        part = d[[s == label for s in labels]]
        n, v = len(part), np.var(part, ddof=1)
        est += w * part.mean()
        var += w * w * v / n
        denominator += (w * w * v / n) ** 2 / (n - 1)
    return est, math.sqrt(var), var ** 2 / denominator


@pytest.mark.parametrize("weights", ["micro", "macro"])
def test_deciding_interval_against_a_loop_and_scipy(weights):
    from scipy import stats as sps
    labels, a, b = _columns()
    sizes = {s: labels.count(s) for s in sorted(set(labels))}
    w = {s: (n / len(labels) if weights == "micro" else 1 / len(sizes))
         for s, n in sizes.items()}
    est, se, df = _loop(b - a, labels, w)
    g = evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                      alpha=0.05, stratum="subject", weights=weights, n_resamples=500)
    eq = g.stratified
    assert eq.method == "stratified-t" and eq.level == 0.9
    assert (eq.estimate, eq.se, eq.df) == pytest.approx((est, se, df), rel=1e-12)
    half = sps.t.ppf(0.95, df) * se  # scipy 1.x
    assert (eq.low, eq.high) == pytest.approx((est - half, est + half), rel=1e-12)
    assert eq.non_inferiority_p == pytest.approx(sps.t.sf((est + 0.05) / se, df), rel=1e-10)
    # the 90% stratified-t interval of compare's stratified gap: the same ends
    c = evalbars.compare(DATA, a="model_a", b="model_b", stratum="subject", weights=weights,
                         confidence_level=0.9, n_resamples=500)
    head = c.strata.difference.intervals[0]
    assert (eq.low, eq.high) == pytest.approx((head.low, head.high), rel=1e-12)
    doc = g.to_dict()
    assert doc["stratum"] == "subject" and doc["weighting"] == weights
    assert doc["equivalence"]["interval"]["method"] == "stratified-t"
    assert doc["estimate"] == eq.estimate
    assert doc["comparison"]["strata"]["difference"]["estimate"] == eq.estimate


def test_decisions_and_exit_status(capsys):
    # micro: +2.5 points, 90% stratified CI -2.3 to +7.3; macro: -0.7, -7.3 to +5.9
    base = ["gate", DATA, "--baseline", "model_a", "--candidate", "model_b",
            "--stratum", "subject", "--n-resamples", "300"]
    assert main(base + ["--max-regression", "0.03"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PASS: model_b does not regress by more than 3.0 points")
    assert "90% stratified CI" in out and "over 4 strata of 'subject' (a micro average" in out
    assert "\nStrata: over 4 strata" in out
    assert main(base + ["--max-regression", "0.03", "--weights", "macro"]) == 3
    out = capsys.readouterr().out
    assert out.startswith("INCONCLUSIVE: cannot rule out a regression of more than 3.0 points")
    assert "questions would decide it" in out
    # the plain gate passes the same pair at 3 points: the weighting decides
    plain = evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.03,
                          n_resamples=300)
    assert plain.decision == "pass" and plain.stratified is None


def test_fail_on_a_shown_regression(tmp_path):
    path = tmp_path / "worse.csv"
    labels, a, _ = _columns()
    with open(path, "w") as f:
        f.write("id,subject,old,new\n")
        for i, (s, x) in enumerate(zip(labels, a)):
            f.write(f"q{i:03d},{s},1,{int(x)}\n")  # the old model answers all
    g = evalbars.gate(path, baseline="old", candidate="new", max_regression=0.01,
                      stratum="subject", weights="macro", n_resamples=300)
    assert g.decision == "fail" and g.exit_status == 1
    assert g.stratified.high < 0
    assert g.message.startswith("FAIL: new regresses against old: new \u2212 old = ")


def test_markdown_and_file_reports():
    from evalbars.report.files.html import render_html
    from evalbars.report.files.markdown import render_markdown
    doc = evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                        stratum="subject", weights="macro", n_resamples=300).to_dict()
    md = render(doc, "markdown")
    assert md.count("**Strata**") == 1
    assert "| algebra | 30 | 0.25 |" in md
    page = render_html(doc)
    assert page.count("<h2>Strata</h2>") == 1
    assert "on the stratified gap (deciding)</h2>" in page
    file_md = render_markdown(doc)
    assert file_md.count("**Strata**") == 1 and "on the stratified gap (deciding)" in file_md


def test_sequential_and_stratum_do_not_go_together(capsys):
    with pytest.raises(EvalbarsError, match="do not go with sequential=True"):
        evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                      stratum="subject", sequential=True)
    assert main(["gate", DATA, "--baseline", "model_a", "--candidate", "model_b",
                 "--max-regression", "0.05", "--weights", "macro", "--sequential"]) == 2
    assert "do not go with sequential=True (--sequential)" in capsys.readouterr().err
    with pytest.raises(EvalbarsError, match="weighs strata: name the stratum column"):
        evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                      weights="macro")


def test_json_round_trip(capsys):
    main(["gate", DATA, "--baseline", "model_a", "--candidate", "model_b",
          "--max-regression", "0.05", "--stratum", "subject", "--weights",
          "examples/strata_weights.csv", "--n-resamples", "300", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    api = evalbars.gate(DATA, baseline="model_a", candidate="model_b", max_regression=0.05,
                        stratum="subject", weights="examples/strata_weights.csv",
                        n_resamples=300).to_dict()
    assert doc == json.loads(json.dumps(api))
    assert doc["weighting"] == "given"
    assert "examples/strata_weights.csv" in doc["message"]
