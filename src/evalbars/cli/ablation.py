"""`evalbars ablation`: which parts of a system its gain over the baseline comes from."""
from __future__ import annotations

import argparse

from ._options import (
    add_correction,
    add_data_options,
    add_settings,
    analysis_settings,
    load_options,
)


def _run(args: argparse.Namespace) -> dict:
    from ..analyses.ablation import ablation

    return ablation(args.data, args.data2, full=args.full, baseline=args.baseline,
                    variants=args.variants, correction=args.correction, **load_options(args),
                    **analysis_settings(args)).to_dict()


def register(commands) -> None:
    """Add the ``ablation`` parser."""
    parser = commands.add_parser(
        "ablation", help="an ablation table: which parts the gain comes from",
        description="Compare the full system with a baseline and with variants of it, each "
                    "with one part removed, on the same questions: the full system's gain, "
                    "each variant's drop from the full system and its gain over the "
                    "baseline (paired, from one shared resample), p-values adjusted over "
                    "every comparison of the table, and the share of the gain each drop "
                    "amounts to (not additive in general).",
        epilog="Example: evalbars ablation results.csv --full full --baseline base "
               "--variants no-retrieval no-rerank   (see docs/ablation.md)")
    add_data_options(parser)
    parser.add_argument("--full", metavar="NAME", help="the full system (required)")
    parser.add_argument("--baseline", metavar="NAME",
                        help="what the full system improves on (required)")
    parser.add_argument("--variants", nargs="+", metavar="NAME",
                        help="the full system with one part removed, one model each "
                             "(default: every other model)")
    add_correction(parser, "the table")
    add_settings(parser)
    parser.set_defaults(handler=_run)
