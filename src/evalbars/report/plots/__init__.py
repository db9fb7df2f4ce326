"""Figures with matplotlib (an optional extra: ``pip install 'evalbars[plot]'``).

Every function takes a report document (``result.to_dict()`` or a saved JSON file) and
returns a :class:`matplotlib.figure.Figure`, built without pyplot (no global state, no
window): save it with :func:`save` or ``figure.savefig``; a notebook shows it as is.

- :func:`forest`: each model's score with its interval (``ci``, ``compare``,
  ``leaderboard``, ``passk`` documents);
- :func:`gap`: the separate-vs-paired figure, the two separate intervals beside the
  narrower paired interval of the gap, on one scale (``compare`` and ``gate``);
- :func:`leaderboard`: scores in rank order beside each model's rank interval;
- :func:`power`: power against the number of questions for a few gaps (``power``);
- :func:`ablation` and :func:`seeds`: the figures of ``ablation`` and ``seeds`` documents;
- :func:`monitor`: the always-valid sequence of the gap, look by look (``monitor``);
- :func:`plot`: the natural figure of any of those documents.

Scores of 0/1 data are drawn in percent and gaps in points; every axis states the
confidence level and the interval method. The intervals are drawn as lines whose
``gid`` is ``"interval:<label>"`` (the row's label: the model's name, or "<name>
pass@<k>") and whose x data are the interval's ends, so tests
(and you) can read the plotted numbers back. matplotlib is imported only when a figure
is drawn; :func:`power_curves` (:mod:`evalbars.report.power_curves`) needs only numpy and scipy.

May import: :mod:`evalbars.core`, :mod:`evalbars.stats` and the rest of
:mod:`evalbars.report`.
"""
from __future__ import annotations

from ...core.errors import EvalbarsError
from ..power_curves import power_curves
from .ablation import ablation
from .drawing import FORMATS, save
from .monitor import monitor
from .power import power
from .scores import forest, gap, leaderboard
from .seeds import seeds

__all__ = ["ablation", "forest", "gap", "leaderboard", "monitor", "plot", "power", "power_curves",
           "save", "seeds", "FORMATS"]

_NATURAL = {"ci": forest, "compare": gap, "gate": gap, "leaderboard": leaderboard,
            "passk": forest, "bradley-terry": forest, "power": power, "ablation": ablation,
            "seeds": seeds, "monitor": monitor}


def plot(doc: dict, **options):
    """The natural figure of a document: forest, gap, leaderboard or power.

    ``options`` go to that function (``method=`` for intervals, ``gaps=`` for power).
    """
    kind = doc.get("kind")
    if kind not in _NATURAL:
        raise EvalbarsError(f"no plot for documents of kind {kind!r}; plots exist for "
                            f"{sorted(_NATURAL)}")
    return _NATURAL[kind](doc, **options)
