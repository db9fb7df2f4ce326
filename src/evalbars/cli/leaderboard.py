"""`evalbars leaderboard`: rank models on the same questions, or rate them from battles."""
from __future__ import annotations

import argparse

from ._options import (
    add_correction,
    add_data_options,
    add_settings,
    add_strata,
    analysis_settings,
    flags,
    load_options,
)

_SCORE_OPTIONS = ("data2", "models", "baseline", "correction", "stratum")
"""Options that describe per-question scores (not battles), besides the loading options."""
_BATTLE_OPTIONS = ("model_a", "model_b", "winner")
"""Options that describe battles."""


def _given(args: argparse.Namespace, names) -> list[str]:
    return ["--" + name.replace("_", "-") if name != "data2" else "DATA2"
            for name in names if getattr(args, name, None) not in (None, False)]


def _run(args: argparse.Namespace) -> dict:
    from ..core.errors import EvalbarsError

    settings = analysis_settings(args)
    if args.battles:
        from ..analyses.battles import bradley_terry

        stray = _given(args, _SCORE_OPTIONS) + flags(load_options(args)) + (
            ["--weights"] if args.weights != "micro" else [])
        if stray:
            raise EvalbarsError(
                f"{', '.join(stray)} {'applies' if len(stray) == 1 else 'apply'} only to "
                "per-question scores; --battles reads one battle per row (columns --model-a, "
                "--model-b, --winner)")
        columns = {name: getattr(args, name) for name in _BATTLE_OPTIONS
                   if getattr(args, name) is not None}
        return bradley_terry(args.data, **columns, **settings).to_dict()
    from ..analyses.leaderboard import leaderboard

    stray = _given(args, _BATTLE_OPTIONS)
    if stray:
        raise EvalbarsError(f"{', '.join(stray)} {'names' if len(stray) == 1 else 'name'} "
                            "a column of a battles file; add --battles")
    return leaderboard(args.data, args.data2, models=args.models, baseline=args.baseline,
                       correction=args.correction or "holm", stratum=args.stratum,
                       weights=args.weights, **load_options(args),
                       **settings).to_dict()


def register(commands) -> None:
    """Add the ``leaderboard`` parser."""
    parser = commands.add_parser(
        "leaderboard", help="rank many models on the same questions, with honest ties",
        description="Rank models scored on the same questions: each model's score with its "
                    "intervals, its rank interval and its chance of being best, every pair "
                    "(or each model against --baseline) with a paired interval and test, "
                    "p-values adjusted over all pairs, and which places the data cannot "
                    "separate. With --battles, DATA holds pairwise preference battles (one "
                    "row per battle, Chatbot Arena style) and the models get Bradley-Terry "
                    "ratings with intervals over resampled battles.",
        epilog="Examples: evalbars leaderboard results.csv --correction holm   |   "
               "evalbars leaderboard battles.csv --battles   (see docs/leaderboard.md)")
    add_data_options(parser)
    parser.add_argument("--models", nargs="+", metavar="NAME",
                        help="models to rank (default: all)")
    parser.add_argument("--baseline", metavar="NAME",
                        help="compare each model against this one only, instead of all pairs")
    add_correction(parser, "the pairs", default=None)
    add_strata(parser)
    battles = parser.add_argument_group("battles (with --battles)")
    battles.add_argument("--battles", action="store_true",
                         help="DATA holds pairwise battles: rate the models (Bradley-Terry)")
    battles.add_argument("--model-a", metavar="COL",
                         help="column with the first model of each battle (default: model_a)")
    battles.add_argument("--model-b", metavar="COL",
                         help="column with the second model (default: model_b)")
    battles.add_argument("--winner", metavar="COL",
                         help="column with the outcome: model_a, model_b, tie, "
                              "tie (bothbad), or the winning model's name (default: winner)")
    add_settings(parser)
    parser.set_defaults(handler=_run)
