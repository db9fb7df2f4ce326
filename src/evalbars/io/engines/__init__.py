"""Read, validate and reduce in an engine: in memory, in DuckDB or in Spark.

Every analysis works on per-(model, run, item) sufficient statistics; an engine reads the
answers where they are (files, globs, a DuckDB relation, an Arrow, polars or Spark table),
applies the checks of :mod:`evalbars.io.validate` with the same messages, reduces them in
one pass and brings back only the reduced table, from which
:mod:`evalbars.io.engines.assemble` builds the same :class:`~evalbars.io.item_scores.ItemScores`
the in-memory reader does; :mod:`~evalbars.io.engines.wide` and
:mod:`~evalbars.io.engines.two_files` do the same for the wide layout and two files
(aligned by :mod:`~evalbars.io.engines.aligned`). :mod:`~evalbars.io.engines.choose`
picks the engine.

May import: :mod:`evalbars.core` and the io modules before it. DuckDB and pyspark are
optional, imported only when used.
"""
