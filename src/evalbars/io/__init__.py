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
   answers, missing scores and items, score types (each worded once in
   :mod:`~evalbars.io.messages`, for every engine);
7. :mod:`~evalbars.io.layouts` map the wide, long and two-file layouts onto it;
8. :mod:`~evalbars.io.align` reduce per (model, item) and align the items;
9. :mod:`~evalbars.io.item_scores` the result, ``ItemScores``, with the per-item labels
   and arrival order of :mod:`~evalbars.io.labels`, read in the same pass as the scores;
   :mod:`~evalbars.io.ingest` ``load()`` and its log dispatch
   (:mod:`~evalbars.io.log_answers`); :mod:`~evalbars.io.inputs`, the loading options
   every analysis accepts; :mod:`~evalbars.io.completion_order`, the order in which
   results came in (for the monitor); :mod:`~evalbars.io.strata`, strata and weights.

The public names (``evalbars.io.load``, ``ItemScores``, ``ItemLabels``, ...) are listed in
``__all__`` and imported on first use.

May import: :mod:`evalbars.core`. Never stats, analyses, report or cli.
"""
from __future__ import annotations

from ..core.lazy import lazy_face

_PUBLIC = {
    "load": "ingest", "ItemScores": "item_scores", "ItemLabels": "labels",
    "Arrival": "labels", "ROLES": "labels", "SCORE_TYPES": "arguments",
    "INPUT_FORMATS": "ingest", "ID_NAMES": "columns", "SCORE_NAMES": "columns",
    "completion_order": "completion_order", "CompletionOrder": "completion_order",
    "strata_of": "strata", "check_nested": "strata", "read_weights": "strata",
    "read_scores": "inputs", "LOAD_OPTIONS": "inputs",
}
"""The public face of reading: each name and the module that defines it, imported on
first use (``import evalbars.io`` stays light)."""

__all__ = sorted(_PUBLIC)
__getattr__, __dir__ = lazy_face(__name__, _PUBLIC)
