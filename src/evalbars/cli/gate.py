"""`evalbars gate`: a regression gate for CI pipelines (exit 0 pass, 1 fail, 3 can't tell)."""
from __future__ import annotations

import argparse

from ._options import add_data_options, add_settings, add_strata, load_options


def _run(args: argparse.Namespace) -> dict:
    from ..analyses.gate import gate

    return gate(args.data, args.data2, baseline=args.baseline, candidate=args.candidate,
                max_regression=args.max_regression, alpha=args.alpha,
                n_resamples=args.n_resamples, seed=args.seed, progress=not args.sequential,
                sequential=args.sequential, order=args.order, every=args.every,
                stratum=args.stratum, weights=args.weights, **load_options(args)).to_dict()


def register(commands) -> None:
    """Add the ``gate`` parser."""
    gate = commands.add_parser(
        "gate", help="CI regression gate: exit 0 pass, 1 regression, 3 cannot tell",
        description="Does the candidate regress against the baseline by more than "
                    "--max-regression? Exit 0 when it is shown not to, 1 when a regression "
                    "is shown, 3 when the data cannot tell (with how many questions would "
                    "decide it). Paired non-inferiority test at one-sided level --alpha.",
        epilog="Example: evalbars gate examples/lesson_pair.csv --baseline model_a --candidate "
               "model_b --max-regression 0.01   (see docs/decisions.md)")
    add_data_options(gate)
    gate.add_argument("--baseline", metavar="NAME", help="the current model")
    gate.add_argument("--candidate", metavar="NAME", help="the model that would replace it")
    gate.add_argument("--max-regression", type=float, required=True, metavar="M",
                      help="largest acceptable loss, a fraction (0.01 = 1 point)")
    gate.add_argument("--alpha", type=float, default=0.05,
                      help="one-sided level of the non-inferiority test (default: 0.05)")
    add_strata(gate)
    sequential = gate.add_argument_group("sequential (safe to re-run as results accumulate)")
    sequential.add_argument("--sequential", action="store_true",
                            help="decide with an always-valid sequence (evalbars monitor): "
                                 "the false-alarm rate stays at --alpha however often the "
                                 "gate runs on the growing results (docs/monitor.md)")
    sequential.add_argument("--order", metavar="COL",
                            help="with --sequential: column giving the order results came in "
                                 "(default: file order)")
    sequential.add_argument("--every", type=int, default=1, metavar="N",
                            help="with --sequential: questions between looks (default: 1)")
    add_settings(gate, confidence_level=False)
    gate.set_defaults(handler=_run, exit_status=lambda doc: doc["exit_status"])
