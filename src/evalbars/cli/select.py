"""`evalbars select`: the best of many candidates, with the winner's curse accounted for."""
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
    from ..analyses.select import select

    return select(args.data, args.data2, baseline=args.baseline, candidates=args.candidates,
                  correction=args.correction, split=args.split, select_on=args.select_on,
                  confirm_on=args.confirm_on, holdout=args.holdout, **load_options(args),
                  **analysis_settings(args)).to_dict()


def register(commands) -> None:
    """Add the ``select`` parser."""
    parser = commands.add_parser(
        "select", help="pick the best of many candidates, and say what luck alone would give",
        description="Compare N candidates (prompts, checkpoints, settings) with a baseline on "
                    "the same questions and pick the best. Reports each candidate's paired "
                    "gain with raw and adjusted p-values, what the best of N candidates "
                    "with no true effect would show on these data (a bootstrap of all the "
                    "gains), the selection-aware p-value, the winner's gain corrected for "
                    "the choice, and intervals that hold for every candidate at once. With "
                    "--split or --holdout it chooses on one part of the questions and "
                    "confirms the single winner once on the other: the held-out number is "
                    "the result.",
        epilog="Examples: evalbars select examples/prompts.csv --baseline baseline --split "
               "split --select-on dev --confirm-on test   |   evalbars select results.csv "
               "--baseline prod --holdout 0.5   (see docs/select.md)")
    add_data_options(parser)
    parser.add_argument("--baseline", metavar="NAME",
                        help="the model every candidate is compared with (required)")
    parser.add_argument("--candidates", nargs="+", metavar="NAME",
                        help="the candidates (default: every other model)")
    add_correction(parser, "the candidates")
    held = parser.add_argument_group("held-out confirmation")
    held.add_argument("--split", metavar="COL",
                      help="column assigning each question to a split")
    held.add_argument("--select-on", metavar="VALUE",
                      help="with --split: the split to choose the winner on")
    held.add_argument("--confirm-on", metavar="VALUE",
                      help="with --split: the split to confirm the winner on, once")
    held.add_argument("--holdout", type=float, metavar="SHARE",
                      help="or hold out this share of the questions at random (seeded; whole "
                           "clusters with --cluster), e.g. 0.5")
    add_settings(parser)
    parser.set_defaults(handler=_run)
