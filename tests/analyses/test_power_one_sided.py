"""One-sided power plans (alternative="greater" | "less") against statsmodels and brute force."""
from __future__ import annotations

import json
import math

import pytest
from scipy import stats
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_effectsize

from evalbars import EvalbarsError
from evalbars.analyses import power as P
from evalbars.cli import main


@pytest.mark.parametrize("gap,d", [(0.01, 0.10), (0.02, 0.10), (0.05, 0.30)])
def test_paired_normal_n_equals_statsmodels_larger(gap, d):
    # Reference: NormalIndPower().solve_power(effect_size=gap / sqrt(D - gap^2), ratio=0,
    # alpha=0.05, power=0.8, alternative="larger"): the one-sample z test, one-sided.
    effect = gap / math.sqrt(d - gap ** 2)
    expected = NormalIndPower().solve_power(effect_size=effect, nobs1=None, alpha=0.05,
                                            power=0.8, ratio=0, alternative="larger")
    for alternative in ("greater", "less"):  # the gap in the asked direction: the same n
        r = P.solve(design="paired", gap=gap, power=0.8, disagreement=d, alternative=alternative)
        assert r.n_unrounded == pytest.approx(expected, rel=1e-9)
        assert r.n == math.ceil(expected)


def test_closed_form_and_seed_000_style_numbers():
    # One-sided: n = (z_0.95 + z_0.80)^2 (D - gap^2) / gap^2 = (1.6449 + 0.8416)^2 * 999
    # = 6,176.37 for 1 point at D = 10% (two-sided: 7,841.01).
    z = stats.norm.ppf(0.95) + stats.norm.ppf(0.8)
    r = P.solve(design="paired", gap=0.01, power=0.8, disagreement=0.10, alternative="greater")
    assert r.n_unrounded == pytest.approx(z ** 2 * (0.10 - 0.0001) / 0.0001, rel=1e-12)
    assert (r.n, round(r.n_unrounded, 2)) == (6177, 6176.37)
    two = P.solve(design="paired", gap=0.01, power=0.8, disagreement=0.10)
    assert two.n == 7842 and r.n < two.n


@pytest.mark.parametrize("n", [100, 500, 2000])
def test_power_at_n_equals_statsmodels(n):
    # Reference: NormalIndPower().power(effect, nobs1=n, alpha, ratio=0, alternative="larger").
    gap, d = 0.02, 0.10
    effect = gap / math.sqrt(d - gap ** 2)
    expected = NormalIndPower().power(effect, nobs1=n, alpha=0.05, ratio=0,
                                      alternative="larger")
    r = P.solve(design="paired", n=n, gap=gap, disagreement=d, alternative="greater")
    assert r.power == pytest.approx(expected, rel=1e-12)


def test_cohen_h_unpaired_equals_statsmodels_larger():
    # Reference: NormalIndPower().solve_power(proportion_effectsize(p_b, p_a), ratio=1,
    # alpha=0.05, power=0.8, alternative="larger"): n per group.
    p_a, gap = 0.615, 0.095
    h = proportion_effectsize(p_a + gap, p_a)
    expected = NormalIndPower().solve_power(effect_size=h, alpha=0.05, power=0.8, ratio=1,
                                            alternative="larger")
    r = P.solve(design="unpaired", gap=gap, power=0.8, baseline=p_a, method="cohen-h",
                alternative="greater")
    assert r.n_unrounded == pytest.approx(expected, rel=1e-9)


def test_mde_round_trip():
    r = P.solve(design="paired", n=800, power=0.8, disagreement=0.2, alternative="greater")
    back = P.solve(design="paired", gap=r.gap, power=0.8, disagreement=0.2,
                   alternative="greater")
    assert back.n_unrounded == pytest.approx(800, rel=1e-9)


def _brute_force_one_sided(n, d, gap, alpha):
    """Every (a_only, b_only) count; reject when scipy's binomtest(b_only, m,
    alternative="greater") p <= alpha."""
    probs = [(d - gap) / 2, (d + gap) / 2, 1 - d]
    total = 0.0
    for i in range(n + 1):
        for j in range(n + 1 - i):
            if i + j and stats.binomtest(j, i + j, 0.5, alternative="greater").pvalue <= alpha:
                total += stats.multinomial.pmf([i, j, n - i - j], n, probs)
    return total


@pytest.mark.parametrize("n,d,gap,alpha", [
    (12, 0.3, 0.1, 0.05), (25, 0.5, 0.2, 0.05), (30, 0.2, 0.0, 0.05), (20, 0.4, 0.4, 0.01),
    (5, 0.9, 0.5, 0.05),
])
def test_exact_mcnemar_one_sided_power_equals_brute_force(n, d, gap, alpha):
    got = P.mcnemar_power(n, disagreement=d, gap=gap, alpha=alpha, alternative="greater")
    assert got == pytest.approx(_brute_force_one_sided(n, d, gap, alpha), abs=1e-12)


def test_exact_mcnemar_plan_one_sided():
    r = P.solve(design="paired", gap=0.02, power=0.8, disagreement=0.10, method="mcnemar-exact",
                alternative="greater")
    assert r.achieved_power >= 0.8
    assert P.mcnemar_power(r.n - 1, disagreement=0.10, gap=0.02, alternative="greater") < 0.8


def test_document_and_statement():
    r = P.solve(design="paired", gap=0.01, power=0.8, disagreement=0.10, alternative="less")
    doc = r.to_dict()
    assert doc["alternative"] == "less"
    assert "1-point loss" in doc["statement"] and "one-sided: B worse than A" in doc["statement"]
    assert "alternative" not in P.solve(design="paired", gap=0.01, power=0.8,
                                        disagreement=0.10).to_dict()  # absent: two-sided
    grid = P.grid(n=500, disagreement=0.10, alternative="greater")
    assert grid.to_dict()["alternative"] == "greater"
    assert grid.grid[1]["n"] == 6177  # 1 point


def test_bad_alternative():
    with pytest.raises(EvalbarsError, match="alternative must be one of 'two-sided', 'greater', "
                                            "'less'; got 'larger'"):
        P.solve(design="paired", gap=0.01, power=0.8, disagreement=0.1, alternative="larger")


def test_cli_json_equals_the_api(capsys):
    assert main(["power", "--gap", "0.01", "--power", "0.8", "--disagreement", "0.1",
                 "--alternative", "greater", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr()[0])
    api = P.solve(design="paired", gap=0.01, power=0.8, disagreement=0.1,
                  alternative="greater").to_dict()
    assert out == json.loads(json.dumps(api))
    assert main(["power", "--gap", "0.01", "--power", "0.8", "--disagreement", "0.1",
                 "--alternative", "greater"]) == 0
    assert "alternative   greater (one-sided)" in capsys.readouterr()[0]


def test_power_curves_of_a_one_sided_plan_are_one_sided():
    # The figure's curves rebuild the plan from the document, alternative included: at the
    # planned n the one-sided curve passes through the planned 80%.
    from evalbars.report.power_curves import power_curves

    doc = P.solve(design="paired", gap=0.02, power=0.8, disagreement=0.1,
                  alternative="greater").to_dict()
    [(gap, ns, powers)] = power_curves(doc, gaps=[0.02], n_points=60)
    plan_power = P.solve(design="paired", n=ns[30], gap=0.02, disagreement=0.1,
                         alternative="greater").power
    assert powers[30] == pytest.approx(plan_power, rel=1e-12)
