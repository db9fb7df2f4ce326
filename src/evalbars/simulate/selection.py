"""Many tries: picking the best of many candidates on the same questions."""
from __future__ import annotations

import numpy as np

from ._pairs import at_least, check_count, check_run, mcnemar_exact_p, pair_spec
from ._result import Simulation, average, run_experiments, share

ONE_POINT = 0.01
"""The selected gain asked about in ``selected_gain_at_least_1pt``."""


def winners_curse(*, candidates: int = 20, n: int = 500, accuracy: float = 0.70,
                  disagreement: float | None = None, correlation: float | None = None,
                  alpha: float = 0.05, experiments: int = 20_000, seed: int = 0,
                  progress: bool = False) -> Simulation:
    """Pick the best of ``candidates`` null variants against one baseline, then confirm it
    on fresh questions.

    Parameters
    ----------
    candidates : int
        Variants with no true effect, each scored on the same n questions as the
        baseline.
    n, accuracy, disagreement, correlation
        As in :func:`fake_pair`: each candidate against the baseline, true gap 0.
    alpha, experiments, seed, progress
        As in :func:`aa` (stream ``"simulate:winners-curse"``).

    Returns
    -------
    Simulation
        ``selected_gain`` (mean gap of the best candidate), ``selected_gain_at_least_1pt``,
        ``confirmed_gain`` (mean gap of the chosen candidate on n fresh questions),
        ``any_significant`` (some candidate at exact McNemar p < alpha) and
        ``any_significant_bonferroni`` (some candidate at p < alpha / candidates).

    Notes
    -----
    Candidates share the baseline's outcomes and are independent given them: with
    ``K ~ Binomial(n, accuracy)`` questions the baseline gets right, candidate j loses
    ``Binomial(K, P(A only) / accuracy)`` of them and wins
    ``Binomial(n - K, P(B only) / (1 - accuracy))`` of the others. The fresh questions
    are a new multinomial draw.

    Examples
    --------
    >>> from evalbars.simulate import winners_curse
    >>> r = winners_curse(experiments=1000, seed=1)
    >>> r.rate("selected_gain").value > 0.015, abs(r.rate("confirmed_gain").value) < 0.003
    (True, True)
    """
    candidates = check_count(candidates, "candidates", 1)
    spec = pair_spec(accuracy, 0.0, disagreement, correlation)
    n = check_count(n, "n", 2)
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    _, a_only, b_only, _ = spec.probabilities
    lose = a_only / spec.accuracy if spec.accuracy > 0 else 0.0
    win = b_only / (1.0 - spec.accuracy) if spec.accuracy < 1 else 0.0
    need = at_least(ONE_POINT, n)

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        right = rng.binomial(n, spec.accuracy, size=(size, 1))
        losses = rng.binomial(right, lose, size=(size, candidates))
        wins = rng.binomial(n - right, win, size=(size, candidates))
        best = (wins - losses).max(axis=1)
        p = mcnemar_exact_p(losses, wins)
        fresh = rng.multinomial(n, spec.probabilities, size=size)
        return np.column_stack([best / n, best >= need, (fresh[:, 2] - fresh[:, 1]) / n,
                                (p < alpha).any(axis=1),
                                (p < alpha / candidates).any(axis=1)])

    out = run_experiments("winners-curse", experiments, seed, 5, draw, 2 * candidates + 5,
                          progress)
    settings = {"candidates": candidates, "n": n, **spec.settings(), "alpha": alpha,
                "test": "mcnemar-exact"}
    rates = (average("selected_gain", out[:, 0]),
             share("selected_gain_at_least_1pt", out[:, 1] > 0.5),
             average("confirmed_gain", out[:, 2]),
             share("any_significant", out[:, 3] > 0.5),
             share("any_significant_bonferroni", out[:, 4] > 0.5))
    return Simulation("winners-curse", settings, experiments, seed, rates)
