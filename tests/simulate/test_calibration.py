"""The calibration study (evalbars.simulate.coverage) and the warnings that cite it.

Fast checks (a few cells, small simulations) run in CI: the recommended defaults stay
near nominal, the known failures are seen, the exact computations agree with brute force
and simulation, and the document, the CLI and the warnings are consistent. The full grid
is in docs/calibration.md (scripts/calibration.py); full-size checks are marked slow.
"""
import itertools
import json
import math

import numpy as np
import pytest
from scipy import stats

import evalbars
from evalbars.analyses import caveats
from evalbars.analyses.results import ModelScore
from evalbars.cli import main
from evalbars.core.types import Interval
from evalbars.simulate import SIMULATIONS, coverage
from evalbars.simulate._calibration_mc import gap_spec, null_cells
from evalbars.simulate._calibration_units import true_pass_at_k
from evalbars.simulate._coverage import FAMILIES, METHODS, run_cell
from evalbars.stats import intervals, significance
from evalbars.stats.exact_coverage import EXACT_TESTS, binomial_coverage, rejection_rate

LEVEL = 0.95


def cell(family, settings, methods, datasets, seed=0):
    return run_cell(family, settings, tuple(methods), datasets=datasets, n_resamples=1000,
                    alpha=0.05, seed=seed)


def near_nominal(estimate, nominal=LEVEL, tolerance=0.02):
    """Within ``tolerance`` of nominal, plus three Monte Carlo errors."""
    return abs(estimate.value - nominal) <= tolerance + 3 * estimate.mc_error


# --- the recommended defaults stay near nominal ------------------------------------------


@pytest.mark.parametrize("n,p", [(30, 0.5), (100, 0.5), (100, 0.9), (500, 0.9), (500, 0.99),
                                 (5000, 0.99)])
def test_wilson_is_near_nominal(n, p):
    assert near_nominal(cell("score-binary", {"n": n, "p": p}, ["wilson"], 1)["wilson"])


def test_t_is_near_nominal_for_continuous_scores():
    found = cell("score-continuous", {"n": 100, "p": 0.5}, ["t"], 1000)["t"]
    assert found.datasets == 1000 and near_nominal(found)


@pytest.mark.parametrize("p", [0.5, 0.9])
def test_paired_defaults_are_near_nominal(p):
    found = cell("gap-binary", {"n": 500, "p": p, "r": 0.7},
                 ["paired-bootstrap-percentile", "paired-wald"], 400)
    assert near_nominal(found["paired-bootstrap-percentile"])
    assert near_nominal(found["paired-wald"])


def test_cluster_cr1_is_near_nominal_and_the_naive_interval_is_not():
    found = cell("clustered", {"clusters": 30, "per_cluster": 20, "icc": 0.2, "p": 0.7},
                 ["cluster-cr1", "wilson"], 400)
    assert near_nominal(found["cluster-cr1"])
    assert found["wilson"].value < 0.75  # the naive interval, ignoring clusters


def test_headline_tests_hold_their_level():
    cells = null_cells(0.9, 0.7)
    for n in (100, 500):
        assert rejection_rate("mcnemar-exact", n, cells, alpha=0.05) <= 0.05
    found = cell("null-continuous", {"n": 30, "p": 0.5, "r": 0.7}, ["sign-flip"], 600)
    assert near_nominal(found["sign-flip"], 0.05, tolerance=0.01)
    found = cell("null-clustered", {"clusters": 30, "per_cluster": 5, "icc": 0.2, "p": 0.7},
                 ["cluster-sign-flip", "mcnemar-exact"], 400)
    assert near_nominal(found["cluster-sign-flip"], 0.05, tolerance=0.01)
    assert found["mcnemar-exact"].value > 0.10  # ignoring the clusters over-rejects


# --- the known failures are seen ------------------------------------------------------


def test_wald_undercovers_at_20_questions_near_95_percent():
    assert binomial_coverage("wald", 20, 0.95) == pytest.approx(0.6389, abs=1e-4)
    assert binomial_coverage("clopper-pearson", 20, 0.95) >= 0.95
    assert binomial_coverage("wilson", 20, 0.95) > 0.9


def test_bootstrap_collapses_on_small_0_1_samples():
    found = cell("score-binary", {"n": 10, "p": 0.9},
                 ["bootstrap-percentile", "wilson"], 300)
    assert found["bootstrap-percentile"].value < 0.75 < found["wilson"].value


# --- the exact computations ---------------------------------------------------------


