"""`evalbars simulate NAME`: the simulation lab (evalbars.simulate), one subcommand each.

Options mirror the API's keyword arguments one to one. Their defaults are left to the
API (argparse default None); :data:`SIMULATIONS` repeats them only for the help text, and
a test checks that the two agree.
"""
from __future__ import annotations

import argparse
import sys

from ._options import COLUMNS_GROUP, add_column_options, add_format, load_options

_OPTIONS = {
    "n": dict(type=int, metavar="N", help="questions"),
    "accuracy": dict(type=float, metavar="P", help="model A's true accuracy, a fraction "
                                                   "(0.7 = 70%%)"),
    "gap": dict(type=float, metavar="G", help="true gap B - A, a fraction (0.02 = 2 points)"),
    "disagreement": dict(type=float, metavar="D",
                         help="share of questions the models disagree on (0.10 unless "
                              "--correlation is given)"),
    "correlation": dict(type=float, metavar="R",
                        help="per-question correlation of the two models' 0/1 outcomes, "
                             "instead of --disagreement"),
    "threshold": dict(type=float, metavar="T", help="apparent gap asked about (0.008 = 0.8 "
                                                    "points)"),
    "every": dict(type=int, metavar="M", help="questions between looks"),
    "gain": dict(type=float, metavar="G", help="true gap B - A of the power part, a fraction "
                                               "(0.02 = 2 points)"),
    "plan": dict(type=int, metavar="N", help="questions the monitor is tuned to (evalbars "
                                             "monitor --plan; default: --n)"),
    "candidates": dict(type=int, metavar="K", help="null candidates tried against the "
                                                   "baseline"),
    "clusters": dict(type=int, metavar="G", help="independent clusters (documents)"),
    "per_cluster": dict(type=int, metavar="M", help="questions per cluster"),
    "mode": dict(choices=("answers", "clusters"),
                 help="answers: K sampled answers per question; clusters: questions in "
                      "clusters"),
    "units": dict(type=int, metavar="U", help="independent units: questions (answers mode) "
                                              "or clusters (default: 100 or 50)"),
    "per_unit": dict(type=int, metavar="K", help="answers per question, or questions per "
                                                 "cluster (default: 5 or 10)"),
    "icc": dict(type=float, metavar="RHO", help="intraclass correlation of two outcomes of one "
                                                "unit, in [0, 1)"),
    "a": dict(metavar="NAME", help="with DATA: the baseline model (column or model name)"),
    "b": dict(metavar="NAME", help="with DATA: the model compared against it"),
    "methods": dict(nargs="+", metavar="METHOD",
                    help="interval methods and tests to calibrate, e.g. wald wilson "
                         "mcnemar-exact (default: all)"),
    "datasets": dict(type=int, metavar="D",
                     help="simulated datasets per cell (bootstraps and permutations on "
                          "continuous scores use fewer at large n)"),
    "n_resamples": dict(type=int, metavar="B",
                        help="bootstrap and permutation resamples per simulated dataset"),
    "alpha": dict(type=float, help="tests reject at p < alpha; intervals have level "
                                   "1 - alpha"),
    "experiments": dict(type=int, metavar="E", help="simulated experiments"),
    "seed": dict(type=int, help="random seed, recorded in the output"),
}
"""argparse settings of every option, by API keyword."""

_SPECIAL = {("coverage", "n"): dict(type=int, nargs="+", metavar="N",
                                    help="questions in the cells without clusters")}
"""(simulation, API keyword) -> argparse settings that differ from :data:`_OPTIONS`."""

_DOCS = {"coverage": "calibration"}
"""Simulations documented outside docs/simulate.md (docs/NAME.md)."""

_PAIR = {"accuracy": 0.70, "disagreement": None, "correlation": None}
_PAIR_SETTINGS = ("n", "accuracy", "gap", "disagreement", "correlation")
"""misaligned: settings of the fake pair simulated when no DATA is given."""
_RUN = {"alpha": 0.05, "experiments": 20_000, "seed": 0}

