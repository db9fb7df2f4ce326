"""The simulation lab: fake experiments that show why the statistics matter.

Each function simulates many experiments (vectorized, seeded by name from ``seed``)
and returns a :class:`Simulation` whose rates carry their Monte Carlo error;
``to_dict()`` is the ``evalbars simulate NAME --format json`` document. Settings are
fractions: 0.008 is 0.8 points, 0.7 is 70%.

==================  ==================================================================
``fake_pair``       one results file of two models on the same questions
``aa``              two identical models: how often they look different
``power``           how often each test finds a real gap
``peeking``         the first p < alpha as results come in, and the monitor
``wrong_unit``      bootstrapping answers (or questions) instead of questions (clusters)
``winners_curse``   the best of many null candidates, then confirmed on fresh questions
``clustering``      naive against clustered intervals for clustered questions
``misaligned``      a paired analysis after one file was shuffled before the join
``coverage``        the calibration study: coverage of every interval, error of every test
==================  ==================================================================

Examples
--------
>>> from evalbars import simulate
>>> r = simulate.aa(n=500, disagreement=0.10, experiments=2000, seed=0)
>>> sorted(r.to_dict()["rates"])[:2]
['bars_do_not_overlap', 'gap_at_least_threshold']

May import: every layer but :mod:`evalbars.cli` (it scores fake data with the analyses'
own functions).
"""
from __future__ import annotations

from ._coverage import coverage
from ._pairs import disagreement_from_correlation
from ._result import FakePair, Rate, Simulation
from .paired import TESTS, aa, fake_pair, misaligned, power
from .peeking import peeking
from .selection import winners_curse
from .units import MODES, clustering, wrong_unit

SIMULATIONS = {
    "fake-pair": fake_pair,
    "aa": aa,
    "power": power,
    "peeking": peeking,
    "wrong-unit": wrong_unit,
    "winners-curse": winners_curse,
    "clustering": clustering,
    "misaligned": misaligned,
    "coverage": coverage,
}
"""Every simulation by its CLI name (``evalbars simulate NAME``)."""

__all__ = ["FakePair", "MODES", "Rate", "SIMULATIONS", "Simulation", "TESTS", "aa",
           "clustering", "coverage", "disagreement_from_correlation", "fake_pair", "misaligned",
           "peeking", "power", "winners_curse", "wrong_unit"]
