"""Renderers for ``kind: "gate"`` documents: the one-line verdict, then the evidence."""
from __future__ import annotations

from . import monitor, scores
from .strata import with_strata


def render_text(doc: dict) -> str:
    """The verdict line, then the full comparison (or, sequential, monitor) report."""
    if doc.get("sequential"):
        return doc["message"] + "\n\n" + monitor.render_text(doc["monitor"])
    comparison = doc["comparison"]
    return doc["message"] + "\n\n" + with_strata(scores.render_text(comparison), comparison,
                                                  "text")


def render_markdown(doc: dict) -> str:
    """A pull-request comment: the verdict in bold, then the comparison."""
    icon = {"pass": "\u2705", "fail": "\u274c", "inconclusive": "\u26a0\ufe0f"}[doc["decision"]]
    if doc.get("sequential"):
        return f"{icon} **{doc['message']}**\n\n" + monitor.render_markdown(doc["monitor"])
    comparison = doc["comparison"]
    return f"{icon} **{doc['message']}**\n\n" + with_strata(
        scores.render_markdown(comparison), comparison, "markdown")
