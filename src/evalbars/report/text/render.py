"""Render any report document as the terminal report or Markdown, by its ``kind``.

Rounding happens in the renderers and only there; the document keeps full precision.
Every string of the document (model names, ids, file names) may come from the input, so
:func:`render` shows control characters as escapes (:func:`evalbars.report.escape.visible`:
a model named ``"\\x1b[2J"`` cannot clear the terminal) and, for Markdown, escapes HTML
and link syntax too (:func:`evalbars.report.escape.md_safe`).
"""
from __future__ import annotations

import importlib
from types import ModuleType

from ..escape import md_safe, visible
from .strata import with_strata

RENDERER_MODULES = {
    "ci": "scores", "compare": "scores", "leaderboard": "leaderboard",
    "bradley-terry": "leaderboard", "select": "select", "seeds": "seeds",
    "ablation": "ablation", "gate": "gate", "passk": "passk", "power": "power",
    "simulate": "simulate", "monitor": "monitor",
}
"""The module of :mod:`evalbars.report.text` that renders each document ``kind`` (with
``render_text`` and ``render_markdown``)."""


def known_kinds() -> frozenset[str]:
    """Every document ``kind`` evalbars renders.

    >>> {"ci", "compare", "leaderboard", "power"} <= known_kinds()
    True
    """
    return frozenset(RENDERER_MODULES)


def renderer(kind: str) -> ModuleType:
    """The module that renders documents of ``kind`` (ImportError for an unknown kind).

    >>> renderer("bradley-terry").__name__
    'evalbars.report.text.leaderboard'
    """
    if kind not in RENDERER_MODULES:
        raise ImportError(f"no renderer for documents of kind {kind!r}")
    return importlib.import_module("." + RENDERER_MODULES[kind], __package__)


def render(doc: dict, output_format: str) -> str:
    """Render any report document as ``"text"`` or ``"markdown"``.

    The document's strings are made safe first: control characters are shown as escapes,
    and for Markdown ``&``, ``<``, ``>``, ``[`` and ``]`` are escaped as well, so a model
    named ``<script>`` or ``[x](javascript:...)`` shows as text.
    """
    module = renderer(doc["kind"])
    if output_format == "markdown":
        safe = md_safe(doc)
        return with_strata(module.render_markdown(safe), safe, "markdown")
    safe = visible(doc)
    return with_strata(module.render_text(safe), safe, "text")