SIMULATIONS = {
    "fake-pair": (
        "write a results file of two models on the same questions",
        "Simulate two models' 0/1 outcomes on the same questions and write them as a "
        "results file (columns qid, model_a, model_b) that the other commands read.",
        "evalbars simulate fake-pair --gap 0.025 --disagreement 0.05 -o pair.csv",
        {"n": 500, **_PAIR, "gap": 0.025, "seed": 0}),
    "aa": (
        "two identical models: how often they look different",
        "The A/A test: two models with the same true accuracy. How often one looks "
        "better by at least --threshold, how often the paired interval excludes zero and "
        "how often the two separate bars do not overlap.",
        "evalbars simulate aa --n 500 --disagreement 0.10",
        {"n": 500, **_PAIR, "threshold": 0.008, **_RUN}),
    "power": (
        "how often each test finds a real gap",
        "Simulated power: how often the paired interval, McNemar's exact test, the "
        "sign-flip test and 'the bars do not overlap' detect a real gap.",
        "evalbars simulate power --gap 0.03 --n 1000 --correlation 0.7",
        {"gap": 0.02, "n": 500, **_PAIR, **_RUN}),
    "peeking": (
        "checking as results come in and stopping at the first p < alpha",
        "Two identical models, tested (exact McNemar) after every --every questions up "
        "to --n, stopping at the first p < alpha: false positives against one test at "
        "the end and against the always-valid monitor (evalbars monitor); then a real "
        "--gain: the monitor's power against one test at --n.",
        "evalbars simulate peeking --n 1000 --every 50",
        {"n": 1000, "every": 50, **_PAIR, "gain": 0.02, "plan": None, **_RUN}),
    "wrong-unit": (
        "bootstrapping answers (or questions) instead of questions (or clusters)",
        "Coverage and width of the percentile bootstrap interval when resampling the "
        "wrong unit (answers, or questions) against the right one (questions carrying "
        "their answers, or whole clusters).",
        "evalbars simulate wrong-unit --mode answers --units 100 --per-unit 5",
        {"mode": "answers", "units": None, "per_unit": None, "accuracy": 0.70, "icc": None,
         **_RUN}),
    "winners-curse": (
        "the best of many null candidates, confirmed on fresh questions",
        "Pick the best of --candidates variants with no true effect against one "
        "baseline: its apparent gain, its gain on fresh questions, and how often any "
        "passes a test with and without the Bonferroni correction.",
        "evalbars simulate winners-curse --candidates 20 --n 500",
        {"candidates": 20, "n": 500, **_PAIR, **_RUN}),
    "clustering": (
        "naive against clustered intervals for clustered questions",
        "Coverage of the naive and the clustered (CR0) interval of an accuracy when "
        "questions come in clusters with a given intraclass correlation.",
        "evalbars simulate clustering --clusters 50 --per-cluster 10 --icc 0.2",
        {"clusters": 50, "per_cluster": 10, "accuracy": 0.70, "icc": 0.2, **_RUN}),
    "misaligned": (
        "a paired analysis after one file was shuffled before the join",
        "Shuffle model B's rows before a positional join and watch the paired analysis "
        "fail silently (disagreement up, interval wider, McNemar's p not significant), "
        "against the join on question ids. Reads DATA [DATA2] like 'compare', or "
        "simulates a fake pair.",
        "evalbars simulate misaligned examples/lesson_pair.csv",
        {"a": None, "b": None, "n": None, "accuracy": None, "gap": None,
         "disagreement": None, "correlation": None, **_RUN}),
    "coverage": (
        "the calibration study: coverage of every interval, error of every test",
        "How often each of evalbars' 95% intervals covers the truth and how often each "
        "test rejects a true null (and finds a real gap), on a grid of simulated "
        "settings, each rate with its Monte Carlo error (exact for 0/1 data where "
        "possible). The full grid takes minutes; --methods and --n run part of it.",
        "evalbars simulate coverage --methods wald wilson --n 20 100",
        {"methods": None, "n": (10, 30, 100, 500, 5000), "datasets": 2000,
         "n_resamples": 1000, "alpha": 0.05, "seed": 0}),
}
"""name -> (help, description, example, {API keyword: default shown in help})."""


def _run(name: str, args: argparse.Namespace) -> dict:
    from .. import simulate

    keywords = {key: getattr(args, key) for key in SIMULATIONS[name][3]
                if getattr(args, key) is not None}
    if name == "fake-pair":
        result = simulate.fake_pair(**keywords)
        result.write_csv(args.output)
        print(f"evalbars: wrote {len(result.items):,} questions to {args.output}",
              file=sys.stderr)
        return result.to_dict()
    if name == "misaligned":
        keywords.update(data=args.data, data2=args.data2, **load_options(args))
    return simulate.SIMULATIONS[name](**keywords, progress=True).to_dict()


def _add(names, name: str) -> None:
    summary, description, example, defaults = SIMULATIONS[name]
    parser = names.add_parser(name, help=summary, description=description,
                              epilog=f"Example: {example}   (see docs/{_DOCS.get(name, 'simulate')}.md)")
    if name == "misaligned":
        parser.add_argument("data", nargs="?", help="0/1 results file (default: a fake pair)")
        parser.add_argument("data2", nargs="?", help="a second file, one model per file")
        add_column_options(parser.add_argument_group(COLUMNS_GROUP))
    if name == "fake-pair":
        parser.add_argument("-o", "--output", required=True, metavar="FILE",
                            help="the results file to write (CSV)")
    for key, default in defaults.items():
        option = dict(_SPECIAL.get((name, key), _OPTIONS[key]))
        if name == "misaligned" and key in _PAIR_SETTINGS:
            option["help"] = "without DATA (fake pair): " + option["help"]
            default = SIMULATIONS["fake-pair"][3][key]
        if isinstance(default, tuple):
            option["help"] += f" (default: {' '.join(map(str, default))})"
        elif default is not None:
            option["help"] += f" (default: {default:,})" if isinstance(default, int) \
                else f" (default: {default})"
        parser.add_argument("--" + key.replace("_", "-"), dest=key, **option)
    add_format(parser)
    parser.set_defaults(handler=lambda args: _run(name, args))


def register(commands) -> None:
    """Add the ``simulate`` parser with one subcommand per simulation."""
    parser = commands.add_parser(
        "simulate", help="simulated experiments that show why the statistics matter",
        description="The simulation lab: simulate many experiments and count how often "
                    "things happen, each rate with its Monte Carlo error. Settings are "
                    "fractions (0.008 = 0.8 points).",
        epilog="Example: evalbars simulate aa --n 500   (see docs/simulate.md)")
    names = parser.add_subparsers(dest="simulation", required=True, metavar="NAME")
    for name in SIMULATIONS:
        _add(names, name)
