"""The result statement and the report's sentences at the edges: no impossible numbers
(issue 17, items 7 and 8)."""
import csv

import evalbars
from evalbars.report.statement import UNMEASURED
from evalbars.report.text.scores import render_text

FAST = dict(n_resamples=200)


def write_pair(path, a, b):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "a", "b"])
        writer.writerows((f"q{i}", x, y) for i, (x, y) in enumerate(zip(a, b)))
    return path


def pair(path, a, b):
    return evalbars.compare(write_pair(path, a, b), a="a", b="b", **FAST)


def test_no_detectable_gap_above_100_points(tmp_path):
    # d = b - a = (-1, 1, 0, 1): sd 0.957 (ddof=1), (1.960 + 0.842) 0.957 / sqrt(4) = 1.341,
    # the "134.1 points" of issue 17; d = (0, 1) at n = 2: 2.802 x 0.707 / sqrt(2) = 1.401.
    for a, b in (([1, 0, 1, 0], [0, 1, 1, 1]), ([1, 0], [1, 1])):
        statement = pair(tmp_path / "x.csv", a, b).statement
        assert "80% power only for gaps" not in statement
        assert (f"with {len(a)} questions and this much disagreement, not even the largest gap "
                "the 0/1 scale allows (100 points) would be detected with 80% power.") in statement


def test_a_detectable_gap_within_the_scale_is_still_given(tmp_path):
    # 30 questions, d = (1, -1, 0 x 28): sd 0.263, 2.802 x 0.263 / sqrt(30) = 0.134
    r = pair(tmp_path / "x.csv", [1, 0] + [1] * 28, [0, 1] + [1] * 28)
    assert "80% power only for gaps of about 13.4 points or more" in r.statement


def test_no_disagreement_no_zero_point_gap(tmp_path):
    r = pair(tmp_path / "x.csv", [1, 0] * 10, [1, 0] * 10)
    assert "0.0 points" not in r.statement
    assert "b and a scored the same (Newcombe 95% CI" in r.statement
    assert ("the models did not differ on any of the 20 questions, so these data cannot say "
            "how large a gap they could have detected.") in r.statement


def test_pairing_that_widens_is_called_wider(tmp_path):
    # anticorrelated: one model right where the other is wrong on 3 of 4 questions
    r = pair(tmp_path / "x.csv", [1, 0, 1, 0], [0, 1, 1, 1])
    doc = r.to_dict()
    widths = {i["method"]: i["high"] - i["low"] for i in doc["difference"]["intervals"]}
    factor = widths["paired-wald"] / widths["unpaired-wald"]
    assert factor > 1
    text = render_text(doc)
    assert f"pairing made the interval {factor:.1f}x wider than the unpaired one" in text
    assert "narrower" not in text


def test_t_interval_outside_0_1_is_warned_about(tmp_path):
    # 3 of 4 right: 0.75 +- t(3, 0.975) 0.5 / 2 = 0.75 +- 3.182 x 0.25 = -0.046 to 1.546
    r = evalbars.ci(write_pair(tmp_path / "x.csv", [1, 1, 1, 0], [1, 0, 1, 0]), **FAST)
    warned = [w for w in r.warnings if w.startswith("model 'a': the t interval")]
    assert len(warned) == 1 and "(-0.046 to 1.546) leaves [0, 1]" in warned[0]


def test_one_recommendation_per_model(tmp_path):
    # 2 of 4 right: the clt interval leaves [0, 1] and wilson covers only 88% there
    # (exact binomial coverage, stats/exact_coverage.py): both warnings say clopper-pearson.
    r = evalbars.ci(write_pair(tmp_path / "x.csv", [1, 0, 1, 0], [1, 1, 1, 0]), **FAST)
    about_a = [w for w in r.warnings if w.startswith("model 'a'")]
    assert any("wilson intervals at n = 4 and 50% accuracy covered only 88%" in w
               for w in about_a)
    assert any("the clt interval" in w for w in about_a)
    assert all("use the wilson interval" not in w and "use wilson" not in w for w in about_a)
    assert all("clopper-pearson" in w for w in about_a)


def test_every_model_is_read_for_sampled_answers(tmp_path):
    path = tmp_path / "long.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["q", "model", "sample", "score"])
        for q in range(12):
            writer.writerow([f"q{q}", "a", 0, q % 2])
            writer.writerows([f"q{q}", "b", k, int((q + k) % 3 > 0)] for k in range(3))
    r = evalbars.compare(path, item="q", model="model", score="score", sample="sample",
                         a="a", b="b", **FAST)
    assert UNMEASURED not in r.statement
    assert "Each question was answered once by a and 3 times by b, and is scored by the " \
           "average of its answers" in r.statement


def test_a_t_interval_past_100_percent_is_not_the_headline_as_it_is():
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "data" / "logs" / "promptfoo" / \
        "results.json"
    doc = evalbars.ci(path, n_resamples=300).to_dict()
    head = doc["models"][0]["intervals"][0]
    assert head["method"] == "t" and head["high"] > 1      # the document keeps it whole
    statement = doc["statement"]
    assert "155.0" not in statement and "\u2212" not in statement and "-76" not in statement
    assert "mini scored 83.3% (95% CI 11.6 to 100.0, t, cut to the 0\u2013100% scale)" in statement
    assert "openai:gpt-4o 66.7% (0.0 to 100.0, cut to the scale)" in statement
