"""lighteval per-sample details (``details_<task>_<date>.parquet``).

lighteval's ``EvaluationTracker.save`` writes one Parquet file per task under
``<output_dir>/details/<model_name>/<date>/``; the Hugging Face leaderboards publish the
same files in their ``details_<org>__<model>`` datasets. One row per question, in the
order of the task's documents, in one of three layouts (from ``DetailsLogger.Detail`` in
``src/lighteval/logging/info_loggers.py`` of huggingface/lighteval):

- up to v0.7: every column cast to text (``example``, ``full_prompt``, ``predictions``,
  ``gold``, ``metrics`` written as a Python dict such as ``"{'acc': 1.0}"``, ...);
- v0.8 to v0.10: the same columns typed, ``metrics`` a struct;
- v0.11 and later: ``doc`` (the question: ``query``, ``id``, ...), ``model_response`` and
  ``metric`` (a struct) columns.

- **model**: the folder path between ``details/`` and the date folder (lighteval's
  ``model_name``), else the date folder's parent with ``details_`` dropped and ``__``
  turned back into ``/`` (a leaderboard details dataset), else the file's folder;
- **item**: ``task/doc.id`` when every row has a distinct ``doc.id``, else ``task/row``
  (the row's position, lighteval's document order; lighteval's ``doc.id`` is that
  position too); the task is ``doc.task_name``, else the file name's. Two runs must
  agree on the question of each item (``example``, or ``doc.query``): a mismatch is an
  error;
- **score**: the metric named by ``metric=`` (default: the first in each task's
  metrics); null and NaN are unscored.
"""
from __future__ import annotations

import ast
import os
import re
from typing import Any

from ...core.errors import EvalbarsError
from ..files import MAX_PARQUET_BYTES
from ..table import name_list, short
from ._answers import Answers, Options, Run, label, name_runs, number, reject

FORMAT = "lighteval"

_NAME = re.compile(r"^details_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.:\-]+)\.parquet$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T[0-9.:\-]+$")


def is_details_file(name: str) -> bool:
    """True for a file name lighteval gives its details: ``details_<task>_<date>.parquet``."""
    return _NAME.match(name) is not None


def read(paths: list[str], options: Options) -> Answers:
    """Read lighteval details files, or folders of them (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, lighteval
    >>> answers = lighteval.read(["tests/data/logs/lighteval/v0.11/details"], Options())
    >>> sorted(set(answers.models)), answers.items[:2], answers.scores[:2]
    (['HuggingFaceTB/SmolLM2-135M', 'HuggingFaceTB/SmolLM2-360M'], ['gsm8k|5/0', 'gsm8k|5/1'], [1.0, 0.0])
    >>> answers.reading
    "task 'gsm8k|5': metric 'extractive_match' (default: the task's first)"
    """
    reject(FORMAT, options, ())
    files = [f for path in paths for f in _files(path)]
    runs = [_run(f) for f in files]
    keys = list(dict.fromkeys((model, date) for model, date, _ in runs))  # a run, many tasks
    named = dict(zip(keys, name_runs([Run(model, (date,)) for model, date in keys])))
    names = [named[model, date] for model, date, _ in runs]
    answers = Answers(FORMAT, list(paths), item_name="task/row", score_name="score")
    chosen: dict[str, str] = {}
    questions: dict[str, tuple[str, str]] = {}
    by_id: set[bool] = set()
    for path, name, (_, _, named_task) in zip(files, names, runs):
        rows = _rows(path)
        tasks = {row["task"] for row in rows}
        task = tasks.pop() if len(tasks) == 1 and None not in tasks else named_task
        metric = options.metric or chosen.get(task) or _first_metric(rows, path)
        chosen.setdefault(task, metric)
        ids = _ids(rows)
        by_id.add(ids is not None)
        index = answers.file(path, ("0-based row", "0-based rows"))
        for k, row in enumerate(rows):
            item = f"{task}/{ids[k] if ids is not None else k}"
            _same_question(questions, item, k, row["question"], path)
            score = _score(row["metrics"], metric, k, path)
            if score is None:
                answers.skip(name, item)
            else:
                answers.add(item, name, score, index, k)
    answers.item_name = {frozenset({True}): "task/doc.id", frozenset({False}): "task/row"}.get(
        frozenset(by_id), "task/doc.id or row")
    answers.score_name = next(iter(chosen.values())) if len(set(chosen.values())) == 1 \
        else "score"
    default = "" if options.metric else " (default: the task's first)"
    answers.reading = "; ".join(f"task {task!r}: metric {metric!r}{default}"
                                for task, metric in chosen.items())
    answers.settings = {"metric": dict(chosen)}
    return answers


def _files(path: str) -> list[str]:
    if not os.path.isdir(path):
        return [path]
    found = sorted(os.path.join(root, name) for root, _, names in os.walk(path)
                   for name in names if is_details_file(name))
    if not found:
        raise EvalbarsError(f"found no lighteval details_<task>_<date>.parquet under {path!r}")
    return found


