"""Options shared by several commands, so every command spells them the same way."""
from __future__ import annotations

import argparse

LOG_FORMATS = ("lm-eval", "lmms-eval", "inspect", "promptfoo", "openai-evals", "helm", "trec",
               "lighteval", "evalplus", "swebench", "alpacaeval")
"""The formats --input-format names (evalbars.io.logs.FORMATS; a test keeps them the same)."""

CORRECTIONS = ("holm", "bonferroni", "hochberg", "hommel", "benjamini-hochberg",
               "benjamini-yekutieli")
"""The choices of --correction (evalbars.stats.multiplicity.METHODS; a test keeps them the same)."""

ALTERNATIVES = ("two-sided", "greater", "less")
"""The choices of --alternative (evalbars.stats.tails.ALTERNATIVES; a test keeps them the same)."""


class _OneOrTwo(argparse.Action):
    """``--item COL``: one column for every file; given twice, ``--item COL --item COL2``,
    one per file (the first file's, then the second's)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, self.dest)
        if isinstance(given, tuple):
            parser.error(f"{option_string} is given more than twice; give it once (one column "
                         f"for both files) or twice (one per file: {option_string} COL "
                         f"{option_string} COL2)")
        setattr(namespace, self.dest, values if given is None else (given, values))


COLUMNS_GROUP = "columns (auto-detected when left out; printed)"
"""The title of the group of loading options in a command's help."""

LOAD_FLAGS = {
    "item": dict(default=None, action=_OneOrTwo, metavar="COL",
                 help="column with the question id (two files with different id columns: "
                      "--item COL --item COL2, one per file)"),
    "model": dict(default=None, help="long layout: column naming the model of each row"),
    "score": dict(default=None, help="long layout or two files: column with the score"),
    "score_type": dict(choices=("auto", "binary", "continuous"), default="auto",
                       help="auto: binary when every score is 0 or 1 (default: auto)"),
    "intersect": dict(action="store_true", default=False,
                      help="keep only items scored for every model; report how many dropped"),
    "cluster": dict(metavar="COL", default=None,
                    help="column giving each question's cluster (document, topic, session): "
                         "clusters, not questions, are then the independent units; logs: "
                         "task or doc.KEY (lm-eval), metadata.KEY (inspect, promptfoo), "
                         "vars.KEY (promptfoo)"),
    "sample": dict(metavar="COL", default=None,
                   help="column telling apart several sampled answers to the same question by "
                        "the same model (epoch or repeat index); they count as one question"),
    "run": dict(metavar="COL", default=None,
                help="column naming each row's training run (seed): for evalbars seeds, "
                     "which compares recipes over their runs; the other analyses refuse it"),
    "input_format": dict(metavar="FORMAT", default="auto",
                         help="auto (default: logs are recognised by name and content), table "
                              "(read by extension), or a log format: " + ", ".join(LOG_FORMATS)),
    "metric": dict(metavar="NAME", default=None,
                   help="logs: the per-question metric (lm-eval exact_match or "
                        "exact_match,FILTER; TREC nDCG@10, RR, AP, ...; EvalPlus plus or base; "
                        "AlpacaEval win_rate or discrete); each format's default "
                        "is printed"),
    "eval_split": dict(metavar="SPLIT", default=None,
                  help="HELM runs: the split to read (default test, as HELM reports it)"),
    "scorer": dict(metavar="NAME", default=None,
                   help="inspect logs with several scorers: the one to compare"),
    "qrels": dict(metavar="QRELS", default=None,
                  help="TREC run files: the relevance judgements to score them against"),
    "engine": dict(choices=("auto", "memory", "duckdb", "spark"), default="auto",
                   help="where rows are read, checked and reduced: memory, duckdb (in "
                        "process), spark, or auto (default: duckdb for long tables of 16 MiB "
                        "or more, globs and URLs; docs/scale.md)"),
    "spark": dict(metavar="URL", default=None, dest="spark",
                  help="the Spark master for --engine spark (local[2]: this machine)"),
}
"""argparse settings of the loading options, by the API keyword (``evalbars.io.ingest.load``'s
options: spelled out here so that building the parser imports no numpy; a test checks that
names and defaults agree)."""


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """DATA [DATA2] and the loading options of :func:`evalbars.io.ingest.load`."""
    parser.add_argument("data", help="results file (.csv, .jsonl, .parquet), or a harness log "
                                     "file or folder (docs/logs.md)")
    parser.add_argument("data2", nargs="?", default=None,
                        help="a second results file, one model per file, joined on the id "
                             "(or a second log)")
    add_column_options(parser.add_argument_group(COLUMNS_GROUP))


