"""Reading: files, DataFrames and harness logs into one aligned ``ItemScores``.

The pipeline, in the order the data flows (each stage imports only the ones before it):

1. :mod:`~evalbars.io.table` the raw table, which knows where each row came from;
2. :mod:`~evalbars.io.files` read CSV, JSON Lines, Parquet and DataFrames into it
   (:mod:`~evalbars.io.logs`: one module per harness, to the same long table);
3. :mod:`~evalbars.io.columns` which columns hold items, models and scores;
4. :mod:`~evalbars.io.cells` parse score cells and labels, naming what is wrong;
5. :mod:`~evalbars.io.answers` the canonical long table of answers;
   :mod:`~evalbars.io.layouts` map the wide, long and two-file layouts onto it;
6. :mod:`~evalbars.io.validate` duplicate answers, missing items, clusters, score types;
   :mod:`~evalbars.io.align` reduce per (model, item) and align the items;
7. :mod:`~evalbars.io.ingest` ``load()`` and :mod:`~evalbars.io.inputs`, the loading
   options every analysis accepts.

May import: :mod:`evalbars.core`. Never stats, analyses, report or cli.
"""
