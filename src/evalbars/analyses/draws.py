"""Every resampled number of one analysis: one resample plan and one sign matrix.

The plan is the counts of every unit (item, or whole cluster) in every bootstrap
resample, drawn once from the seed with the units in canonical order (items sorted by
id, clusters by label; :func:`evalbars.analyses.measures.prepare`), so it depends neither
on the row order nor on which models are loaded. Each model's replicates are a column of
``counts @ unit_sums``; a gap is the difference of two columns; ranks read all columns of
the same resamples. One sign matrix of the same units gives every pair's sign-flip null
as the difference of two columns of ``S @ x``. A column never depends on the others
(:mod:`evalbars.stats.resample`), so ci, compare, leaderboard, select and ablation give
the same interval, bit for bit, for the same model on the same items and seed.

One exception keeps 0/1 data O(resamples), independent of n: where one column's values
repeat (at least 8 items per distinct value, as for 0/1 scores), the bootstrap of that
column alone (a model's mean, or a pair's gap) is drawn from the multinomial counts of
its values, from a stream keyed by the model's name (``model:<name>``) or the sorted pair
(``paired:<a>\\x00<b>``). That is the same bootstrap law and is still invariant: it
depends only on the column, the name and the seed. What it gives up is that such a gap
is not the difference of the two models' replicates resample by resample. The ranks
and the chance of being best come from the item plan, or from the multinomial counts of
the models' joint rows where those repeat (:meth:`Draws.means`).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..core.seeding import child_seed
from ..core.types import TestResult
from ..stats import bootstrap, cluster_resampling, permutation
from ..stats.draw_counts import start_loading
from ..stats.resample import sign_flip_sums

PLAN, CLUSTER_PLAN = "plan", "cluster-plan"
SIGNS, CLUSTER_SIGNS = "sign-flip", "cluster-sign-flip"
"""Stream keys of the item plan, the cluster plan and their sign matrices."""


def repeats(column: np.ndarray) -> bool:
    """Whether a column's bootstrap is drawn over its distinct values (8+ items each).

    >>> repeats(np.array([0.0, 1.0] * 8)), repeats(np.arange(16.0))
    (True, False)
    """
    return bootstrap.unit_sums(column[:, None])[1] is not None


class Draws:
    """The resamples of one prepared data set, each drawn once and on first use.

    ``data`` is a :class:`evalbars.analyses.measures.Prepared`; ``seed`` and
    ``n_resamples`` come from the analysis' settings; ``progress`` hears of the plans'
    resamples (the O(resamples) draws over repeated values are too quick to report).

    Examples
    --------
    >>> import numpy as np
    >>> from evalbars.analyses.measures import Prepared
    >>> x = np.random.default_rng(0).random((50, 2))
    >>> data = Prepared(("a", "b"), x, np.ones((50, 2)), x**2, None, "continuous")
    >>> draws = Draws(data, seed=0, n_resamples=1000)
    >>> gap = draws.gap("a", "b")
    >>> bool(np.array_equal(gap, draws.model("b") - draws.model("a")))
    True
    """

    def __init__(self, data, *, seed: int, n_resamples: int,
                 progress: Callable[[int], None] | None = None) -> None:
        self.data, self.seed, self.n_resamples, self.progress = data, seed, n_resamples, progress
        self._found: dict[str, np.ndarray] = {}
        start_loading(n_resamples * data.x.shape[0])  # a big plan's kernel, in the background

    def _once(self, key: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
        if key not in self._found:
            self._found[key] = compute()
        return self._found[key]

    def _column(self, name: str) -> int:
        return self.data.names.index(name)

    def means(self) -> np.ndarray:
        """(B, m) means of every model over the item plan.

        Over the distinct rows instead when the models' joint rows repeat (8+ items per
        row, as for a few 0/1 models): the same law in O(resamples). Only statistics of
        all models together (ranks) read it then, and those depend on the models loaded.
        """
        return self._once(PLAN, lambda: bootstrap.bootstrap_means(
            self.data.x, n_resamples=self.n_resamples, seed=child_seed(self.seed, PLAN),
            progress=self.progress))

    def cluster_means(self) -> np.ndarray:
        """(B, m) means of every model over the plan of whole clusters."""
        return self._once(CLUSTER_PLAN, lambda: cluster_resampling.cluster_bootstrap_means(
            self.data.x, self.data.clusters, n_resamples=self.n_resamples,
            seed=child_seed(self.seed, CLUSTER_PLAN), progress=self.progress))

    def model(self, name: str) -> np.ndarray:
        """Bootstrap replicates of the model's mean: its plan column, or its own values'."""
        x = self.data.column(name)
        if not repeats(x):
            return self.means()[:, self._column(name)]
        return self._once(f"model:{name}", lambda: bootstrap.bootstrap_means(
            x, n_resamples=self.n_resamples,
            seed=child_seed(self.seed, f"model:{name}"))[:, 0])

    def gap(self, a: str, b: str) -> np.ndarray:
        """Replicates of ``mean(b - a)``: two plan columns, or the gaps' own values.

        Drawn as (later name) - (earlier name), so swapping a and b negates exactly.
        """
        if a > b:
            return -self.gap(b, a)
        d = self.data.column(b) - self.data.column(a)
        if not repeats(d):
            means = self.means()
            return means[:, self._column(b)] - means[:, self._column(a)]
        key = "paired:" + "\x00".join((a, b))
        return self._once(key, lambda: bootstrap.bootstrap_means(
            d, n_resamples=self.n_resamples, seed=child_seed(self.seed, key))[:, 0])

    def cluster_model(self, name: str) -> np.ndarray:
        """Cluster-bootstrap replicates of the model's mean."""
        return self.cluster_means()[:, self._column(name)]

    def cluster_gap(self, a: str, b: str) -> np.ndarray:
        """Cluster-bootstrap replicates of ``mean(b - a)``."""
        means = self.cluster_means()
        return means[:, self._column(b)] - means[:, self._column(a)]

    def sign_flip(self, a: str, b: str, alternative: str = "two-sided") -> TestResult:
        """The sign-flip test of the pair, its Monte Carlo null read from ``S @ x``."""
        x_a, x_b = self.data.column(a), self.data.column(b)
        d = x_b - x_a

        def null(seed: np.random.SeedSequence) -> np.ndarray:
            sums = self._once(SIGNS, lambda: sign_flip_sums(
                self.data.x, n_resamples=self.n_resamples, seed=seed))
            return sums[:, self._column(b)] - sums[:, self._column(a)]

        total = math.fsum(d)
        return permutation.flip_units(
            "sign-flip", total / d.size, d, null, n_resamples=self.n_resamples,
            seed=child_seed(self.seed, SIGNS), described="nonzero differences",
            alternative=alternative, total=total)

    def cluster_sign_flip(self, a: str, b: str, alternative: str = "two-sided") -> TestResult:
        """The cluster sign-flip test of the pair, one sign per cluster for every pair."""
        data = self.data
        d = data.column(b) - data.column(a)
        g = int(data.clusters.max()) + 1
        units = cluster_resampling.cluster_sums(d[:, None], data.clusters, g)[:, 0]

        def null(seed: np.random.SeedSequence) -> np.ndarray:
            sums = self._once(CLUSTER_SIGNS, lambda: sign_flip_sums(
                cluster_resampling.cluster_sums(data.x, data.clusters, g),
                n_resamples=self.n_resamples, seed=seed))
            return sums[:, self._column(b)] - sums[:, self._column(a)]

        return permutation.flip_units(
            "cluster-sign-flip", permutation.fsum_mean(d), units, null,
            n_resamples=self.n_resamples, seed=child_seed(self.seed, CLUSTER_SIGNS),
            described="clusters with a nonzero total difference", alternative=alternative)
