"""Read eval scores into one aligned (items x models) matrix, validating everything once.

Three layouts are understood, from CSV, JSON Lines, Parquet or a pandas DataFrame:

- **wide**: an id column plus one score column per model;
- **long**: one row per (item, model) with item, model and score columns;
- **two files**: two inputs, each with an id column and one score column.

Optionally a **cluster** column groups the items (document, topic, session), a
**sample** column tells apart several sampled answers to the same item by the same model
(an epoch or repeat index) and a **run** column tells apart independent training runs
(seeds) of one model, each of which answered every item. Every layout is mapped onto the
canonical long table (item, model, score, cluster, sample, run), validated, reduced to
per-(model, run, item) sufficient statistics (answers, sum, sum of squares) and aligned
by item id into :class:`ItemScores`. Nothing is dropped, coerced or reordered silently:
bad input raises :class:`~evalbars.core.errors.EvalbarsError` naming the file, the line
numbers (a CSV header is line 1) or 0-based rows, the columns and the item ids;
``intersect=True`` is the one explicit way to drop items, and the result counts them.
"""
from __future__ import annotations

import os
from typing import Any, Sequence

from ..core.errors import EvalbarsError

# STRAY_SHARE and MODEL_NAME are part of this module's documented face.
from . import logs
from .align import aligned_fields
from .arguments import SCORE_TYPES, check_arguments, check_item, listed_inputs
from .columns import (  # noqa: F401
    ID_NAMES,
    MODEL_NAME,
    SCORE_NAMES,
    auto_model,
    check_model_column,
    resolve_column,
)
from .engines.choose import for_logs, in_memory, pick, reduce_with
from .files import is_dataframe, read
from .item_scores import ItemScores
from .layouts import long_layout, two_files_layout, wide_layout
from .log_answers import read_logs
from .table import short
from .validate import STRAY_SHARE  # noqa: F401

INPUT_FORMATS = logs.INPUT_FORMATS
"""Accepted values of ``input_format``: ``"auto"``, ``"table"`` and the log formats."""


# --------------------------------------------------------------------------- load


