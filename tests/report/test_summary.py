"""repr(result) is one line (report/summary.py); str(result) is the text report (issue 17)."""
import numpy as np
import pytest

import evalbars
from evalbars import simulate
from evalbars.analyses import power
from evalbars.report.summary import summary
from evalbars.report.text.render import render


def _battles():
    pd = pytest.importorskip("pandas")
    from evalbars.analyses.battles import bradley_terry

    rng = np.random.default_rng(0)
    strength = {"a": 0.3, "b": -0.4, "c": 0.5}
    rows = []
    for _ in range(300):
        x, y = rng.choice(list(strength), 2, replace=False)
        won = rng.random() < 1 / (1 + np.exp(strength[y] - strength[x]))
        rows.append({"model_a": x, "model_b": y, "winner": "model_a" if won else "model_b"})
    return bradley_terry(pd.DataFrame(rows), n_resamples=200)


def _results():
    pd = pytest.importorskip("pandas")
    pair, topics = "examples/lesson_pair.csv", "examples/cookbook_topics.csv"
    three = pd.read_csv(pair)
    three["model_c"] = np.roll(three["model_b"].to_numpy(), 7)
    return {
        "ci": evalbars.ci(pair, n_resamples=200),
        "compare": evalbars.compare(pair, n_resamples=200),
        "leaderboard": evalbars.leaderboard(topics, n_resamples=200),
        "bradley-terry": _battles(),
        "select": evalbars.select(topics, baseline="system_a", n_resamples=200),
        "seeds": evalbars.seeds("examples/seeds.csv", run="seed", n_resamples=200),
        "ablation": evalbars.ablation(three, full="model_b", baseline="model_a",
                                      n_resamples=200),
        "gate": evalbars.gate(pair, baseline="model_a", candidate="model_b",
                              max_regression=0.01, n_resamples=200),
        "passk": evalbars.passk("examples/passk_samples.csv", sample="sample", k=(1, 5),
                                n_resamples=200),
        "monitor": evalbars.monitor(pair, every=50),
        "power": power.solve(gap=0.01, power=0.8, disagreement=0.1),
        "simulate": simulate.aa(experiments=50),
    }


@pytest.fixture(scope="module")
def results():
    return _results()


def test_every_kind_of_result_has_a_one_line_repr_and_str_is_its_report(results):
    """repr was a dataclass dump of 4.7 to 38 KB, and print(gate_result) printed it."""
    for kind, result in results.items():
        doc = result.to_dict()
        shown = repr(result)
        assert shown.startswith(f"<{type(result).__name__} {kind}: ") and shown.endswith(">")
        assert len(shown) < 240 and "\n" not in shown, shown
        assert str(result) == render(doc, "text"), kind


def test_the_headline_numbers(results):
    assert repr(results["compare"]) == ("<CompareResult compare: model_b \u2212 model_a +2.6 "
                                        "points (95% CI +0.8 to +4.2), 500 questions>")
    assert repr(results["ci"]).startswith("<CIResult ci: model_a 73.2% (95% CI 69.2 to 76.9), "
                                          "model_b 75.8%")
    assert repr(results["gate"]) == (
        "<GateResult gate: pass, model_b \u2212 model_a +2.6 points (90% CI +1.1 to +4.1), "
        "max regression 1.0 points, 500 questions>")
    assert repr(results["passk"]) == (
        "<PassKResult passk: large \u2212 small pass@1 +10.6 points (95% CI +5.6 to +15.4); "
        "2 models, 50 questions>")
    assert repr(results["monitor"]) == (
        "<MonitorResult monitor: model_b \u2212 model_a +2.6 points (95% CI \u22120.3 to +5.5), "
        "keep-going after 500 questions>")
    assert repr(results["power"]) == ("<PowerResult power: solved for n: n 7,842 (paired), "
                                      "gap 1 point, power 80%, alpha 0.05>")
    assert str(results["gate"]).startswith("PASS: model_b does not regress")


def test_summary_never_raises_and_escapes_names():
    assert summary({"kind": "compare"}) == "compare"
    doc = {"kind": "ci", "score_type": "continuous", "n_items": 3,
           "settings": {"confidence_level": 0.9},
           "models": [{"name": "m\x1b[2J" + "x" * 50, "mean": 0.5,
                       "intervals": [{"low": 0.25, "high": 0.75}]}]}
    line = summary(doc)
    assert "\x1b" not in line and "..." in line and "0.50 (90% CI 0.25 to 0.75)" in line