def test_exact_binomial_coverage_matches_simulation():
    rng = np.random.default_rng(5)
    n, p, draws = 30, 0.8, 4000
    for method in ("wald", "wilson", "t"):
        covered = []
        for k in rng.binomial(n, p, size=draws):
            x = np.repeat([1.0, 0.0], [k, n - k])
            found = (intervals.mean_interval(x, method=method) if method == "t"
                     else intervals.binomial_interval(int(k), n, method=method))
            covered.append(found.low <= p <= found.high)
        share = np.mean(covered)
        assert abs(share - binomial_coverage(method, n, p)) < 4 * math.sqrt(0.05 * 0.95 / draws)


@pytest.mark.parametrize("cells", [(0.5, 0.12, 0.08, 0.3), null_cells(0.7, 0.5)])
def test_exact_rejection_rate_equals_brute_force(cells):
    n = 12
    for test in EXACT_TESTS:
        total = 0.0
        for both, a_only, b_only in itertools.product(range(n + 1), repeat=3):
            neither = n - both - a_only - b_only
            if neither < 0:
                continue
            a = np.repeat([1.0, 1.0, 0.0, 0.0], [both, a_only, b_only, neither])
            b = np.repeat([1.0, 0.0, 1.0, 0.0], [both, a_only, b_only, neither])
            if significance.paired_test(a, b, name=test).p_value < 0.05:
                total += stats.multinomial.pmf([both, a_only, b_only, neither], n, cells)
        assert rejection_rate(test, n, cells, alpha=0.05) == pytest.approx(total, abs=1e-12)


def test_gap_cells_have_the_asked_correlation_and_share():
    spec = gap_spec(0.9, 0.7, 0.6)
    both, a_only, b_only, neither = spec.probabilities
    assert b_only / (a_only + b_only) == pytest.approx(0.6)
    p_a, p_b = both + a_only, both + b_only
    assert (p_a + p_b) / 2 == pytest.approx(0.9)
    null = null_cells(0.9, 0.7)
    covariance = null[0] - 0.9 * 0.9
    assert covariance / (0.9 * 0.1) == pytest.approx(0.7)


def test_true_pass_at_k_matches_integration():
    for p, k in ((0.3, 1), (0.3, 5), (0.7, 10)):
        a, b = p, 1 - p
        value = 1 - stats.beta(a, b).expect(lambda t: (1 - t) ** k)
        assert true_pass_at_k(p, k) == pytest.approx(value, abs=1e-6)


# --- the document, the CLI ------------------------------------------------------------


SMALL = dict(methods=["wald", "bootstrap-percentile", "mcnemar-exact", "pass@5"], n=[20],
             datasets=60)


@pytest.fixture(scope="module")
def small():
    return coverage(**SMALL, seed=3)


def test_document(small):
    doc = small.to_dict()
    assert (doc["kind"], doc["name"], doc["seed"]) == ("simulate", "coverage", 3)
    assert all(set(rate) == {"rate", "mc_error"} for rate in doc["rates"].values())
    families = doc["settings"]["families"]
    assert set(families) == {"score-binary", "score-continuous", "passk", "null-binary",
                             "null-clustered", "power-binary"}
    assert families["score-binary"]["exact"] == ["wald"]
    for name, info in families.items():
        for method in info["methods"]:
            for key in info["cells"]:
                rate = doc["rates"][f"{name}/{method}/{key}"]
                assert (rate["mc_error"] == 0) == (method in info["exact"]) or \
                    rate["rate"] in (0.0, 1.0)
    assert doc["rates"]["score-binary/wald/n=20,p=0.9"]["rate"] == pytest.approx(
        binomial_coverage("wald", 20, 0.9))


def test_a_cell_does_not_depend_on_what_else_runs(small):
    alone = coverage(methods=["bootstrap-percentile"], n=[20, 30], datasets=60, seed=3)
    key = "score-binary/bootstrap-percentile/n=20,p=0.9"
    assert alone.rate(key) == small.rate(key)
    other = coverage(methods=["bootstrap-percentile"], n=[20], datasets=60, seed=4)
    assert other.to_dict()["rates"] != alone.to_dict()["rates"]


