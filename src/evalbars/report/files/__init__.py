"""File reports: one self-contained HTML page, Markdown and LaTeX, from any document.

:mod:`~evalbars.report.files.sections` lays out what a file report shows, format-neutral;
:mod:`~evalbars.report.files.html`, :mod:`~evalbars.report.files.markdown` and
:mod:`~evalbars.report.files.latex` write it; :mod:`~evalbars.report.files.svg` and
:mod:`~evalbars.report.files.figure` draw its inline figures.

May import: :mod:`evalbars.core`, :mod:`evalbars.stats` and the rest of
:mod:`evalbars.report`.
"""
