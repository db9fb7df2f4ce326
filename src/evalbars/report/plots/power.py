"""The power figure: power against the number of questions, one curve per gap."""
from __future__ import annotations

from ...core.errors import EvalbarsError
from ..files.svg import COLORS
from ..labels import gap_label
from ..power_curves import power_curves
from .drawing import new_figure


def power(doc: dict, *, gaps=None):
    """Power against the number of questions, one curve per gap (log scale).

    Parameters
    ----------
    doc : dict
        A ``power`` document; its n is marked and its target power drawn dashed.
    gaps : sequence of float, optional
        See :func:`power_curves`.
    """
    if doc.get("kind") != "power":
        raise EvalbarsError(f"the power plot needs a power document; got kind "
                            f"{doc.get('kind')!r}")
    figure = new_figure(7.5, 4.2)
    ax = figure.add_subplot()
    for index, (g, ns, powers) in enumerate(power_curves(doc, gaps=gaps)):
        ax.plot(ns, powers, color=COLORS[index % len(COLORS)], lw=2, label=gap_label(doc, g),
                gid=f"power:{g!r}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.axhline(doc["power"], color="#1d2330", lw=1, ls="--")
    if doc.get("n"):
        ax.axvline(doc["n"], color=COLORS[3], lw=1, ls=":")
    ax.yaxis.set_major_formatter(lambda p, _: f"{p:.0%}")
    ax.xaxis.set_major_formatter(lambda n, _: f"{n:,.0f}")
    ax.grid(color="#e6e8ee")
    per = " per model" if doc["design"] == "unpaired" else ""
    ax.set_xlabel(f"questions{per} (log scale)")
    ax.set_ylabel(f"power (alpha {doc['alpha']:g}, two-sided)")
    ax.set_title(f"{doc['design']} design, {doc['method']} test", loc="left", fontsize=11)
    ax.legend(frameon=False)
    return figure
