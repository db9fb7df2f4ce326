"""`evalbars power`: the questions needed, the smallest detectable gain, or the power."""
from __future__ import annotations

import argparse
import dataclasses

from ._options import add_alternative, add_column_options, add_format, flags, load_options

DEFAULT_POWER = 0.8
"""--power when --gap is given and n is solved for (and with --grid)."""


def _run(args: argparse.Namespace) -> dict:
    from ..analyses import power
    from ..core.errors import EvalbarsError

    pilot = None
    if args.pilot is not None:
        if len(args.pilot) > 2:
            raise EvalbarsError(f"--pilot takes one or two files; got {len(args.pilot)}")
        pilot = power.from_pilot(*args.pilot, a=args.a, b=args.b, **load_options(args))
    else:
        stray = flags(name for name in ("a", "b") if getattr(args, name) is not None)
        stray += flags(load_options(args))
        if stray:
            raise EvalbarsError(f"{', '.join(stray)} describe the --pilot file; give --pilot FILE")
    common = dict(design=args.design, alpha=args.alpha, method=args.method, pilot=pilot,
                  alternative=args.alternative,
                  **{name: getattr(args, name) for name in power.INPUTS})
    if args.grid:
        if args.gap is not None:
            raise EvalbarsError("--grid solves the gap at --n and tabulates n for gaps of 0.5, "
                                "1, 2 and 5 points; leave out --gap")
        chosen = {} if args.power is None else {"power": args.power}
        return power.grid(n=args.n, **chosen, **common).to_dict()
    if args.power is None and args.n is None and args.gap is not None:
        # solving for n with the usual target: say so in the statement
        result = power.solve(n=None, gap=args.gap, power=DEFAULT_POWER, **common)
        said = f"with {DEFAULT_POWER:.0%} power"
        statement = result.statement.replace(said, f"{said} (the default; set it with --power)",
                                             1)
        return dataclasses.replace(result, statement=statement).to_dict()
    return power.solve(n=args.n, gap=args.gap, power=args.power, **common).to_dict()


def register(commands) -> None:
    """Add the ``power`` parser."""
    parser = commands.add_parser(
        "power", help="questions needed, smallest detectable gain, or power",
        description="Solve for whichever one of --n, --gap or --power is left out (give the "
                    "other two): how many questions a comparison needs, the smallest gain it "
                    "can detect (minimum detectable effect), or its power. Gaps and rates are "
                    "fractions: 0.01 is 1 point. Tests are two-sided unless --alternative says "
                    "greater or less.",
        epilog="Example: evalbars power --design paired --gap 0.01 --power 0.8 "
               "--disagreement 0.10   (about 7,842 questions). See docs/power.md.")
    what = parser.add_argument_group("what to solve (give exactly two of three)")
    what.add_argument("--n", type=int, metavar="N",
                      help="questions (per model for unpaired designs)")
    what.add_argument("--gap", type=float, metavar="G",
                      help="true gain to detect, as a fraction (0.01 = 1 point)")
    what.add_argument("--power", type=float, metavar="P",
                      help="chance of detecting the gap (default 0.8 when solving for n "
                           "from --gap, and with --grid)")
    what.add_argument("--grid", action="store_true",
                      help="the gap detectable at --n, and n needed for gaps of 0.5, 1, 2 and "
                           "5 points")
    design = parser.add_argument_group("design")
    design.add_argument("--design", default="paired", metavar="DESIGN",
                        help="paired (same questions, default), unpaired (separate questions "
                             "per model) or clustered (questions in groups)")
    design.add_argument("--method", metavar="METHOD",
                        help="paired: normal (default) or mcnemar-exact; unpaired and "
                             "clustered: normal (default) or cohen-h")
    design.add_argument("--alpha", type=float, default=0.05,
                        help="level of the test (default: 0.05)")
    add_alternative(design, "tests put all of alpha on one side and need fewer questions")
    design.add_argument("--disagreement", type=float, metavar="D",
                        help="paired 0/1 scores: share of questions the two models differ on")
    design.add_argument("--baseline", type=float, metavar="P_A",
                        help="unpaired: model A's accuracy (model B's is P_A + gap)")
    design.add_argument("--variance", type=float, metavar="V",
                        help="instead of the above, for any scores: per-question variance of "
                             "b - a (paired) or of one model's score (unpaired)")
    design.add_argument("--icc", type=float, metavar="R",
                        help="clustered: intraclass correlation (with --cluster-size)")
    design.add_argument("--cluster-size", type=float, metavar="M",
                        help="clustered: questions per cluster; n is rounded to whole clusters")
    design.add_argument("--design-effect", type=float, metavar="DE",
                        help="clustered: variance inflation, instead of 1 + (M - 1) * R")
    design.add_argument("--samples", type=int, metavar="K",
                        help="answers sampled per question (with --between-variance)")
    design.add_argument("--between-variance", type=float, metavar="V",
                        help="with --samples: the between-question part of the variance")
    pilot = parser.add_argument_group(
        "pilot data (estimates --disagreement, --baseline or --variance from a results file)")
    pilot.add_argument("--pilot", nargs="+", metavar="FILE",
                       help="a pilot results file, or two files with one model each")
    pilot.add_argument("--a", metavar="NAME", help="the baseline model (column or model name)")
    pilot.add_argument("--b", metavar="NAME", help="the model compared against it")
    add_column_options(pilot, intersect="keep only items scored for every model",
                       cluster="column giving each question's cluster: estimates --icc and "
                               "--cluster-size for --design clustered (the other designs "
                               "refuse a clustered pilot)")
    add_format(parser.add_argument_group("settings"))
    parser.set_defaults(handler=_run)
