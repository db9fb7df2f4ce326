"""evalbars: is that improvement real? Error bars and paired comparisons for eval scores.

>>> import evalbars
>>> result = evalbars.compare("examples/lesson_pair.csv", a="model_a", b="model_b")
>>> result.agreement.disagreements
21
"""
from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {
    "ci": ("api", "ci"),
    "compare": ("api", "compare"),
    "leaderboard": ("ranking", "leaderboard"),
    "select": ("winners_curse", "select"),
    "ablation": ("ablation_table", "ablation"),
    "seeds": ("training_runs", "seeds"),
    "passk": ("pass_at_k", "passk"),
    "gate": ("regression_gate", "gate"),
    "load": ("ingest", "load"),
    "ItemScores": ("ingest", "ItemScores"),
    "EvalbarsError": ("_errors", "EvalbarsError"),
}
__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    """Import the public API on first use, so ``evalbars --help`` stays fast."""
    if name not in _LAZY:
        raise AttributeError(f"module 'evalbars' has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(f".{module}", __name__), attribute)
    globals()[name] = value
    return value
