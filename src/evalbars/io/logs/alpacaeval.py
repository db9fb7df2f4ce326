"""AlpacaEval annotations (``annotations.json`` of ``alpaca_eval evaluate``).

The file is a JSON array, one record per instruction and pair of outputs:
``instruction``, ``output_1``, ``generator_1`` (the reference, such as
``gpt4_1106_preview``), ``output_2``, ``generator_2`` (the model evaluated),
``annotator`` and ``preference``: 1 when the judge preferred ``output_1``, 2 for
``output_2``, 1.5 (or 0, in older files) a draw, and a fraction between 1 and 2 for a
weighted annotator (``weighted_alpaca_eval_gpt4_turbo``, the AlpacaEval 2.0 default);
null when the judge gave no verdict (field names and rules from ``annotators/base.py``
and ``metrics/helpers.py`` of the tatsu-lab/alpaca_eval repository). Give files, or a
folder such as alpaca_eval's ``results/`` holding them.

As scores (``compare``, ``ci``), each record is an answer of ``generator_2``:

- **model**: ``generator_2``; **item**: the ``instruction``;
- **score**: ``metric="win_rate"`` (default): ``preference - 1``, the share of the battle
  won against the reference, whose mean is AlpacaEval's (weighted) win rate; or
  ``"discrete"``: 1, 0.5 or 0, the preference rounded as AlpacaEval's discrete win rate
  rounds it. A null preference is unscored, as AlpacaEval leaves it out. Every record
  must have the same reference and annotator, or the win rates would not be paired.

As battles (``leaderboard --battles``, :func:`battles_table`), each record is a battle of
``generator_1`` (``model_a``) and ``generator_2`` (``model_b``); the ``winner`` column is
``model_a`` (preference 1), ``model_b`` (2) or ``tie`` (1.5 or 0), and ``discrete``
rounds fractional preferences the same way (``--winner discrete``).
"""
from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.errors import EvalbarsError
from ..table import MAX_LISTED, Column, Table, short
from . import _json
from ._answers import Answers, Options, fixed_metric, label, reject, text

FORMAT = "alpacaeval"

FILE_NAME = "annotations.json"

METRICS = ("win_rate", "discrete")
"""The choices of ``metric=``; the first is the default."""

BATTLE_COLUMNS = ("model_a", "model_b", "winner", "discrete")
"""The columns of :func:`battles_table`."""


def is_log(obj: Any) -> bool:
    """True for a parsed annotations file: records with generators and a preference."""
    return isinstance(obj, list) and bool(obj) and isinstance(obj[0], dict) and \
        {"instruction", "generator_1", "generator_2", "preference"} <= obj[0].keys()


def read(paths: list[str], options: Options) -> Answers:
    """Read AlpacaEval annotations as win shares against the reference (see the module).

    Examples
    --------
    >>> from evalbars.io.logs import Options, alpacaeval
    >>> answers = alpacaeval.read(["tests/data/logs/alpacaeval/results"], Options())
    >>> sorted(set(answers.models)), [round(s, 4) for s in answers.scores[:3]]
    (['OpenHermes-2.5-Mistral-7B', 'Qwen-14B-Chat'], [0.0, 0.0145, 0.5])
    >>> answers.reading
    "win shares against 'gpt4_1106_preview' judged by 'weighted_alpaca_eval_gpt4_turbo', metric 'win_rate' (default: preference - 1)"
    """
    reject(FORMAT, options, ())
    metric = fixed_metric(options, METRICS, "AlpacaEval", "preference - 1")
    answers = Answers(FORMAT, list(paths), item_name="instruction", score_name=metric)
    firsts: dict[str, str] = {}
    for path, records in _documents(paths):
        index = answers.file(path, ("record", "records"))
        for k, record in enumerate(records):
            model, reference, judge, item = _fields(record, k, path)
            for what, value in (("reference (generator_1)", reference), ("annotator", judge)):
                seen = firsts.setdefault(what, value)
                if seen != value:
                    raise EvalbarsError(
                        f"record [{k}] of {path!r} has {what} {value!r}, another than "
                        f"{seen!r} of the records before it: win rates against different "
                        f"references or judges are not paired; read one at a time")
            share = _share(record.get("preference"), k, path)
            if share is None:
                answers.skip(model, item)
                continue
            if metric == "discrete":
                share = 0.5 if share == 0.5 else float(round(share))
            answers.add(item, model, share, index, f"[{k}]")
    answers.reading = (f"win shares against {firsts['reference (generator_1)']!r} "
                       f"judged by {firsts['annotator']!r}, metric {metric!r}" +
                       (" (default: preference - 1)" if options.metric is None else ""))
    answers.settings = {"metric": metric, "reference": firsts["reference (generator_1)"],
                        "annotator": firsts["annotator"]}
    return answers


