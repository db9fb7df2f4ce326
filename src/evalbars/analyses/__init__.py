"""One module per question a user asks, each returning a documented result object.

- :mod:`~evalbars.analyses.compare`: ``ci`` and ``compare``;
- :mod:`~evalbars.analyses.leaderboard` and :mod:`~evalbars.analyses.battles`
  (Bradley-Terry ratings from pairwise battles);
- :mod:`~evalbars.analyses.select` (the winner's curse, its split of the questions and its
  record; the estimators are :mod:`evalbars.stats.winners_curse`);
- :mod:`~evalbars.analyses.seeds` (training runs, with their records),
  :mod:`~evalbars.analyses.ablation`, :mod:`~evalbars.analyses.gate`,
  :mod:`~evalbars.analyses.passk`;
- :mod:`~evalbars.analyses.monitor` (watching results come in: always-valid sequences,
  and the record of the path);
- :mod:`~evalbars.analyses.power` (how many questions) with
  :mod:`~evalbars.analyses.pilot` (its inputs from pilot results).

Shared by them: :mod:`~evalbars.analyses.results` (the result records),
:mod:`~evalbars.analyses.settings` (checked settings, provenance),
:mod:`~evalbars.analyses.measures` (each model's score, the paired gap, agreement, tests)
and :mod:`~evalbars.analyses.caveats` (where a method is known to under-cover);
:mod:`~evalbars.analyses.strata` (the strata section of a score report, with
``stratum=``) and :mod:`~evalbars.analyses.strata_leaderboard` (a leaderboard's).

May import: :mod:`evalbars.core`, :mod:`evalbars.io`, :mod:`evalbars.stats` and
:mod:`evalbars.report`. Never simulate or cli.
"""
