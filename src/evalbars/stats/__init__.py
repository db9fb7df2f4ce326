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
- planning: :mod:`~evalbars.stats.power_plan`, :mod:`~evalbars.stats.mcnemar_power`,
  :mod:`~evalbars.stats.power_z` (the z test's power), :mod:`~evalbars.stats.power_checks`;
- many models: :mod:`~evalbars.stats.multiplicity`, :mod:`~evalbars.stats.ranks`,
  :mod:`~evalbars.stats.bradley_terry`; "just as good": :mod:`~evalbars.stats.equivalence`;
- watching results come in: :mod:`~evalbars.stats.sequential` (the registry of
  always-valid methods), :mod:`~evalbars.stats.betting` (the betting confidence sequence),
  :mod:`~evalbars.stats.mixtures` (normal-mixture and discordant e-processes);
- :mod:`~evalbars.stats.exact_coverage`: the exact coverage of 0/1 intervals, which the
  caveats quote and the calibration study tabulates.

May import: :mod:`evalbars.core`. Never io, analyses, report or cli.
"""