def battles_table(data: Any) -> Table | None:
    """The records of AlpacaEval annotations as battles, or None when ``data`` is not a
    path to annotations (a file, or a folder holding ``annotations.json`` files).

    Examples
    --------
    >>> from evalbars.io.logs.alpacaeval import battles_table
    >>> table = battles_table("tests/data/logs/alpacaeval/results")
    >>> table.n_rows, table.column("discrete").values[:3], table.at([5])
    (16, ['model_a', 'model_a', 'tie'], "at record [5] of 'tests/data/logs/alpacaeval/results/OpenHermes-2.5-Mistral-7B/weighted_alpaca_eval_gpt4_turbo/annotations.json'")
    """
    if not isinstance(data, (str, os.PathLike)):
        return None
    path = os.fsdecode(os.fspath(data))
    if os.path.isdir(path):
        if not _found(path):
            return None
    elif not (os.path.isfile(path) and path.lower().endswith(".json")
              and is_log(_json.peek(path, keep=False))):
        return None
    rows: list[tuple[int, int, str, str, Any]] = []
    files = []
    for path_k, records in _documents([path]):
        files.append(path_k)
        for k, record in enumerate(records):
            model_b, model_a, _, _ = _fields(record, k, path_k)
            rows.append((len(files) - 1, k, model_a, model_b, record.get("preference")))
    return _BattlesTable(path, files, rows)


def _found(folder: str) -> list[str]:
    return sorted(os.path.join(root, FILE_NAME) for root, _, names in os.walk(folder)
                  if FILE_NAME in names)


def _documents(paths: Sequence[str]):
    """(file, records) of every annotations file given or found in a folder given."""
    for path in paths:
        files = _found(path) if os.path.isdir(path) else [path]
        if not files:
            raise EvalbarsError(f"found no AlpacaEval {FILE_NAME} under {path!r}")
        for file in files:
            records = _json.load(file)
            if not is_log(records):
                raise EvalbarsError(f"{file!r} is not AlpacaEval annotations (a list of records "
                                    f"with instruction, generator_1, generator_2 and "
                                    f"preference)")
            yield file, records


def _fields(record: Any, k: int, path: str) -> tuple[str, str, str, str]:
    """(generator_2, generator_1, annotator, instruction) of a record."""
    if not isinstance(record, dict):
        raise EvalbarsError(f"record [{k}] of {path!r} is not an object")
    values = []
    for key in ("generator_2", "generator_1", "annotator", "instruction"):
        value = label(record.get(key)) if key != "annotator" else \
            text(record.get(key, "unknown"))
        if value is None:
            raise EvalbarsError(f"record [{k}] of {path!r} has no {key} (a string): "
                                f"{short(record.get(key))}")
        values.append(value)
    if values[0] == values[1]:
        raise EvalbarsError(f"record [{k}] of {path!r} compares {values[0]!r} with itself "
                            f"(generator_1 and generator_2)")
    return values[0], values[1], values[2], values[3]


def _share(preference: Any, k: int, path: str) -> float | None:
    """The share of the battle won by generator_2: preference - 1 (0 is a draw, 0.5)."""
    if preference is None or (isinstance(preference, float) and math.isnan(preference)):
        return None
    if isinstance(preference, bool) or not isinstance(preference, (int, float)) or \
            not (preference == 0 or 1 <= preference <= 2):
        raise EvalbarsError(f"the preference of record [{k}] of {path!r} is "
                            f"{short(preference)}: AlpacaEval preferences are 1 (output_1), "
                            f"2 (output_2), a number between, 1.5 or 0 (a draw), or null")
    return 0.5 if preference == 0 else float(preference) - 1.0


class _BattlesTable(Table):
    """Battles read from annotations files; rows are placed by file and record."""

    def __init__(self, path: str, files: list[str], rows: list) -> None:
        self._files, self._rows = files, rows
        super().__init__(label=f"the AlpacaEval annotations {path!r}", fmt=FORMAT,
                         path=None if os.path.isdir(path) else path, names=BATTLE_COLUMNS,
                         n_rows=len(rows), get=self._column)

    def _column(self, name: str) -> Column:
        if name in ("model_a", "model_b"):
            return Column("object", [row[2 if name == "model_a" else 3] for row in self._rows])
        return Column("object", [self._winner(row, name == "discrete") for row in self._rows])

    def _winner(self, row: tuple, discrete: bool) -> str:
        place = f"record [{row[1]}] of {self._files[row[0]]!r}"
        share = _share(row[4], row[1], self._files[row[0]])
        if share is None:
            raise EvalbarsError(f"the preference of {place} is null (the judge gave no "
                                f"verdict): a battle needs an outcome; evalbars compare reads "
                                f"these annotations with such records unscored")
        if discrete:
            share = 0.5 if share == 0.5 else float(round(share))
        if share not in (0.0, 0.5, 1.0):
            raise EvalbarsError(f"the preference of {place} is {row[4]!r}, a fraction (a "
                                f"weighted annotator): a battle needs a winner; --winner "
                                f"discrete rounds it as AlpacaEval's discrete win rate does")
        return {0.0: "model_a", 0.5: "tie", 1.0: "model_b"}[share]

    def where(self, rows: Sequence[int] | np.ndarray, limit: int = MAX_LISTED) -> str:
        """``"records [3], [7] of 'a/annotations.json'"``: the places of ``rows``."""
        rows = np.sort(np.asarray(rows, dtype=np.int64))
        shown, parts = rows[:limit], []
        for f in dict.fromkeys(self._rows[r][0] for r in shown):
            keys = [f"[{self._rows[r][1]}]" for r in shown if self._rows[r][0] == f]
            parts.append(f"record{'s' if len(keys) > 1 else ''} {', '.join(keys)} of "
                         f"{self._files[f]!r}")
        more = f" and {rows.size - shown.size} more" if rows.size > shown.size else ""
        return " and ".join(parts) + more

    def at(self, rows: Sequence[int] | np.ndarray, limit: int = MAX_LISTED) -> str:
        """``"at " + where(rows)``."""
        return "at " + self.where(rows, limit)