def load(
    data: Any,
    data2: Any = None,
    *,
    item: str | Sequence[str] | None = None,
    model: str | None = None,
    score: str | None = None,
    models: Sequence[str] | None = None,
    score_type: str = "auto",
    intersect: bool = False,
    cluster: str | None = None,
    sample: str | None = None,
    run: str | None = None,
    stratum: str | None = None,
    split: str | None = None,
    order: str | None = None,
    input_format: str = "auto",
    metric: str | None = None,
    eval_split: str | None = None,
    scorer: str | None = None,
    qrels: str | None = None,
    engine: str = "auto",
    spark: Any = None,
) -> ItemScores:
    """Read per-item scores from a file, DataFrame or harness log and align them by item id.

    Parameters
    ----------
    data : str, os.PathLike, pandas.DataFrame, or a list or tuple of one or two of them
        A ``.csv``, ``.jsonl`` (``.ndjson``, ``.json-lines``) or ``.parquet`` file (the
        format comes from the extension), a DataFrame (a named index counts as a column),
        or a harness log: a file or folder of any format of :data:`evalbars.io.logs.FORMATS`,
        recognised by its name and content (docs/logs.md). A list ``[data, data2]`` is
        read as ``data, data2``; more inputs go into one folder of logs or one long table
        (a glob with ``engine="duckdb"``).
    data2 : same as ``data``, optional
        A second input: selects the two-file layout, one model per input; for logs, more
        runs (each run of a log is a model).
    item : str or pair of str, optional
        The item id column. Default: the first column named (any case) id, qid, item,
        item_id, question_id, example_id, doc_id, sample_id or query_id. Two files: one
        name for both, or one per file, ``item=("qid", "question_id")`` (``--item qid
        question_id``).
    model : str, optional
        The model column; selects the long layout (one row per item and model). Default:
        the long layout is used when a column is named ``model`` (any case).
    score : str, optional
        The score column (long and two-file layouts). Default: the column named score,
        correct, accuracy, acc or value, else the only numeric column left.
    models : sequence of str, optional
        Wide: the model columns (default: every other column holding only numbers,
        except columns named like an id and the cluster and sample columns). Long: which
        values of the model column to keep. Two files: names for the two models
        (default: the file names without extension).
    score_type : {"auto", "binary", "continuous"}
        Describes the answers. ``"auto"`` gives ``"binary"`` when every answer is 0 or 1,
        else ``"continuous"``; but an all-integer column that is at least 99% 0/1 with
        some other value (a stray 2) is an error. ``"binary"`` rejects anything but 0/1;
        ``"continuous"`` accepts any finite number.
    intersect : bool
        Compare on the items every model has at least one answer for, counting the
        dropped ones in :attr:`ItemScores.dropped` (an empty score is then no answer).
        Without it, a missing score is an error.
    cluster : str, optional
        The column giving each item's cluster (document, topic, session): labels are
        strings as written, one per item. Two files: it may be in one file or both.
    sample : str, optional
        The column telling apart several sampled answers to the same item by the same
        model (an epoch or repeat index). Rows with the same item and model and different
        sample values are answers to one question, reduced to their count, sum and sum
        of squares; questions may have unequal numbers of answers. Works in every layout
        (wide: one row per item and sample); two files: it may be in one file or both.
        Logs bring their own samples (inspect epochs, repeats).
    run : str, optional
        The column telling apart independent training runs (seeds) of one model, each
        scored on the same items: labels as written, like sample values. Each (model,
        run) pair becomes a system of its own, named ``"model@run"`` in
        :attr:`ItemScores.models` and described by :attr:`ItemScores.runs`; every check
        applies per system (every run must answer every item, or ``intersect`` drops the
        item for all). A model's runs are unrelated to another model's runs of the same
        label. Wide: one row per item and run, each model column scored per run (a
        column with no score at all for a run is no system); long: one row per item,
        model and run; two files: both files need the column. Not for harness logs.
    stratum, split : str, optional
        The column of each item's stratum (subject, task: the fixed parts a stratified
        analysis weighs) and split (the questions :func:`evalbars.select` chooses and
        confirms on): per-item labels, read and checked as ``cluster`` is, kept in
        :attr:`ItemScores.labels`. Logs: a field, as for ``cluster``.
    order : str, optional
        One wide or long table: the column of sequence numbers, Unix times or ISO 8601
        timestamps of each result, for :func:`evalbars.monitor` (:attr:`ItemScores.arrival`;
        without it, the order of the rows).
    input_format : str
        One of :data:`INPUT_FORMATS`: ``"auto"`` recognises logs by name and content and
        reads anything else as a table; ``"table"`` or a log format (a key of
        :data:`evalbars.io.logs.FORMATS`) forces one reading.
    metric : str, optional
        Logs: the per-question metric to compare (lm-eval ``exact_match`` or
        ``exact_match,flexible-extract``; inspect: the key of dict score values;
        promptfoo ``success``, ``score`` or a named score; OpenAI evals a key of the
        match data; HELM a statistic; TREC an ir_measures measure such as ``nDCG@10``;
        the other formats' choices are in docs/logs.md). The default of each format is
        printed in the report.
    eval_split : str, optional
        HELM: the split to read; by default ``test`` (as HELM reports), else the only one.
    scorer : str, optional
        inspect logs whose samples have several scorers: the one to compare.
    qrels : str or os.PathLike, optional
        TREC: the relevance judgements the run files are scored against.
    engine : {"auto", "memory", "duckdb", "spark"}
        Where the answers are read, checked and reduced (docs/scale.md): ``"memory"`` this
        reader; ``"duckdb"`` DuckDB in process (CSV, JSON Lines, Parquet, globs, URLs, a
        DuckDB relation, Arrow or polars table); ``"spark"`` Spark (files or a Spark
        DataFrame). Both read the long layout, with the same checks and numbers.
        ``"auto"``: memory, except DuckDB for a long table of 16 MiB or more, a glob or URL,
        and the engine a table lives in.
    spark : pyspark.sql.SparkSession or str, optional
        The session for ``engine="spark"``, or a master URL (``"local[2]"``).

    Logs map ``cluster`` to a field: ``"task"`` or ``"doc.KEY"`` (lm-eval),
    ``"metadata.KEY"`` (inspect, promptfoo) or ``"vars.KEY"`` (promptfoo).

    Returns
    -------
    ItemScores

    Raises
    ------
    EvalbarsError
        For anything wrong with the input, naming the file, lines or rows, columns and
        item ids: unknown columns or models, empty or duplicate ids, duplicate (item,
        model) rows (with a sample column: duplicate (item, model, sample) rows; with a
        run column: duplicate (item, model, run[, sample]) rows), items
        assigned to two clusters, empty cluster labels, non-numeric, non-finite or
        missing scores, a stray value in a 0/1 column, items that some model lacks,
        malformed files; for logs also unreadable or mismatched logs (two runs whose
        ``doc_hash`` differ for one item, logs of different tasks, corpus-level metrics,
        archives that decompress past the size caps).

    Notes
    -----
    Item ids, cluster labels and sample values are strings exactly as written ("007" and
    "7" differ, spaces are kept); integers from JSON, Parquet or a DataFrame become
    ``str(int)``. Scores may be numbers, numeric strings, booleans or true/false (as
    1/0); an empty cell or null is a missing score. In a DataFrame, NaN is pandas'
    missing value and counts as missing; in every other source a NaN or infinite score
    is an error. Answers are summed in a fixed order (by item, model and sample value),
    so the order of rows never changes a bit of the result.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from evalbars.io.ingest import load
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("qid,model_a,model_b\\nq2,1,1\\nq1,1,0\\nq3,0,0\\n")
    >>> data = load(path)
    >>> data.items, data.models, data.score_type
    (('q1', 'q2', 'q3'), ('model_a', 'model_b'), 'binary')
    >>> data.column("model_b")
    array([0., 1., 0.])
    >>> data.describe()  # doctest: +ELLIPSIS
    "wide csv .../scores.csv: item column 'qid', models 'model_a', 'model_b' (3 items, 0/1 scores)"

    Three answers to q1 (epochs 0 to 2) and one to q2, in two topics:

    >>> _ = path.write_text("id,topic,epoch,model,score\\nq1,t1,0,a,1\\nq1,t1,1,a,0\\n"
    ...                     "q2,t2,0,a,1\\nq1,t1,2,a,1\\n")
    >>> data = load(path, cluster="topic", sample="epoch")
    >>> data.scores[:, 0], data.counts[:, 0], data.sumsq[:, 0], data.clusters
    (array([0.66666667, 1.        ]), array([3, 1]), array([2., 1.]), ('t1', 't2'))
    >>> print(data.describe())  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    long csv ...: ..., sample column 'epoch', models 'a' (2 items, 0/1 scores,
    1 to 3 answers per question, 2.0 on average), clustered by 'topic' (2 clusters)

    A harness log is read the same way, its format recognised (here HELM, two trials of
    each instance):

    >>> data = load("tests/data/logs/helm/suite_v1")
    >>> data.models, data.items, data.counts[:, 0]
    (('eleutherai_pythia-1b', 'openai/gpt2'), ('id0', 'id1', 'id2', 'id3'), array([2, 2, 2, 2]))

    Two training runs (seeds 1 and 2) of recipe a, one of recipe b, on two items:

    >>> _ = path.write_text("id,model,seed,score\\nq1,a,1,1\\nq2,a,1,0\\nq1,a,2,1\\n"
    ...                     "q2,a,2,1\\nq1,b,7,0\\nq2,b,7,1\\n")
    >>> data = load(path, run="seed")
    >>> data.models, data.runs
    (('a@1', 'a@2', 'b@7'), (('a', '1'), ('a', '2'), ('b', '7')))
    >>> data.scores
    array([[1., 1., 0.],
           [0., 1., 1.]])
    """
    data, data2 = listed_inputs(data, data2)
    item = check_item(item, data2)
    models = check_arguments(None if item is None else item[0], model, score, models,
                              score_type, intersect, cluster, sample, run, stratum, split,
                              order)
    labels = {role: column for role, column in
              (("cluster", cluster), ("stratum", stratum), ("split", split))
              if column is not None}
    if item is not None and data2 is None:
        item = item[0]
    fmt = _log_format(data, data2, input_format, qrels)
    if fmt is None:  # checked before any engine reads the table, so none ignores them
        log_options = {"metric": metric, "eval_split": eval_split, "scorer": scorer,
                       "qrels": qrels}
        for param, value in log_options.items():
            if value is not None:
                raise EvalbarsError(
                    f"{param}= applies to harness logs, but {_shown(data)} is read as a "
                    f"table (by its extension); name its score column with score= (--score), "
                    f"or force a log format with input_format= (--input-format)")
    chosen = pick(data, data2, engine, spark, model, sample) if fmt is None else \
        for_logs(engine, fmt)
    if order is not None and (data2 is not None or fmt is not None or chosen != "memory"):
        raise EvalbarsError(
            f"order={short(order)} reads when results came in from one table read in memory "
            "(CSV, JSON Lines, Parquet or a DataFrame, wide or long): write the results as "
            "one table with a sequence or timestamp column")
    if chosen != "memory":
        return ItemScores(**reduce_with(
            chosen, data, data2, spark, item=item, model=model, score=score, models=models,
            score_type=score_type, intersect=intersect, labels=labels, sample=sample,
            run=run, memory=lambda: load(
                data, data2, item=item, model=model, score=score, models=models,
                score_type=score_type, intersect=intersect, cluster=cluster, sample=sample,
                run=run, stratum=stratum, split=split, input_format=input_format,
                engine="memory")))
    data = in_memory(data)
    if fmt is not None:
        columns = {"item": item, "model": model, "score": score, "sample": sample, "run": run}
        options = logs.Options(metric=metric, eval_split=eval_split, scorer=scorer, labels=labels,
                               qrels=None if qrels is None else os.fsdecode(os.fspath(qrels)))
        return read_logs(fmt, [d for d in (data, data2) if d is not None], columns, options,
                         models, score_type, intersect)
    if data2 is not None:
        if model is not None:
            raise EvalbarsError(
                "model= (--model) names the model column of the long layout, but two "
                "inputs hold one model each, named after their files: leave model= out "
                "(in Python, models=['a', 'b'] names them otherwise)")
        parts = two_files_layout(read(data), read(data2), item, score, models, labels, sample, run)
    else:
        table = read(data)
        label_cols = {role: resolve_column(table, column, role) for role, column in labels.items()}
        sample_col = resolve_column(table, sample, "sample") if sample is not None else None
        run_col = resolve_column(table, run, "run") if run is not None else None
        order_col = resolve_column(table, order, "order") if order is not None else None
        model_col = resolve_column(table, model, "model") if model is not None else \
            auto_model(table)
        check_model_column(table, model, model_col, item,
                            [*label_cols.values(), order_col], sample_col, run_col)
        if model_col is not None:
            parts = long_layout(table, item, model_col, score, models, label_cols, sample_col,
                          run_col, order_col)
        else:
            if score is not None:
                raise EvalbarsError(
                    f"score= names the score column of the long layout (one row per item "
                    f"and model), but {table.label} has no 'model' column: pass model= as "
                    f"well, or, for one column per model, choose them with models=")
            parts = wide_layout(table, item, models, label_cols, sample_col, run_col, order_col)
    return ItemScores(**aligned_fields(parts, score_type, intersect))


