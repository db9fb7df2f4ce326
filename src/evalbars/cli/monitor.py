"""`evalbars monitor`: watch a paired gap as results come in, with an always-valid sequence."""
from __future__ import annotations

import argparse

from ._options import COLUMNS_GROUP, add_column_options, add_format, load_options

METHODS = ("auto", "discordant", "betting", "normal-mixture")
"""--method choices (``evalbars.stats.sequential.METHODS`` and auto; a test keeps them the
same)."""


def document(args: argparse.Namespace) -> dict:
    """The ``monitor`` document of parsed arguments: run on DATA, or read from --from-json.

    ``evalbars plot monitor`` uses it too (with --from-json, see :func:`add_arguments`).
    """
    from ..analyses.monitor import monitor
    from .report import saved_document

    saved = saved_document(args)
    if saved is not None:
        return saved
    return monitor(args.data, a=args.a, b=args.b, order=args.order, margin=args.margin,
                   every=args.every, method=args.method,
                   confidence_level=args.confidence_level, plan=args.plan,
                   bounds=None if args.bounds is None else tuple(args.bounds),
                   **load_options(args)).to_dict()


def add_arguments(parser: argparse.ArgumentParser, *, from_json: bool = False) -> None:
    """DATA, the column options, the pair and the monitor's settings (not --format).

    ``from_json=True`` makes DATA optional and adds --from-json (a saved monitor document).
    """
    parser.add_argument("data", nargs="?" if from_json else None,
                        help="one results table (.csv, .jsonl, .parquet), wide or long, rows "
                             "in the order results came in or with --order"
                             + (" (or give --from-json)" if from_json else ""))
    if from_json:
        parser.add_argument("--from-json", metavar="FILE",
                            help="a saved monitor document (evalbars monitor ... --format "
                                 "json) instead of DATA")
    add_column_options(parser.add_argument_group(COLUMNS_GROUP))
    group = parser.add_argument_group("monitor")
    group.add_argument("--a", metavar="NAME", help="the baseline model (column or model name)")
    group.add_argument("--b", metavar="NAME", help="the model compared against it (gap B - A)")
    group.add_argument("--order", metavar="COL",
                       help="column of sequence numbers, Unix times or ISO 8601 timestamps "
                            "giving the order results came in (default: file order, said)")
    group.add_argument("--margin", type=float, metavar="M",
                       help="stop as 'within the margin' once the sequence lies inside "
                            "(-M, M); a fraction (0.01 = 1 point)")
    group.add_argument("--every", type=int, default=1, metavar="N",
                       help="questions (clusters) between looks (default: 1, every one)")
    group.add_argument("--method", choices=METHODS, default="auto",
                       help="auto (default): discordant for 0/1 pairs, betting for scores in "
                            "[0, 1] (or --bounds) and clusters, else normal-mixture")
    group.add_argument("--plan", type=int, default=1000, metavar="N",
                       help="questions at which the mixtures are tightest; any value fixed "
                            "in advance keeps the guarantee (default: 1000)")
    group.add_argument("--bounds", type=float, nargs=2, metavar=("LOW", "HIGH"),
                       help="the range scores can take, for betting on scores outside [0, 1]")
    group.add_argument("--confidence-level", type=float, default=0.95, metavar="LEVEL",
                       help="level of the sequence; the test rejects at e-value "
                            "1 / (1 - LEVEL) (default: 0.95)")


def register(commands) -> None:
    """Add the ``monitor`` parser."""
    parser = commands.add_parser(
        "monitor", help="watch a paired gap as results come in (always-valid, peeking-safe)",
        description="Read results in the order they came in and report at every look an "
                    "always-valid confidence sequence for the paired gap B - A and a "
                    "sequential test, with the decision so far (B better, A better, within "
                    "the margin, or keep going) and where it stopped. Looking after every "
                    "question keeps the guarantee; the price is a wider interval than a "
                    "fixed-n one at the same n.",
        epilog="Example: evalbars monitor examples/lesson_pair.csv --every 50   "
               "(see docs/monitor.md)")
    add_arguments(parser)
    add_format(parser.add_argument_group("settings"))
    parser.set_defaults(handler=document)
