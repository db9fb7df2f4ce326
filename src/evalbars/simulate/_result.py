"""The simulation result, its rates with Monte Carlo errors, and the experiment runner."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..core.document import SCHEMA_VERSION, json_safe
from ..core.errors import EvalbarsError
from ..core.progress import Progress
from ..core.seeding import child_seed
from ..core.version import __version__
from ..report.notebook import TextMixin
from ..stats.resample import BLOCK, run_blocks


@dataclass(frozen=True, slots=True)
class Rate:
    """A share of experiments (``average=False``) or an average over them, with its
    Monte Carlo error (the standard error of ``value`` from the finite number of
    experiments; 0 for a number that involves no simulation)."""

    name: str
    value: float
    mc_error: float
    average: bool = False

    def to_dict(self) -> dict:
        return {"mean" if self.average else "rate": self.value, "mc_error": self.mc_error}


def share(name: str, hits: np.ndarray) -> Rate:
    """The share of experiments where ``hits`` is true, with error sqrt(p (1 - p) / E)."""
    p = float(np.mean(hits))
    return Rate(name, p, math.sqrt(p * (1.0 - p) / hits.size))


def average(name: str, values: np.ndarray) -> Rate:
    """The mean of ``values`` over experiments, with error sd / sqrt(E) (0 for one)."""
    error = float(np.std(values, ddof=1) / math.sqrt(values.size)) if values.size > 1 else 0.0
    return Rate(name, float(np.mean(values)), error, average=True)


def exact(name: str, value: float) -> Rate:
    """A number computed once from the data, not simulated: Monte Carlo error 0."""
    return Rate(name, float(value), 0.0, average=True)


@dataclass(frozen=True, slots=True, repr=False)
class Simulation(TextMixin):
    """What one simulation found: every rate with its Monte Carlo error.

    ``settings`` records every parameter (fractions, as given or derived), so the
    document says how it was made; ``seed`` is the user's seed, from which every
    random stream was derived by name. ``cells`` holds 2x2 counts where the
    simulation has a single dataset (``fake-pair``, ``misaligned``).
    ``to_dict()`` is the report document of kind ``"simulate"``.
    """

    name: str
    settings: dict
    experiments: int
    seed: int
    rates: tuple[Rate, ...]
    cells: dict | None = None

    def rate(self, name: str) -> Rate:
        """The :class:`Rate` called ``name``."""
        for rate in self.rates:
            if rate.name == name:
                return rate
        raise KeyError(f"no rate {name!r}; have {[r.name for r in self.rates]}")

    def to_dict(self) -> dict:
        out = {
            "schema_version": SCHEMA_VERSION,
            "kind": "simulate",
            "name": self.name,
            "settings": dict(self.settings),
            "experiments": self.experiments,
            "seed": self.seed,
            "rates": {rate.name: rate.to_dict() for rate in self.rates},
        }
        if self.cells is not None:
            out["cells"] = dict(self.cells)
        out["provenance"] = {"version": __version__, "seed": self.seed}
        return json_safe(out)


@dataclass(frozen=True, slots=True, repr=False)
class FakePair(Simulation):
    """One simulated results file: ``a`` and ``b`` are the 0/1 outcomes of the two
    models on questions ``items`` (kept out of ``to_dict`` and repr)."""

    items: tuple[str, ...] = field(default=(), repr=False, compare=False)
    a: np.ndarray = field(default=None, repr=False, compare=False)
    b: np.ndarray = field(default=None, repr=False, compare=False)

    def write_csv(self, path) -> None:
        """Write the results file: columns ``qid, model_a, model_b``, one row a question."""
        try:
            with open(path, "w", newline="", encoding="utf-8") as handle:
                handle.write("qid,model_a,model_b\n")
                handle.writelines(f"{q},{x},{y}\n"
                                  for q, x, y in zip(self.items, self.a, self.b))
        except OSError as error:
            raise EvalbarsError(f"cannot write the results file {str(path)!r}: "
                                f"{error.strerror}") from None


def run_experiments(
    name: str,
    experiments: int,
    seed: int,
    columns: int,
    draw: Callable[[np.random.Generator, int], np.ndarray],
    draws_per_experiment: int,
    progress: bool,
) -> np.ndarray:
    """An (experiments, columns) array: one row of outcomes per simulated experiment.

    ``draw(rng, size)`` simulates ``size`` experiments. Experiments come in fixed
    blocks, each from its own child of the stream ``"simulate:<name>"`` under
    ``seed``, so the numbers depend only on the seed and the settings.
    """
    bar = Progress(f"simulate {name}", experiments) if progress else None
    try:
        return run_blocks(experiments, columns, child_seed(seed, f"simulate:{name}"), draw,
                           BLOCK * draws_per_experiment, bar)
    finally:
        if bar is not None:
            bar.close()