def _log_format(data: Any, data2: Any, input_format: str, qrels: Any) -> str | None:
    """The log format of the inputs, or None to read them as tables."""
    if input_format not in INPUT_FORMATS:
        raise EvalbarsError(f"input_format={input_format!r} is not one of "
                            f"{', '.join(map(repr, INPUT_FORMATS))}")
    if data is None:
        raise EvalbarsError("data must be a file path, a directory of logs or a pandas "
                            "DataFrame; got None")
    inputs = [d for d in (data, data2) if d is not None]
    if input_format == "table":
        return None
    paths = [d for d in inputs if isinstance(d, (str, os.PathLike)) and not is_dataframe(d)]
    if len(paths) < len(inputs):
        if input_format != "auto":
            raise EvalbarsError(f"input_format={input_format!r} reads log files; a DataFrame "
                                f"is a table")
        return None
    if input_format != "auto":
        return input_format
    if qrels is not None:
        return "trec"
    found = [logs.detect(os.fsdecode(os.fspath(d))) for d in inputs]
    if len(set(found)) > 1:
        kinds = [f"{_shown(d)} is {'a ' + f + ' log' if f else 'a table'}"
                 for d, f in zip(inputs, found)]
        raise EvalbarsError(f"{' but '.join(kinds)}; compare inputs of one format, or force "
                            f"one with input_format= (--input-format)")
    return found[0]


def _shown(data: Any) -> str:
    return repr(os.fsdecode(os.fspath(data))) if isinstance(data, (str, os.PathLike)) \
        else "the DataFrame"


__all__ = ["ItemScores", "load", "SCORE_TYPES", "ID_NAMES", "SCORE_NAMES"]
