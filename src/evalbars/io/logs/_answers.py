"""The canonical long table a harness log is mapped to, and where each of its rows came from.

Every format reader fills one :class:`Answers`: one row per scored answer (item, model,
score and, where the format has them, per-item labels and samples), each with its place in the
files read (a line, a zip entry, an array index, a query). Answers that carry no score
(null, NaN, a missing scorer, an errored sample) are not rows: they are counted per model
with their ids in :attr:`Answers.unscored`, and the report says so. :meth:`Answers.table`
hands the rows to the one validation and alignment path every table goes through
(:func:`evalbars.io.log_answers.read_logs`), as a :class:`~evalbars.io.table.Table` whose error
messages name those places.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ...core.errors import EvalbarsError
from ..cells import plain_number_text
from ..labels import ROLES
from ..table import MAX_LISTED, Column, Table, name_list

LINE = ("line", "lines")
"""How rows of a line-based file are placed."""


@dataclass(frozen=True, slots=True)
class Options:
    """The reading options of :func:`evalbars.io.ingest.load` that apply to harness logs."""

    metric: str | None = None
    eval_split: str | None = None
    scorer: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    """The per-item labels to read, by role (cluster, stratum, split): each a field of
    the log as the format names it (``"task"``, ``"doc.KEY"``, ``"metadata.KEY"``)."""
    qrels: str | None = None


def reject(fmt: str, options: Options, allowed: Sequence[str], clusters: bool = False) -> None:
    """Raise when an option that ``fmt`` does not read was given.

    ``allowed`` names the options of :class:`Options` it reads besides ``metric`` (every
    format reads one, and refuses a metric its logs lack) and the per-item ``labels``;
    ``clusters`` says whether it reads labels (each format parses its own).
    """
    for name in _APPLIES:
        if getattr(options, name) is not None and name not in allowed:
            raise EvalbarsError(
                f"{name}= (--{name.replace('_', '-')}) does not apply to {fmt} logs; it "
                f"applies to "
                f"{_APPLIES[name]}")
    for role, spec in options.labels.items() if not clusters else ():
        raise EvalbarsError(
            f"{role}={spec!r}: {fmt} logs carry no {ROLES[role].one} label evalbars can read")


_APPLIES = {
    "eval_split": "HELM runs (train, valid, test)",
    "scorer": "inspect logs with several scorers",
    "qrels": "TREC run files",
}


def fixed_metric(options: Options, metrics: Sequence[str], harness: str, meaning: str) -> str:
    """The metric asked for among a harness's fixed ``metrics``; the first by default.

    ``meaning`` says in words what the default measures, for the message.

    >>> metrics = ("plus", "base")
    >>> fixed_metric(Options(), metrics, "EvalPlus", "base and extra tests")
    'plus'
    >>> fixed_metric(Options(metric="pass@1"), metrics, "EvalPlus", "base and extra tests")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: metric='pass@1' (--metric) is not an EvalPlus metric; \
choose 'plus' (base and extra tests, the default) or 'base'
    """
    metric = options.metric or metrics[0]
    if metric not in metrics:
        others = " or ".join(repr(m) for m in metrics[1:])
        raise EvalbarsError(f"metric={metric!r} (--metric) is not an {harness} metric; choose "
                            f"{metrics[0]!r} ({meaning}, the default) or {others}")
    return metric


def number(value: Any) -> float | None:
    """A score as a float, or None when the answer is unscored (null, NaN).

    Booleans are 1/0; numbers and numeric strings (held to the rule of table cells,
    :func:`~evalbars.io.cells.plain_number_text`) are taken as they are. Raises ValueError
    for anything else, including an infinity. A number beyond
    :data:`~evalbars.io.cells.MAX_ABS_SCORE` is refused later, by the checks every table's
    scores go through, naming its file and record.

    Examples
    --------
    >>> from evalbars.io.logs._answers import number
    >>> number(True), number(0.5), number(" 1 "), number(None), number(float("nan"))
    (1.0, 0.5, 1.0, None, None)
    >>> number("1_0")
    Traceback (most recent call last):
    ...
    ValueError: 1_0
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and not plain_number_text(value.strip()):
        raise ValueError(value)
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        try:
            result = float(value)
        except (ValueError, OverflowError):
            raise ValueError(value) from None
        if math.isnan(result):
            return None
        if math.isinf(result):
            raise ValueError(value)
        return result
    raise ValueError(value)


