"""Two kinds of noise: which questions, and which sampled answer.

When a model answers each question several times (temperature > 0, several epochs), the
variance of the mean score splits in two (the law of total variance; Miller 2024, "Adding
Error Bars to Evals", arXiv:2411.00640):

    Var(score) = [ Var_i(p_i)  +  mean_i(sigma_i^2) / K ] / n
                   question noise   sampling noise, shrinks with K answers per question

:func:`variance_split` estimates both parts from the data (per-question answer counts,
means and sums of squares) and says what re-asking each question more often would buy.
The planning side, the same formula with assumed inputs, is
:func:`evalbars.analyses.power.sampled_variance`, which this module reuses.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.document import json_safe
from ..core.errors import EvalbarsError
from .power import sampled_variance

ANSWERS = (1, 2, 5, 10)
"""Answers per question K' at which the standard error is always reported (plus K itself
when every question has the same number of answers)."""


@dataclass(frozen=True, slots=True)
class VarianceSplit:
    """Question noise against sampling noise for one model's mean score.

    Attributes
    ----------
    n_items : int
        Questions.
    answers_min, answers_max, answers_mean : int, int, float
        Answers per question K_i.
    mean : float
        The score: the mean over questions of each question's mean answer.
    between_variance : float
        Variance over questions of the true per-question score p_i (question noise).
    within_variance : float
        Variance of one answer around its question's true score, averaged over questions
        (sampling noise of a single answer).
    se : float
        Standard error of ``mean`` with the answers actually collected.
    se_by_answers : tuple of (int, float)
        ``(K', SE)`` if every question had K' answers instead.
    se_floor : float
        The standard error with infinitely many answers per question: question noise only.
    question_equivalent : float
        ``SE(K'=1)^2 / se^2``: the answers collected are worth this many times as many
        questions answered once.
    estimator : str
        ``"binary"`` or ``"continuous"``: which within-question estimator was used.
    """

    n_items: int
    answers_min: int
    answers_max: int
    answers_mean: float
    mean: float
    between_variance: float
    within_variance: float
    se: float
    se_by_answers: tuple[tuple[int, float], ...]
    se_floor: float
    question_equivalent: float
    estimator: str

    def to_dict(self) -> dict:
        return json_safe({
            "n_items": self.n_items,
            "answers": {"min": self.answers_min, "max": self.answers_max,
                        "mean": self.answers_mean},
            "mean": self.mean,
            "between_variance": self.between_variance,
            "within_variance": self.within_variance,
            "estimator": self.estimator,
            "se": self.se,
            "se_by_answers": [{"answers": k, "se": se} for k, se in self.se_by_answers],
            "se_floor": self.se_floor,
            "question_equivalent": self.question_equivalent,
        })


def _within(means: np.ndarray, counts: np.ndarray, sumsq: np.ndarray, binary: bool,
            several: np.ndarray) -> np.ndarray:
    """Unbiased variance of one answer within each question that has two or more answers."""
    k, p = counts[several], means[several]
    if binary:
        return k * p * (1.0 - p) / (k - 1.0)
    return np.maximum(sumsq[several] - k * p * p, 0.0) / (k - 1.0)


def variance_split(means, counts, sumsq, *, binary: bool) -> VarianceSplit:
    """Split the variance of a mean score into question noise and sampling noise.

    Parameters
    ----------
    means : (n,) array
        Each question's mean answer (p_i hat).
    counts : (n,) int array
        Answers per question K_i (at least 1; they may differ).
    sumsq : (n,) array
        Each question's sum of squared answers (ignored when ``binary``).
    binary : bool
        Every answer is 0 or 1.

    Returns
    -------
    VarianceSplit

    Notes
    -----
    Within question i, the unbiased variance of one answer is
    ``s_i^2 = (sumsq_i - K_i pbar_i^2) / (K_i - 1)``, which for 0/1 answers is
    ``K_i pbar_i (1 - pbar_i) / (K_i - 1)``, unbiased for ``p_i (1 - p_i)``. It needs
    ``K_i >= 2``; ``within_variance`` is the mean of ``s_i^2`` over those questions, and it
    stands in for ``s_i^2`` on questions answered once. The observed variance of the
    ``pbar_i`` (ddof=1) has expectation ``Var(p_i) + mean_i(sigma_i^2 / K_i)`` (exactly,
    for independent questions with fixed K_i), so

        between_variance = var(pbar_i, ddof=1) - mean_i(s_i^2 / K_i),

    unbiased, and truncated at 0 (as ANOVA variance components are) when sampling noise
    more than explains the spread. Then ``se = sqrt((between + mean_i(s_i^2 / K_i)) / n)``
    (equal to the ordinary standard error of the ``pbar_i`` unless truncated), and for K'
    answers each ``sqrt(power.sampled_variance(between, within, K') / n)``; the floor is
    ``K' = inf``. Validated against a worked example computed by hand and
    :func:`evalbars.analyses.power.sampled_se` (tests/stats/test_samples.py).

    Examples
    --------
    Four questions, five 0/1 answers each:

    >>> import numpy as np
    >>> split = variance_split([0.2, 0.6, 1.0, 0.8], [5, 5, 5, 5], [1, 3, 5, 4], binary=True)
    >>> round(split.between_variance, 4), round(split.within_variance, 4)
    (0.0817, 0.175)
    >>> [(k, round(se, 3)) for k, se in split.se_by_answers]
    [(1, 0.253), (2, 0.206), (5, 0.171), (10, 0.157)]
    >>> round(split.se, 3), round(split.se_floor, 3), round(split.question_equivalent, 2)
    (0.171, 0.143, 2.2)
    """
    means = np.asarray(means, dtype=float)
    counts = np.asarray(counts)
    sumsq = np.asarray(sumsq, dtype=float)
    n = means.size
    if means.ndim != 1 or counts.shape != means.shape or sumsq.shape != means.shape:
        raise EvalbarsError(f"means, counts and sumsq must be 1-D arrays of one length; got "
                            f"shapes {means.shape}, {counts.shape} and {sumsq.shape}")
    if n < 2:
        raise EvalbarsError(f"the variance split needs at least 2 questions; got {n}")
    if not np.issubdtype(counts.dtype, np.integer) or counts.min() < 1:
        raise EvalbarsError("counts must be whole numbers of answers, at least 1 per question; "
                            f"got {counts.dtype} with minimum {counts.min()!r}")
    several = counts >= 2
    if not several.any():
        raise EvalbarsError("the variance split needs two or more answers to at least one "
                            "question (give the sample column); every question has one, so "
                            "sampling noise cannot be told apart from question noise")
    s2 = _within(means, counts, sumsq, binary, several)
    within = float(np.mean(s2))
    per_question = np.full(n, within)
    per_question[several] = s2
    sampling_now = float(np.mean(per_question / counts))
    between = max(float(np.var(means, ddof=1)) - sampling_now, 0.0)
    answers = sorted(set(ANSWERS) | ({int(counts[0])} if (counts == counts[0]).all() else set()))
    by_answers = tuple((k, math.sqrt(sampled_variance(
        between_variance=between, within_variance=within, samples=k) / n)) for k in answers)
    se = math.sqrt((between + sampling_now) / n)
    floor = math.sqrt(between / n)
    one = by_answers[0][1]
    return VarianceSplit(
        n_items=n, answers_min=int(counts.min()), answers_max=int(counts.max()),
        answers_mean=float(counts.mean()), mean=float(means.mean()),
        between_variance=between, within_variance=within, se=se, se_by_answers=by_answers,
        se_floor=floor, question_equivalent=one**2 / se**2 if se > 0 else float("nan"),
        estimator="binary" if binary else "continuous")


def model_split(scores, model: str) -> VarianceSplit:
    """:func:`variance_split` for one model of loaded :class:`~evalbars.io.item_scores.ItemScores`.

    The data must have been loaded with a sample column (``load(..., sample=COL)``), so
    that ``counts`` and ``sumsq`` hold every question's answers.
    """
    scores.column(model)  # raises EvalbarsError naming the models when unknown
    j = scores.models.index(model)
    return variance_split(scores.scores[:, j], scores.counts[:, j], scores.sumsq[:, j],
                          binary=scores.score_type == "binary")
