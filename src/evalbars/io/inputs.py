"""The data an analysis reads: the user's input and loading options, as ItemScores.

Every entry point that reads data takes the options of :func:`evalbars.io.ingest.load` as
``**load_options``: :func:`takes_load_options` shows them in its signature (``help()``,
``inspect.signature``, Jupyter), :func:`read_scores` checks and applies them, and
:func:`pick_pair` chooses the two models a paired analysis compares.
"""
from __future__ import annotations

import difflib
import inspect
from typing import Callable, Sequence

from ..core.errors import EvalbarsError
from .ingest import ItemScores, load
from .table import name_list, short

_LOAD_PARAMETERS = tuple(
    parameter for parameter in inspect.signature(load).parameters.values()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.name != "models")

LOAD_OPTIONS = tuple(parameter.name for parameter in _LOAD_PARAMETERS)
"""How to read the data: the keyword parameters of :func:`evalbars.io.ingest.load` except
``models``, which each analysis chooses in its own terms (``models``, ``a``/``b``,
``baseline``, ...)."""

_DEFAULTS = {parameter.name: parameter.default for parameter in _LOAD_PARAMETERS}


def takes_load_options(function: Callable) -> Callable:
    """Show ``function``'s ``**load_options`` as the loading parameters of ``load``.

    The signature becomes the function's own parameters followed by those of
    :data:`LOAD_OPTIONS` it does not name itself, with load's defaults and annotations.

    Examples
    --------
    >>> @takes_load_options
    ... def count(data, *, run=None, **load_options):
    ...     return len(read_scores(data, run=run, **load_options).items)
    >>> list(inspect.signature(count).parameters)  # doctest: +NORMALIZE_WHITESPACE
    ['data', 'run', 'item', 'model', 'score', 'score_type', 'intersect', 'cluster', 'sample',
     'input_format', 'metric', 'scorer', 'qrels']
    >>> inspect.signature(count).parameters["score_type"]
    <Parameter "score_type: 'str' = 'auto'">
    >>> count("examples/lesson_pair.csv", item="qid")
    500
    """
    own = inspect.signature(function)
    parameters = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
    named = {p.name for p in parameters}
    parameters += [p for p in _LOAD_PARAMETERS if p.name not in named]
    function.__signature__ = own.replace(parameters=parameters)
    return function


def read_scores(data, data2=None, models: Sequence[str] | None = None, *,
                training_runs: bool = False, **load_options) -> ItemScores:
    """``data`` (and ``data2``) read by :func:`evalbars.io.ingest.load`, or as already loaded.

    Loaded :class:`~evalbars.io.item_scores.ItemScores` come back as they are, after checking
    that ``models`` are among theirs; ``data2`` and loading options other than load's
    defaults are refused with them, since there is nothing left to read. ``run=`` is
    refused unless the analysis compares ``training_runs`` (only
    :func:`evalbars.seeds` does): elsewhere ``models`` would name recipes to read
    but ``model@run`` systems to analyse.

    Raises
    ------
    EvalbarsError
        For an unknown option (naming the closest one), ``run=`` where runs are not
        analysed, options or ``data2`` given with loaded ItemScores, unknown models, and
        every error of :func:`evalbars.io.ingest.load`.

    Examples
    --------
    >>> scores = read_scores("examples/cookbook_topics.csv", cluster="topic_id")
    >>> read_scores(scores, models=["system_b"]) is scores
    True
    >>> read_scores("examples/cookbook_topics.csv", clustr="topic_id")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: unknown keyword argument clustr='topic_id' (did you mean \
cluster?); the data is read with the options item, model, score, score_type, intersect, \
cluster, sample, run, input_format, metric, scorer, qrels of evalbars.load
    """
    _check_names(load_options)
    run = load_options.get("run")
    if run is not None and not training_runs:
        raise EvalbarsError(
            f"run={short(run)} reads training runs, which this analysis does not model: "
            "evalbars.seeds (evalbars seeds --run COL) compares recipes over their runs; "
            "to analyse each run as a model of its own, named 'model@run', load the data "
            f"with evalbars.load(..., run={short(run)}) and pass that")
    if not isinstance(data, ItemScores):
        return load(data, data2, models=models, **load_options)
    if data2 is not None:
        raise EvalbarsError("data2 cannot be combined with already loaded ItemScores")
    given = {name: value for name, value in load_options.items() if value != _DEFAULTS[name]}
    if given:
        listed = ", ".join(f"{name}={short(value)}" for name, value in given.items())
        raise EvalbarsError(f"{listed} {'says' if len(given) == 1 else 'say'} how to read a "
                            "file, but data is already loaded ItemScores; give "
                            f"{'it' if len(given) == 1 else 'them'} to evalbars.load, or "
                            "pass the file or DataFrame")
    if models is not None:
        unknown = [m for m in models if m not in data.models]
        if unknown:
            raise EvalbarsError(f"unknown model(s) {name_list(unknown)}; the data has "
                                f"{name_list(data.models)}")
    return data


def _check_names(load_options: dict) -> None:
    unknown = [name for name in load_options if name not in _DEFAULTS]
    if not unknown:
        return
    named = []
    for name in unknown:
        closest = difflib.get_close_matches(name, LOAD_OPTIONS, n=1)
        hint = f" (did you mean {closest[0]}?)" if closest else ""
        named.append(f"{name}={short(load_options[name])}{hint}")
    raise EvalbarsError(
        f"unknown keyword argument{'s' if len(unknown) > 1 else ''} {', '.join(named)}; the "
        f"data is read with the options {', '.join(LOAD_OPTIONS)} of evalbars.load")


def pick_pair(scores: ItemScores, a: str | None, b: str | None) -> tuple[str, str]:
    """The two models ``(a, b)`` to compare: as given, or the data's only two.

    >>> pick_pair(read_scores("examples/lesson_pair.csv"), None, None)
    ('model_a', 'model_b')
    """
    if a is None and b is None:
        if len(scores.models) != 2:
            raise EvalbarsError(
                f"the data has {len(scores.models)} models ({name_list(scores.models)}); "
                "choose two with a= and b= (--a/--b)")
        return scores.models[0], scores.models[1]
    if a is None or b is None:
        raise EvalbarsError("give both a= and b= (--a and --b), or neither when the data has "
                            "exactly two models")
    for name in (a, b):
        if name not in scores.models:
            raise EvalbarsError(f"unknown model {short(name)}; the data has "
                                f"{name_list(scores.models)}")
    return a, b
