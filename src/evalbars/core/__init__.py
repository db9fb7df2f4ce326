"""The shared core every layer may import: the error class, seeds, small records.

Lives here: :mod:`~evalbars.core.errors` (the one error class for bad input, with the
structure of a bad argument), :mod:`~evalbars.core.arguments` (the shared arguments, each
checked once), :mod:`~evalbars.core.seeding` (named child streams of the user's seed),
:mod:`~evalbars.core.records` (the record base: ``to_dict()`` from the fields),
:mod:`~evalbars.core.types` (``Interval``, ``TestResult``), :mod:`~evalbars.core.document`
(schema version, JSON-safe values), :mod:`~evalbars.core.lazy` (a package's names
imported on first use), :mod:`~evalbars.core.progress` and the version.

May import: the standard library and numpy only; nothing else of evalbars.
"""
