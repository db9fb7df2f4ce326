"""Leftovers of issue #17 in the reports: one-sided bounds in LaTeX and HTML, pass^k in
the LaTeX table, and the ablation header without a doubled role."""
import csv
from collections import defaultdict

import pytest

import evalbars
from evalbars.report.files.latex import render_latex
from evalbars.report.files.sections import sections
from evalbars.report.text.render import render

TOPICS = "examples/cookbook_topics.csv"


def _one_sided_ci():
    return evalbars.ci(TOPICS, alternative="greater").to_dict()


def test_latex_prints_a_one_sided_bound_as_at_least():
    """It printed '[55.7, n/a]'. The bound is statsmodels' Wilson lower end at level
    1 - 2 alpha (a one-sided 95% bound is the lower end of the two-sided 90% interval)."""
    from statsmodels.stats.proportion import proportion_confint

    doc = _one_sided_ci()
    latex = render_latex(doc)
    with open(TOPICS, newline="") as handle:
        rows = list(csv.DictReader(handle))
    for model in ("system_a", "system_b"):
        correct = sum(int(row[model]) for row in rows)
        low, _ = proportion_confint(correct, len(rows), alpha=0.10, method="wilson")
        assert f"{model.replace('_', chr(92) + '_')} & {100 * correct / len(rows):.1f} & " \
               f"at least {100 * low:.1f} \\\\" in latex
    assert "n/a" not in latex and "95\\% bound" in latex and "one-sided Wilson" in latex


def test_the_html_scores_heading_of_a_one_sided_ci_says_bounds():
    scores = next(s for s in sections(_one_sided_ci()) if s.title == "Scores")
    assert scores.blocks[0] == "one-sided 95% bounds, %; the first bound is the default."
    two_sided = evalbars.ci(TOPICS).to_dict()
    scores = next(s for s in sections(two_sided) if s.title == "Scores")
    assert scores.blocks[0] == "95% intervals, %; the first interval is the default."


def _pass_hat_k(path: str, model: str, k: int) -> float:
    """pass^k = mean over questions of C(c, k) / C(n, k) (all k of k draws without
    replacement pass; docs/passk.md), computed with scipy from the raw answers."""
    from scipy.special import comb

    answers = defaultdict(list)
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["model"] == model:
                answers[row["question_id"]].append(int(row["correct"]))
    return sum(comb(sum(a), k) / comb(len(a), k) for a in answers.values()) / len(answers)


def test_latex_passk_shows_pass_hat_k_when_asked():
    """The table showed pass@k only, also with pass_hat_k=True (--pass-hat-k)."""
    path = "examples/passk_samples.csv"
    doc = evalbars.passk(path, sample="sample", k=(1, 5), models=["large"],
                         pass_hat_k=True).to_dict()
    latex = render_latex(doc)
    assert "pass\\textasciicircum{}5 (\\%)" in latex
    row = next(line for line in latex.splitlines() if line.startswith("large & "))
    cells = row.removesuffix(" \\\\").split(" & ")
    assert len(cells) == 5
    assert cells[4].split(" ")[0] == f"{100 * _pass_hat_k(path, 'large', 5):.1f}"
    plain = render_latex(evalbars.passk(path, sample="sample", k=(1, 5), models=["large"])
                         .to_dict())
    assert "textasciicircum" not in plain


@pytest.mark.parametrize("full, baseline, heading", [
    ("full", "base", "full system, baseline base,"),
    ("model_b", "baseline", "full system model_b, baseline,"),
])
def test_the_ablation_header_names_each_role_once(full, baseline, heading):
    """The header read 'full system full' where the statement says 'the full system'."""
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv("examples/lesson_pair.csv").rename(
        columns={"model_a": baseline, "model_b": full})
    frame["variant"] = frame[full].sample(frac=1, random_state=3).to_numpy()
    doc = evalbars.ablation(frame, full=full, baseline=baseline, n_resamples=200).to_dict()
    for kind in ("text", "markdown"):
        first = render(doc, kind).splitlines()[0]
        assert heading in first, first
