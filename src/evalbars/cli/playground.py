"""`evalbars playground`: the "Play with it" page, one self-contained interactive HTML file."""
from __future__ import annotations

import argparse

from ._options import add_format


def _settings(args: argparse.Namespace) -> dict:
    return dict(correlation=args.correlation, gap=args.gap, n=args.n, seed=args.seed)


def _run(args: argparse.Namespace) -> dict | None:
    """The simulation at the page's starting settings when --format asks to print it."""
    from ..report.playground import ACCURACY, playground_html

    playground_html(**_settings(args))  # refuse bad settings before simulating
    if args.format == "text":
        return None
    from .. import simulate

    return simulate.power(accuracy=ACCURACY, **_settings(args), progress=True).to_dict()


def _write(args: argparse.Namespace, doc: dict | None, path: str) -> None:
    from pathlib import Path

    from ..report.playground import playground_html

    Path(path).write_text(playground_html(**_settings(args)), encoding="utf-8")


def register(commands) -> None:
    """Add the ``playground`` parser."""
    parser = commands.add_parser(
        "playground", help="write the interactive 'Play with it' page (HTML)",
        description="Write one self-contained HTML page (no network, no libraries) with "
                    "sliders for the per-question correlation of two models, the true gap "
                    "and the number of questions. It draws the two separate intervals and the "
                    "paired interval of the gap, and runs fake experiments in the browser. "
                    "Says 'wrote FILE' on stderr; with --format json (or markdown) it also "
                    "prints the same experiment run by 'evalbars simulate power' at the "
                    "starting settings and --seed (20,000 experiments), to compare with "
                    "the page.",
        epilog="Example: evalbars playground -o playground.html   (see docs/reports.md)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the page to write (.html)")
    parser.add_argument("--correlation", type=float, default=0.7, metavar="R",
                        help="starting per-question correlation, 0 to 1 by 0.05 (default: 0.7)")
    parser.add_argument("--gap", type=float, default=0.03, metavar="G",
                        help="starting true gap B - A, a fraction from -0.05 to 0.10 by 0.005 "
                             "(default: 0.03 = 3 points)")
    parser.add_argument("--n", type=int, default=1000, metavar="N",
                        help="starting number of questions, 100 to 5,000 by 100 (default: 1000)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the page's first run and of the printed simulation "
                             "(default: 1)")
    add_format(parser.add_argument_group("settings"))
    parser.set_defaults(handler=_run, write_output=_write,
                        output_note="; open it in a browser (it needs no network)")