def _run(path: str) -> tuple[str, str, str]:
    """(model, date, task) of a details file, from its path."""
    name = os.path.basename(path)
    found = _NAME.match(name)
    task, date = (found["task"], found["date"]) if found else (os.path.splitext(name)[0], "")
    folders = os.path.abspath(path).split(os.sep)[:-1]
    if folders and _DATE.match(folders[-1]):
        date = date or folders[-1]
        folders = folders[:-1]
        if "details" in folders:
            below = folders[len(folders) - folders[::-1].index("details"):]
            if below:
                return "/".join(below), date, task
        if folders:
            return folders[-1].removeprefix("details_").replace("__", "/"), date, task
    return (folders[-1] if folders else name), date, task


def _rows(path: str) -> list[dict]:
    """Each row's question (text), id and task (or None) and metrics, in file order."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise EvalbarsError(f"reading lighteval details ({path!r}) needs pyarrow: "
                            f"pip install 'evalbars[parquet]'") from None
    try:
        parquet = pq.ParquetFile(path)
        meta = parquet.metadata
        size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        if size > MAX_PARQUET_BYTES:
            raise EvalbarsError(f"{path!r} decodes to {size:,} bytes, more than "
                                f"{MAX_PARQUET_BYTES:,}; refusing to read it")
        schema = parquet.schema_arrow
        names = set(schema.names)
        if {"doc", "metric"} <= names:  # v0.11 and later
            fields = {f.name for f in schema.field("doc").type} \
                if pa.types.is_struct(schema.field("doc").type) else set()
            wanted = ["doc.query", *(f"doc.{key}" for key in ("id", "task_name")
                                     if key in fields), "metric"]
            table = parquet.read(columns=wanted).to_pylist()
            return [{"question": (row.get("doc") or {}).get("query"),
                     "id": (row.get("doc") or {}).get("id"),
                     "task": label((row.get("doc") or {}).get("task_name")),
                     "metrics": row.get("metric")} for row in table]
        if "metrics" in names:  # up to v0.10
            question = "example" if "example" in names else \
                "full_prompt" if "full_prompt" in names else None
            table = parquet.read(columns=["metrics"] + ([question] if question else [])).to_pylist()
            return [{"question": row.get(question), "id": None, "task": None,
                     "metrics": row["metrics"]} for row in table]
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise EvalbarsError(f"cannot read {path!r} as Parquet: {' '.join(str(exc).split())}") \
            from None
    raise EvalbarsError(f"{path!r} is not a lighteval details file: it has neither a "
                        f"\"metrics\" column (lighteval up to v0.10) nor \"doc\" and \"metric\" "
                        f"columns (v0.11 and later); it has {name_list(sorted(names))}")


def _metrics(value: Any, row: int, path: str) -> dict:
    """A row's metrics as a dict: a struct, or the text of a Python dict (up to v0.7)."""
    if isinstance(value, str):
        try:
            value = ast.literal_eval(_Literals().visit(ast.parse(value.strip(), mode="eval")))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            value = None
    if not isinstance(value, dict):
        raise EvalbarsError(f"the metrics at row {row} (0-based) of {path!r} are "
                            f"{short(value)}, not a dict of metric names and values")
    return value


class _Literals(ast.NodeTransformer):
    """Python's text of a metrics dict, made literal: ``nan`` and ``inf`` (``str`` of a
    float), and NumPy 2's ``np.float64(1.0)`` and ``np.True_`` (``str`` of a NumPy
    scalar), as numbers."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in ("nan", "inf"):
            return ast.copy_location(ast.Constant(float(node.id)), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        constants = {"True_": True, "False_": False, "nan": float("nan"), "inf": float("inf")}
        if isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy") and \
                node.attr in constants:
            return ast.copy_location(ast.Constant(constants[node.attr]), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id in ("np", "numpy") and len(node.args) == 1 and not node.keywords:
            return self.visit(node.args[0])
        return node


def _first_metric(rows: list[dict], path: str) -> str:
    if not rows:
        raise EvalbarsError(f"{path!r} has no rows")
    names = list(_metrics(rows[0]["metrics"], 0, path))
    if not names:
        raise EvalbarsError(f"the metrics at row 0 (0-based) of {path!r} are empty")
    return str(names[0])


def _ids(rows: list[dict]) -> list[str] | None:
    """The rows' ``doc.id`` when every row has a distinct one, else None (by position)."""
    ids = [label(row["id"]) for row in rows]
    if None in ids or len(set(ids)) < len(ids):
        return None
    return ids


def _same_question(seen: dict, item: str, row: int, question: Any, path: str) -> None:
    """Refuse two runs whose ``item`` asks different questions (``example`` or ``doc.query``)."""
    if question is None:
        return
    first = seen.setdefault(item, (str(question), path))
    if first[0] != str(question):
        raise EvalbarsError(f"{item!r} (row {row}, 0-based) asks another question in {path!r} "
                            f"({short(question)}) than in {first[1]!r} ({short(first[0])}): "
                            f"the runs did not score the same documents in the same order")


def _score(metrics: Any, metric: str, row: int, path: str) -> float | None:
    metrics = _metrics(metrics, row, path)
    if metric not in metrics:
        raise EvalbarsError(f"row {row} (0-based) of {path!r} has no metric {metric!r} "
                            f"(metric=); it has {name_list(sorted(map(str, metrics)))}")
    try:
        return number(metrics[metric])
    except ValueError:
        raise EvalbarsError(f"metric {metric!r} at row {row} (0-based) of {path!r} is "
                            f"{short(metrics[metric])}, not a number") from None
