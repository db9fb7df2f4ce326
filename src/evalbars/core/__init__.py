"""The shared core every layer may import: the error class, seeds, small records.

Lives here: :mod:`~evalbars.core.errors` (the one error class for bad input),
:mod:`~evalbars.core.seeding` (named child streams of the user's seed),
:mod:`~evalbars.core.types` (``Interval``, ``TestResult``), :mod:`~evalbars.core.document`
(schema version, JSON-safe values), :mod:`~evalbars.core.progress` and the version.

May import: the standard library and numpy only; nothing else of evalbars.
"""
