"""`evalbars seeds`: several training runs per recipe; the recipe comparison with runs as units."""
from __future__ import annotations

import argparse

from ._options import (
    COLUMNS_GROUP,
    add_column_options,
    add_settings,
    analysis_settings,
    load_options,
)


def document(args: argparse.Namespace) -> dict:
    """The ``seeds`` document of parsed arguments: run on DATA, or read from --from-json.

    ``evalbars plot seeds`` uses it too (with --from-json, see :func:`add_arguments`).
    """
    from ..analyses.seeds import seeds
    from .report import saved_document

    saved = saved_document(args)
    if saved is not None:
        return saved
    return seeds(args.data, args.data2, a=args.a, b=args.b, **load_options(args),
                 **analysis_settings(args, progress=False)).to_dict()


def add_arguments(parser: argparse.ArgumentParser, *, from_json: bool = False) -> None:
    """DATA [DATA2], the column options with --run, --a and --b (and not the settings).

    ``from_json=True`` makes DATA optional and adds --from-json (a saved seeds document).
    """
    parser.add_argument("data", nargs="?" if from_json else None,
                        help="results file (.csv, .jsonl, .parquet) with a run column"
                             + (" (or give --from-json)" if from_json else ""))
    if from_json:
        parser.add_argument("--from-json", metavar="FILE",
                            help="a saved seeds document (evalbars seeds ... --format json) "
                                 "instead of DATA")
    parser.add_argument("data2", nargs="?", default=None,
                        help="a second results file, one recipe per file (both with the run "
                             "column), joined on the id")
    add_column_options(parser.add_argument_group(COLUMNS_GROUP),
                       model="long layout: column naming the recipe (model) of each row",
                       run="column naming each row's training run (seed): required")
    group = parser.add_argument_group("recipes")
    group.add_argument("--a", metavar="RECIPE", help="the baseline recipe of the comparison")
    group.add_argument("--b", metavar="RECIPE",
                       help="the recipe compared against it (difference b - a); default: the "
                            "second of exactly two recipes against the first")


def register(commands) -> None:
    """Add the ``seeds`` parser."""
    parser = commands.add_parser(
        "seeds", help="training seeds: each run, each recipe, and recipes compared over runs",
        description="Several independent training runs (seeds) per recipe, each scored on the "
                    "same questions: each run's score with its interval, each recipe's mean "
                    "and sd across runs, the share of a run's variance that comes from seeds "
                    "rather than questions, and for two recipes the difference of their means "
                    "with runs as the unit and questions paired: a t interval with "
                    "Welch-Satterthwaite degrees of freedom (honest with few runs) and a "
                    "two-level bootstrap over runs and questions. Fewer than 3 runs per recipe "
                    "draws a warning; a recipe with one run is a claim about one checkpoint.",
        epilog="Example: evalbars seeds examples/seeds.csv --run seed   (see docs/seeds.md)")
    add_arguments(parser)
    add_settings(parser)
    parser.set_defaults(handler=document)