def json_safe(value: Any) -> Any:
    """``value`` (read from a log) as strict JSON: NaN and infinities become None.

    A log's settings are copied into the report's provenance; a log may hold anything,
    and the JSON report must stay valid.

    Examples
    --------
    >>> from evalbars.io.logs._answers import json_safe
    >>> json_safe({"a": [1.5, float("nan")], "b": (True, None)})
    {'a': [1.5, None], 'b': [True, None]}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)


def text(value: Any) -> str:
    """A value read from a log as text for names and messages: a string as it is, any
    other JSON value as compact JSON (so that lists and dicts can be compared and hashed).

    Examples
    --------
    >>> from evalbars.io.logs._answers import text
    >>> text("arith"), text(["a", 1]), text(None)
    ('arith', '["a", 1]', 'null')
    """
    if isinstance(value, str):
        return value
    return json.dumps(json_safe(value), sort_keys=True, ensure_ascii=False)


def field_path(spec: str, prefixes: Sequence[str]) -> tuple[str, str]:
    """Split a cluster specification such as ``metadata.topic`` into (prefix, key)."""
    prefix, dot, key = spec.partition(".")
    if not dot or prefix not in prefixes or not key:
        raise ValueError(spec)
    return prefix, key


def label(value: Any) -> str | None:
    """A cluster or id label: a string as written, an integer as ``str(int)``, else None."""
    if isinstance(value, str) and value != "":
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


@dataclass(frozen=True, slots=True)
class Run:
    """One model's answers in a log: its name and the labels that can tell it apart."""

    model: str
    labels: tuple[str, ...]  # e.g. a date, then a file name: used when two runs share a name


def name_runs(runs: Sequence[Run]) -> list[str]:
    """Model names, one per run: the run's model, or ``model@label`` when two runs share one.

    The first of each run's labels that tells every run of that model apart is used.

    Examples
    --------
    >>> from evalbars.io.logs._answers import Run, name_runs
    >>> name_runs([Run("gpt", ("2024-01-01", "a.json")), Run("gpt", ("2024-01-01", "b.json")),
    ...            Run("claude", ("2024-01-01", "c.json"))])
    ['gpt@a.json', 'gpt@b.json', 'claude']
    """
    names = [run.model for run in runs]
    for model in {m for m in names if names.count(m) > 1}:
        mine = [k for k, run in enumerate(runs) if run.model == model]
        depth = max(len(runs[k].labels) for k in mine)
        for level in range(depth):
            tags = [runs[k].labels[level] if level < len(runs[k].labels) else "" for k in mine]
            if "" not in tags and len(set(tags)) == len(tags):
                for k, tag in zip(mine, tags):
                    names[k] = f"{model}@{tag}"
                break
        else:
            raise EvalbarsError(
                f"{len(mine)} runs of model {model!r} cannot be told apart (the same log "
                f"given twice?); give each run once")
    return names


