"""The "Play with it" page: separate error bars against the paired interval, in a browser.

:func:`playground_html` returns one self-contained interactive HTML page (vanilla
JavaScript, no library, no network: its Content-Security-Policy forbids every fetch).
Sliders set the per-question correlation of two models, the true gap and the number of
questions; the page draws the two separate 95% intervals and the paired and unpaired
intervals of the gap on one scale, and a button runs 500 fake experiments in the
browser (a seeded generator) and shows how often the paired interval excludes zero, how
often the two bars do not overlap, and how often B looks ahead by 0.8 points or more.

The page's model is :mod:`evalbars.simulate`'s, line for line: model A's accuracy is
70%, the correlation becomes the disagreement rate by
:func:`evalbars.simulate.disagreement_from_correlation` (an impossible correlation is
moved to the nearest possible one, and the page says so), each experiment draws the four
cells (both right, A only, B only, neither) of n questions, and the three rates are
those of ``evalbars simulate power`` and ``evalbars simulate aa``: the paired-wald
interval, the two separate clt intervals, and ``b_only - a_only >= ceil(0.008 n)``.

Examples
--------
>>> page = playground_html(gap=0.0, n=500)
>>> page.startswith("<!doctype html>") and '"n": 500' in page
True
"""
from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

from ..core.errors import EvalbarsError
from ..core.version import __version__

TEMPLATE = "playground.html"
"""The page, shipped as package data."""

ACCURACY = 0.70
"""Model A's true accuracy in the page."""

SLIDERS = {"correlation": (0.0, 1.0, 0.05), "gap": (-0.05, 0.10, 0.005), "n": (100, 5000, 100)}
"""Each slider's (lowest, highest, step); the starting values must lie on these grids."""

SEED_MAX = 2**32 - 1
"""The largest seed the page's 32-bit generator takes (the page refuses a larger one)."""


def _check(name: str, value: object) -> float:
    low, high, step = SLIDERS[name]
    ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if ok:
        steps = (value - low) / step
        ok = low - 1e-12 <= value <= high + 1e-12 and abs(steps - round(steps)) < 1e-6
    if not ok:
        raise EvalbarsError(f"{name} must be between {low:g} and {high:g} in steps of "
                            f"{step:g} (the page's slider); got {value!r}")
    return value


def playground_html(*, correlation: float = 0.7, gap: float = 0.03, n: int = 1000,
                    seed: int = 1) -> str:
    """The playground page, opening at the given settings.

    Parameters
    ----------
    correlation : float
        Per-question correlation of the two models' 0/1 outcomes, 0 to 1 in steps of 0.05.
    gap : float
        True gap B - A as a fraction (0.03 = 3 points), -0.05 to 0.10 in steps of 0.005.
    n : int
        Questions, 100 to 5,000 in steps of 100.
    seed : int
        Seed of the first run of fake experiments (each press of the button uses the next),
        0 to 4,294,967,295. In the page, a seed that is not such a whole number is refused
        with a message, never replaced.

    Returns
    -------
    str
        The HTML page; every setting is checked, and only numbers enter the page.
    """
    from ..core.seeding import check_seed

    values = {"correlation": float(_check("correlation", correlation)),
              "gap": round(float(_check("gap", gap)), 6), "n": int(_check("n", n)),
              "seed": check_seed(seed)}
    if values["seed"] > SEED_MAX:
        raise EvalbarsError(f"seed must be at most {SEED_MAX:,} for the page's 32-bit "
                            f"generator; got {seed!r}")
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    return template.replace("__SETTINGS__", json.dumps(values)).replace(
        "__VERSION__", __version__)


def write_playground(path, **settings) -> Path:
    """Write :func:`playground_html` to ``path`` (UTF-8) and return the path."""
    path = Path(path)
    path.write_text(playground_html(**settings), encoding="utf-8")
    return path
