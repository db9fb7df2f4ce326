"""Reading: files, DataFrames and harness logs into one aligned ``ItemScores``.

The pipeline, in the order the data flows (each stage imports only the ones before it):

1. :mod:`~evalbars.io.table` the raw table, which knows where each row came from;
2. :mod:`~evalbars.io.text_files` read CSV and JSON Lines into it, :mod:`~evalbars.io.files`
   Parquet and DataFrames, and any input by its extension
   (:mod:`~evalbars.io.logs`: one module per harness, to the same long table);
3. :mod:`~evalbars.io.cells` parse score cells and labels, naming what is wrong;
4. :mod:`~evalbars.io.columns` which columns hold items, models and scores;
5. :mod:`~evalbars.io.answers` the canonical long table of answers;
6. :mod:`~evalbars.io.validate` the checks on it: an item in two clusters, duplicate
   answers, missing scores and items, score types;
7. :mod:`~evalbars.io.layouts` map the wide, long and two-file layouts onto it;
8. :mod:`~evalbars.io.align` reduce per (model, item) and align the items;
9. :mod:`~evalbars.io.item_scores` the result, ``ItemScores``, with the per-item labels
   and arrival order of :mod:`~evalbars.io.labels`, read in the same pass as the scores;
   :mod:`~evalbars.io.ingest` ``load()`` and its log dispatch
   (:mod:`~evalbars.io.log_answers`); :mod:`~evalbars.io.inputs`, the loading options
   every analysis accepts; :mod:`~evalbars.io.completion_order`, the order in which
   results came in (for the monitor); :mod:`~evalbars.io.strata`, strata and weights.

May import: :mod:`evalbars.core`. Never stats, analyses, report or cli.
"""
