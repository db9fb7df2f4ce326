"""The HTML report: one self-contained page from any report document.

:func:`render_html` turns a document (``result.to_dict()``, or a saved JSON file) into a
single HTML file that needs nothing else to be read: the styles are inline, the figures
are inline SVG (:mod:`evalbars.report.files.svg`, so the report needs neither matplotlib nor a
network), and there is no script at all. A Content-Security-Policy in the page forbids
scripts and every remote fetch, and every string from the document (model names, ids,
file names, the statement) is escaped, so a model called ``<script>alert(1)</script>``
shows as text.

The page lays out :func:`evalbars.report.files.sections.sections`, the layout the Markdown file
(:mod:`evalbars.report.files.markdown`) and the LaTeX table (:mod:`evalbars.report.files.latex`) read
too, so every format shows the same numbers. Like the text renderers, this is a pure
function of the document. :func:`compact_html` is the small table a notebook shows.

Examples
--------
>>> import evalbars
>>> doc = evalbars.compare("examples/lesson_pair.csv", n_resamples=2000).to_dict()
>>> page = render_html(doc)
>>> page.startswith("<!doctype html>") and "<script" not in page
True
"""
from __future__ import annotations

import html
import re

from ..escape import visible
from ..estimates import estimates
from ..labels import digits, interval_text, level, number_text, scalar
from .sections import Svg, Table, heading, sections

__all__ = ["compact_html", "render_html"]

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;
background:#fff;margin:0}
main{max-width:920px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid
#e3e6ec;padding-bottom:4px}
.meta{color:#5b6474;margin:0 0 16px;font-size:13px}
.statement{font-size:16px;background:#f5f7fb;border-left:4px solid #2f6fdd;padding:12px 16px;
margin:16px 0}
.verdict{font-weight:600;padding:10px 14px;border-radius:6px;margin:12px 0}
.pass{background:#e5f5ea}.fail{background:#fde8e8}.inconclusive{background:#fff4dc}
.warn{background:#fff8e6;border-left:4px solid #e0a100;padding:8px 14px;margin:8px 0}
table{border-collapse:collapse;margin:6px 0 10px;font-size:14px}
th,td{padding:4px 12px 4px 0;text-align:left;vertical-align:top}
th{border-bottom:1px solid #c9ced8;font-weight:600}
td{border-bottom:1px solid #eef0f4;font-variant-numeric:tabular-nums}
td.n{text-align:right}.kv td+td{word-break:break-all}
figure{margin:8px 0}figcaption{color:#5b6474;font-size:13px}svg{max-width:100%;height:auto}
footer{color:#5b6474;font-size:12px;margin-top:32px}
"""

_NUMBER = re.compile(r"^([+\u2212-]?[\d.,]+(e[+-]?\d+)?[%x]?|n/a|<1%|>99%)"
                     r"( to [+\u2212-]?[\d.,]+%?)?( \(.*\))?$")
"""Cells aligned to the right: numbers, percentages and intervals."""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""No scripts, no fonts, no fetches: nothing in the page can run or call out."""


def _html_block(block) -> str:
    esc = html.escape
    if isinstance(block, Svg):
        return f"<figure>{block.markup}<figcaption>{esc(block.caption)}</figcaption></figure>"
    if isinstance(block, Table):
        head = ("<tr>" + "".join(f"<th>{esc(cell)}</th>" for cell in block.header) + "</tr>"
                if block.header else "")
        body = "".join("<tr>" + "".join(
            ('<td class="n">' if _NUMBER.match(cell) else "<td>") + f"{esc(cell)}</td>"
            for cell in row) + "</tr>" for row in block.rows)
        style = "" if block.header else ' class="kv"'
        return f"<table{style}>{head}{body}</table>"
    return f"<p>{esc(str(block))}</p>"



def render_html(doc: dict) -> str:
    """The self-contained HTML report of any report document.

    Parameters
    ----------
    doc : dict
        A report document: ``result.to_dict()`` or a JSON file the CLI wrote.

    Returns
    -------
    str
        One HTML page with inline styles and inline SVG figures; no scripts, no remote
        resources, every document string escaped (control characters shown as escapes).
    """
    doc = visible(doc)
    esc = html.escape
    title, meta = heading(doc)
    parts = [f"<h1>{esc(title)}</h1>", f'<p class="meta">{esc(meta)}</p>' if meta else ""]
    if doc.get("kind") == "gate" and doc.get("message"):
        decision = doc.get("decision")
        css = decision if decision in ("pass", "fail", "inconclusive") else "inconclusive"
        parts.append(f'<p class="verdict {css}">{esc(scalar(doc["message"]))}</p>')
    statement = doc.get("statement") or (doc.get("comparison") or {}).get("statement")
    if statement:
        parts.append(f'<p class="statement">{esc(scalar(statement))}</p>')
    for warning in doc.get("warnings") or (doc.get("comparison") or {}).get("warnings") or []:
        parts.append(f'<p class="warn">Warning: {esc(scalar(warning))}</p>')
    for section in sections(doc):
        h2 = "" if section.title == "Figure" else f"<h2>{esc(section.title)}</h2>"
        parts.append(f"<section>{h2}{''.join(_html_block(b) for b in section.blocks)}"
                     "</section>")
    version = scalar((doc.get("provenance") or {}).get("version"))
    parts.append(f"<footer>Written by evalbars {esc(version)}: a pure rendering of the JSON "
                 "report document; the figures are inline SVG.</footer>")
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{esc(title)}</title><style>{_CSS}</style></head>\n<body><main>\n"
            + "\n".join(p for p in parts if p) + "\n</main></body></html>\n")


def compact_html(doc: dict) -> str:
    """A small HTML table for notebooks: each estimate with its default interval.

    Examples
    --------
    >>> doc = {"kind": "ci", "settings": {"confidence_level": 0.95}, "models": [
    ...     {"name": "<b>", "n": 10, "mean": 0.7, "intervals": [
    ...         {"method": "wilson", "low": 0.4, "high": 0.9}]}]}
    >>> "&lt;b&gt;" in compact_html(doc)
    True
    """
    doc = visible(doc)
    esc = html.escape
    target = doc.get("comparison") if doc.get("kind") == "gate" else doc
    d = digits(target or {})
    rows = [[row["quantity"], row["name"],
             number_text(target, row["estimate"], d, row["quantity"].endswith("difference")),
             interval_text(target, row["low"], row["high"], d,
                           row["quantity"].endswith("difference")),
             scalar(row["method"])] for row in estimates(doc) if row["default"]]
    table = Table(["", "name", "estimate", f"{level(target or {})} interval", "method"], rows)
    if not rows:  # no intervals (power, simulate, ...): the Result table, else the first
        tables = sorted(((s.title != "Result", i, b) for i, s in enumerate(sections(doc))
                         if s.title != "Figure" for b in s.blocks if isinstance(b, Table)),
                        key=lambda t: t[:2])
        table = tables[0][2] if tables else None
    statement = doc.get("statement") or (target or {}).get("statement") or ""
    body = _html_block(table) if table is not None else ""
    return (f"<div><strong>evalbars {esc(scalar(doc.get('kind')))}</strong>{body}"
            f"<p style=\"max-width:60em\">{esc(scalar(statement))}</p></div>")