@dataclass(slots=True)
class Answers:
    """Rows of the canonical long table read from a harness log, with their places.

    Parameters
    ----------
    fmt : str
        The format name (``"lm-eval"``, ``"inspect"``, ...).
    paths : list of str
        The paths the user gave (files or folders), for messages and the report.
    item_name, score_name : str
        What the item ids and the scores are (``"task/filter/doc_id"``, ``"exact_match"``).
    label_names : dict of str to str
        The per-item labels read, by role (cluster, stratum, split): what each is.
    sample_name : str or None
        What the sample values are; None when there are none.

    Examples
    --------
    >>> from evalbars.io.logs._answers import Answers
    >>> answers = Answers("demo", ["run.jsonl"], item_name="id", score_name="acc")
    >>> f = answers.file("run.jsonl")
    >>> answers.add("q1", "m", 1.0, f, 3)
    >>> answers.skip("m", "q2")
    >>> answers.table().at([0]), answers.unscored_text()
    ("at line 3 of 'run.jsonl'", "1 unscored answer left out, never counted as 0: 'm' 1 (id 'q2')")
    """

    fmt: str
    paths: list[str]
    item_name: str
    score_name: str
    label_names: Mapping[str, str] = field(default_factory=dict)
    sample_name: str | None = None
    files: list[str] = field(default_factory=list)
    units: list[tuple[str, str]] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    file_of: list[int] = field(default_factory=list)
    keys: list[Any] = field(default_factory=list)
    labels: dict[str, list[str]] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)
    unscored: dict[str, list[str]] = field(default_factory=dict)
    reading: str = ""
    """One phrase saying what was chosen (metric, filter, scorer, rules), for the report."""
    settings: dict = field(default_factory=dict)
    """The same choices, JSON-safe, for the report's provenance."""
    notes: list[str] = field(default_factory=list)
    """Things the report must say (grouped benchmarks, queries scored 0, items left out)."""

    def file(self, path: str, unit: tuple[str, str] = LINE) -> int:
        """Register a file read, placed by ``unit`` (singular, plural); its index."""
        self.files.append(path)
        self.units.append(unit)
        return len(self.files) - 1

    def add(self, item: str, model: str, score: float, file: int, key: Any,
            labels: Mapping[str, str] | None = None, sample: str | None = None) -> None:
        """One scored answer, at ``key`` (a line number, entry name, ...) of file ``file``."""
        self.items.append(item)
        self.models.append(model)
        self.scores.append(score)
        self.file_of.append(file)
        self.keys.append(key)
        for role in self.label_names:
            self.labels.setdefault(role, []).append(labels[role])
        if self.sample_name is not None:
            self.samples.append(sample)

    def skip(self, model: str, item: str) -> None:
        """An answer of ``model`` to ``item`` that carries no score: counted, not a row."""
        self.unscored.setdefault(model, []).append(item)

    def unscored_text(self) -> str:
        """``"2 unscored answers left out: 'a' 2 (ids '3', '7')"``, or "" when none."""
        if not self.unscored:
            return ""
        total = sum(map(len, self.unscored.values()))
        per_model = "; ".join(
            f"{m!r} {len(ids)} (id{'s' if len(ids) > 1 else ''} "
            f"{name_list(list(dict.fromkeys(ids)), MAX_LISTED)})"
            for m, ids in self.unscored.items())
        return (f"{total} unscored answer{'s' if total > 1 else ''} left out, never counted "
                f"as 0: {per_model}")

    def label(self) -> str:
        """How messages name the input: ``"the lm-eval log 'out/'"``."""
        return f"the {self.fmt} log{'s' if len(self.paths) > 1 else ''} " + \
            " and ".join(repr(p) for p in self.paths)

    def names(self) -> dict[str, str | None]:
        """The table's column names by role: what the items, scores, ... are.

        Roles whose names would clash are named by the role itself.
        """
        names = {"item": self.item_name, "model": "model", "score": self.score_name,
                 **self.label_names, "sample": self.sample_name}
        given = [n for n in names.values() if n is not None]
        if len(set(given)) < len(given):
            names = {role: (None if name is None else role) for role, name in names.items()}
        return names

    def label_columns(self) -> dict[str, str]:
        """The table's per-item label columns, by role."""
        names = self.names()
        return {role: names[role] for role in self.label_names}

    def table(self) -> Table:
        """The rows as a :class:`~evalbars.io.table.Table` placed by file and key."""
        if not self.items:
            raise EvalbarsError(f"{self.label()} holds no scored answer"
                                + (f" ({self.unscored_text()})" if self.unscored else ""))
        names = self.names()
        columns = {names["item"]: Column("text", self.items),
                   names["model"]: Column("text", self.models),
                   names["score"]: Column("float", np.asarray(self.scores, dtype=np.float64))}
        for role in self.label_names:
            columns[names[role]] = Column("text", self.labels[role])
        if names["sample"] is not None:
            columns[names["sample"]] = Column("text", self.samples)
        return _LogTable(self, columns)


class _LogTable(Table):
    """A table of log rows whose places are (file, line / entry / index / query)."""

    from_log = True

    def __init__(self, answers: Answers, columns: dict[str, Column]) -> None:
        super().__init__(label=answers.label(), fmt=answers.fmt, path=None,
                         names=list(columns), n_rows=len(answers.items),
                         get=columns.__getitem__,
                         lines=np.arange(len(answers.items), dtype=np.int64))
        self._files = answers.files
        self._units = answers.units
        self._file_of = np.asarray(answers.file_of, dtype=np.int64)
        self._keys = answers.keys

    def where(self, rows: Sequence[int] | np.ndarray, limit: int = MAX_LISTED) -> str:
        """``"lines 3, 7 of 'a.jsonl' and entry 'samples/1_epoch_1.json' of 'b.eval'"``."""
        rows = np.sort(np.asarray(rows, dtype=np.int64))
        shown, parts = rows[:limit], []
        for f in dict.fromkeys(self._file_of[shown].tolist()):
            keys = [self._keys[r] for r in shown[self._file_of[shown] == f]]
            singular, plural = self._units[f]
            unit = plural if len(keys) > 1 else singular
            parts.append(f"{unit}{' ' if unit else ''}"
                         f"{', '.join(k if isinstance(k, str) else str(k) for k in keys)} "
                         f"of {self._files[f]!r}")
        more = f" and {rows.size - shown.size} more" if rows.size > shown.size else ""
        return " and ".join(parts) + more

    def at(self, rows: Sequence[int] | np.ndarray, limit: int = MAX_LISTED) -> str:
        """``"at " + where(rows)``."""
        return "at " + self.where(rows, limit)

