"""Options shared by several commands, so every command spells them the same way."""
from __future__ import annotations

import argparse

LOG_FORMATS = ("lm-eval", "inspect", "promptfoo", "openai-evals", "helm", "trec")
"""The formats --input-format names (evalbars.logs.FORMATS; a test keeps them the same)."""


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """DATA [DATA2] and the column options of :func:`evalbars.ingest.load`."""
    parser.add_argument("data", help="results file (.csv, .jsonl, .parquet), or a harness log "
                                     "file or folder (docs/logs.md)")
    parser.add_argument("data2", nargs="?", default=None,
                        help="a second results file, one model per file, joined on the id "
                             "(or a second log)")
    add_column_options(parser.add_argument_group("columns (auto-detected when left out; printed)"),
                       logs=True)


def add_column_options(group, *, sample: bool = True, logs: bool = False, run: bool = False,
                       **helps: str) -> None:
    """--item, --model, --score, --score-type, --intersect, --cluster, --sample (and --run).

    ``group`` is a parser or an argument group. ``sample=False`` leaves out --sample;
    ``run=True`` adds --run (for commands whose API takes ``run=``); ``logs=True`` adds the
    harness-log options --input-format, --metric, --scorer and --qrels; ``helps`` replaces
    the help of an option, keyed by its name (``cluster="..."``).
    """
    options = {
        "item": dict(help="column with the question id"),
        "model": dict(help="long layout: column naming the model of each row"),
        "score": dict(help="long layout or two files: column with the score"),
        "score_type": dict(choices=("auto", "binary", "continuous"), default="auto",
                           help="auto: binary when every score is 0 or 1 (default: auto)"),
        "intersect": dict(action="store_true",
                          help="keep only items scored for every model; report how many "
                               "dropped"),
        "cluster": dict(metavar="COL",
                        help="column giving each question's cluster (document, topic, "
                             "session): clusters, not questions, are then the independent "
                             "units"),
        "sample": dict(metavar="COL",
                       help="column telling apart several sampled answers to the same "
                            "question by the same model (epoch or repeat index); they count "
                            "as one question"),
    }
    if run:
        options["run"] = dict(metavar="COL",
                              help="column telling apart independent training runs (seeds) of "
                                   "each model, every run scored on the same questions; each "
                                   "(model, run) pair is scored as a system 'model@run'")
    if logs:
        options.update({
            "input_format": dict(
                metavar="FORMAT", default="auto",
                help="auto (default: logs are recognised by name and content), table (read "
                     "by extension), or a log format: " + ", ".join(LOG_FORMATS)),
            "metric": dict(metavar="NAME",
                           help="logs: the per-question metric (lm-eval exact_match or "
                                "exact_match,FILTER; TREC nDCG@10, RR, AP, ...); each "
                                "format's default is printed"),
            "scorer": dict(metavar="NAME",
                           help="inspect logs with several scorers: the one to compare"),
            "qrels": dict(metavar="QRELS",
                          help="TREC run files: the relevance judgements to score them "
                               "against"),
        })
        options["cluster"]["help"] += ("; logs: task or doc.KEY (lm-eval), metadata.KEY "
                                       "(inspect, promptfoo), vars.KEY (promptfoo)")
    for name, text in helps.items():
        options[name]["help"] = text
    if not sample:
        del options["sample"]
    for name, spec in options.items():
        group.add_argument("--" + name.replace("_", "-"), **spec)


def load_options(args: argparse.Namespace) -> dict:
    """Keyword arguments for the API's loading parameters, from parsed arguments.

    ``cluster``, ``sample``, ``run`` and the log options (``input_format`` other than auto,
    ``metric``, ``scorer``, ``qrels``) are included only when given.
    """
    options = dict(item=args.item, model=args.model, score=args.score,
                   score_type=args.score_type, intersect=args.intersect)
    for name in ("cluster", "sample", "run", "metric", "scorer", "qrels"):
        if getattr(args, name, None) is not None:
            options[name] = getattr(args, name)
    if getattr(args, "input_format", "auto") != "auto":
        options["input_format"] = args.input_format
    return options


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
