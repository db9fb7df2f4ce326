"""The independent unit: clustered questions, and resampling the wrong unit.

Both simulations draw ``units`` independent units (documents, or questions), each with
``per_unit`` correlated 0/1 outcomes (its questions, or its sampled answers). A unit's
accuracy is ``p_u ~ Beta(accuracy (1/icc - 1), (1 - accuracy) (1/icc - 1))``, whose mean
is ``accuracy`` and whose variance is ``icc · accuracy (1 - accuracy)``, and its count of
right outcomes is ``Binomial(per_unit, p_u)``. Two outcomes of one unit then correlate
by exactly ``icc``, and the variance of the mean is inflated by the design effect
``1 + (per_unit - 1) icc``.
"""
from __future__ import annotations

import numpy as np
from scipy import stats
from scipy.fft import next_fast_len

from ..core.errors import EvalbarsError
from ._pairs import check_count, check_fraction, check_run, z_for
from ._result import Simulation, average, run_experiments, share

MODES = {
    "answers": {"units": 100, "per_unit": 5, "icc": 0.05 / 0.21,
                "wrong_unit": "answer", "right_unit": "question"},
    "clusters": {"units": 50, "per_unit": 10, "icc": 0.2,
                 "wrong_unit": "question", "right_unit": "cluster"},
}
""":func:`wrong_unit` modes: K sampled answers per question (100 questions x 5 answers,
Var(p_i) = 0.05 at 70%, so icc = 0.05 / 0.21), or questions
in clusters (50 documents x 10 questions, icc 0.2)."""


_CDF_SLACK = 1e-9
"""Rounding allowance of the FFT distribution function when finding percentiles."""


def _check_units(units: int, per_unit: int, accuracy: float, icc: float,
                 names: tuple[str, str]) -> tuple[int, int, float, float]:
    return (check_count(units, names[0], 2), check_count(per_unit, names[1], 1),
            check_fraction(accuracy, "accuracy", open_low=True, open_high=True),
            check_fraction(icc, "icc", example="0.2", open_high=True))


def unit_counts(rng: np.random.Generator, size: int, units: int, per_unit: int,
                 accuracy: float, icc: float) -> np.ndarray:
    """(size, units) counts of right outcomes per unit."""
    if icc == 0.0:
        return rng.binomial(per_unit, accuracy, size=(size, units))
    spread = 1.0 / icc - 1.0
    p = rng.beta(accuracy * spread, (1.0 - accuracy) * spread, size=(size, units))
    return rng.binomial(per_unit, p)


def mean_variances(counts: np.ndarray, per_unit: int) -> tuple[np.ndarray, ...]:
    """Mean, naive variance and clustered (CR0) variance of the mean, one per row of
    ``counts`` (right outcomes in each of a row's clusters of ``per_unit``).

    Naive: ``sd² / n`` (ddof=1), which for 0/1 outcomes is ``mean (1 - mean) / (n - 1)``.
    Clustered: ``sum over clusters of (cluster sum - per_unit · mean)² / n²``.
    """
    n = counts.shape[-1] * per_unit
    mean = counts.sum(axis=-1) / n
    clustered = ((counts - per_unit * mean[..., None]) ** 2).sum(axis=-1) / n ** 2
    return mean, mean * (1.0 - mean) / (n - 1), clustered


def clustering(*, clusters: int = 50, per_cluster: int = 10, accuracy: float = 0.70,
               icc: float = 0.2, alpha: float = 0.05, experiments: int = 20_000,
               seed: int = 0, progress: bool = False) -> Simulation:
    """Coverage of the naive and the clustered interval when questions come in clusters.

    Parameters
    ----------
    clusters, per_cluster : int
        Independent clusters (documents) and questions in each.
    accuracy : float
        True accuracy, the mean over clusters (strictly between 0 and 1).
    icc : float
        Intraclass correlation of two questions of one cluster, in [0, 1).
    alpha, experiments, seed, progress
        Intervals have level 1 - alpha; the rest as in :func:`aa` (stream
        ``"simulate:clustering"``).

    Returns
    -------
    Simulation
        ``coverage_naive`` and ``coverage_clustered`` (share of experiments whose
        interval contains the true accuracy), and ``design_effect``, the mean ratio of
        the clustered to the naive variance.

    Notes
    -----
    Naive: ``mean ± z sd / sqrt(n)`` over all n questions (sd with ddof=1).
    Clustered (CR0, no small-sample correction; Cameron & Miller 2015)::

        SE = sqrt(sum over clusters c of (sum over i in c of (x_i - mean))²) / n

    The design effect is 1 where the naive variance is 0 (every answer alike).

    Examples
    --------
    >>> from evalbars.simulate import clustering
    >>> r = clustering(experiments=2000, seed=1)
    >>> r.rate("coverage_naive").value < 0.85 < r.rate("coverage_clustered").value
    True
    """
    clusters, per_cluster, accuracy, icc = _check_units(
        clusters, per_cluster, accuracy, icc, ("clusters", "per_cluster"))
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    n, z = clusters * per_cluster, z_for(alpha)

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        mean, naive, clustered = mean_variances(
            unit_counts(rng, size, clusters, per_cluster, accuracy, icc), per_cluster)
        miss = np.abs(mean - accuracy)
        with np.errstate(invalid="ignore", divide="ignore"):
            effect = np.where(naive > 0, clustered / naive, 1.0)
        return np.column_stack([miss <= z * np.sqrt(naive), miss <= z * np.sqrt(clustered),
                                effect])

    out = run_experiments("clustering", experiments, seed, 3, draw, 2 * clusters, progress)
    settings = {"clusters": clusters, "per_cluster": per_cluster, "n": n,
                "accuracy": accuracy, "icc": icc, "alpha": alpha}
    return Simulation("clustering", settings, experiments, seed,
                      (share("coverage_naive", out[:, 0] > 0.5),
                       share("coverage_clustered", out[:, 1] > 0.5),
                       average("design_effect", out[:, 2])))


