"""Read the logs that eval harnesses already write, as the canonical long table.

One module per format maps its log onto rows of (item, model, score, per-item labels such
as the cluster, sample),
each row placed in the files it came from (:class:`~evalbars.io.logs._answers.Answers`);
:func:`evalbars.io.ingest.load` then validates, reduces and aligns them exactly as it does a
CSV file. :func:`detect` tells the format from the path and the first bytes of a file;
``input_format`` overrides it.

==================  =====================================================================
format              what is read
==================  =====================================================================
``lm-eval``         lm-evaluation-harness ``--log_samples`` output (:mod:`.lmeval`)
``lmms-eval``       lmms-eval ``--log_samples`` output (:mod:`.lmms_eval`)
``inspect``         inspect_ai ``.eval`` and ``.json`` logs (:mod:`.inspectai`)
``promptfoo``       promptfoo ``--output results.json`` (:mod:`.promptfoo`)
``openai-evals``    OpenAI evals record files, JSON Lines (:mod:`.openai_evals`)
``helm``            HELM ``per_instance_stats.json`` (:mod:`.helm`)
``trec``            TREC run files with a qrels file (:mod:`.trec`)
``lighteval``       lighteval ``details_<task>_<date>.parquet`` (:mod:`.lighteval`)
``evalplus``        EvalPlus ``eval_results.json`` (:mod:`.evalplus`)
``swebench``        SWE-bench run reports and instance ``report.json`` (:mod:`.swebench`)
``alpacaeval``      AlpacaEval ``annotations.json`` (:mod:`.alpacaeval`)
==================  =====================================================================

May import: :mod:`evalbars.core` and :mod:`evalbars.io.table` (and :mod:`evalbars.io.files`
for its Parquet size cap, :mod:`evalbars.io.cells` for the rule of score text); the
harness modules import the shared ``_answers``, ``_json`` and ``_zip``, never this
package's ``__init__``.
"""
from __future__ import annotations

import importlib
import json
import os
from typing import Any, Callable

from ...core.errors import EvalbarsError
from ._answers import Answers, Options, json_safe

FORMATS: dict[str, str] = {
    "lm-eval": "lmeval",
    "lmms-eval": "lmms_eval",
    "inspect": "inspectai",
    "promptfoo": "promptfoo",
    "openai-evals": "openai_evals",
    "helm": "helm",
    "trec": "trec",
    "lighteval": "lighteval",
    "evalplus": "evalplus",
    "swebench": "swebench",
    "alpacaeval": "alpacaeval",
}
"""Format name -> the module of this package that reads it, imported only when that format
is read or looked for (a CSV file never imports a reader); the keys are also the choices of
``input_format`` besides auto and table."""

INPUT_FORMATS = ("auto", "table", *FORMATS)
"""Accepted values of ``input_format``: auto-detect, a table (by extension), or a log."""

_TABLE_SUFFIXES = (".csv", ".jsonl", ".ndjson", ".json-lines", ".parquet")
_SNIFF_BYTES = 1 << 16


def read(fmt: str, paths: list[str], options: Options) -> Answers:
    """Read ``paths`` (one or two) as logs of format ``fmt``: the rows of the long table.

    Raises an error naming the format when ``fmt`` is not one of :data:`FORMATS`, and the
    file when one cannot be read.

    Examples
    --------
    >>> from evalbars.io import logs
    >>> answers = logs.read("inspect", ["tests/data/logs/inspect/epochs_a.json"],
    ...                     logs.Options(labels={"cluster": "metadata.topic"}))
    >>> answers.labels["cluster"][:3], answers.unscored
    (['add', 'add', 'add'], {'openai/model-a': ['4', '5']})
    >>> logs.read("csv", ["examples/lesson_pair.csv"], logs.Options())
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: log format 'csv' is not one of 'lm-eval', \
'lmms-eval', 'inspect', 'promptfoo', 'openai-evals', 'helm', 'trec', 'lighteval', \
'evalplus', 'swebench', 'alpacaeval'
    """
    if fmt not in FORMATS:
        raise EvalbarsError(f"log format {fmt!r} is not one of {', '.join(map(repr, FORMATS))}")
    for path in paths:
        if not os.path.exists(path):
            raise EvalbarsError(f"no such file or folder: {path!r}")
    from . import _json

    reader: Callable[[list[str], Options], Answers] = importlib.import_module(
        f"{__name__}.{FORMATS[fmt]}").read
    try:
        answers = reader(paths, options)
        answers.settings = json_safe(answers.settings)
        return answers
    except OSError as exc:
        raise EvalbarsError(f"could not read {exc.filename!r}: {exc.strerror or exc}") from None
    finally:
        _json.forget()


