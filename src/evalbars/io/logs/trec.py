"""TREC run files scored against a qrels file, one query at a time.

A run file has one line per retrieved document, ``query_id Q0 doc_id rank score tag``
(fields after the tag are ignored, as trec_eval ignores them, and counted in the report);
a qrels file one line per judged document, ``query_id iteration doc_id relevance``
(a line that starts with ``#`` is a comment, skipped as trec_eval skips it). Each
run's per-query metric (``metric=``, default ``nDCG@10``: any measure
`ir_measures <https://ir-measur.es>`_ knows, such as ``RR`` (MRR), ``R@100``, ``AP``,
``P@5``) is computed by ir_measures (``pip install 'evalbars[trec]'``), which ranks by
the score column as trec_eval does (the rank column is not used).

- **model**: the run's tag (a file with several tags holds several runs); two runs with
  one tag are told apart by their file names (``run@bm25``);
- **item**: the query id. The items are the queries of the qrels file: a query that a
  run did not answer scores 0 (the rule of trec_eval's ``-c`` option), and the report
  counts those queries per run; queries of a run that the qrels do not judge are left out
  and counted.
"""
from __future__ import annotations

import os
import re
from typing import Any

from ...core.errors import EvalbarsError
from ..table import name_list
from ._answers import Answers, Options, Run, name_runs, reject

FORMAT = "trec"

DEFAULT_METRIC = "nDCG@10"


_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _integer(field: str) -> int:
    """An integer written in ASCII digits (``int`` would also take ``1_0`` and other
    scripts' digits)."""
    if not _INTEGER.fullmatch(field):
        raise ValueError(field)
    return int(field)


def _number(field: str) -> float:
    """A decimal number written in ASCII (``float`` would also take nan, inf and ``1_0``)."""
    if not _NUMBER.fullmatch(field):
        raise ValueError(field)
    return float(field)


def looks_like_run(head: bytes) -> bool:
    """True when the first line of ``head`` reads as a TREC run line."""
    for raw in head.splitlines():
        if raw.strip():
            fields = raw.split()
            if len(fields) < 6:
                return False
            try:
                int(fields[3]), float(fields[4])
            except ValueError:
                return False
            return True
    return False


def read(paths: list[str], options: Options) -> Answers:
    """Score TREC run files against ``options.qrels`` (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, trec
    >>> answers = trec.read(["tests/data/logs/trec/run_dense.txt"],
    ...                     Options(metric="RR", qrels="tests/data/logs/trec/qrels.txt"))
    >>> answers.items, answers.scores
    (['q1', 'q2', 'q3', 'q4'], [1.0, 1.0, 0.5, 1.0])
    """
    reject(FORMAT, options, ("qrels",))
    if options.qrels is None:
        raise EvalbarsError("a TREC run is scored against relevance judgements: give the "
                            "qrels file with qrels= (--qrels QRELS)")
    ir_measures = _ir_measures()
    name = options.metric or DEFAULT_METRIC
    try:
        measure = ir_measures.parse_measure(name)
    except (ValueError, NameError, SyntaxError, TypeError, AttributeError):
        raise EvalbarsError(f"metric={name!r} is not a measure ir_measures knows; examples: "
                            f"nDCG@10, RR, R@100, AP, P@5") from None
    qrels = _read_qrels(options.qrels)
    longer: dict[str, list[int]] = {path: [] for path in paths}
    runs = [(path, tag, docs) for path in paths
            for tag, docs in _read_run(path, longer[path]).items()]
    names = name_runs([Run(tag, (os.path.splitext(os.path.basename(path))[0],))
                       for path, tag, _ in runs])
    answers = Answers(FORMAT, list(paths), item_name="query", score_name=str(measure))
    answers.file(options.qrels, ("", ""))
    files = {path: answers.file(path, ("", "")) for path in dict.fromkeys(paths)}
    absent, unjudged = {}, {}
    for (path, tag, docs), model in zip(runs, names):
        judged = {q: d for q, (d, _) in docs.items() if q in qrels}
        values = {m.query_id: m.value for m in
                  ir_measures.iter_calc([measure], qrels, judged)} if judged else {}
        for query in sorted(qrels):
            if query not in docs:
                absent.setdefault(model, []).append(query)
                answers.add(query, model, 0.0, files[path], f"query {query!r} (absent: 0)")
            elif query in values:
                answers.add(query, model, float(values[query]), files[path],
                            f"query {query!r} (line {docs[query][1]})")
            else:
                answers.skip(model, query)
        extra = [q for q in docs if q not in qrels]
        if extra:
            unjudged[model] = extra
    _describe(answers, measure, options, absent, unjudged)
    for path, lines in longer.items():
        if lines:
            many = len(lines) > 1
            answers.notes.append(f"{len(lines)} line{'s' if many else ''} of {path!r} "
                                 f"(line{'s' if many else ''} {name_list(lines, 3)}) "
                                 f"{'have' if many else 'has'} fields after the run tag: "
                                 f"ignored, as trec_eval ignores them")
    return answers


