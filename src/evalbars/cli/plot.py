"""`evalbars plot NAME`: a figure as PNG, SVG or PDF (needs the plot extra: matplotlib)."""
from __future__ import annotations

import argparse

from ._options import add_format, add_settings
from .report import add_source_options, read_document, source_document

PLOTS = {
    "forest": ("each model's score with its interval",
               "Each model's score with its interval (ci on DATA, or any document with "
               "scores: ci, compare, leaderboard, passk).",
               "evalbars plot forest examples/cookbook_topics.csv --item example_id -o forest.png"),
    "gap": ("the separate intervals beside the paired interval of the gap",
            "The two models' separate intervals beside the paired interval of the gap (and "
            "the unpaired one, for contrast), on one scale: compare on DATA, or a compare or "
            "gate document.",
            "evalbars plot gap examples/lesson_pair.csv -o gap.png"),
    "leaderboard": ("scores in rank order beside their rank intervals",
                    "Scores in rank order beside each model's rank interval: leaderboard on "
                    "DATA, or a leaderboard document.",
                    "evalbars plot leaderboard --from-json leaderboard.json -o ranks.png"),
    "power": ("power against the number of questions for a few gaps",
              "Power against the number of questions, one curve per gap, for a design given "
              "as in 'evalbars power' (with --n, marked on the plot), or a power document.",
              "evalbars plot power --n 500 --disagreement 0.10 -o power.png"),
    "seeds": ("each training run's score, grouped by recipe, and the recipe difference",
              "Each training run's score with its interval over questions, grouped by recipe, "
              "each recipe's mean over runs with its interval over seeds and questions, and "
              "the difference of two recipes: seeds on DATA (--run COL), or a seeds document.",
              "evalbars plot seeds examples/seeds.csv --run seed -o seeds.png"),
    "ablation": ("every variant's score, and the gain and each variant's drop",
                 "Each model's score with its interval beside the full system's gain over the "
                 "baseline and each variant's drop from the full system: an ablation "
                 "document (evalbars ablation ... --format json).",
                 "evalbars plot ablation --from-json ablation.json -o ablation.png"),
    "monitor": ("the always-valid sequence of the gap as results came in",
                "The gap B - A and its always-valid confidence sequence at every look, with "
                "the margin and where it stopped: monitor on DATA (its options), or a "
                "monitor or sequential gate document.",
                "evalbars plot monitor examples/lesson_pair.csv --every 10 -o monitor.png"),
    "strata": ("each stratum's score with its interval, under the weighted average",
               "Each stratum's score with its interval, model by model, under the weighted "
               "average with its stratified interval: ci on DATA with --stratum (compare with "
               "--a and --b), or a ci, compare, leaderboard or gate document made with "
               "--stratum.",
               "evalbars plot strata examples/strata_subjects.csv --stratum subject "
               "--weights macro -o strata.png"),
}
"""name -> (help, description, example)."""

DESIGN_INPUTS = {"disagreement": float, "baseline": float, "variance": float, "icc": float,
                 "cluster_size": float, "design_effect": float, "samples": int,
                 "between_variance": float}
"""The design inputs of :func:`evalbars.analyses.power.grid` (``evalbars.analyses.power.INPUTS``, spelled out
here so that building the parser imports no numpy; a test checks that they agree)."""


def _power_document(args: argparse.Namespace) -> dict:
    from ..analyses import power
    from ..core.errors import EvalbarsError

    if args.from_json is not None:
        return read_document(args.from_json)
    if args.n is None:
        raise EvalbarsError("give --n (the questions you have, marked on the plot) and the "
                            "design, or a power document with --from-json")
    inputs = {name: getattr(args, name) for name in DESIGN_INPUTS
              if getattr(args, name) is not None}
    return power.grid(n=args.n, power=args.power, design=args.design, method=args.method,
                      alpha=args.alpha, **inputs).to_dict()


def _strata_document(args: argparse.Namespace) -> dict:
    """The document of --from-json, or ci (compare with --a or --b) with --stratum on DATA."""
    from ..analyses import compare as api
    from ..core.errors import EvalbarsError
    from ._options import analysis_settings, load_options
    from .report import saved_document

    saved = saved_document(args)
    if saved is not None:
        if args.stratum is not None or args.weights != "micro":
            raise EvalbarsError("--stratum and --weights say how to analyse DATA; a "
                                "--from-json document already holds its strata")
        return saved
    if args.stratum is None:
        raise EvalbarsError("plot strata needs --stratum COL (the column of each question's "
                            "stratum), or a document made with it (--from-json)")
    if args.models and (args.a or args.b):
        raise EvalbarsError("--models chooses the models of a ci report; --a and --b the pair "
                            "of a comparison: give one or the other")
    chosen = {"stratum": args.stratum, "weights": args.weights, **load_options(args),
              **analysis_settings(args)}
    if args.a or args.b:
        return api.compare(args.data, args.data2, a=args.a, b=args.b, **chosen).to_dict()
    return api.ci(args.data, args.data2, models=args.models, **chosen).to_dict()


