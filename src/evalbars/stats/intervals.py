"""Analytic (non-resampling) confidence intervals, as pure functions.

Three families, each a registry of ``name -> function`` that also drives validation:

- :func:`binomial_interval` for ``successes`` out of ``n`` (:data:`BINOMIAL_METHODS`);
- :func:`mean_interval` for the mean of any per-question score (:data:`MEAN_METHODS`);
- :func:`paired_interval` for the gap ``mean(b) - mean(a)`` of two models scored on
  the same questions (:data:`PAIRED_METHODS`).

Ends are returned as computed, at full precision: a Wald or CLT interval may leave
[0, 1], and that is reported, not hidden. The one exception is agresti-coull, clipped
to [0, 1] as statsmodels does.
"""
from __future__ import annotations

import math
import operator
from typing import Callable

import numpy as np
from scipy import special

from ..core.arguments import check_confidence_level
from ..core.errors import EvalbarsError
from ..core.types import Interval
from .checks import pair, require_binary, scores
from .tails import check_alternative, one_sided_ends, two_sided_level

__all__ = [
    "BINOMIAL_METHODS",
    "MEAN_METHODS",
    "PAIRED_METHODS",
    "binomial_interval",
    "mean_interval",
    "paired_interval",
]


# --- quantiles and small helpers ---------------------------------------------------


def normal_critical(level: float) -> float:
    """Two-sided normal critical value, computed from the upper tail for precision."""
    return float(-special.ndtri((1.0 - level) / 2.0))


def t_critical(level: float, df: int) -> float:
    return float(special.stdtrit(df, (1.0 + level) / 2.0)) if df >= 1 else math.nan


def _sd(x: np.ndarray) -> float:
    """Sample standard deviation (ddof=1); nan when undefined (one value)."""
    return float(np.std(x, ddof=1)) if x.size > 1 else math.nan


def _wilson(k: int, n: int, level: float) -> tuple[float, float]:
    z = normal_critical(level)
    p = k / n
    denom = 1.0 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Wilson ends lie in [0, 1]; the clip only removes rounding dust at k = 0 or n.
    return max(center - half, 0.0), min(center + half, 1.0)


# --- binomial methods: (successes, n, level) -> (low, high) -------------------------


def _wald(k: int, n: int, level: float) -> tuple[float, float]:
    p = k / n
    half = normal_critical(level) * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def _clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2.0
    low = float(special.betaincinv(k, n - k + 1, tail)) if k > 0 else 0.0
    high = float(special.betainccinv(k + 1, n - k, tail)) if k < n else 1.0
    return low, high


def _agresti_coull(k: int, n: int, level: float) -> tuple[float, float]:
    z = normal_critical(level)
    n_tilde = n + z * z
    p_tilde = (k + z * z / 2) / n_tilde
    half = z * math.sqrt(p_tilde * (1 - p_tilde) / n_tilde)
    return max(p_tilde - half, 0.0), min(p_tilde + half, 1.0)


