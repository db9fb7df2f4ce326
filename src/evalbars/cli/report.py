"""`evalbars report`: the report as one file to read or paste: HTML, Markdown or LaTeX.

Also the shared plumbing of the commands that write a file from a document
(``report``, ``plot``): where the document comes from (``--from-json``, or an analysis
of DATA) and how DATA is analysed.
"""
from __future__ import annotations

import argparse

from ._options import add_data_options, add_settings, add_strata, analysis_settings, load_options

WRITERS = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown",
           ".tex": "latex"}
"""Report file types, by suffix."""


def add_source_options(parser: argparse.ArgumentParser, *, pair: bool = True,
                       models: bool = True) -> None:
    """DATA [DATA2] (or --from-json FILE), the column options, the models, the settings."""
    add_data_options(parser)
    for action in parser._actions:  # DATA becomes optional: --from-json can replace it
        if action.dest == "data":
            action.nargs, action.required, action.default = "?", False, None
            action.help += " (or give --from-json)"
    parser.add_argument("--from-json", metavar="FILE",
                        help="a saved report document (any command's --format json) instead "
                             "of DATA")
    if pair:
        parser.add_argument("--a", metavar="NAME", help="the baseline model (column or model "
                                                        "name)")
        parser.add_argument("--b", metavar="NAME", help="the model compared against it")
    if models:
        parser.add_argument("--models", nargs="+", metavar="NAME",
                            help="models to report (default: all)")
    add_settings(parser)


def read_document(path: str) -> dict:
    """A report document saved as JSON, checked to be of a kind evalbars renders.

    Whether it holds every field its kind needs shows only when it is rendered; the
    command line reports a damaged document then (:func:`evalbars.cli.main`).
    """
    import json

    from ..core.errors import EvalbarsError
    from ..report.text.render import known_kinds

    try:
        with open(path, encoding="utf-8") as handle:
            doc = json.load(handle)
    except OSError as error:
        raise EvalbarsError(f"cannot read --from-json {path!r}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise EvalbarsError(f"--from-json {path!r} is not JSON: line {error.lineno}, column "
                            f"{error.colno}: {error.msg}") from None
    except RecursionError:
        raise EvalbarsError(f"--from-json {path!r} is nested too deeply to be an evalbars "
                            "report document") from None
    if not isinstance(doc, dict) or "kind" not in doc or "schema_version" not in doc:
        raise EvalbarsError(f"--from-json {path!r} is not an evalbars report document (a JSON "
                            "object with 'schema_version' and 'kind', as --format json prints)")
    kinds = known_kinds()
    if not isinstance(doc["kind"], str) or doc["kind"] not in kinds:
        raise EvalbarsError(f"--from-json {path!r} is of kind {doc['kind']!r}, which evalbars "
                            f"does not know; kinds are {', '.join(sorted(kinds))}")
    return doc


def saved_document(args: argparse.Namespace) -> dict | None:
    """The document of --from-json when it is given, else None (DATA is to be run).

    Refuses both DATA and --from-json, and neither.
    """
    from ..core.errors import EvalbarsError

    if getattr(args, "from_json", None) is not None:
        if args.data is not None:
            raise EvalbarsError("give DATA or --from-json FILE, not both")
        return read_document(args.from_json)
    if args.data is None:
        raise EvalbarsError("give a results file DATA, or --from-json FILE")
    return None


