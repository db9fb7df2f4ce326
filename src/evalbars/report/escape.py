"""Document strings made safe to show: for a terminal, for Markdown.

Every string of a report document (model names, ids, file names) may come from the input.
:func:`visible` shows control characters as escapes, so a model named ``"\\x1b[2J"``
cannot clear the terminal; :func:`md_safe` does that and escapes HTML and link syntax
too, so a model named ``<script>`` or ``[x](javascript:...)`` shows as text.
"""
from __future__ import annotations

import html
import re

__all__ = ["md_safe", "visible"]

_CONTROL = re.compile("[\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029"
                      "\\u202a-\\u202e\\u2066-\\u2069]")
"""Characters that act instead of showing: C0 and C1 controls (ESC starts terminal
escape sequences, a newline starts a new Markdown block), line and paragraph separators,
and the bidirectional controls that can make text read in another order."""


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(value: object) -> object:
    r"""``value`` with every control character in its strings (and dict keys) shown as an
    escape.

    Examples
    --------
    >>> visible({"name": "a\x1b[2Jb", "n": [1, "x\ny"]})
    {'name': 'a\\x1b[2Jb', 'n': [1, 'x\\x0ay']}
    """
    if isinstance(value, str):
        return value if _CONTROL.search(value) is None else _CONTROL.sub(_escape, value)
    if isinstance(value, dict):  # keys too: some are model names ({"dropped": {name: n}})
        return {visible(key): visible(item) for key, item in value.items()}
    if isinstance(value, list):
        return [visible(item) for item in value]
    return value


def md_safe(value: object) -> object:
    r"""Every string of a document with &, <, >, [, ] and backticks neutralised for
    Markdown, bare URLs kept from becoming links (``http\://``, ``www\.``: GitHub's
    autolinks start only at a raw ``://`` or ``www.``), e-mail addresses and @mentions
    kept as text by an invisible zero-width space after the ``@`` (``&#8203;``: a
    backslash does not stop GitHub's e-mail links, and a mention would notify someone),
    and control characters (a newline would start a new block) shown as escapes.

    Examples
    --------
    >>> md_safe({"name": "<b>[x]\n"})
    {'name': '&lt;b&gt;\\[x\\]\\x0a'}
    >>> print(md_safe("`a` http://x.io www.y.com"))
    \`a\` http\://x.io www\.y.com
    >>> print(md_safe("a.b@example.com @octocat"))
    a.b@&#8203;example.com @&#8203;octocat
    """
    return _md_escaped(visible(value))


_PUNCT_BACKSLASH = re.compile(r"\\(?=[!-/:-@\[-`{-~])")
"""A backslash before ASCII punctuation, which Markdown would read as an escape."""
_MD_SPECIAL = re.compile(r"[\[\]`]|:(?=//)|(?<=www)\.", re.IGNORECASE)
"""What gets a backslash: link brackets, backticks (code spans), and the ``:`` of ``://``
and the ``.`` of ``www.`` (autolinks)."""
_AT = re.compile(r"@(?=\w)")
"""An ``@`` that starts a mention or the domain of an e-mail address."""


def _md_escaped(value: object) -> object:
    if isinstance(value, str):
        text = _PUNCT_BACKSLASH.sub(r"\\\\", html.escape(value, quote=False))
        return _AT.sub("@&#8203;", _MD_SPECIAL.sub(r"\\\g<0>", text))
    if isinstance(value, dict):
        return {_md_escaped(key): _md_escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_md_escaped(item) for item in value]
    return value