def _jeffreys(k: int, n: int, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2.0
    return (
        float(special.betaincinv(k + 0.5, n - k + 0.5, tail)),
        float(special.betainccinv(k + 0.5, n - k + 0.5, tail)),
    )


_BINOMIAL: dict[str, Callable[[int, int, float], tuple[float, float]]] = {
    "wald": _wald,
    "wilson": _wilson,
    "clopper-pearson": _clopper_pearson,
    "agresti-coull": _agresti_coull,
    "jeffreys": _jeffreys,
}


# --- mean methods: (x, level) -> (low, high) ----------------------------------------


def _clt(x: np.ndarray, level: float) -> tuple[float, float]:
    mean, half = float(np.mean(x)), normal_critical(level) * _sd(x) / math.sqrt(x.size)
    return mean - half, mean + half


def _student_t(x: np.ndarray, level: float) -> tuple[float, float]:
    mean, half = float(np.mean(x)), t_critical(level, x.size - 1) * _sd(x) / math.sqrt(x.size)
    return mean - half, mean + half


_MEAN: dict[str, Callable[[np.ndarray, float], tuple[float, float]]] = {
    "clt": _clt,
    "t": _student_t,
}


# --- paired methods: (a, b, level) -> (low, high) for mean(b) - mean(a) -------------


def _unpaired_wald(a: np.ndarray, b: np.ndarray, level: float) -> tuple[float, float]:
    gap = float(np.mean(b) - np.mean(a))
    half = normal_critical(level) * math.sqrt((_sd(a) ** 2 + _sd(b) ** 2) / a.size)
    return gap - half, gap + half


def _newcombe(a: np.ndarray, b: np.ndarray, level: float) -> tuple[float, float]:
    n = a.size
    both = int(np.sum((a == 1) & (b == 1)))
    b_only = int(np.sum((a == 0) & (b == 1)))
    a_only = int(np.sum((a == 1) & (b == 0)))
    neither = n - both - b_only - a_only
    k_b, k_a = both + b_only, both + a_only
    p_b, p_a = k_b / n, k_a / n
    l_b, u_b = _wilson(k_b, n, level)
    l_a, u_a = _wilson(k_a, n, level)
    margins = k_b * (n - k_b) * k_a * (n - k_a)
    cross = both * neither - b_only * a_only
    if cross > 0:
        cross = max(cross - n / 2, 0.0)
    phi = cross / math.sqrt(margins) if margins > 0 else 0.0
    down_b, up_b, down_a, up_a = p_b - l_b, u_b - p_b, p_a - l_a, u_a - p_a
    low = p_b - p_a - math.sqrt(down_b**2 - 2 * phi * down_b * up_a + up_a**2)
    high = p_b - p_a + math.sqrt(up_b**2 - 2 * phi * up_b * down_a + down_a**2)
    return low, high


_PAIRED: dict[str, Callable[[np.ndarray, np.ndarray, float], tuple[float, float]]] = {
    "paired-wald": lambda a, b, level: _clt(b - a, level),
    "paired-t": lambda a, b, level: _student_t(b - a, level),
    "newcombe": _newcombe,
    "unpaired-wald": _unpaired_wald,
}

BINOMIAL_METHODS: tuple[str, ...] = tuple(_BINOMIAL)
MEAN_METHODS: tuple[str, ...] = tuple(_MEAN)
PAIRED_METHODS: tuple[str, ...] = tuple(_PAIRED)


# --- validation ---------------------------------------------------------------------


def _method(registry: dict, method: object, family: str) -> Callable:
    if not isinstance(method, str) or method not in registry:
        valid = ", ".join(repr(name) for name in registry)
        raise EvalbarsError(f"method for {family} must be one of {valid}; got {method!r}")
    return registry[method]


def _count(value: object, name: str) -> int:
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        if isinstance(value, float) and value.is_integer():
            return int(value)
    raise EvalbarsError(f"{name} must be a whole number; got {value!r}")


# --- public API -------------------------------------------------------------------


def binomial_interval(
    successes: int, n: int, *, method: str, confidence_level: float = 0.95,
    alternative: str = "two-sided",
) -> Interval:
    """Confidence interval for a proportion: ``successes`` right out of ``n``.

    Parameters
    ----------
    successes : int
        Number of correct answers, ``0 <= successes <= n``.
    n : int
        Number of questions, at least 1.
    method : str
        One of :data:`BINOMIAL_METHODS`.
    confidence_level : float
        Strictly between 0 and 1.
    alternative : str
        ``"two-sided"`` (default); ``"greater"`` gives the one-sided lower bound (high is
        +inf), ``"less"`` the upper bound (:func:`_sided`).

    Returns
    -------
    Interval

    Notes
    -----
    With ``p = successes / n``, ``z`` the two-sided normal quantile and ``alpha =
    1 - confidence_level``:

    - ``wald``: ``p ± z·sqrt(p(1-p)/n)``, not clipped (7 of 10 gives [0.416, 0.984];
      1 of 10 gives a negative lower end).
    - ``wilson``: ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``.
    - ``clopper-pearson``: Beta(alpha/2; k, n-k+1) to Beta(1-alpha/2; k+1, n-k),
      with ends 0 at ``successes = 0`` and 1 at ``successes = n``.
    - ``agresti-coull``: Wald on ``n + z²`` trials with ``z²/2`` added successes,
      clipped to [0, 1] as statsmodels does.
    - ``jeffreys``: equal-tailed Beta(k + 1/2, n - k + 1/2) quantiles, with no
      special case at 0 or n (the lower end at 0 successes is small but positive),
      as statsmodels does.

    Validated against statsmodels ``proportion_confint`` (methods "normal",
    "wilson", "beta", "agresti_coull", "jeffreys") to 1e-10 on a grid including
    ``n = 1`` and ``successes`` 0 and ``n``; statsmodels clips "normal" to [0, 1],
    ``wald`` here does not.

    Examples
    --------
    >>> binomial_interval(7, 10, method="wilson").low  # doctest: +ELLIPSIS
    0.3967...
    >>> iv = binomial_interval(7, 10, method="wald")
    >>> round(iv.low, 3), round(iv.high, 3)
    (0.416, 0.984)
    >>> round(binomial_interval(7, 10, method="clopper-pearson", alternative="greater").low, 4)
    0.3934
    """
    compute = _method(_BINOMIAL, method, "binomial_interval")
    level = check_confidence_level(confidence_level)
    n = _count(n, "n")
    successes = _count(successes, "successes")
    if n < 1:
        raise EvalbarsError(f"n must be at least 1; got {n}")
    if not 0 <= successes <= n:
        raise EvalbarsError(f"successes must be between 0 and n = {n}; got {successes}")
    return _sided(lambda at: compute(successes, n, at), method, level, alternative)


def _sided(compute, method: str, level: float, alternative: str) -> Interval:
    """``compute(level)``'s interval, or for a one-sided ``alternative`` the end on the
    asked side of the two-sided ``2 level - 1`` interval, the other end open (±inf).

    >>> _sided(lambda at: (0.1 * at, 0.2), "m", 0.95, "greater")
    Interval(method='m', low=0.09000000000000001, high=inf, confidence_level=0.95)
    """
    alternative = check_alternative(alternative)
    low, high = compute(two_sided_level(level, alternative))
    low, high = one_sided_ends(float(low), float(high), alternative)
    return Interval(method, low, high, level)


def mean_interval(x: np.ndarray, *, method: str, confidence_level: float = 0.95,
                  alternative: str = "two-sided") -> Interval:
    """Confidence interval for the mean score, one value per question.

    Parameters
    ----------
    x : array_like
        1-D, finite scores (0/1 correctness or continuous).
    method : str
        One of :data:`MEAN_METHODS`.
    confidence_level : float
        Strictly between 0 and 1.
    alternative : str
        ``"two-sided"`` (default), or a one-sided bound (``"greater"``: lower bound).

    Returns
    -------
    Interval
        With nan ends when ``x`` has a single value (the sample sd is undefined).

    Notes
    -----
    With ``s`` the sample sd (ddof=1):

    - ``clt``: ``mean ± z·s/sqrt(n)`` with ``z`` the normal quantile. Not clipped:
      19 right of 20 gives [0.852, 1.048].
    - ``t``: ``mean ± t_{n-1}·s/sqrt(n)``; validated against
      ``scipy.stats.ttest_1samp(x, 0).confidence_interval()``.

    Examples
    --------
    >>> iv = mean_interval([1] * 19 + [0], method="clt")
    >>> round(iv.low, 3), round(iv.high, 3)
    (0.852, 1.048)
    """
    compute = _method(_MEAN, method, "mean_interval")
    level = check_confidence_level(confidence_level)
    values = scores(x, "x")
    return _sided(lambda at: compute(values, at), method, level, alternative)


def paired_interval(
    a: np.ndarray, b: np.ndarray, *, method: str, confidence_level: float = 0.95,
    alternative: str = "two-sided",
) -> Interval:
    """Confidence interval for the gap ``mean(b) - mean(a)`` on the same questions.

    Parameters
    ----------
    a, b : array_like
        1-D, finite, equal-length scores of models A and B, aligned by question.
    method : str
        One of :data:`PAIRED_METHODS`; ``newcombe`` needs 0/1 scores.
    confidence_level : float
        Strictly between 0 and 1.
    alternative : str
        ``"two-sided"`` (default); ``"greater"`` bounds the gap from below ("B is better by
        at least low"), ``"less"`` from above.

    Returns
    -------
    Interval
        For ``paired-wald``, ``paired-t`` and ``unpaired-wald`` the ends are nan
        with a single question (the sample sd is undefined).

    Notes
    -----
    With ``d = b - a`` and sds taken with ddof=1:

    - ``paired-wald``: ``mean(d) ± z·sd(d)/sqrt(n)``.
    - ``paired-t``: ``mean(d) ± t_{n-1}·sd(d)/sqrt(n)``; validated against
      ``scipy.stats.ttest_rel(b, a).confidence_interval()``.
    - ``unpaired-wald``: ``mean(b) - mean(a) ± z·sqrt(sd(a)²/n + sd(b)²/n)``, what
      one would report if the questions were unrelated (for contrast only).
    - ``newcombe``: Newcombe (1998, Stat Med 17:2635, method 10). With Wilson
      limits ``(l_b, u_b)``, ``(l_a, u_a)`` of the two accuracies ``p_b``, ``p_a``::

          low  = p_b - p_a - sqrt((p_b-l_b)² - 2·phi·(p_b-l_b)(u_a-p_a) + (u_a-p_a)²)
          high = p_b - p_a + sqrt((u_b-p_b)² - 2·phi·(u_b-p_b)(p_a-l_a) + (p_a-l_a)²)

      where ``phi = C / sqrt(product of the four margins)``, ``C = AD - BC`` from
      the 2x2 table (A both right, D both wrong, B and C the discordant cells),
      except that a positive ``C`` is replaced by ``max(C - n/2, 0)``; ``phi = 0``
      when any margin is 0. Validated against published values: Newcombe's
      example (cells 20, 12, 2, 16: 0.0562 to 0.3292, as checked in R ratesci),
      Fagerland, Lydersen & Laake (2014; 1, 1, 7, 12: -0.507 to -0.026) and
      their 2017 book (59, 6, 16, 80: -0.1186 to -0.0046).

    Examples
    --------
    >>> a = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1]
    >>> b = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1]
    >>> iv = paired_interval(a, b, method="newcombe")
    >>> round(iv.low, 4), round(iv.high, 4)
    (-0.1353, 0.5024)
    """
    compute = _method(_PAIRED, method, "paired_interval")
    level = check_confidence_level(confidence_level)
    a_arr, b_arr = pair(a, b)
    if method == "newcombe":
        require_binary(a_arr, b_arr, "method 'newcombe'")
    return _sided(lambda at: compute(a_arr, b_arr, at), method, level, alternative)