def source_document(args: argparse.Namespace, kind: str) -> dict:
    """The document to write: read from --from-json, or ``kind`` run on DATA.

    ``kind`` is ``ci``, ``compare``, ``leaderboard`` or ``auto`` (compare when --a or --b
    is given or the data hold exactly two models, else ci). With --stratum (or --weights),
    the analysis reads DATA itself, as the command of that kind does with them.
    """
    from ..core.errors import EvalbarsError

    stratum, weights = getattr(args, "stratum", None), getattr(args, "weights", "micro")
    saved = saved_document(args)
    if saved is not None:
        if stratum is not None or weights != "micro":
            raise EvalbarsError("--stratum and --weights say how to analyse DATA; a "
                                "--from-json document already holds its strata")
        return saved
    from ..analyses import compare as api
    from ..io.inputs import read_scores

    models, a, b = getattr(args, "models", None), getattr(args, "a", None), getattr(args, "b", None)
    if models and (a or b):
        raise EvalbarsError("--models chooses the models of a ci report; --a and --b the pair "
                            "of a comparison: give one or the other")
    if kind == "compare" and models is not None and len(models) != 2:
        from ..io.table import name_list

        raise EvalbarsError(f"--models names the two models of --kind compare, A then B; got "
                            f"{len(models)} ({name_list(models)}): write --a A --b B, or "
                            "--models A B")
    scores = read_scores(args.data, args.data2, models, **load_options(args))
    if kind == "auto":
        kind = "compare" if a or b or len(scores.models) == 2 else "ci"
    if stratum is None and weights == "micro":
        data, chosen = (scores,), analysis_settings(args)
    else:  # the strata are a column of DATA, which loaded scores no longer hold
        data = (args.data, args.data2)
        chosen = {"models": models, "stratum": stratum, "weights": weights,
                  **load_options(args), **analysis_settings(args)}
    if kind == "compare":
        return api.compare(*data, a=a, b=b, margin=getattr(args, "margin", None),
                           **chosen).to_dict()
    if kind == "leaderboard":
        from ..analyses.leaderboard import leaderboard

        return leaderboard(*data, **chosen).to_dict()
    return api.ci(*data, **chosen).to_dict()


def _run(args: argparse.Namespace) -> dict:
    from pathlib import Path

    from ..core.errors import EvalbarsError

    suffix = Path(args.output).suffix.lower()
    if suffix not in WRITERS:
        raise EvalbarsError(f"the report file must end in one of {', '.join(WRITERS)}; got "
                            f"{args.output!r}")
    return source_document(args, args.kind)


def _write(args: argparse.Namespace, doc: dict, path: str) -> None:
    """Write the report file of ``doc`` to ``path`` (a temporary file: see evalbars.cli)."""
    from pathlib import Path

    kind = WRITERS[Path(args.output).suffix.lower()]
    if kind == "latex":
        from ..report.files.latex import render_latex as render
    elif kind == "markdown":
        from ..report.files.markdown import render_markdown as render
    else:
        from ..report.files.html import render_html as render
    Path(path).write_text(render(doc), encoding="utf-8")


def register(commands) -> None:
    """Add the ``report`` parser."""
    parser = commands.add_parser(
        "report", help="write the report as one HTML, Markdown or LaTeX file",
        description="Analyse DATA as 'compare' or 'ci' would (or read a saved JSON report of "
                    "any command with --from-json) and write the report to -o: a "
                    "self-contained HTML page (.html: statement, tables, figures, provenance; "
                    "no scripts, no network), Markdown (.md) or a LaTeX table (.tex), and say "
                    "'wrote FILE' on stderr; with --format json (or markdown) the document "
                    "(or the Markdown report) is printed on stdout as well.",
        epilog="Examples: evalbars report examples/lesson_pair.csv -o report.html   |   "
               "evalbars report --from-json result.json -o report.tex   (see docs/reports.md)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the file to write: .html, .md or .tex")
    parser.add_argument("--kind", choices=("auto", "compare", "ci"), default="auto",
                        help="auto: compare for two models (or with --a/--b), else ci "
                             "(default: auto)")
    parser.add_argument("--margin", type=float, metavar="M",
                        help="compare: also non-inferiority and equivalence of B within M "
                             "(a fraction: 0.01 = 1 point)")
    add_source_options(parser)
    add_strata(parser)
    parser.set_defaults(handler=_run, write_output=_write)
