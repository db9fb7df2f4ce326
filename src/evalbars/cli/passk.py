"""`evalbars passk`: pass@k with intervals over questions, and the paired gap of two models."""
from __future__ import annotations

import argparse

from ._options import add_data_options, add_settings, analysis_settings, load_options


def _k_list(text: str) -> tuple[int, ...]:
    """``"1,5,10"`` -> (1, 5, 10); the API checks that each is at least 1."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--k must be whole numbers separated by commas, like 1,5,10; got {text!r}") from None


def _run(args: argparse.Namespace) -> dict:
    from ..analyses.passk import passk

    return passk(args.data, args.data2, k=args.k, models=args.models, a=args.a, b=args.b,
                 pass_hat_k=args.pass_hat_k, **load_options(args),
                 **analysis_settings(args, progress=False)).to_dict()


def register(commands) -> None:
    """Add the ``passk`` parser."""
    parser = commands.add_parser(
        "passk", help="pass@k (unbiased, Chen et al.) with intervals over questions",
        description="pass@k of each model from several sampled 0/1 answers per question: the "
                    "unbiased estimator of Chen et al. (2021) averaged over questions, with "
                    "bootstrap intervals over questions (or whole clusters), the biased "
                    "shortcut 1 - (1 - c/n)^k for contrast and, for two models, the paired "
                    "gap.",
        epilog="Example: evalbars passk examples/passk_samples.csv --sample sample --k 1,5,10  "
               "(see docs/passk.md)")
    add_data_options(parser)
    group = parser.add_argument_group("pass@k and models")
    group.add_argument("--k", type=_k_list, default=(1, 5, 10), metavar="K[,K...]",
                       help="tries, comma-separated (default: 1,5,10)")
    group.add_argument("--models", nargs="+", metavar="NAME",
                       help="models to report (default: all)")
    group.add_argument("--a", metavar="NAME", help="the baseline model of a pair")
    group.add_argument("--b", metavar="NAME", help="the model compared against it (gap b - a)")
    group.add_argument("--pass-hat-k", action="store_true",
                       help="also pass^k, the chance that all k tries pass (tau-bench's "
                            "reliability metric), beside pass@k")
    add_settings(parser)
    parser.set_defaults(handler=_run)
