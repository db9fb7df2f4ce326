"""The power figure: power against the number of questions, one curve per gap."""
from __future__ import annotations

from ...core.errors import EvalbarsError
from .. import format as fmt
from ..files.svg import COLORS, MARK
from ..labels import gap_label
from ..power_curves import power_curves
from .drawing import new_figure


def power(doc: dict, *, gaps=None):
    """Power against the number of questions, one curve per gap (log scale).

    Parameters
    ----------
    doc : dict
        A ``power`` document; its n is marked (dotted, grey, in the legend) and its
        target power drawn dashed.
    gaps : sequence of float, optional
        See :func:`power_curves`.
    """
    if doc.get("kind") != "power":
        raise EvalbarsError(f"the power plot needs a power document; got kind "
                            f"{doc.get('kind')!r}")
    figure = new_figure(7.5, 4.2)
    per = " per model" if doc["design"] == "unpaired" else ""
    ax = figure.add_subplot()
    for index, (g, ns, powers) in enumerate(power_curves(doc, gaps=gaps)):
        ax.plot(ns, powers, color=COLORS[index % len(COLORS)], lw=2, label=gap_label(doc, g),
                gid=f"power:{g!r}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.axhline(doc["power"], color="#1d2330", lw=1, ls="--",
               label=f"target power {fmt.level(doc['power'])}")
    if doc.get("n"):
        ax.axvline(doc["n"], color=MARK, lw=1.2, ls=":", gid="n",
                   label=f"n = {doc['n']:,.0f}{per}")
    ax.yaxis.set_major_formatter(lambda p, _: f"{p:.0%}")
    ax.xaxis.set_major_formatter(lambda n, _: f"{n:,.0f}")
    ax.grid(color="#e6e8ee")
    ax.set_xlabel(f"questions{per} (log scale)")
    sided = "two-sided" if doc.get("alternative", "two-sided") == "two-sided" else "one-sided"
    ax.set_ylabel(f"power (alpha {doc['alpha']:g}, {sided})")
    ax.set_title(f"{doc['design']} design, {doc['method']} test", loc="left", fontsize=11)
    ax.legend(frameon=False)
    return figure
