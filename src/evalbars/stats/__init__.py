"""The statistics: pure functions on aligned arrays, no files and no reports.

Intervals (:mod:`~evalbars.stats.intervals`), paired tests
(:mod:`~evalbars.stats.significance`), the one resampling engine
(:mod:`~evalbars.stats.resample`, used by :mod:`~evalbars.stats.bootstrap`), clustered
questions, sampled answers, pass@k, power, multiplicity, equivalence, Bradley-Terry and
the exact coverage of 0/1 intervals.

May import: :mod:`evalbars.core`. Never io, analyses, report or cli.
"""
