"""The terminal report and Markdown, one module per kind of document.

:mod:`~evalbars.report.text.render` dispatches a document to the module of its kind;
:mod:`~evalbars.report.text.blocks` holds the pieces every report shares.

May import: :mod:`evalbars.core` and the rest of :mod:`evalbars.report`.
"""
