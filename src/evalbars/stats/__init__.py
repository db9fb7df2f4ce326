"""The statistics: pure functions on aligned arrays, no files and no reports.

- intervals: :mod:`~evalbars.stats.intervals` (analytic), :mod:`~evalbars.stats.bootstrap`
  on the one resampling engine :mod:`~evalbars.stats.resample`; argument checks in
  :mod:`~evalbars.stats.checks`;
- paired tests: :mod:`~evalbars.stats.significance` (the registry, sign test, paired t),
  :mod:`~evalbars.stats.mcnemar`, :mod:`~evalbars.stats.permutation` (sign-flip),
  :mod:`~evalbars.stats.signed_rank` (Wilcoxon); one-sided or two-sided
  (``alternative``) by the tail rules of :mod:`~evalbars.stats.tails`;
- clustered questions: :mod:`~evalbars.stats.clustering` (CR1 standard errors, ICC),
  :mod:`~evalbars.stats.cluster_resampling`, :mod:`~evalbars.stats.cluster_inputs`;
- sampled answers, pass@k and pass^k: :mod:`~evalbars.stats.samples`,
  :mod:`~evalbars.stats.pass_at_k`;
- planning: :mod:`~evalbars.stats.power` (the z test's and the exact McNemar test's
  power, the design of a calculation and its solvers);
- many models: :mod:`~evalbars.stats.multiplicity`, :mod:`~evalbars.stats.ranks`,
  :mod:`~evalbars.stats.winners_curse` (the best of N against the best of N useless ones),
  :mod:`~evalbars.stats.bradley_terry`; "just as good": :mod:`~evalbars.stats.equivalence`;
- watching results come in: :mod:`~evalbars.stats.sequential` (the registry of
  always-valid methods), :mod:`~evalbars.stats.betting` (the betting confidence sequence),
  :mod:`~evalbars.stats.mixtures` (normal-mixture and discordant e-processes);
- :mod:`~evalbars.stats.exact_coverage`: the exact coverage of 0/1 intervals, which the
  caveats quote and the calibration study tabulates.

The public functions are listed in ``__all__`` (``from evalbars.stats import
mcnemar_exact``) and imported on first use.

May import: :mod:`evalbars.core`. Never io, analyses, report or cli.
"""
from __future__ import annotations

from ..core.lazy import lazy_face

_PUBLIC = {
    "intervals": ["binomial_interval", "mean_interval", "paired_interval"],
    "bootstrap": ["bootstrap_means", "percentile_interval", "bca_interval"],
    "resample": ["bootstrap_sums", "sign_flip_sums"],
    "mcnemar": ["mcnemar_exact", "mcnemar_chi2", "mcnemar_midp"],
    "significance": ["sign_test", "paired_t", "paired_test"],
    "permutation": ["sign_flip"],
    "signed_rank": ["wilcoxon"],
    "clustering": ["ClusteredSE", "clustered_se", "paired_clustered_se", "cluster_interval",
                   "paired_cluster_interval"],
    "cluster_resampling": ["cluster_bootstrap_means", "cluster_sign_flip"],
    "samples": ["VarianceSplit", "variance_split"],
    "pass_at_k": ["pass_hat_k"],
    "power": ["z_power", "required_delta", "mcnemar_power", "sampled_se",
              "sampled_variance"],
    "multiplicity": ["adjust", "familywise_error"],
    "ranks": ["rank_uncertainty"],
    "equivalence": ["Equivalence", "paired_equivalence", "interval_equivalence"],
    "sequential": ["SequencePath", "gap_sequence", "fixed_n_half_width"],
    "betting": ["betting_sequence"],
    "strata": ["StratifiedMean", "stratified_mean", "stratified_gap", "stratified_interval"],
    "strata_resampling": ["stratified_bootstrap_interval"],
    "strata_tests": ["stratified_sign_flip", "stratified_mcnemar_exact",
                     "stratified_mantel_haenszel"],
    "exact_coverage": ["binomial_coverage"],
    "winners_curse": ["NullBest", "AdjustedGain", "null_best", "adjusted_gain",
                      "simultaneous_intervals"],
}
"""The public face of the statistics, by module: ``from evalbars.stats import
mcnemar_exact``. Each name is imported on first use, so ``import evalbars.stats`` stays
light. A function named as its module (``pass_at_k``, ``equivalence``) stays in the module:
its name here is the module's."""

_HOME = {name: module for module, names in _PUBLIC.items() for name in names}
__all__ = sorted(_HOME)
__getattr__, __dir__ = lazy_face(__name__, _HOME)