def add_column_options(group, **helps: str) -> None:
    """--item, --model, --score, ..., --qrels: every option of :data:`LOAD_FLAGS`.

    ``group`` is a parser or an argument group; ``helps`` replaces the help of an option,
    keyed by its name (``cluster="..."``).
    """
    for (name, spec), flag in zip(LOAD_FLAGS.items(), flags(LOAD_FLAGS)):
        group.add_argument(flag, **{**spec, "help": helps.get(name, spec["help"])})


def load_options(args: argparse.Namespace) -> dict:
    """The loading options given on the command line, as API keyword arguments.

    Options left at their defaults are left out, so the API's defaults apply.
    """
    return {name: getattr(args, name) for name, spec in LOAD_FLAGS.items()
            if getattr(args, name) != spec["default"]}


_SPELLED = {"spark": "spark_master"}
"""API keywords whose flag says more than their name: ``spark`` -> ``--spark-master``."""


def flags(names) -> list[str]:
    """The command-line spelling of API keywords: ``score_type`` -> ``--score-type``."""
    return ["--" + _SPELLED.get(name, name).replace("_", "-") for name in names]


def analysis_settings(args: argparse.Namespace, *, progress: bool = True) -> dict:
    """The API's settings keywords from parsed arguments (with a progress bar, for the
    analyses that draw one)."""
    settings = dict(confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                    seed=args.seed)
    if progress:
        settings["progress"] = True
    return settings


def add_correction(parser: argparse.ArgumentParser, over: str, *,
                   default: str | None = "holm") -> None:
    """--correction: the p-value adjustment over ``over`` (evalbars.stats.multiplicity.METHODS)."""
    parser.add_argument("--correction", choices=CORRECTIONS,
                        default=default, help=f"p-value adjustment over {over} (default: holm)")


def add_alternative(group, what: str) -> None:
    """--alternative two-sided|greater|less: the side of the question (greater: B better)."""
    group.add_argument("--alternative", choices=ALTERNATIVES, default="two-sided",
                       help=f"two-sided (default), greater (B better than A) or less (B worse "
                            f"than A): one-sided {what}")


def add_settings(parser: argparse.ArgumentParser, *, resamples: bool = True,
                 confidence_level: bool = True) -> None:
    """--confidence-level, --n-resamples, --seed and --format."""
    group = parser.add_argument_group("settings")
    if confidence_level:
        group.add_argument("--confidence-level", type=float, default=0.95, metavar="LEVEL",
                           help="interval level (default: 0.95)")
    if resamples:
        group.add_argument("--n-resamples", type=int, default=10_000, metavar="B",
                           help="bootstrap and permutation resamples (default: 10000)")
        group.add_argument("--seed", type=int, default=0,
                           help="random seed, recorded in the output (default: 0)")
    add_format(group)


def add_format(group) -> None:
    """--format text|json|markdown."""
    group.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                       help="output format (default: text)")


def add_strata(parser: argparse.ArgumentParser) -> None:
    """``--stratum COL`` and ``--weights micro|macro|FILE`` (docs/strata.md)."""
    parser.add_argument("--stratum", metavar="COL",
                        help="column giving each question's stratum (subject, task; logs: a "
                             "field, as for --cluster): adds the weighted aggregate with its "
                             "stratified standard error and each stratum's score")
    parser.add_argument("--weights", default="micro", metavar="micro|macro|FILE",
                        help="how --stratum weighs the strata: micro (by size, the default), "
                             "macro (equally) or a CSV file of stratum,weight rows")
