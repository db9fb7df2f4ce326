"""Peeking: checking a fixed-n test as results come in and stopping at the first p < alpha,
beside the always-valid monitor that may be checked as often as one likes, and what the
monitor costs in power against one test at the planned n.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.errors import EvalbarsError
from ..stats.mixtures import concentration_for, discordant_log_e
from ..stats.sequential import PLANNED_DISAGREEMENT
from ._pairs import check_count, check_fraction, check_run, mcnemar_exact_p, pair_spec
from ._result import Simulation, average, run_experiments, share


def peeking(*, n: int = 1000, every: int = 50, accuracy: float = 0.70,
            disagreement: float | None = None, correlation: float | None = None,
            gain: float = 0.02, plan: int | None = None, alpha: float = 0.05,
            experiments: int = 20_000, seed: int = 0, progress: bool = False) -> Simulation:
    """Two identical models checked after every ``every`` questions, stopping at the first
    exact McNemar p < alpha, against one test at the end and against the monitor; then the
    same with a real ``gain``: the monitor's power against one test at n.

    Parameters
    ----------
    n : int
        Questions at the end, the planned n (the last look is always at n).
    every : int
        Questions between looks, 1 to n.
    accuracy, disagreement, correlation
        As in :func:`fake_pair`; the true gap is 0 in the A/A part.
    gain : float
        The true gap B - A of the power part (0.02 = 2 points), at most the disagreement.
    plan : int, optional
        The questions the monitor's mixture is tuned to (:func:`evalbars.monitor`'s
        ``plan``); default ``n``.
    alpha, experiments, seed, progress
        As in :func:`aa` (stream ``"simulate:peeking"``).

    Returns
    -------
    Simulation
        A/A: ``false_positive_peeking`` (some look had p < alpha),
        ``false_positive_once`` (the look at n had) and ``false_positive_monitor`` (the
        monitor's e-value reached 1 / alpha at some look). With the gain:
        ``power_once`` (p < alpha at n, B ahead), ``power_monitor`` (the monitor stopped for B by
        n) and ``questions_monitor`` (mean questions until it stopped, n if it did not).

    Notes
    -----
    The counts added between looks are independent multinomials, so one experiment is
    one multinomial draw per look, accumulated. The monitor is
    :func:`evalbars.stats.mixtures.discordant_log_e` with the concentration
    :func:`evalbars.monitor` uses for ``plan`` questions; its e-value depends only on the
    counts at the look.

    Examples
    --------
    >>> from evalbars.simulate import peeking
    >>> r = peeking(experiments=2000, seed=1)
    >>> r.rate("false_positive_peeking").value > 2 * r.rate("false_positive_once").value
    True
    >>> r.rate("false_positive_monitor").value <= 0.05
    True
    """
    null = pair_spec(accuracy, 0.0, disagreement, correlation)
    gain = check_fraction(gain, "gain", low=-1.0, example="0.02 = 2 points")
    real = pair_spec(accuracy, gain, disagreement, correlation)
    n = check_count(n, "n", 2)
    every = check_count(every, "every", 1)
    if every > n:
        raise EvalbarsError(f"every must be at most n={n} (questions between looks); "
                            f"got {every}")
    plan = n if plan is None else check_count(plan, "plan", 1)
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    looks = np.append(np.arange(every, n, every), n)
    steps = np.diff(looks, prepend=0)
    concentration = concentration_for(plan * PLANNED_DISAGREEMENT, alpha)
    threshold = math.log(1.0 / alpha)

    def monitor_rejects(counts: np.ndarray) -> np.ndarray:
        log_e = discordant_log_e(counts[..., 2], counts[..., 1], concentration=concentration)
        return (log_e >= threshold) & (counts[..., 2] > counts[..., 1])

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        aa = rng.multinomial(steps, null.probabilities, size=(size, steps.size)).cumsum(1)
        significant = mcnemar_exact_p(aa[..., 1], aa[..., 2]) < alpha
        log_e = discordant_log_e(aa[..., 2], aa[..., 1], concentration=concentration)
        ab = rng.multinomial(steps, real.probabilities, size=(size, steps.size)).cumsum(1)
        found = monitor_rejects(ab)
        stopped = np.where(found.any(axis=1), looks[np.argmax(found, axis=1)], n)
        return np.column_stack([significant.any(axis=1), significant[:, -1],
                                (log_e >= threshold).any(axis=1),
                                (mcnemar_exact_p(ab[:, -1, 1], ab[:, -1, 2]) < alpha)
                                & (ab[:, -1, 2] > ab[:, -1, 1]),
                                found.any(axis=1), stopped])

    out = run_experiments("peeking", experiments, seed, 6, draw, 8 * steps.size, progress)
    hits = out[:, :5] > 0.5
    settings = {"n": n, "every": every, "looks": int(steps.size), **null.settings(),
                "gain": gain, "plan": plan, "alpha": alpha, "test": "mcnemar-exact",
                "monitor": "discordant", "concentration": concentration}
    names = ("false_positive_peeking", "false_positive_once", "false_positive_monitor",
             "power_once", "power_monitor")
    return Simulation("peeking", settings, experiments, seed,
                      (*(share(name, hits[:, i]) for i, name in enumerate(names)),
                       average("questions_monitor", out[:, 5])))
