"""Pieces every terminal and Markdown report shares: tables, the lines under the title,
the closing Result, Warnings and footer.

Examples
--------
>>> print("\\n".join(table(["model", "mean"], [["a", "73.2"], ["bb", "75.8"]])))
  model  mean
  a      73.2
  bb     75.8
>>> md_table(["model"], [["a|b"]])
['| model |', '|---|', '| a\\\\|b |']
"""
from __future__ import annotations

import textwrap

from .. import format as fmt

__all__ = ["closing_lines", "footer", "markdown_closing", "md_table", "source_lines", "table",
           "wrapped"]


def table(header: list[str] | None, rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Columns aligned with spaces, for the terminal (``header`` None: no header row)."""
    everything = ([header] if header else []) + rows
    widths = [max(len(row[i]) for row in everything) for i in range(len(everything[0]))]
    return [indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
            for row in everything]


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table; a ``|`` in a cell is escaped."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    out = ["| " + " | ".join(cell(h) for h in header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return out


def wrapped(text: str, width: int, bullet: str = "") -> list[str]:
    """``text`` wrapped to ``width``, indented by two spaces (and hanging after a bullet).
    Lines break at spaces only, never inside a word: a model name such as
    ``meta-llama/Llama-3-8B`` stays whole even when it is longer than a line.

    >>> wrapped("one two three", 10, "- ")
    ['  - one', '    two', '    three']
    >>> wrapped("vs meta-llama/Llama-3.1-8B-Instruct", 16)
    ['  vs', '  meta-llama/Llama-3.1-8B-Instruct']
    """
    return textwrap.wrap(text, width, initial_indent="  " + bullet,
                         subsequent_indent="  " + " " * len(bullet),
                         break_on_hyphens=False, break_long_words=False)


def footer(doc: dict) -> str:
    """The seed, the resamples and the evalbars version of an analysis document."""
    settings = doc["settings"]
    return (f"seed {settings['seed']} \u00b7 {fmt.count(settings['n_resamples'])} resamples "
            f"\u00b7 evalbars {doc['provenance']['version']}")


def source_lines(doc: dict, dropped: str | None = None) -> list[str]:
    """The lines under a terminal report's title: what was read and, when ``dropped``
    names them, the ids ``--intersect`` dropped.

    >>> source_lines({"provenance": {"source": {"description": "wide csv x.csv"}},
    ...               "dropped": {"m": 3}}, dropped="items present for one model only")
    ['read: wide csv x.csv', '--intersect dropped items present for one model only: m 3']
    """
    lines = []
    description = doc["provenance"].get("source", {}).get("description")
    if description:
        lines.append(f"read: {description}")
    if dropped is not None and doc.get("dropped"):
        counts = ", ".join(f"{k} {fmt.count(v)}" for k, v in doc["dropped"].items())
        lines.append(f"--intersect dropped {dropped}: {counts}")
    return lines


def closing_lines(doc: dict, width: int) -> list[str]:
    """The end of a terminal report: the statement under Result, any warnings, the footer."""
    lines = ["", "Result"] + wrapped(doc["statement"], width)
    if doc["warnings"]:
        lines += ["", "Warnings"]
        for warning in doc["warnings"]:
            lines += wrapped(warning, width, "- ")
    return lines + ["", footer(doc)]


def markdown_closing(doc: dict) -> list[str]:
    """The end of a Markdown report: any warnings as quotes, then the footer."""
    lines = []
    if doc["warnings"]:
        lines += [""] + [f"> **Warning:** {w}" for w in doc["warnings"]]
    return lines + ["", f"<sub>{footer(doc)}</sub>"]
