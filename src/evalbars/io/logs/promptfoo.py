"""promptfoo JSON output (``promptfoo eval --output results.json``).

The file holds ``results.results``, one entry per (test, prompt, provider) with
``testIdx``, ``promptIdx``, ``provider`` (``id`` and optional ``label``), ``success``,
``score``, ``namedScores`` and ``failureReason`` (0 none, 1 an assertion failed, 2 an
error), as promptfoo's ``EvaluateResult`` type defines them (field names from promptfoo's
``src/types/index.ts``, the ``OutputFile`` and ``EvaluateSummaryV3`` interfaces).

- **model**: the provider's ``label``, else its ``id``; when one provider ran several
  prompts, each prompt is its own model, ``"<provider> [prompt <promptIdx>]"``;
- **item**: the ``testIdx``. promptfoo numbers each repeat of a test (``--repeat``) as a
  new test, so entries of one provider and prompt whose test case (vars, description and
  assertions) is the same are one item, named by its first ``testIdx``; each repeat is a
  **sample** of it, averaged, never counted as another question;
- **score**: ``metric="success"`` (default: pass 1, fail 0), ``"score"`` (the graded
  score) or the name of a named score; an entry that ended in an error
  (``failureReason`` 2) carries no score and is left out, counted in the report;
- **cluster**: ``cluster="vars.KEY"`` (a test variable) or ``"metadata.KEY"``.

Files are paired by test index, so the tests of each index must be the same in every
file: where their ``vars`` or ``assert`` differ (two test suites, or one reordered) the
files are refused, naming the first index that differs, as lm-eval's ``doc_hash`` is
checked.
"""
from __future__ import annotations

import json
import os
from typing import Any

from ...core.errors import EvalbarsError
from ..labels import ROLES
from ..table import short
from . import _json
from ._answers import Answers, Options, Run, field_path, label, name_runs, number, reject, text

FORMAT = "promptfoo"

_ERROR = 2  # failureReason of an entry that errored (provider error, timeout)


def is_log(obj: Any) -> bool:
    """True for parsed promptfoo output: ``results.results`` entries with a ``testIdx``."""
    entries = _entries(obj)
    return bool(entries) and isinstance(entries[0], dict) and "testIdx" in entries[0]


def _entries(obj: Any) -> list | None:
    summary = obj.get("results") if isinstance(obj, dict) else None
    if isinstance(summary, dict):
        summary = summary.get("results")
    return summary if isinstance(summary, list) else None


def read(paths: list[str], options: Options) -> Answers:
    """Read promptfoo output files (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, promptfoo
    >>> answers = promptfoo.read(["tests/data/logs/promptfoo/results_b.json"], Options())
    >>> answers.items, answers.models, answers.scores
    (['0', '1', '2'], ['mini', 'mini', 'mini'], [0.0, 1.0, 1.0])
    """
    reject(FORMAT, options, (), clusters=True)
    fields = {}
    for role, spec in options.labels.items():
        try:
            fields[role] = field_path(spec, ("vars", "metadata"))
        except ValueError:
            raise EvalbarsError(f"{role}={spec!r}: promptfoo tests are {ROLES[role].grouped} "
                                f"by a test variable, 'vars.KEY', or 'metadata.KEY'") from None
    metric = options.metric or "success"
    files = [(path, _read_file(path)) for path in paths]
    columns = [(path, col, provider) for path, entries in files
               for col, provider in _columns(path, entries).items()]
    names = name_runs([Run(provider, (_stem(path), str(col))) for path, col, provider in columns])
    model_of = {(path, col): name for (path, col, _), name in zip(columns, names)}
    answers = Answers(FORMAT, list(paths), item_name="testIdx", score_name=metric,
                      label_names=options.labels, sample_name="repeat")
    repeated: set[str] = set()
    cases: dict[str, tuple[str, str]] = {}  # item -> (its vars and assert, the file)
    for path, entries in files:
        index = answers.file(path, ("", ""))
        first: dict[str, int] = {}  # test case -> its first testIdx
        count: dict[tuple, int] = {}  # (test, column) -> entries so far
        for k, entry in enumerate(entries):
            where = f"results[{k}]"
            test = _test_key(entry)
            item = str(first.setdefault(test, _test_index(entry, where, path)))
            _same_test(cases, item, entry, path)
            model = model_of[(path, entry.get("promptIdx", 0))]
            seen = count[(test, model)] = count.get((test, model), -1) + 1
            if seen:
                repeated.add(test)
            score = _score(entry, metric, where, path)
            if score is None:
                answers.skip(model, item)
                continue
            labels = {role: _label(role, entry, spec, where, path)
                      for role, spec in fields.items()}
            answers.add(item, model, score, index, where, labels=labels, sample=str(seen))
    how = "pass 1, fail 0" if metric == "success" else "chosen"
    answers.reading = f"score {metric!r} ({how}; errored entries unscored)"
    answers.settings = {"metric": metric}
    if repeated:
        many = len(repeated) > 1
        answers.notes.append(f"{len(repeated)} test{'s were' if many else ' was'} run more "
                             f"than once by a model (--repeat): the repeats are averaged per "
                             f"test")
    return answers


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _read_file(path: str) -> list:
    entries = _entries(_json.load(path))
    if entries is None or not entries:
        raise EvalbarsError(f"{path!r} is not promptfoo output with results (expected "
                            f"results.results, a list of per-test entries)")
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict) or "testIdx" not in entry:
            raise EvalbarsError(f"results[{k}] of {path!r} is not a promptfoo result (no "
                                f"testIdx)")
        prompt = entry.get("promptIdx", 0)
        if label(prompt) is None:
            raise EvalbarsError(f"promptIdx {short(prompt)} at results[{k}] of {path!r} is "
                                f"not an integer")
    return entries


