"""The data an analysis reads: the user's input and loading options, as ItemScores.

Every entry point that reads data takes the options of :func:`evalbars.io.ingest.load` as
``**load_options``: :func:`takes_load_options` shows them in its signature (``help()``,
``inspect.signature``, Jupyter) and refuses unknown keywords, naming the closest of all the
function's options, :func:`read_scores` checks and applies them (and reads a plain list,
array or pandas Series of scores as one model, see :mod:`evalbars.io.sequences`), and
:func:`pick_pair` chooses the two models a paired analysis compares.
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import inspect
from typing import Callable, Mapping, Sequence

from ..core.errors import EvalbarsError
from .ingest import ItemScores, load
from .keywords import check_known, named, rewording
from .sequences import as_tables
from .table import name_list, short

ANALYSIS_LABELS = ("stratum", "split", "order")
"""The parameters of :func:`evalbars.io.ingest.load` that name what an analysis asks of the
data (the strata it weighs, the split a selection confirms on, the order a monitor
watches): each analysis that asks takes one of its own and reads it with the scores."""

_LOAD_PARAMETERS = tuple(
    parameter for parameter in inspect.signature(load).parameters.values()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    and parameter.name not in ("models", *ANALYSIS_LABELS))

LOAD_OPTIONS = tuple(parameter.name for parameter in _LOAD_PARAMETERS)
"""How to read the data: the keyword parameters of :func:`evalbars.io.ingest.load` except
``models``, which each analysis chooses in its own terms (``models``, ``a``/``b``,
``baseline``, ...), and :data:`ANALYSIS_LABELS`."""

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
     'input_format', 'metric', 'eval_split', 'scorer', 'qrels', 'engine', 'spark']
    >>> inspect.signature(count).parameters["score_type"]
    <Parameter "score_type: 'str' = 'auto'">
    >>> count("examples/lesson_pair.csv", item="qid")
    500

    An unknown keyword is refused before the function runs, naming the closest of all its
    options (its own and the loading ones) and listing both:

    >>> count("examples/lesson_pair.csv", rn="seed")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: unknown keyword argument rn='seed' (did you mean \
run?); count() takes the options run, and reads the data with the options item, model, \
score, score_type, intersect, cluster, sample, input_format, metric, eval_split, \
scorer, qrels, engine, spark of evalbars.load
    """
    own = inspect.signature(function)
    parameters = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
    named = {p.name for p in parameters}
    parameters += [p for p in _LOAD_PARAMETERS if p.name not in named]
    accepted = frozenset(p.name for p in parameters)
    own_options = tuple(p.name for p in own.parameters.values() if p.kind is p.KEYWORD_ONLY)

    @functools.wraps(function)
    def checked(*args, **kwargs):
        unknown = [name for name in kwargs if name not in accepted]
        if unknown:
            raise _unknown(kwargs, unknown, own_options, f"{function.__name__}()")
        return function(*args, **kwargs)

    checked.__signature__ = own.replace(parameters=parameters)
    return checked


def read_scores(data, data2=None, models: Sequence[str] | None = None, *,
                named_by: Mapping[str, object] | None = None, training_runs: bool = False,
                stratum: str | None = None, split: str | None = None,
                order: str | None = None, **load_options) -> ItemScores:
    """``data`` (and ``data2``) read by :func:`evalbars.io.ingest.load`, or as already loaded.

    ``stratum``, ``split`` and ``order`` are read with the scores, in the same pass; loaded
    ItemScores must carry the ``stratum`` and ``split`` labels asked for
    (:meth:`~evalbars.io.item_scores.ItemScores.label`).

    ``named_by`` maps the analysis' keywords to the model names they gave (default
    ``{"models": models}``): an unknown model's error names the keyword that gave it
    (:mod:`evalbars.io.keywords`). Loaded :class:`~evalbars.io.item_scores.ItemScores` come
    back as they are, after checking that ``models`` are among theirs; ``data2`` and
    loading options other than load's defaults are refused with them, since there is
    nothing left to read. ``run=`` is refused unless the analysis compares
    ``training_runs`` (only :func:`evalbars.seeds` does): elsewhere ``models`` would name
    recipes to read but ``model@run`` systems to analyse.

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
    >>> read_scores(scores, models=["system_a", "system_c"],
    ...             named_by={"a": "system_a", "b": "system_c"})
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: unknown model 'system_c' (b=); the data has \
'system_a', 'system_b'
    >>> read_scores("examples/cookbook_topics.csv", clustr="topic_id")
    Traceback (most recent call last):
    ...
    evalbars.core.errors.EvalbarsError: unknown keyword argument clustr='topic_id' (did you mean \
cluster?); the data is read with the options item, model, score, score_type, intersect, \
cluster, sample, run, input_format, metric, eval_split, scorer, qrels, engine, spark \
of evalbars.load
    """
    _check_names(load_options)
    run = load_options.get("run")
    if run is not None and not training_runs:
        raise EvalbarsError(
            f"run={short(run)} reads training runs, which this analysis does not model: "
            "evalbars.seeds (evalbars seeds --run COL) compares recipes over their runs; "
            "to analyse each run as a model of its own, named 'model@run', load the data "
            f"with evalbars.load(..., run={short(run)}) and pass that")
    named_by = {"models": models} if named_by is None else named_by
    if not isinstance(data, ItemScores):
        data, data2, models, note = as_tables(
            data, data2, models, {**load_options, "stratum": stratum, "split": split,
                                  "order": order})
        with rewording(lambda message: named(message, named_by)):
            scores = load(data, data2, models=models, stratum=stratum, split=split,
                          order=order, **load_options)
        if note is None:
            return scores
        return dataclasses.replace(scores, source={**scores.source, "note": note})
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
        check_known(named_by, data.models)
    for role, column in (("stratum", stratum), ("split", split)):
        if column is not None:
            data.label(role, column)
    return data