def test_cli_json_equals_the_api(capsys, small):
    argv = ["simulate", "coverage", "--methods", *SMALL["methods"], "--n", "20",
            "--datasets", "60", "--seed", "3", "--format", "json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out) == json.loads(json.dumps(small.to_dict()))


def test_text_and_markdown(capsys):
    argv = ["simulate", "coverage", "--methods", "wald", "wilson", "--n", "20", "100",
            "--datasets", "200"]
    assert main(argv) == 0
    out = capsys.readouterr()[0]
    assert out.startswith("evalbars simulate coverage: the calibration study")
    assert "wilson  score-binary" in out and "87.6*" in out  # wald at n = 20, p = 0.9
    assert main(argv + ["--format", "markdown"]) == 0
    out = capsys.readouterr()[0]
    assert out.startswith("### evalbars simulate coverage") and "| **87.6** |" in out


def test_every_method_belongs_to_a_family_and_the_defaults_lead():
    assert set(METHODS) == {m for f in FAMILIES.values() for m in f.methods}
    assert "coverage" in SIMULATIONS
    for family in FAMILIES.values():
        assert set(family.defaults) <= set(family.methods)
        assert set(family.exact) <= set(family.methods)


@pytest.mark.parametrize("argv,message", [
    (["--methods", "walds"], "methods must be names from wilson, wald"),
    (["--n", "1"], "n must be an integer of at least 2, got 1"),
    (["--datasets", "0"], "datasets must be an integer of at least 1"),
    (["--n-resamples", "0"], "n_resamples must be an integer of at least 1"),
    (["--alpha", "1"], "alpha must be a fraction in (0, 1)"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert main(["simulate", "coverage", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and err.count("\n") == 1


# --- the report uses what the study found ----------------------------------------------


def model(n, right, *methods):
    found = tuple(intervals.binomial_interval(right, n, method=m) if m not in ("clt", "t") else
                  intervals.mean_interval(np.repeat([1.0, 0.0], [right, n - right]), method=m)
                  for m in methods)
    return ModelScore("m", n, right / n, found)


def test_binary_warning_cites_the_exact_coverage():
    found = caveats.interval_warnings(model(20, 19, "wilson", "wald", "clt", "t"), "binary")
    assert any("wald, clt and t intervals at n = 20 and 95% accuracy covered only 64%, 64% "
               "and 64% in evalbars' calibration study" in w and "use wilson (92%)" in w
               and "clopper-pearson" not in w for w in found)
    found = caveats.interval_warnings(model(20, 20, "wilson", "wald", "clopper-pearson"),
                                      "binary")
    assert any("wald intervals at n = 20 and 97.5% accuracy covered only 40%" in w and
               "or clopper-pearson (99%), which never covers less than 95%" in w
               for w in found)


def test_no_warning_where_the_study_found_nothing():
    assert caveats.interval_warnings(model(500, 366, "wilson", "wald", "clt", "t"),
                                     "binary") == []
    assert caveats.interval_warnings(model(30, 15, "wilson", "wald", "clt", "t"),
                                     "binary") == []


def test_the_lesson_data_has_no_warning(lesson_path):
    assert evalbars.ci(lesson_path, n_resamples=200).warnings == ()


def test_continuous_warning_quotes_the_study():
    shown = tuple(Interval(m, 0.2, 0.8, LEVEL) for m in ("t", "clt", "bootstrap-percentile"))
    (found,) = caveats.interval_warnings(ModelScore("m", 12, 0.5, shown), "continuous")
    figures = caveats.CONTINUOUS_COVERAGE[10]
    assert f"covered only {100 * figures['clt']:.0f}% and " in found
    assert "use the t interval" in found
    assert caveats.interval_warnings(ModelScore("m", 40, 0.5, shown), "continuous") == []


@pytest.mark.parametrize("n", sorted(caveats.CONTINUOUS_COVERAGE))
def test_continuous_figures_are_the_studys(n):
    """The figures quoted are those of the published study (seed 0, 2,000 datasets)."""
    figures = caveats.CONTINUOUS_COVERAGE[n]
    found = cell("score-continuous", {"n": n, "p": 0.5}, tuple(figures), 2000)
    assert {m: round(e.value, 3) for m, e in found.items()} == figures


# --- full size: pytest -m slow ----------------------------------------------------------


@pytest.mark.slow
def test_full_size_defaults_over_the_grid():
    """The recommended defaults over the whole grid, 2,000 datasets per cell (minutes)."""
    def rates(result, family):
        return [(dict(part.split("=") for part in r.name.split("/")[2].split(",")), r)
                for r in result.rates if r.name.startswith(family + "/")]

    wilson = rates(coverage(methods=["wilson"]), "score-binary")
    assert min(r.value for _, r in wilson) > 0.90
    assert all(r.value > 0.93 for cell, r in wilson
               if int(cell["n"]) * (1 - float(cell["p"])) >= 2)
    t = rates(coverage(methods=["t"]), "score-continuous")
    assert all(near_nominal(r) for cell, r in t if cell["p"] == "0.5")
    gaps = coverage(methods=["headline", "paired-bootstrap-percentile", "paired-wald",
                             "paired-t", "newcombe"])
    bands = {}
    for cell, r in rates(gaps, "gap-binary"):
        expected = int(cell["n"]) * gap_spec(float(cell["p"]), float(cell["r"]), 0.6).disagreement
        bound = next((b for b, _ in caveats.GAP_COVERAGE if expected < b), None)
        method = r.name.split("/")[1]
        if bound is None:
            assert r.value > 0.92, r.name
        else:
            bands.setdefault((bound, method), []).append(round(r.value, 3))
    # the report's headline (newcombe below FEW_DISCORDANT discordant questions) everywhere
    assert min(r.value for _, r in rates(gaps, "gap-binary") if "/headline/" in r.name) > 0.93
    for bound, figures in caveats.GAP_COVERAGE:  # the figures the warning quotes
        for method, (low, high) in figures.items():
            assert (min(bands[bound, method]), max(bands[bound, method])) == (low, high)
    assert min(r.value for _, r in rates(coverage(methods=["cluster-cr1"]), "clustered")) > 0.915
    nulls = coverage(methods=["mcnemar-exact", "mcnemar-midp", "sign-flip", "cluster-sign-flip"])
    for rate in nulls.rates:
        if rate.name.startswith(("null-binary/", "null-continuous/", "null-clustered/cluster")):
            assert rate.value <= 0.05 + 0.01 + 3 * rate.mc_error, rate.name


# --- a 0/1 gap with few discordant questions leads with newcombe ---------------------------


def _few_discordant(n: int, b_only: int, a_only: int):
    right = n - b_only - a_only
    frame = {"id": [f"q{i}" for i in range(n)],
             "a": [1] * (right // 2) + [0] * (right - right // 2) + [0] * b_only + [1] * a_only,
             "b": [1] * (right // 2) + [0] * (right - right // 2) + [1] * b_only + [0] * a_only}
    return evalbars.compare(frame_of(frame), a="a", b="b", n_resamples=1000)


def frame_of(columns):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame(columns)


def test_newcombe_is_the_headline_below_ten_discordant_questions():
    few = _few_discordant(100, 5, 0)  # 5 discordant: under GAP_COVERAGE's last bound (10)
    assert caveats.FEW_DISCORDANT == 10
    assert few.difference.intervals[0].method == "newcombe"
    assert [i.method for i in few.difference.intervals[1:]] == [
        "paired-bootstrap-percentile", "paired-wald", "paired-t", "unpaired-wald"]
    head = few.difference.intervals[0]  # its numbers: tests/stats/test_intervals.py
    assert (f"Newcombe 95% CI {100 * head.low:+.1f} to {100 * head.high:+.1f}, chosen because "
            "only 5 questions had one model right and the other wrong, too few for the paired "
            "bootstrap") in few.statement
    assert any("the headline interval is newcombe's, which covered 96% to 99.6%" in w
               for w in few.warnings)
    enough = _few_discordant(100, 7, 3)  # 10 discordant: the paired bootstrap leads
    assert enough.difference.intervals[0].method == "paired-bootstrap-percentile"
    assert not any("newcombe" in w for w in enough.warnings)


def _headline_coverage(n, b_share, a_share, datasets, seed):
    """Share of simulated pairs whose headline gap interval holds the true gap."""
    rng = np.random.default_rng(seed)
    hits = 0
    for k in range(datasets):
        base = (rng.random(n) < 0.6).astype(int)
        u = rng.random(n)
        a, b = base.copy(), base.copy()
        b[u < b_share], a[u < b_share] = 1, 0
        a_only = (u >= b_share) & (u < b_share + a_share)
        a[a_only], b[a_only] = 1, 0
        frame = frame_of({"id": [str(i) for i in range(n)], "a": a, "b": b})
        head = evalbars.compare(frame, a="a", b="b", n_resamples=1000, seed=k).difference
        hits += head.intervals[0].low <= b_share - a_share <= head.intervals[0].high
    return hits / datasets


@pytest.mark.slow
@pytest.mark.parametrize("n,b_share,a_share", [(300, 0.016, 0.004), (100, 0.05, 0.01),
                                               (100, 0.06, 0.02)])
def test_the_headline_gap_interval_covers_with_few_discordant_questions(n, b_share, a_share):
    """About 6 discordant questions expected, most of them one way (the paired bootstrap
    alone covered 91% at n = 300 in a 400-dataset run; the headline 94.5%)."""
    coverage_ = _headline_coverage(n, b_share, a_share, datasets=2000, seed=3)
    assert coverage_ >= 0.95 - 0.02 - 3 * math.sqrt(0.95 * 0.05 / 2000), coverage_


def test_passk_figures_are_the_studys():
    """caveats.PASSK_COVERAGE is the passk table of docs/calibration.md (lowest, highest
    over p = 0.3 and 0.7 at each n)."""
    from conftest import ROOT

    text = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    table = text[text.index("passk: coverage of 95% intervals"):]
    rows = {}
    for line in table.splitlines()[4:]:
        if not line.startswith("|"):
            break
        cells = [c.strip(" *") for c in line.strip("|").split("|")]
        values = [float(c.split("±")[0]) / 100 for c in cells[2:5]]
        rows.setdefault(int(cells[0]), []).append(values)
    for n, figures in caveats.PASSK_COVERAGE.items():
        for column, k in enumerate((1, 5, 10)):
            seen = [row[column] for row in rows[n]]
            assert figures[k] == (round(min(seen), 3), round(max(seen), 3)), (n, k)
    assert min(v for row in rows[100] + rows[500] for v in row) >= 0.937  # PASSK_ENOUGH


def test_passk_warning_below_100_questions():
    assert caveats.passk_warnings(100, "questions", (1, 5)) == []
    found = caveats.passk_warnings(12, "clusters", (2, 8, 50))
    assert found == ["with 12 clusters, pass@k intervals cover less than their level: in "
                     "evalbars' calibration study (docs/calibration.md), at 10 questions with "
                     "10 answers each, pass@1 90% to 91% and pass@10 48% to 91% of 95% "
                     "intervals held the true value, and about 100 questions were needed for "
                     "94-96%; collect more clusters or read the intervals as optimistic"]


def _study_table(title: str) -> list[list[str]]:
    from conftest import ROOT

    text = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    rows = []
    for line in text[text.index(title):].splitlines()[4:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip(" *") for c in line.strip("|").split("|")])
    return rows


def test_near_bound_figures_are_the_studys():
    """caveats.NEAR_BOUND_COVERAGE is the score-continuous table at p = 0.9 and 0.99."""
    methods = ("t", "clt", "bootstrap-percentile", "bootstrap-bca")
    for n, p, *cells in _study_table("score-continuous: coverage of 95% intervals"):
        figures = caveats.NEAR_BOUND_COVERAGE.get((int(n), float(p)))
        measured = [float(c.split("±")[0]) / 100 for c in cells]
        if figures is None:  # p = 0.5, or n = 5000 where every method covered
            assert float(p) == 0.5 or min(measured) >= 0.948, (n, p)
            continue
        assert [figures[m] for m in methods] == pytest.approx(measured, abs=5e-4), (n, p)


@pytest.mark.parametrize("n,mean,cell", [(60, 0.93, "n = 30 and a mean of 0.9"),
                                         (200, 0.995, "n = 100 and a mean of 0.99"),
                                         (12, 0.05, "n = 10 and a mean of 0.9")])
def test_near_bound_warning_quotes_the_cell_at_or_below(n, mean, cell):
    m = ModelScore("m", n, mean, (Interval("t", mean - 0.02, mean + 0.02, 0.95),
                                  Interval("bootstrap-bca", mean - 0.02, mean + 0.01, 0.95)))
    found = caveats.interval_warnings(m, "continuous", unit_interval=True)
    assert len(found) == 1 and cell in found[0] and "near its bound" in found[0]
    off_scale = caveats.interval_warnings(m, "continuous", unit_interval=False)
    assert not any("near its bound" in w for w in off_scale)  # no bound off [0, 1]


def test_no_near_bound_warning_where_the_study_found_none():
    m = ModelScore("m", 600, 0.92, (Interval("t", 0.9, 0.94, 0.95),))  # n = 500, p = 0.9: 94.5%
    assert caveats.interval_warnings(m, "continuous", unit_interval=True) == []
    far = ModelScore("m", 40, 0.7, (Interval("t", 0.6, 0.8, 0.95),))
    assert caveats.interval_warnings(far, "continuous", unit_interval=True) == []


def test_pytest_collects_no_tests_from_src_named_like_tests():
    """``_calibration_mc.tests_binary`` and ``core.types.TestResult`` are library code:
    passed by path (a doctest run), they are no tests; the doctests there still run."""
    import subprocess
    import sys
    files = ["src/evalbars/simulate/_calibration_mc.py", "src/evalbars/core/types.py",
             "src/evalbars/cli/_hints.py"]
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *files],
                          capture_output=True, text=True, check=False)
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "src/evalbars/cli/_hints.py::evalbars.cli._hints.model_flags" in ids
    assert all(i.split("::")[1].startswith("evalbars.") for i in ids), ids  # doctests only
