"""report/files/latex.py: the LaTeX table of a document, one-sided bounds and pass^k."""
import csv
from collections import defaultdict

import evalbars
from evalbars.report.files.latex import render_latex

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
