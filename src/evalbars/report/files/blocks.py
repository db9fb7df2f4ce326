"""The blocks a file report is made of: sections of paragraphs, tables and figures.

:mod:`evalbars.report.files.sections` builds them from a document; the HTML, Markdown and
LaTeX renderers lay them out. :func:`generic_blocks` shows any JSON value, for the keys
and kinds no builder knows.

>>> generic_blocks({"a": 1, "b": {"c": 0.5}})
[Table(header=None, rows=[['a', '1'], ['b.c', '0.5']])]
"""
from __future__ import annotations

from dataclasses import dataclass

from ..labels import scalar

__all__ = ["Section", "Svg", "Table", "flat", "generic_blocks"]


@dataclass(frozen=True)
class Table:
    """Plain-text cells; every renderer escapes them for its own format."""

    header: list[str] | None
    rows: list[list[str]]


@dataclass(frozen=True)
class Section:
    """A titled part of a report: paragraphs (str), :class:`Table` s and SVG figures.

    ``core`` is True when the kind's own text and Markdown renderer already shows it.
    """

    title: str
    blocks: tuple
    core: bool = True


@dataclass(frozen=True)
class Svg:
    """An inline SVG figure, built with every text escaped, and its caption."""

    markup: str
    caption: str


def flat(value: dict, prefix: str = "") -> dict:
    """A nested dict as one level with dotted keys."""
    out = {}
    for key, item in value.items():
        if isinstance(item, dict) and item:
            out.update(flat(item, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = item
    return out


def generic_blocks(value: object) -> list:
    """Blocks showing any JSON value: a key/value table, a table of rows, or a line."""
    if isinstance(value, dict):
        return [Table(None, [[key, scalar(item)] for key, item in flat(value).items()])]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        rows = [flat(v) for v in value]
        header = list(dict.fromkeys(key for row in rows for key in row))
        return [Table(header, [[scalar(row.get(key)) for key in header] for row in rows])]
    return [scalar(value)]
