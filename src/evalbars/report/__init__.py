"""Everything that reads a result document: pure functions of the JSON-able dict.

The statement (:mod:`~evalbars.report.statement`), number wording
(:mod:`~evalbars.report.format`, :mod:`~evalbars.report.labels`), the terminal and Markdown
reports (:mod:`evalbars.report.text`, one module per kind of document), the file reports
(:mod:`evalbars.report.files`: HTML, Markdown, LaTeX), matplotlib figures
(:mod:`~evalbars.report.plots`), the notebook conveniences every result inherits
(:mod:`~evalbars.report.notebook`) and the playground page.

It sits beneath the analyses, so that a result can render itself (``str()``, Jupyter) and
an analysis can write its statement into its document; it never imports them.

May import: :mod:`evalbars.core` and :mod:`evalbars.stats` (the power curves of a plan).
Never io, analyses, simulate or cli.
"""
