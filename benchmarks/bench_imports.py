"""Where the import time of `evalbars compare` on a CSV goes, by package, from -X importtime.

Run by hand: ``python benchmarks/bench_imports.py [--repeat 5] [CSV --a A --b B]``. Without
a file it writes a 10,000-item continuous CSV (two models, ``qid,a,b``). Each of
``--repeat`` runs is a fresh ``python -X importtime -m evalbars compare ...``; the run with
the least total import time is shown, its modules' own times summed by where they live:
evalbars by subpackage, numpy, scipy (scipy.special's array-API layer, which copies
numpy's namespace and so imports numpy.testing and numpy.f2py, on a line of its own), the
standard library and the rest. It also lists the harness log readers the command imported
(none for a CSV). ``-X importtime`` adds its own overhead: compare runs of one machine.
Without a bytecode cache (``PYTHONDONTWRITEBYTECODE=1``, and no ``__pycache__``) every
evalbars module is compiled from source at each start; the header says which it was.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")
_ARRAY_API = "scipy._lib._array_api"


def imported(argv: list[str]) -> list[tuple[int, int, str]]:
    """(own microseconds, depth, module) of every module the command imports, in order."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "evalbars", *argv],
                         capture_output=True, text=True, check=True)
    return [(int(m[1]), len(m[3]) // 2, m[4]) for m in map(_LINE.match, out.stderr.splitlines())
            if m is not None]


def group(module: str, inside_array_api: bool) -> str:
    """Where a module's import time is counted."""
    top = module.split(".")[0]
    if top == "evalbars":
        return ".".join(module.split(".")[:2])
    if inside_array_api:
        return "scipy array-API layer (numpy.testing, numpy.f2py, ...)"
    if top in ("numpy", "scipy"):
        return top
    return "standard library" if top in sys.stdlib_module_names else "other"


def breakdown(rows: list[tuple[int, int, str]]) -> dict[str, int]:
    """Own import time (microseconds) summed by :func:`group`."""
    totals: collections.Counter = collections.Counter()
    # importtime prints a module after the modules it imported: a module at depth d belongs
    # to the next line of smaller depth, so walk backwards keeping the open ancestors
    ancestors: list[tuple[int, str]] = []
    for own, depth, module in reversed(rows):
        while ancestors and ancestors[-1][0] >= depth:
            ancestors.pop()
        inside = any(name == _ARRAY_API for _, name in ancestors) or module == _ARRAY_API
        totals[group(module, inside)] += own
        ancestors.append((depth, module))
    return dict(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args, command = parser.parse_known_args()  # the rest: a CSV and compare's options
    with tempfile.TemporaryDirectory() as folder:
        argv = command
        if not argv:
            rng = np.random.default_rng(0)
            ease = rng.random(10_000)
            path = os.path.join(folder, "scores.csv")
            with open(path, "w") as out:
                out.write("qid,a,b\n")
                for i, e in enumerate(ease):
                    a, b = np.clip(0.6 + 0.3 * (e - 0.5) + rng.normal(0, 0.05, 2), 0, 1)
                    out.write(f"q{i:05d},{float(a)!r},{float(b)!r}\n")
            argv = [path, "--a", "a", "--b", "b"]
        runs = [imported(["compare", *argv]) for _ in range(args.repeat)]
    rows = min(runs, key=lambda r: sum(own for own, _, _ in r))
    cached = "no bytecode cache" if sys.dont_write_bytecode else "bytecode cache on"
    print(f"evalbars compare {' '.join(command) or '(10,000 continuous items)'}: "
          f"{len(rows)} modules, best of {args.repeat}, {cached}")
    totals = breakdown(rows)
    for name, own in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {own / 1000:7.1f} ms  {name}")
    print(f"  {sum(totals.values()) / 1000:7.1f} ms  in all")
    readers = sorted(m for _, _, m in rows if m.startswith("evalbars.io.logs.")
                     and not m.rsplit(".", 1)[1].startswith("_"))
    print(f"log readers imported: {', '.join(readers) or 'none'}")


if __name__ == "__main__":
    main()