def _run(name: str, args: argparse.Namespace) -> dict:
    from pathlib import Path

    from ..report import plots

    if Path(args.output).suffix.lower() not in plots.FORMATS:
        from ..core.errors import EvalbarsError

        raise EvalbarsError(f"the figure file must end in one of {', '.join(plots.FORMATS)}; "
                            f"got {args.output!r}")
    if name == "power":
        return _power_document(args)
    if name == "seeds":
        from .seeds import document

        return document(args)
    if name == "ablation":
        return read_document(args.from_json)
    if name == "monitor":
        from .monitor import document

        return document(args)
    if name == "strata":
        return _strata_document(args)
    kind = {"forest": "ci", "gap": "compare", "leaderboard": "leaderboard"}[name]
    return source_document(args, kind)


def _draw(name: str, args: argparse.Namespace, doc: dict, path: str) -> None:
    """Draw figure ``name`` of ``doc`` and save it to ``path`` (a temporary file with the
    suffix of -o: see evalbars.cli)."""
    from ..report import plots

    if name == "power":
        figure = plots.power(doc, gaps=args.gaps)
    elif name == "monitor":
        figure = plots.monitor(doc)
    elif name == "strata":
        from ..report.plots.strata import strata_forest

        figure = strata_forest(doc)
    else:
        figure = getattr(plots, name)(doc, method=args.method)
    plots.save(figure, path)


def _add_power_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from-json", metavar="FILE",
                        help="a saved power document (evalbars power ... --format json)")
    parser.add_argument("--n", type=int, metavar="N",
                        help="questions you have (per model for unpaired designs)")
    parser.add_argument("--gaps", type=float, nargs="+", metavar="G",
                        help="gaps to draw, as fractions (default: 0.005 0.01 0.02 0.05)")
    parser.add_argument("--power", type=float, default=0.8, metavar="P",
                        help="target power, drawn dashed (default: 0.8)")
    design = parser.add_argument_group("design (as in evalbars power)")
    design.add_argument("--design", default="paired", help="paired, unpaired or clustered")
    design.add_argument("--method", metavar="METHOD", help="the test: see evalbars power --help")
    design.add_argument("--alpha", type=float, default=0.05, help="two-sided level "
                                                                  "(default: 0.05)")
    for name, kind in DESIGN_INPUTS.items():
        design.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, metavar="X",
                            help=f"see evalbars power --{name.replace('_', '-')}")
    add_format(parser.add_argument_group("settings"))


def register(commands) -> None:
    """Add the ``plot`` parser with one subcommand per figure."""
    parser = commands.add_parser(
        "plot", help="figures as PNG, SVG or PDF (pip install 'evalbars[plot]')",
        description="Draw a figure with matplotlib and write it to -o (.png, .svg or .pdf). "
                    "Scores of 0/1 data are in percent, gaps in points; every axis states the "
                    "confidence level and the method. Says 'wrote FILE' on stderr; with "
                    "--format json (or markdown) the document (or the Markdown report) is "
                    "printed on stdout as well.",
        epilog="Example: evalbars plot gap examples/lesson_pair.csv -o gap.png   "
               "(see docs/reports.md)")
    names = parser.add_subparsers(dest="figure", required=True, metavar="NAME")
    for name, (summary, description, example) in PLOTS.items():
        sub = names.add_parser(name, help=summary, description=description,
                               epilog=f"Example: {example}")
        sub.add_argument("-o", "--output", required=True, metavar="FILE",
                         help="the figure to write: .png, .svg or .pdf")
        if name == "power":
            _add_power_options(sub)
        elif name == "seeds":
            from .seeds import add_arguments

            sub.add_argument("--method", metavar="METHOD",
                             help="the recipes' interval: seeds-t (default) or "
                                  "two-level-bootstrap")
            add_arguments(sub, from_json=True)
            add_settings(sub)
        elif name == "monitor":
            from .monitor import add_arguments

            add_arguments(sub, from_json=True)
            add_format(sub.add_argument_group("settings"))
        elif name == "ablation":
            sub.add_argument("--from-json", required=True, metavar="FILE",
                             help="a saved ablation document (evalbars ablation ... "
                                  "--format json)")
            sub.add_argument("--method", metavar="METHOD",
                             help="the interval to draw (default: the report's default)")
            add_format(sub.add_argument_group("settings"))
        elif name == "strata":
            from ._options import add_strata

            add_source_options(sub)
            add_strata(sub)
        else:
            sub.add_argument("--method", metavar="METHOD",
                             help="the interval to draw (default: the report's default)")
            add_source_options(sub, pair=name == "gap", models=name != "gap")
        sub.set_defaults(handler=lambda args, name=name: _run(name, args),
                         write_output=lambda args, doc, path, name=name: _draw(name, args,
                                                                               doc, path))
