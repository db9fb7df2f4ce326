"""evalbars: is that improvement real? Error bars and paired comparisons for eval scores.

This module is the public API only. Each name is imported on first use, so
``import evalbars`` (and ``evalbars --help``) stays fast; ``dir(evalbars)`` lists them all.

>>> import evalbars
>>> result = evalbars.compare("examples/lesson_pair.csv", a="model_a", b="model_b")
>>> result.agreement.disagreements
21
"""
from __future__ import annotations

from .core.version import __version__

_LAZY = {
    "ci": ("analyses.compare", "ci"),
    "compare": ("analyses.compare", "compare"),
    "leaderboard": ("analyses.leaderboard", "leaderboard"),
    "select": ("analyses.select", "select"),
    "ablation": ("analyses.ablation", "ablation"),
    "seeds": ("analyses.seeds", "seeds"),
    "passk": ("analyses.passk", "passk"),
    "gate": ("analyses.gate", "gate"),
    "monitor": ("analyses.monitor", "monitor"),
    "load": ("io.ingest", "load"),
    "ItemScores": ("io.item_scores", "ItemScores"),
    "EvalbarsError": ("core.errors", "EvalbarsError"),
    "CIResult": ("analyses.results", "CIResult"),
    "CompareResult": ("analyses.results", "CompareResult"),
    "LeaderboardResult": ("analyses.leaderboard", "LeaderboardResult"),
    "SelectResult": ("analyses.select", "SelectResult"),
    "AblationResult": ("analyses.ablation", "AblationResult"),
    "SeedsResult": ("analyses.seeds", "SeedsResult"),
    "PassKResult": ("analyses.passk", "PassKResult"),
    "GateResult": ("analyses.gate", "GateResult"),
    "MonitorResult": ("analyses.monitor", "MonitorResult"),
    "PowerResult": ("analyses.power", "PowerResult"),
    "BradleyTerryResult": ("analyses.battles", "BradleyTerryResult"),
    "ItemLabels": ("io.labels", "ItemLabels"),
}
_MODULES = {"power": "analyses.power", "plots": "report.plots", "simulate": "simulate"}
__all__ = ["__version__", *_LAZY, *_MODULES]


def __getattr__(name: str):
    """Import the public API on first use, so ``evalbars --help`` stays fast."""
    import importlib

    if name in _MODULES:
        value = importlib.import_module(f".{_MODULES[name]}", __name__)
    elif name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(f".{module}", __name__), attribute)
    else:
        raise AttributeError(f"module 'evalbars' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
