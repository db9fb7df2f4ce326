"""Two models on the same questions: a fake results file, the A/A test, power, and the
silent failure of a misaligned join.

For 0/1 outcomes every paired statistic is a function of the four cell counts, and
the counts of n independent questions are multinomial; so each experiment draws four
numbers instead of 2n outcomes, which is exact and costs nothing in n.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.errors import EvalbarsError
from ..core.seeding import check_seed, child_seed
from ..io.inputs import pick_pair, read_scores, takes_load_options
from ._pairs import (
    CELLS,
    at_least,
    bars_do_not_overlap,
    check_count,
    check_fraction,
    check_run,
    mcnemar_exact_p,
    pair_spec,
    paired_wald,
    z_for,
)
from ._result import FakePair, Simulation, average, exact, run_experiments, share

TESTS = ("paired-wald", "mcnemar-exact", "sign-flip", "bars_do_not_overlap")
"""The decision rules whose detection rates :func:`power` reports, in report order."""


def fake_pair(*, n: int = 500, accuracy: float = 0.70, gap: float = 0.025,
              disagreement: float | None = None, correlation: float | None = None,
              seed: int = 0) -> FakePair:
    """One simulated results file: two models' 0/1 outcomes on the same n questions.

    Parameters
    ----------
    n : int
        Questions, at least 2.
    accuracy : float
        Model A's true accuracy (a fraction: 0.7 = 70%).
    gap : float
        True gap, B minus A (0.025 = 2.5 points); at most ``disagreement`` in size.
    disagreement, correlation : float, optional
        The share of questions the models disagree on, or their per-question
        correlation (see :func:`disagreement_from_correlation`); not both. Default:
        disagreement 0.10.
    seed : int
        Seed of the stream ``"simulate:fake-pair"``.

    Returns
    -------
    FakePair
        ``a``, ``b`` and ``items`` hold the file (``write_csv(path)`` writes it); the
        rates are what the file shows (observed accuracies, disagreement and gap) with
        their sampling errors over the n questions.

    Notes
    -----
    Each question falls independently in one of four cells of the paired 2x2 table:
    ``P(A only) = (D - gap) / 2``, ``P(B only) = (D + gap) / 2``,
    ``P(both) = accuracy - P(A only)``, ``P(neither) = 1 - P(both) - D``.

    Examples
    --------
    >>> from evalbars.simulate import fake_pair
    >>> pair = fake_pair(n=200, accuracy=0.7, gap=0.03, disagreement=0.1, seed=1)
    >>> len(pair.items), pair.items[0], sum(pair.cells.values())
    (200, 'q0000', 200)
    """
    spec = pair_spec(accuracy, gap, disagreement, correlation)
    n, seed = check_count(n, "n", 2), check_seed(seed)
    rng = np.random.default_rng(child_seed(seed, "simulate:fake-pair"))
    cell = rng.choice(4, size=n, p=spec.probabilities)
    a = (cell <= 1).astype(np.int8)
    b = ((cell == 0) | (cell == 2)).astype(np.int8)
    width = max(4, len(str(n - 1)))
    rates = (share("accuracy_a", a), share("accuracy_b", b), share("disagreement", a != b),
             average("gap", b.astype(float) - a))
    return FakePair("fake-pair", {"n": n, **spec.settings()}, 1, seed, rates,
                    cells=dict(zip(CELLS, np.bincount(cell, minlength=4).tolist())),
                    items=tuple(f"q{i:0{width}d}" for i in range(n)), a=a, b=b)


def aa(*, n: int = 500, accuracy: float = 0.70, disagreement: float | None = None,
       correlation: float | None = None, threshold: float = 0.008, alpha: float = 0.05,
       experiments: int = 20_000, seed: int = 0, progress: bool = False) -> Simulation:
    """The A/A test: two identical models, and how often they look different.

    Parameters
    ----------
    n, accuracy, disagreement, correlation
        As in :func:`fake_pair`; the true gap is 0.
    threshold : float
        The apparent gap asked about (0.008 = 0.8 points).
    alpha : float
        Tests reject at p < alpha; intervals have level 1 - alpha.
    experiments, seed, progress
        Simulated experiments, the seed of stream ``"simulate:aa"``, and whether to
        show a progress bar on stderr.

    Returns
    -------
    Simulation
        Rates ``gap_at_least_threshold`` (B ahead by at least the threshold),
        ``gap_at_least_threshold_either`` (either model ahead by that much),
        ``paired_ci_excludes_zero`` (paired-wald), ``mcnemar_p_below_alpha`` and
        ``bars_do_not_overlap`` (the two separate ``clt`` intervals).

    Examples
    --------
    >>> from evalbars.simulate import aa
    >>> r = aa(experiments=2000, seed=1)
    >>> 0.25 < r.rate("gap_at_least_threshold").value < 0.37
    True
    """
    spec = pair_spec(accuracy, 0.0, disagreement, correlation)
    n = check_count(n, "n", 2)
    threshold = check_fraction(threshold, "threshold", example="0.008 = 0.8 points")
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    z, need = z_for(alpha), at_least(threshold, n)

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        both, a_only, b_only, _ = rng.multinomial(n, spec.probabilities, size=size).T
        gap, half = paired_wald(a_only, b_only, n, z)
        return np.column_stack([b_only - a_only >= need, np.abs(b_only - a_only) >= need,
                                np.abs(gap) > half, mcnemar_exact_p(a_only, b_only) < alpha,
                                bars_do_not_overlap(both + a_only, both + b_only, n, z)])

    out = run_experiments("aa", experiments, seed, 5, draw, 4, progress) > 0.5
    names = ("gap_at_least_threshold", "gap_at_least_threshold_either",
             "paired_ci_excludes_zero", "mcnemar_p_below_alpha", "bars_do_not_overlap")
    settings = {"n": n, **spec.settings(), "threshold": threshold, "alpha": alpha}
    return Simulation("aa", settings, experiments, seed,
                      tuple(share(name, out[:, i]) for i, name in enumerate(names)))


def power(*, gap: float = 0.02, n: int = 500, accuracy: float = 0.70,
          disagreement: float | None = None, correlation: float | None = None,
          alpha: float = 0.05, experiments: int = 20_000, seed: int = 0,
          progress: bool = False) -> Simulation:
    """How often each test detects a real gap: the simulated power.

    Parameters
    ----------
    gap, n, accuracy, disagreement, correlation
        As in :func:`fake_pair` (default: a real 2-point gain on 500 questions).
    alpha, experiments, seed, progress
        As in :func:`aa` (stream ``"simulate:power"``).

    Returns
    -------
    Simulation
        One rate per decision rule in :data:`TESTS`: the share of experiments in which
        it rejects "no gap" (two-sided, at alpha).

    Notes
    -----
    ``paired-wald``: the interval ``gap ± z sd(d) / sqrt(n)`` excludes zero.
    ``mcnemar-exact``: exact binomial p on the discordant pairs below alpha.
    ``sign-flip``: for 0/1 outcomes its exact p *is* McNemar's (each discordant
    pair's sign is a fair coin under the null), so the two rates are identical, as
    in :func:`evalbars.stats.permutation.sign_flip`. ``bars_do_not_overlap``: the two
    models' separate ``clt`` intervals do not overlap.

    Examples
    --------
    >>> from evalbars.simulate import power
    >>> r = power(gap=0.03, n=1000, correlation=0.7, experiments=2000, seed=1)
    >>> 0.65 < r.rate("paired-wald").value < 0.85, r.rate("bars_do_not_overlap").value < 0.05
    (True, True)
    """
    spec = pair_spec(accuracy, gap, disagreement, correlation)
    n = check_count(n, "n", 2)
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    z = z_for(alpha)

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        both, a_only, b_only, _ = rng.multinomial(n, spec.probabilities, size=size).T
        gap_hat, half = paired_wald(a_only, b_only, n, z)
        exact_test = mcnemar_exact_p(a_only, b_only) < alpha
        return np.column_stack([np.abs(gap_hat) > half, exact_test, exact_test,
                                bars_do_not_overlap(both + a_only, both + b_only, n, z)])

    out = run_experiments("power", experiments, seed, 4, draw, 4, progress) > 0.5
    return Simulation("power", {"n": n, **spec.settings(), "alpha": alpha}, experiments, seed,
                      tuple(share(name, out[:, i]) for i, name in enumerate(TESTS)))


def _load_pair(data, data2, a: str | None, b: str | None,
               load_options: dict) -> tuple[np.ndarray, np.ndarray, dict]:
    wanted = [a, b] if a is not None and b is not None else None
    scores = read_scores(data, data2, wanted, named_by={"a": a, "b": b}, **load_options)
    a_name, b_name = pick_pair(scores, a, b)
    if scores.score_type != "binary":
        raise EvalbarsError(f"misaligned needs 0/1 scores; the scores of {a_name!r} and "
                            f"{b_name!r} are {scores.score_type}")
    source = {"data": scores.describe(), "inputs": scores.source.get("inputs", []),
              "a": a_name, "b": b_name}
    return scores.column(a_name), scores.column(b_name), source


@takes_load_options
def misaligned(data=None, data2=None, *, a: str | None = None, b: str | None = None,
               n: int | None = None, accuracy: float | None = None, gap: float | None = None,
               disagreement: float | None = None, correlation: float | None = None,
               alpha: float = 0.05, experiments: int = 20_000, seed: int = 0,
               progress: bool = False, **load_options) -> Simulation:
    """What shuffling one model's rows before a positional join does to a paired analysis.

    Parameters
    ----------
    data, data2 : path, DataFrame or ItemScores, optional
        Real 0/1 results, read like :func:`evalbars.compare` (models ``a`` and ``b``;
        ``data2`` when each file holds one model).
        Without it, the pair is ``fake_pair(n, accuracy, gap, disagreement,
        correlation, seed)`` (defaults 500, 0.70, 0.025, 0.10); give those settings
        only without ``data``.
    alpha, experiments, seed, progress
        As in :func:`aa` (stream ``"simulate:misaligned"``); each experiment is one
        random shuffle of B's rows.
    item, model, score, score_type, intersect, cluster, sample, run, input_format, metric,
    scorer, qrels
        How to read ``data``, see :func:`evalbars.load`.

    Returns
    -------
    Simulation
        For the rows joined on question ids (exact, Monte Carlo error 0) and averaged
        over shuffles: ``disagreement_*``, ``correlation_*``, ``ci_width_*``
        (paired-wald) and ``mcnemar_p_*`` with suffixes ``joined`` and ``shuffled``;
        ``significant_shuffled``, the share of shuffles still at p < alpha; and
        ``gap``, which shuffling cannot change. ``cells`` are the joined 2x2 counts.

    Notes
    -----
    After a random shuffle of B, the number of questions both models get right is
    hypergeometric: B's right answers land on A's right answers like a draw without
    replacement. That count fixes all four cells, so each shuffle is one draw. The
    expected shuffled disagreement is ``(k_a (n - k_b) + (n - k_a) k_b) / n²`` for
    ``k_a``, ``k_b`` right answers: what two unrelated models would show.

    Examples
    --------
    >>> from evalbars.simulate import misaligned
    >>> r = misaligned("examples/lesson_pair.csv", experiments=500, seed=1)
    >>> r.cells["a_only"], r.cells["b_only"], r.rate("disagreement_shuffled").value > 0.3
    (4, 17, True)
    """
    generation = dict(n=n, accuracy=accuracy, gap=gap, disagreement=disagreement,
                      correlation=correlation)
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    if data is None:
        given = {key: value for key, value in {"data2": data2, "a": a, "b": b,
                                                 **load_options}.items() if value is not None}
        if given:
            raise EvalbarsError(
                "data2, a and b describe the data (as do the loading options); without data "
                "there is nothing to read "
                f"(got {', '.join(f'{k}={v!r}' for k, v in given.items())})")
        defaults = dict(n=500, accuracy=0.70, gap=0.025)
        pair = fake_pair(seed=seed, **{k: defaults.get(k) if v is None else v
                                       for k, v in generation.items()})
        x_a, x_b, settings = pair.a, pair.b, {"data": "fake-pair", **pair.settings}
    else:
        given = [k for k, v in generation.items() if v is not None]
        if given:
            raise EvalbarsError(f"{', '.join(given)} describe a simulated pair; give them "
                                "without data, or give data alone")
        x_a, x_b, settings = _load_pair(data, data2, a, b, load_options)
        settings["n"] = int(x_a.size)
    total, right_a, right_b = int(x_a.size), int(x_a.sum()), int(x_b.sum())
    for name, right in (("a", right_a), ("b", right_b)):
        if right in (0, total):
            raise EvalbarsError(f"misaligned needs each model to have right and wrong answers; "
                                f"model {name} is right on {right} of {total} questions")
    z = z_for(alpha)

    def stats(both: np.ndarray) -> list[np.ndarray]:
        a_only, b_only = right_a - both, right_b - both
        _, half = paired_wald(a_only, b_only, total, z)
        p_a, p_b = right_a / total, right_b / total
        correlation_ = (both / total - p_a * p_b) / math.sqrt(
            p_a * (1 - p_a) * p_b * (1 - p_b))
        return [(a_only + b_only) / total, correlation_, 2.0 * half,
                mcnemar_exact_p(a_only, b_only)]

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        both = rng.hypergeometric(right_b, total - right_b, right_a, size=size)
        return np.column_stack(stats(both))

    out = run_experiments("misaligned", experiments, seed, 4, draw, 1, progress)
    both_joined = int(np.sum((x_a == 1) & (x_b == 1)))
    joined = [float(v[0]) for v in stats(np.array([both_joined]))]
    rates = [exact("gap", (right_b - right_a) / total)]
    for i, name in enumerate(("disagreement", "correlation", "ci_width", "mcnemar_p")):
        rates += [exact(f"{name}_joined", joined[i]),
                  average(f"{name}_shuffled", out[:, i])]
    rates.append(share("significant_shuffled", out[:, 3] < alpha))
    cells = dict(zip(CELLS, (both_joined, right_a - both_joined, right_b - both_joined,
                             total - right_a - right_b + both_joined)))
    return Simulation("misaligned", {**settings, "alpha": alpha}, experiments, seed,
                      tuple(rates), cells=cells)