def _ir_measures() -> Any:
    try:
        import ir_measures
    except ImportError:
        raise EvalbarsError("scoring TREC runs needs ir_measures: pip install "
                            "'evalbars[trec]'") from None
    return ir_measures


def _lines(path: str, width: int, what: str, comments: bool = False, extra: bool = False):
    """(line number, fields) of a whitespace-separated file with ``width`` fields a line
    (or more, with ``extra``); with ``comments``, lines starting with ``#`` are skipped."""
    try:
        with open(path, encoding="utf-8") as handle:
            for lineno, text in enumerate(handle, 1):
                if comments and text.startswith("#"):
                    continue
                fields = text.split()
                if not fields:
                    continue
                if len(fields) != width and not (extra and len(fields) > width):
                    raise EvalbarsError(f"line {lineno} of {path!r} has {len(fields)} fields; "
                                        f"a {what} line has {width}")
                yield lineno, fields
    except UnicodeDecodeError:
        raise EvalbarsError(f"{path!r} is not UTF-8 text") from None


def _read_qrels(path: str) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    first: dict[tuple[str, str], int] = {}
    for lineno, (query, _, doc, relevance) in _lines(
            path, 4, "qrels (query iteration doc relevance)", comments=True):
        try:
            grade = _integer(relevance)
        except ValueError:
            raise EvalbarsError(f"relevance {relevance!r} at line {lineno} of {path!r} is not "
                                f"an integer") from None
        if first.setdefault((query, doc), lineno) != lineno:
            raise EvalbarsError(f"document {doc!r} of query {query!r} is judged twice in "
                                f"{path!r}, at lines {first[(query, doc)]} and {lineno}")
        qrels.setdefault(query, {})[doc] = grade
    if not qrels:
        raise EvalbarsError(f"the qrels file {path!r} is empty")
    return qrels


_Run = dict[str, dict[str, tuple[dict[str, float], int]]]


def _read_run(path: str, extra: list[int]) -> _Run:
    """tag -> query -> ({doc: score}, line of the query's first document); the numbers of
    the lines with fields after the tag are appended to ``extra``."""
    runs: _Run = {}
    for lineno, fields in _lines(path, 6, "run (query Q0 doc rank score tag)", extra=True):
        query, _, doc, rank, score, tag = fields[:6]
        if len(fields) > 6:
            extra.append(lineno)
        try:
            value = _number(score)
            _integer(rank)
        except ValueError:
            raise EvalbarsError(f"line {lineno} of {path!r}: rank {rank!r} must be an integer "
                                f"and score {score!r} a number") from None
        docs, _ = runs.setdefault(tag, {}).setdefault(query, ({}, lineno))
        if doc in docs:
            raise EvalbarsError(f"document {doc!r} is retrieved twice for query {query!r} by "
                                f"run {tag!r} in {path!r} (again at line {lineno})")
        docs[doc] = value
    if not runs:
        raise EvalbarsError(f"the run file {path!r} is empty")
    return runs


def _describe(answers: Answers, measure: Any, options: Options, absent: dict,
              unjudged: dict) -> None:
    how = "" if options.metric else " (default)"
    answers.reading = (f"per-query {measure}{how} by ir_measures against qrels "
                       f"{options.qrels!r}; a query missing from a run scores 0 (trec_eval -c)")
    answers.settings = {"metric": str(measure), "qrels": options.qrels,
                        "missing_queries": "score 0 (trec_eval -c)",
                        "absent": {m: len(q) for m, q in absent.items()},
                        "unjudged": {m: len(q) for m, q in unjudged.items()}}
    for model, queries in absent.items():
        answers.notes.append(f"run {model!r} has no results for {len(queries)} judged "
                             f"quer{'ies' if len(queries) > 1 else 'y'} "
                             f"({name_list(queries, 5)}): scored 0")
    for model, queries in unjudged.items():
        answers.notes.append(f"run {model!r} answered {len(queries)} quer"
                             f"{'ies' if len(queries) > 1 else 'y'} the qrels do not judge "
                             f"({name_list(queries, 5)}): left out")