def _percentile_interval(shares: np.ndarray, units: int,
                         alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Ends of the percentile bootstrap interval of the total over ``units`` resampled
    units, where a unit has total j with probability ``shares[:, j]``: exact, as if with
    infinitely many resamples.

    The resampled total is a sum of ``units`` independent draws from ``shares``, so its
    law is the ``units``-fold convolution of ``shares``, computed by FFT (zero-padded past
    the support, so the circular convolution is the linear one). The ends are
    the smallest totals whose distribution function reaches alpha/2 and 1 - alpha/2.
    """
    support = units * (shares.shape[1] - 1) + 1
    length = next_fast_len(support, real=True)
    spectrum = np.fft.rfft(shares, n=length, axis=1)
    spectrum = np.abs(spectrum) ** units * np.exp(1j * units * np.angle(spectrum))
    law = np.fft.irfft(spectrum, n=length, axis=1)[:, :support]
    cdf = np.cumsum(np.clip(law, 0.0, None), axis=1)
    cdf /= cdf[:, -1:]
    ends = [np.argmax(cdf >= q - _CDF_SLACK, axis=1) for q in (alpha / 2.0, 1.0 - alpha / 2.0)]
    return ends[0], ends[1]


def wrong_unit(*, mode: str = "answers", units: int | None = None,
               per_unit: int | None = None, accuracy: float = 0.70, icc: float | None = None,
               alpha: float = 0.05, experiments: int = 20_000, seed: int = 0,
               progress: bool = False) -> Simulation:
    """The bootstrap interval when resampling the wrong unit against the right one.

    Parameters
    ----------
    mode : {"answers", "clusters"}
        ``"answers"``: ``units`` questions with ``per_unit`` sampled answers each; the
        wrong bootstrap resamples answers, the right one questions (carrying their
        answers). ``"clusters"``: ``units`` clusters of ``per_unit`` questions; wrong
        resamples questions, right resamples clusters. Defaults in :data:`MODES`.
    units, per_unit : int, optional
        Override the mode's sizes.
    accuracy : float
        True accuracy (strictly between 0 and 1).
    icc : float, optional
        Correlation of two outcomes of one unit; for answers, ``Var(p_i) / (p (1 - p))``.
    alpha : float
        Percentile intervals have level 1 - alpha.
    experiments, seed, progress
        As in :func:`aa` (stream ``"simulate:wrong-unit"``).

    Returns
    -------
    Simulation
        ``coverage_wrong_unit`` and ``coverage_right_unit`` (share of experiments whose
        percentile bootstrap interval contains the true accuracy), and the mean widths
        ``width_wrong_unit`` and ``width_right_unit``. ``settings`` name the units.

    Notes
    -----
    Both bootstraps are computed exactly, as with infinitely many resamples, so the
    only Monte Carlo error is that of the experiments. Resampling all
    ``n = units · per_unit`` outcomes as if independent makes the resampled total
    ``Binomial(n, mean)``. Resampling units needs only the shares of units with 0, 1,
    ..., per_unit right outcomes; the resampled total is the sum of ``units`` draws
    from those shares (see :func:`_percentile_interval`).

    Examples
    --------
    >>> from evalbars.simulate import wrong_unit
    >>> r = wrong_unit(experiments=2000, seed=1)
    >>> r.rate("coverage_wrong_unit").value < 0.9 < r.rate("coverage_right_unit").value
    True
    """
    if mode not in MODES:
        raise EvalbarsError(f"mode must be one of {', '.join(map(repr, MODES))}; got {mode!r}")
    preset = MODES[mode]
    units, per_unit, accuracy, icc = _check_units(
        preset["units"] if units is None else units,
        preset["per_unit"] if per_unit is None else per_unit,
        accuracy, preset["icc"] if icc is None else icc, ("units", "per_unit"))
    experiments, seed, alpha = check_run(experiments, seed, alpha)
    n, values = units * per_unit, np.arange(per_unit + 1)

    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        counts = unit_counts(rng, size, units, per_unit, accuracy, icc)
        mean = counts.sum(axis=1) / n
        wrong = [stats.binom.ppf(q, n, mean) for q in (alpha / 2.0, 1.0 - alpha / 2.0)]
        shares = (counts[:, :, None] == values).mean(axis=1)
        out = []
        for low, high in (wrong, _percentile_interval(shares, units, alpha)):
            out += [(low <= accuracy * n) & (accuracy * n <= high), (high - low) / n]
        return np.column_stack(out)

    out = run_experiments("wrong-unit", experiments, seed, 4, draw, 2 * units, progress)
    settings = {"mode": mode, "units": units, "per_unit": per_unit, "n": n,
                "accuracy": accuracy, "icc": icc, "alpha": alpha,
                "wrong_unit": preset["wrong_unit"], "right_unit": preset["right_unit"]}
    return Simulation("wrong-unit", settings, experiments, seed,
                      (share("coverage_wrong_unit", out[:, 0] > 0.5),
                       average("width_wrong_unit", out[:, 1]),
                       share("coverage_right_unit", out[:, 2] > 0.5),
                       average("width_right_unit", out[:, 3])))
