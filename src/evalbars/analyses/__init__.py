"""One module per question a user asks, each returning a documented result object.

:mod:`~evalbars.analyses.compare` (``ci`` and ``compare``),
:mod:`~evalbars.analyses.leaderboard`, :mod:`~evalbars.analyses.battles`,
:mod:`~evalbars.analyses.select`, :mod:`~evalbars.analyses.seeds`,
:mod:`~evalbars.analyses.ablation`, :mod:`~evalbars.analyses.gate`,
:mod:`~evalbars.analyses.passk` and :mod:`~evalbars.analyses.power` (with its pilot).
Shared by them: :mod:`~evalbars.analyses.results` (the result records),
:mod:`~evalbars.analyses.settings` (checked settings, provenance),
:mod:`~evalbars.analyses.measures` (each model's score, the paired gap, agreement, tests)
and :mod:`~evalbars.analyses.caveats` (where a method is known to under-cover).

May import: :mod:`evalbars.core`, :mod:`evalbars.io`, :mod:`evalbars.stats` and
:mod:`evalbars.report`. Never simulate or cli.
"""
