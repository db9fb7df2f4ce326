"""Plots: each figure renders, and the drawn interval ends are the document's numbers.

The numbers are read back from the matplotlib artists (lines with gid "interval:<name>"),
not from pixels.
"""
import sys

import pytest
from _report_documents import bradley_terry_doc, leaderboard_doc, passk_doc

import evalbars
from evalbars.analyses import power
from evalbars.cli import main
from evalbars.cli.plot import DESIGN_INPUTS
from evalbars.core.errors import EvalbarsError
from evalbars.report import plots

matplotlib = pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def compare_doc():
    return evalbars.compare("examples/lesson_pair.csv", n_resamples=1000).to_dict()


@pytest.fixture(scope="module")
def ci_doc():
    return evalbars.ci("examples/cookbook_topics.csv", item="example_id",
                       n_resamples=1000).to_dict()


def lines(figure, prefix: str) -> dict:
    """{name: (x data, y data)} of every line whose gid starts with ``prefix``."""
    return {line.get_gid()[len(prefix):]: (list(line.get_xdata()), list(line.get_ydata()))
            for ax in figure.axes for line in ax.get_lines()
            if (line.get_gid() or "").startswith(prefix)}


def test_forest_draws_each_models_default_interval(ci_doc, tmp_path):
    figure = plots.forest(ci_doc)
    drawn = lines(figure, "interval:")
    assert set(drawn) == {"system_a", "system_b"}
    for model in ci_doc["models"]:
        head = model["intervals"][0]
        assert drawn[model["name"]][0] == pytest.approx([100 * head["low"], 100 * head["high"]])
        assert lines(figure, "estimate:")[model["name"]][0] == pytest.approx([100 * model["mean"]])
    assert figure.axes[0].get_xlabel() == "score, % (95% intervals, wilson)"
    wald = lines(plots.forest(ci_doc, method="wald"), "interval:")["system_a"][0]
    assert wald == pytest.approx([100 * i for i in (ci_doc["models"][0]["intervals"][1]["low"],
                                                    ci_doc["models"][0]["intervals"][1]["high"])])
    png = plots.save(figure, tmp_path / "forest.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000


def test_gap_plot_puts_the_paired_interval_beside_the_separate_ones(compare_doc, tmp_path):
    figure = plots.gap(compare_doc)
    drawn = lines(figure, "interval:")
    difference = compare_doc["difference"]
    paired = difference["intervals"][0]
    unpaired = [i for i in difference["intervals"] if i["method"] == "unpaired-wald"][0]
    assert drawn["paired (bootstrap)"][0] == pytest.approx([100 * paired["low"],
                                                            100 * paired["high"]])
    assert drawn["unpaired (Wald, for contrast)"][0] == pytest.approx([100 * unpaired["low"],
                                                                 100 * unpaired["high"]])
    for model in compare_doc["models"]:
        head = model["intervals"][0]
        assert drawn[model["name"]][0] == pytest.approx([100 * head["low"], 100 * head["high"]])
    left, right = figure.axes[0], figure.axes[1]
    assert left.get_xlim()[1] - left.get_xlim()[0] == pytest.approx(
        right.get_xlim()[1] - right.get_xlim()[0])       # one scale for both panels
    assert any(list(line.get_xdata()) == [0, 0] for line in right.get_lines())
    assert right.get_xlabel() == "gap, points (95% intervals)"   # each bar names its own
    svg = plots.save(figure, tmp_path / "gap.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg


def test_leaderboard_plot_draws_the_rank_intervals(tmp_path):
    doc = leaderboard_doc()
    figure = plots.leaderboard(doc)
    ranks = lines(figure, "rank:")
    for model in doc["models"]:
        assert ranks[model["name"]][0] == [model["rank_low"], model["rank_high"]]
        head = model["intervals"][0]
        assert lines(figure, "interval:")[model["name"]][0] == pytest.approx(
            [100 * head["low"], 100 * head["high"]])
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["gamma", "beta", "alpha"]
    assert plots.save(figure, tmp_path / "ranks.png").stat().st_size > 5000


def test_passk_forest_has_a_row_per_model_and_k():
    doc = passk_doc()
    figure = plots.forest(doc)
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert labels == ["small pass@1", "small pass@5", "large pass@1", "large pass@5"]
    drawn = lines(figure, "interval:")
    for row in doc["models"][0]["pass_at_k"]:
        assert drawn[f"small pass@{row['k']}"][0] == pytest.approx([100 * row["low"],
                                                                    100 * row["high"]])


def test_ratings_are_not_drawn_as_percentages():
    doc = bradley_terry_doc()
    drawn = lines(plots.forest(doc), "interval:")
    first = doc["models"][0]
    interval = first["intervals"][0]
    # the Elo-scale interval ends, not 100 times them
    assert drawn[first["name"]][0] == pytest.approx([interval["low"], interval["high"]])


def test_power_curves_are_evalbars_power(tmp_path):
    doc = power.grid(n=500, disagreement=0.1).to_dict()
    figure = plots.power(doc)
    curves = lines(figure, "power:")
    assert [float(g) for g in curves] == [0.005, 0.01, 0.02, 0.05]
    ns, powers = curves["0.02"]
    for n, p in list(zip(ns, powers))[::10]:
        assert p == pytest.approx(power.solve(n=n, gap=0.02, disagreement=0.1).power)
    assert min(ns) < 500 < max(ns)
    assert figure.axes[0].get_xscale() == "log"
    assert [t.get_text() for t in figure.axes[0].get_legend().get_texts()] == [
        "gap 0.5 points", "gap 1 point", "gap 2 points", "gap 5 points", "target power 80%",
        "n = 500"]
    marked = [line for line in figure.axes[0].get_lines() if line.get_gid() == "n"]
    assert list(marked[0].get_xdata()) == [500, 500]
    curve_colors = {line.get_color() for line in figure.axes[0].get_lines()
                    if (line.get_gid() or "").startswith("power:")}
    assert marked[0].get_color() not in curve_colors   # not a curve's red
    assert plots.save(figure, tmp_path / "power.png").stat().st_size > 5000
    impossible = plots.power_curves(doc, gaps=[0.02, 0.5])
    assert [g for g, _, _ in impossible] == [0.02]     # a gap above the disagreement is left out


def test_continuous_scores_are_drawn_in_their_own_units(tmp_path):
    path = tmp_path / "ndcg.csv"
    path.write_text("id,a,b\n" + "".join(f"q{i},{(i % 7) / 7:.3f},{(i % 5) / 5:.3f}\n"
                                         for i in range(40)))
    doc = evalbars.compare(path, n_resamples=500).to_dict()
    figure = plots.gap(doc)
    assert lines(figure, "interval:")["a"][0] == pytest.approx(
        [doc["models"][0]["intervals"][0]["low"], doc["models"][0]["intervals"][0]["high"]])
    assert figure.axes[0].get_xlabel() == "score (95% intervals, t)"


def test_plot_dispatches_on_the_kind_and_says_what_is_wrong(compare_doc):
    assert lines(plots.plot(compare_doc), "interval:").keys() >= {"paired (bootstrap)"}
    with pytest.raises(EvalbarsError, match="no plot for documents of kind 'mystery'"):
        plots.plot({"kind": "mystery"})
    with pytest.raises(EvalbarsError, match="the gap plot needs a compare document"):
        plots.gap({"kind": "ci", "models": []})
    with pytest.raises(EvalbarsError, match="method must be one of"):
        plots.forest(compare_doc, method="nope")
    with pytest.raises(EvalbarsError, match="must end in one of .png, .svg, .pdf"):
        plots.save(plots.plot(compare_doc), "figure.jpg")


def test_without_matplotlib_the_error_names_the_extra(monkeypatch, compare_doc):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(EvalbarsError, match=r"pip install 'evalbars\[plot\]'"):
        plots.gap(compare_doc)


def test_the_plot_command(tmp_path, capsys):
    out = tmp_path / "gap.png"
    assert main(["plot", "gap", "examples/lesson_pair.csv", "-o", str(out), "--n-resamples",
                 "500", "--format", "json"]) == 0
    assert capsys.readouterr().err == f"evalbars: wrote {out}\n"
    assert out.read_bytes().startswith(b"\x89PNG")
    saved = tmp_path / "plan.json"
    assert main(["power", "--n", "500", "--disagreement", "0.1", "--power", "0.8", "--format",
                 "json"]) == 0
    saved.write_text(capsys.readouterr().out)
    for argv in (["power", "--n", "500", "--disagreement", "0.1", "-o", str(tmp_path / "p.svg")],
                 ["power", "--from-json", str(saved), "-o", str(tmp_path / "q.pdf")],
                 ["forest", "examples/cookbook_topics.csv", "--item", "example_id", "--models",
                  "system_b", "-o", str(tmp_path / "f.png"), "--n-resamples", "300"]):
        assert main(["plot", *argv]) == 0, argv
    capsys.readouterr()
    assert main(["plot", "power", "--disagreement", "0.1", "-o", str(tmp_path / "x.png")]) == 2
    assert "give --n" in capsys.readouterr().err
    assert main(["plot", "gap", "examples/lesson_pair.csv", "-o", str(tmp_path / "x.gif")]) == 2


def test_the_commands_design_options_are_evalbars_power_inputs():
    assert tuple(DESIGN_INPUTS) == tuple(power.INPUTS)


def test_with_clusters_the_contrast_is_the_unpaired_clustered_interval():
    doc = evalbars.compare("examples/cookbook_topics.csv", cluster="topic_id",
                           n_resamples=500).to_dict()
    drawn = lines(plots.gap(doc), "interval:")
    paired = doc["difference"]["intervals"][0]
    assert paired["method"] == "paired-cluster-cr1"
    assert drawn["paired (clustered CR1)"][0] == pytest.approx([100 * paired["low"],
                                                                100 * paired["high"]])
    # Independent: statsmodels' cluster-robust (CR1) standard error of each model's mean
    # (OLS on a constant, cov_type="cluster"), combined as for two independent means, with
    # scipy's t quantile on G - 1 = 19 degrees of freedom.
    import numpy as np
    import pandas as pd
    import statsmodels.api as sm
    from scipy import stats

    frame = pd.read_csv("examples/cookbook_topics.csv")
    groups = pd.factorize(frame["topic_id"])[0]
    se = [sm.OLS(frame[m].to_numpy(float), np.ones(len(frame))).fit(
        cov_type="cluster", cov_kwds={"groups": groups}).bse[0] for m in ("system_a", "system_b")]
    half = stats.t.ppf(0.975, 19) * np.hypot(*se)
    gap = frame["system_b"].mean() - frame["system_a"].mean()
    assert drawn["unpaired (clustered CR1, for contrast)"][0] == pytest.approx(
        [100 * (gap - half), 100 * (gap + half)], abs=1e-9)
    unclustered = [i for i in doc["difference"]["intervals"] if i["method"] == "unpaired-wald"][0]
    assert abs(100 * unclustered["low"] - drawn["unpaired (clustered CR1, for contrast)"][0][0]) \
        > 1   # not the unclustered Wald any more
    unpaired = lines(plots.gap(doc, method="paired-wald"), "interval:")
    assert unpaired["unpaired (Wald, for contrast)"][0] == pytest.approx(
        [100 * unclustered["low"], 100 * unclustered["high"]])   # unclustered with unclustered


def _outside(figure) -> list[str]:
    """The texts of a drawn figure that reach beyond its edges."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    box = figure.bbox
    return [text.get_text() for ax in figure.axes
            for text in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label)
            if text.get_text() and not (box.x0 - 1 <= text.get_window_extent(renderer).x0
                                         and text.get_window_extent(renderer).x1 <= box.x1 + 1)]


def test_titles_fit_and_zero_lines_sit_inside_the_frame():
    pd = pytest.importorskip("pandas")

    frame = pd.read_csv("examples/prompts.csv")[["qid", "baseline", "prompt01", "prompt02",
                                                 "prompt03"]]
    ablation = plots.ablation(evalbars.ablation(frame, item="qid", full="prompt01",
                                                baseline="baseline", n_resamples=300).to_dict())
    seeds = plots.seeds(evalbars.seeds("examples/seeds.csv", run="seed",
                                       n_resamples=300).to_dict())
    for figure in (ablation, seeds, plots.power(power.grid(n=500, disagreement=0.1).to_dict())):
        assert _outside(figure) == []
    for figure in (ablation, seeds):
        right = next(ax for ax in figure.axes
                     if any(line.get_gid() == "zero" for line in ax.get_lines()))
        low, high = right.get_xlim()
        assert low + 0.04 * (high - low) <= 0 <= high - 0.04 * (high - low)
