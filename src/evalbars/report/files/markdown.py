"""The Markdown report: the file ``evalbars report -o report.md`` writes.

:func:`render_markdown` starts with the kind's own Markdown report (the one
``--format markdown`` prints), then adds the sections of
:func:`evalbars.report.files.sections.sections` that it leaves out: clustering, sampled answers,
equivalence, any other key, and the provenance. Every string from the document is
escaped for Markdown (:func:`evalbars.report.escape.md_safe`).

Examples
--------
>>> render_markdown({"kind": "mystery", "statement": "odd <b>"}).split("\\n")[:5]
['### evalbars mystery', '', '', '', 'odd &lt;b&gt;']
"""
from __future__ import annotations

from ..escape import md_safe
from ..labels import scalar
from ..text.blocks import md_table
from ..text.render import renderer
from ..text.strata import with_strata
from .sections import Section, Svg, Table, heading, sections

__all__ = ["render_markdown"]


def _md_blocks(section: Section) -> list[str]:
    lines = ["", f"**{section.title}**", ""]
    for block in section.blocks:
        if isinstance(block, Table):
            header = block.header or ["", ""]
            lines += md_table(header, block.rows) + [""]
        elif not isinstance(block, Svg):
            lines += [str(block), ""]
    return lines


def render_markdown(doc: dict) -> str:
    """The Markdown twin of the HTML report, for a pull request or a wiki page.

    The kind's own Markdown (:func:`evalbars.report.text.scores.render`) comes first, followed by the
    sections it does not show (equivalence, clustering, samples, any other key, and the
    provenance). A kind without a Markdown renderer gets every section. Every string
    from the document is escaped (``<`` becomes ``&lt;``), so no HTML in a model name
    can reach a Markdown viewer. Figures are not included: use ``evalbars plot``.
    """
    safe = md_safe(doc)
    try:
        module = renderer(str(doc.get("kind")))
    except ImportError:
        module = None
    if module is not None:
        head, extra = with_strata(module.render_markdown(safe), safe, "markdown").rstrip(
            "\n").split("\n"), \
            [s for s in sections(safe) if not s.core]
    else:
        title, meta = heading(safe)
        head = [f"### {title}", "", meta, "", scalar(safe.get("statement", ""))]
        head += [f"> **Warning:** {w}" for w in safe.get("warnings") or []]
        extra = [s for s in sections(safe) if s.title != "Figure"]
    lines = list(head)
    for section in extra:
        lines += _md_blocks(section)
    return "\n".join(lines).rstrip("\n") + "\n"
