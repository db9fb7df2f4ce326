"""`evalbars ci` and `evalbars compare`."""
from __future__ import annotations

import argparse

from ._options import (
    add_alternative,
    add_data_options,
    add_settings,
    add_strata,
    analysis_settings,
    load_options,
)


def _run_ci(args: argparse.Namespace) -> dict:
    from ..analyses import compare as api

    return api.ci(args.data, args.data2, models=args.models, alternative=args.alternative,
                  stratum=args.stratum, weights=args.weights,
                  **load_options(args), **analysis_settings(args)).to_dict()


def _run_compare(args: argparse.Namespace) -> dict:
    from ..analyses import compare as api

    return api.compare(args.data, args.data2, a=args.a, b=args.b, margin=args.margin,
                       alternative=args.alternative, stratum=args.stratum,
                       weights=args.weights, **load_options(args),
                       **analysis_settings(args)).to_dict()


def register(commands) -> None:
    """Add the ``ci`` and ``compare`` parsers."""
    ci = commands.add_parser("ci", help="every model's score with its intervals",
                             description="Every model's mean score with every interval that "
                                         "fits its score type.",
                             epilog="Example: evalbars ci examples/cookbook_topics.csv --item "
                                    "example_id   (see docs/guide.md)")
    add_data_options(ci)
    ci.add_argument("--models", nargs="+", metavar="NAME", help="models to report (default: all)")
    add_alternative(ci, "bounds: greater gives each score's lower bound (at least), less its "
                        "upper bound")
    add_strata(ci)
    add_settings(ci)
    ci.set_defaults(handler=_run_ci)

    compare = commands.add_parser(
        "compare", help="paired comparison of two models on the same questions",
        description="Paired comparison of model B against model A on the same questions: "
                    "scores, the gap with paired intervals, agreement, tests and a result "
                    "statement.",
        epilog="Example: evalbars compare examples/lesson_pair.csv --a model_a --b model_b   "
               "(see docs/guide.md)")
    add_data_options(compare)
    compare.add_argument("--a", metavar="NAME", help="the baseline model (column or model name)")
    compare.add_argument("--b", metavar="NAME", help="the model compared against it")
    compare.add_argument("--margin", type=float, metavar="M",
                         help="also test non-inferiority and equivalence of B within M "
                              "(a fraction: 0.01 = 1 point), from the 90%% interval")
    add_alternative(compare, "tests and bounds on the gap b - a (at least / at most)")
    add_strata(compare)
    add_settings(compare)
    compare.set_defaults(handler=_run_compare)