def detect(path: str) -> str | None:
    """The log format of ``path``, or None when it is a table (or nothing evalbars knows).

    A folder is searched for lm-eval, lmms-eval, inspect, HELM, lighteval, SWE-bench
    instance or AlpacaEval logs; a file is recognised by its name (``.eval``,
    ``results_<date>.json``, ``per_instance_stats.json``, ``details_<task>_<date>.parquet``)
    or by the first record it holds.

    Examples
    --------
    >>> from evalbars.io.logs import detect
    >>> detect("tests/data/logs/inspect/epochs_a.json"), detect("examples/lesson_pair.csv")
    ('inspect', None)
    """
    try:
        return _detect(path)
    except OSError as exc:
        raise EvalbarsError(f"could not read {exc.filename or path!r}: "
                            f"{exc.strerror or exc}") from None


def _detect(path: str) -> str | None:
    if os.path.isdir(path):
        return _detect_folder(path)
    name = os.path.basename(path).lower()
    suffix = os.path.splitext(name)[1]
    if suffix == ".csv":  # no harness names its log so: a table, read without the readers
        return None
    from . import helm, inspectai, lighteval, lmeval, lmms_eval, openai_evals, trec

    if suffix == ".eval":
        return inspectai.FORMAT
    if lighteval.is_details_file(os.path.basename(path)):
        return lighteval.FORMAT
    if lmms_eval.is_log(os.path.basename(path)):
        return lmms_eval.FORMAT
    if lmeval.is_log(path):
        return lmeval.FORMAT
    if name == helm.FILE_NAME:
        return helm.FORMAT
    if not os.path.isfile(path):
        return None
    if suffix == ".json":
        return _detect_json(path)
    if suffix in (".jsonl", ".ndjson", ".json-lines"):
        return _detect_record(_first_record(path))
    if suffix == ".log" and openai_evals.is_record(_first_record(path)):
        return openai_evals.FORMAT  # oaieval --record_path run.log
    if suffix not in _TABLE_SUFFIXES and trec.looks_like_run(_head(path)):
        return trec.FORMAT
    return None


def _detect_folder(path: str) -> str | None:
    from . import alpacaeval, helm, inspectai, lighteval, lmeval, lmms_eval, swebench

    found = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if lmms_eval.is_log(name):
                found.append(lmms_eval.FORMAT)
            elif lmeval.is_log(os.path.join(root, name), search=True):
                found.append(lmeval.FORMAT)
            elif name.endswith(".eval"):
                found.append(inspectai.FORMAT)
            elif name == helm.FILE_NAME:
                found.append(helm.FORMAT)
            elif lighteval.is_details_file(name):
                found.append(lighteval.FORMAT)
            elif name == swebench.INSTANCE_FILE and b'"patch_exists"' in _head(
                    os.path.join(root, name), 4096):
                found.append(swebench.FORMAT)
            elif name == alpacaeval.FILE_NAME and b'"generator_1"' in _head(
                    os.path.join(root, name), 4096):
                found.append(alpacaeval.FORMAT)
            elif name.endswith(".json") and inspectai.looks_like_log(
                    _head(os.path.join(root, name), 4096)):
                found.append(inspectai.FORMAT)
    kinds = list(dict.fromkeys(found))
    if len(kinds) > 1:
        raise EvalbarsError(f"the folder {path!r} holds logs of several formats "
                            f"({', '.join(kinds)}); give the files of one")
    return kinds[0] if kinds else None


def _head(path: str, size: int = _SNIFF_BYTES) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(size)


def _first_record(path: str) -> Any:
    """The first non-blank line of a JSON Lines file, parsed (None if it is not JSON)."""
    with open(path, "rb") as handle:
        for raw in handle:
            if raw.strip():
                try:
                    return json.loads(raw)
                except (ValueError, RecursionError):  # not JSON, or nested too deeply
                    return None
    return None


def _detect_record(record: Any) -> str | None:
    from . import lmeval, openai_evals

    if lmeval.is_record(record):
        return lmeval.FORMAT
    if openai_evals.is_record(record):
        return openai_evals.FORMAT
    return None


def _detect_json(path: str) -> str | None:
    """The format of a whole-file JSON document, by its shape."""
    from . import _json, alpacaeval, evalplus, helm, inspectai, lmeval, promptfoo, swebench

    obj = _json.peek(path, partial=True)  # an outline of a document too large to parse
    for fmt, test in ((inspectai.FORMAT, inspectai.is_log), (promptfoo.FORMAT, promptfoo.is_log),
                      (lmeval.FORMAT, lmeval.is_results), (helm.FORMAT, helm.is_log),
                      (evalplus.FORMAT, evalplus.is_log), (swebench.FORMAT, swebench.is_report),
                      (swebench.FORMAT, swebench.is_instance_report),
                      (alpacaeval.FORMAT, alpacaeval.is_log)):
        if test(obj):
            return fmt
    if isinstance(obj, list) and obj and lmeval.is_record(obj[0]):
        return lmeval.FORMAT
    _json.forget()
    return None


__all__ = ["FORMATS", "INPUT_FORMATS", "Answers", "Options", "detect", "read"]