_SYNONYMS = {
    "alpha": "confidence_level", "level": "confidence_level", "conf_level": "confidence_level",
    "confidence": "confidence_level", "n_bootstrap": "n_resamples", "n_boot": "n_resamples",
    "bootstrap": "n_resamples", "resamples": "n_resamples", "random_state": "seed",
    "a": "baseline", "b": "candidate", "baseline": "a", "candidate": "b",
}
"""Names other libraries (or other evalbars functions) use for an option: suggested when
the function has the option and not the name (``alpha`` for ``confidence_level``,
``a``/``b`` for gate's ``baseline``/``candidate``)."""


def _check_names(load_options: dict) -> None:
    unknown = [name for name in load_options if name not in _DEFAULTS]
    if unknown:
        raise _unknown(load_options, unknown, (), "")


def _unknown(given: dict, unknown: list[str], own: Sequence[str],
             function: str) -> EvalbarsError:
    """The error for ``unknown`` keywords of ``function``: each with the closest of all
    its options (``own`` and the loading ones), then both lists."""
    loading = [name for name in LOAD_OPTIONS if name not in own]
    options = [*own, *loading]
    named = []
    for name in unknown:
        closest = _closest(name, options)
        hint = ""
        if closest == "confidence_level" and name == "alpha" and \
                isinstance(given[name], float) and 0 < given[name] < 1:
            hint = f" (did you mean confidence_level={1 - given[name]:g}?)"
        elif closest is not None:
            hint = f" (did you mean {closest}?)"
        named.append(f"{name}={short(given[name])}{hint}")
    reads = f"{function} takes the options {', '.join(own)}, and reads the data" if own \
        else "the data is read"
    return EvalbarsError(
        f"unknown keyword argument{'s' if len(unknown) > 1 else ''} {', '.join(named)}; "
        f"{reads} with the options {', '.join(loading)} of evalbars.load")


def _closest(name: str, options: Sequence[str]) -> str | None:
    """The option ``name`` most likely misspells: a known synonym, else the most similar
    of those at least 80% alike (difflib) or one edit away; None when none is close.

    >>> _closest("n_resample", ["sample", "n_resamples"]), _closest("n_resample", ["sample"])
    ('n_resamples', None)
    >>> _closest("itme", ["item", "model"]), _closest("confidence", ["confidence_level"])
    ('item', 'confidence_level')
    """
    if _SYNONYMS.get(name) in options:
        return _SYNONYMS[name]
    scored = [(difflib.SequenceMatcher(None, name, option).ratio(), option)
              for option in options]
    close = [(ratio, option) for ratio, option in scored
             if ratio >= 0.8 or _one_edit(name, option)]
    return max(close, key=lambda pair: pair[0])[1] if close else None


def _one_edit(a: str, b: str) -> bool:
    """One letter added, dropped, changed or two neighbours swapped (names of 3+ letters)."""
    if abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < 3:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    shorter, longer = sorted((a, b), key=len)
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def pair_names(models: Sequence[str] | None, a: str | None, b: str | None,
               words: tuple[str, str] = ("a", "b")) -> tuple[str | None, str | None]:
    """``(a, b)``, taken from ``models=[a, b]`` when given: how two files are named.

    ``words`` are the function's names for the two (``baseline``, ``candidate``).

    >>> pair_names(["model_a", "model_b"], None, None)
    ('model_a', 'model_b')
    """
    if models is None:
        return a, b
    pair = [models] if isinstance(models, str) else list(models)
    first, second = words
    if len(pair) != 2:
        raise EvalbarsError(
            f"models= names the two models, {first} then {second}; got {len(pair)} "
            f"({short(pair)}): write {first}='A', {second}='B', or models=['A', 'B']")
    if (a is not None and a != pair[0]) or (b is not None and b != pair[1]):
        raise EvalbarsError(f"models={short(pair)} and {first}=/{second}= name different "
                            f"models; give the two once, as {first}= and {second}=")
    return pair[0], pair[1]


def pick_pair(scores: ItemScores, a: str | None, b: str | None) -> tuple[str, str]:
    """The two models ``(a, b)`` to compare: as given, or the data's only two.

    With only one of ``a`` and ``b`` given on two-model data, the other model is the other
    one; on data with more models both are needed.

    >>> pick_pair(read_scores("examples/lesson_pair.csv"), None, None)
    ('model_a', 'model_b')
    """
    if a is None and b is None:
        if len(scores.models) < 2:
            raise EvalbarsError(f"the data has one model ({name_list(scores.models)}); a "
                                "paired comparison needs two, on the same questions")
        if len(scores.models) > 2:
            raise EvalbarsError(
                f"the data has {len(scores.models)} models ({name_list(scores.models)}); "
                "choose two with a= and b= (--a and --b)")
        return scores.models[0], scores.models[1]
    if a is None or b is None:
        given, other = ("a", "b") if b is None else ("b", "a")
        name = a if b is None else b
        if name in scores.models and len(scores.models) == 2:
            rest = scores.models[1 - scores.models.index(name)]
            return (name, rest) if b is None else (rest, name)
        if name in scores.models:
            raise EvalbarsError(f"give both a= and b= (--a and --b): {given}={short(name)} "
                                f"alone leaves {other} open among the data's "
                                f"{len(scores.models)} models ({name_list(scores.models)})")
    check_known({"a": a, "b": b}, scores.models)
    return a, b