def _provider(entry: dict) -> str:
    provider = entry.get("provider")
    if isinstance(provider, dict):
        provider = provider.get("label") or provider.get("id")
    return str(provider) if provider else "provider"


def _columns(path: str, entries: list) -> dict[Any, str]:
    """promptIdx -> model name for one file (the provider, and the prompt when needed)."""
    providers: dict[Any, str] = {}
    for entry in entries:
        providers.setdefault(entry.get("promptIdx", 0), _provider(entry))
    names = list(providers.values())
    return {col: (f"{p} [prompt {col}]" if names.count(p) > 1 else p)
            for col, p in providers.items()}


def _test_key(entry: dict) -> str:
    case = entry.get("testCase") if isinstance(entry.get("testCase"), dict) else {}
    fields = {"vars": case.get("vars", entry.get("vars")),
              "description": case.get("description"), "assert": case.get("assert")}
    if not any(v is not None for v in fields.values()):
        return f"testIdx {entry['testIdx']!r}"
    return json.dumps(fields, sort_keys=True, default=str)


def _same_test(cases: dict[str, tuple[str, str]], item: str, entry: dict, path: str) -> None:
    """Refuse a test whose vars and assertions differ from those of its index in an
    earlier file."""
    case = entry.get("testCase") if isinstance(entry.get("testCase"), dict) else {}
    fields = {"vars": case.get("vars", entry.get("vars")), "assert": case.get("assert")}
    if all(v is None for v in fields.values()):
        return
    mine = json.dumps(fields, sort_keys=True, default=str)
    theirs, other = cases.setdefault(item, (mine, path))
    if other != path and theirs != mine:
        first = json.loads(theirs)
        part = "vars" if text(first["vars"]) != text(fields["vars"]) else "assert"
        raise EvalbarsError(
            f"test {item} is not the same test in {other!r} and {path!r}: its {part} are "
            f"{short(first[part], 100)} in one and {short(fields[part], 100)} in the other; "
            f"promptfoo files are paired by test index, so compare runs of one test suite")


def _test_index(entry: dict, where: str, path: str) -> str:
    value = label(entry["testIdx"])
    if value is None:
        raise EvalbarsError(f"testIdx {short(entry['testIdx'])} at {where} of {path!r} is not "
                            f"an integer")
    return value


def _score(entry: dict, metric: str, where: str, path: str) -> float | None:
    if entry.get("failureReason") == _ERROR:
        return None
    if metric in ("success", "score"):
        value = entry.get(metric)
    else:
        named = entry.get("namedScores")
        value = named.get(metric) if isinstance(named, dict) else None
    try:
        return number(value)
    except ValueError:
        raise EvalbarsError(f"{metric!r} at {where} of {path!r} is {short(value)}, not a "
                            f"number") from None


def _label(role: str, entry: dict, spec: tuple[str, str], where: str, path: str) -> str:
    """The test's label of ``role``: a test variable or a metadata field."""
    kind, key = spec
    case = entry.get("testCase") if isinstance(entry.get("testCase"), dict) else {}
    holder = case.get(kind, entry.get(kind) if kind == "vars" else None)
    value = label(holder.get(key)) if isinstance(holder, dict) else None
    if value is None:
        raise EvalbarsError(f"{role}='{kind}.{key}': the test at {where} of {path!r} has no "
                            f"string or integer {kind} {key!r}")
    return value
