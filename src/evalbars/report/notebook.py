"""Notebook conveniences for every result object that has ``to_dict()``.

:class:`TextMixin` makes ``str(result)`` the text report (the CLI's ``--format text``)
and ``repr(result)`` one line (:func:`evalbars.report.summary.summary`); result dataclasses
pass ``repr=False`` so that the dataclass does not replace it with a dump of every field.
:class:`NotebookMixin`, a TextMixin, adds ``_repr_html_`` (Jupyter shows a result as a
compact table), ``to_frame()`` (a tidy pandas DataFrame) and ``plot()`` (a matplotlib
figure). Each is a pure function of ``to_dict()``, so a notebook shows exactly the numbers
of the JSON document. pandas and matplotlib stay optional: they are imported on first use,
and a missing one gives an :class:`~evalbars.EvalbarsError` naming the pip extra to install.
"""
from __future__ import annotations

from ..core.errors import EvalbarsError
from .estimates import estimates


def frame_rows(doc: dict) -> list[dict]:
    """The rows of :meth:`NotebookMixin.to_frame` for a report document.

    Documents with intervals give one row per (quantity, method), as
    :func:`evalbars.report.estimates.estimates`; a ``power`` document one row for its
    solution and one per grid row; a ``simulate`` document one row per rate; a ``monitor``
    document one row per look (``n``, ``id``, ``estimate``, ``low``, ``high``, ``e_value``).

    Examples
    --------
    >>> frame_rows({"kind": "simulate", "rates": {"aa": {"rate": 0.3, "mc_error": 0.01}}})
    [{'rate': 'aa', 'value': 0.3, 'mc_error': 0.01}]
    """
    kind = doc.get("kind")
    if kind == "power":
        keys = ("gap", "n", "power", "achieved_power", "exact_mcnemar_power", "n_clusters")
        solution = {"row": "solution", **{k: doc[k] for k in keys if k in doc}}
        return [solution] + [{"row": "grid", **row} for row in doc.get("grid") or []]
    if kind == "simulate":
        return [{"rate": name, "value": rate.get("rate", rate.get("mean")),
                 "mc_error": rate.get("mc_error")} for name, rate in doc["rates"].items()]
    if kind == "monitor":  # one row per look of the sequence
        path = doc["path"]
        return [dict(zip(path, values)) for values in zip(*path.values())]
    rows = estimates(doc)
    if not rows:
        raise EvalbarsError(f"to_frame() has no table for documents of kind {kind!r}")
    return rows


class TextMixin:
    """``str()`` is the text report, ``repr()`` one line: for a class with ``to_dict()``.

    Slotted, as :class:`NotebookMixin`. A dataclass inheriting it passes ``repr=False``.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, repr=False)
    ... class Plan(TextMixin):
    ...     def to_dict(self):
    ...         return {"kind": "power", "solved_for": "n", "n": 7842, "gap": 0.01,
    ...                 "power": 0.8, "alpha": 0.05, "design": "paired", "inputs": {}}
    >>> Plan()
    <Plan power: solved for n: n 7,842 (paired), gap 1 point, power 80%, alpha 0.05>
    """

    __slots__ = ()

    def __str__(self) -> str:
        from .text.render import render

        return render(self.to_dict(), "text")

    def __repr__(self) -> str:
        from .summary import summary

        try:
            text = summary(self.to_dict())
        except Exception:  # a repr must not raise, whatever state the object is in
            text = "(no document)"
        return f"<{type(self).__name__} {text}>"


class NotebookMixin(TextMixin):
    """``_repr_html_``, ``to_frame()`` and ``plot()`` for a class with ``to_dict()``.

    Slotted, so frozen slotted dataclasses stay slotted when they inherit it.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Doc(NotebookMixin):
    ...     def to_dict(self):
    ...         return {"kind": "ci", "settings": {"confidence_level": 0.95}, "models": [
    ...             {"name": "m", "n": 10, "mean": 0.7,
    ...              "intervals": [{"method": "wilson", "low": 0.397, "high": 0.892}]}]}
    >>> "<table>" in Doc()._repr_html_()
    True
    >>> frame = Doc().to_frame()
    >>> list(frame.columns[:6]), float(frame.loc[0, "high"])
    (['quantity', 'name', 'method', 'estimate', 'low', 'high'], 0.892)
    """

    __slots__ = ()

    def _repr_html_(self) -> str:
        from .files.html import compact_html

        return compact_html(self.to_dict())

    def to_frame(self):
        """The result as a tidy :class:`pandas.DataFrame` (see :func:`frame_rows`).

        Interval results give columns ``quantity``, ``name``, ``method``, ``estimate``,
        ``low``, ``high``, ``default`` and ``level`` (plus ``rank`` ... or ``k`` where the
        document has them), in full precision, as fractions.
        """
        try:
            import pandas
        except ImportError:
            raise EvalbarsError("to_frame() needs pandas, an optional extra: "
                                "pip install 'evalbars[pandas]'") from None
        return pandas.DataFrame(frame_rows(self.to_dict()))

    def plot(self, **options):
        """The result's natural figure (:func:`evalbars.report.plots.plot`); needs matplotlib.

        ``options`` go to the plot: ``method=`` for intervals, ``gaps=`` for power.
        """
        from .plots import plot

        return plot(self.to_dict(), **options)
