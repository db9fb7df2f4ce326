"""The result statement: one paragraph, written the way a careful paper writes it.

Pure functions of the report document (the dict of ``to_dict()``), so every renderer
shows the same words.
"""
from __future__ import annotations

from scipy.special import ndtri

from . import format as fmt
from .labels import method_name, named_test

UNMEASURED = ("Each model was scored once per question, no training seeds were varied and "
              "no question clusters were given, so these intervals reflect question "
              "sampling only.")


def unmeasured_noise(doc: dict) -> str:
    """The last sentence: which noise the intervals include, and which they leave out.

    Every model is read: one model with several answers per question is enough for the
    intervals to include sampling noise.
    """
    models = doc["models"]
    clustered = next((m["clustered"] for m in models if m.get("clustered") is not None), None)
    sampled = [m.get("samples") for m in models]
    if clustered is None and all(s is None for s in sampled):
        return UNMEASURED
    column = doc.get("provenance", {}).get("source", {}).get("columns", {}).get("cluster")
    by = f" by {column}" if column else ""
    sentences = []
    if any(s is not None for s in sampled):
        counts = [_answer_count(s) for s in sampled]
        if len(set(counts)) == 1:
            how_many = counts[0]
        else:
            how_many = _and_words([f"{count} by {m['name']}" for count, m in zip(counts, models)])
            how_many += ","
        sentences.append(
            f"Each question was answered {how_many} and is scored by the average of its "
            "answers; the intervals resample questions together with their answers, so they "
            "include sampling noise as well as question noise.")
    if clustered is not None:
        sentences.append(
            f"Questions were treated as clustered{by} ({fmt.count(clustered['n_clusters'])} "
            "clusters): the headline intervals and test take whole clusters as the independent "
            "units, allowing for questions of one cluster rising and falling together.")
    sentences.append("No training seeds were varied" + (
        "." if clustered is not None else " and no question clusters were given."))
    return " ".join(sentences)


def _answer_count(sampled: dict | None) -> str:
    """How many answers each question had, in words (once: no sampled answers)."""
    if sampled is None:
        return "once"
    answers = sampled["answers"]
    if answers["min"] == answers["max"]:
        return f"{answers['min']} times"
    return f"{answers['mean']:.1f} times on average ({answers['min']} to {answers['max']})"


def _and_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _headline(intervals: list[dict]) -> dict:
    return intervals[0]


def _score_phrase(model: dict, score_type: str, level: float, first: bool) -> str:
    """One model's score and headline interval; for 0/1 answers (averaged when sampled) an
    interval reaching past 0% or 100% is shown cut to the scale, and says so.

    >>> _score_phrase({"name": "m", "mean": 0.833, "intervals": [
    ...     {"method": "t", "low": 0.116, "high": 1.55}]}, "binary", 0.95, True)
    'm scored 83.3% (95% CI 11.6 to 100.0, t, cut to the 0–100% scale)'
    """
    interval = _headline(model["intervals"])
    if (interval["low"] is None) != (interval["high"] is None):  # ci --alternative
        return _bound_phrase(model, interval, score_type, level, first)
    digits = fmt.decimals_for(score_type, interval["high"] - interval["low"])
    unit = "%" if score_type == "binary" else ""
    low, high = interval["low"], interval["high"]
    cut = score_type == "binary" and (low < 0 or high > 1)
    if cut:
        low, high = max(low, 0.0), min(high, 1.0)
    ends = (f"{fmt.value(low, score_type, digits)} to "
            f"{fmt.value(high, score_type, digits)}")
    mean = fmt.value(model["mean"], score_type, digits) + unit
    if first:
        method = method_name(interval["method"])
        method += ", cut to the 0–100% scale" if cut else ""
        return f"{model['name']} scored {mean} ({fmt.level(level)} CI {ends}, {method})"
    return f"{model['name']} {mean} ({ends}{', cut to the scale' if cut else ''})"


def _bound_phrase(model: dict, interval: dict, score_type: str, level: float,
                  first: bool) -> str:
    """One model's score with its one-sided bound ("at least 71.9").

    >>> _bound_phrase({"name": "m", "mean": 0.732}, {"method": "wilson", "low": 0.699,
    ...               "high": None}, "binary", 0.95, True)
    'm scored 73.2% (one-sided 95% bound: at least 69.9, Wilson)'
    """
    digits = fmt.decimals_for(score_type, 0.0)
    mean = fmt.value(model["mean"], score_type, digits) + ("%" if score_type == "binary" else "")
    ends = fmt.ends(interval, score_type, digits)
    if first:
        method = method_name(interval["method"])
        kind = f"one-sided {fmt.level(level)} bound"
        return f"{model['name']} scored {mean} ({kind}: {ends}, {method})"
    return f"{model['name']} {mean} ({ends})"


def _scores_sentence(doc: dict) -> str:
    level = doc["settings"]["confidence_level"]
    phrases = [_score_phrase(m, doc["score_type"], level, i == 0)
               for i, m in enumerate(doc["models"])]
    listed = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return f"On this {fmt.count(doc['n_items'])}-question evaluation set, {listed}."


def ci_statement(doc: dict) -> str:
    """The statement for per-model scores.

    >>> doc = {"n_items": 500, "score_type": "binary",
    ...        "settings": {"confidence_level": 0.95, "n_resamples": 10000, "seed": 0},
    ...        "models": [{"name": "A", "mean": 0.732, "intervals": [
    ...            {"method": "wilson", "low": 0.6917, "high": 0.7689}]}]}
    >>> ci_statement(doc).split(".")[0]
    'On this 500-question evaluation set, A scored 73'
    """
    return _scores_sentence(doc) + " " + unmeasured_noise(doc)


def _minimum_detectable_gap(sd_diff: float, n: int, alpha: float, power: float = 0.8) -> float:
    """Normal-approximation gap a two-sided paired test detects with this power."""
    return (ndtri(1 - alpha / 2) + ndtri(power)) * sd_diff / n**0.5


def _power_sentence(sd_diff: float, n: int, alpha: float, score_type: str,
                    digits: int) -> str:
    """What an undecided comparison could have detected, within what the scale allows.

    >>> _power_sentence(0.0, 20, 0.05, "binary", 1)[53:105]
    'the models did not differ on any of the 20 questions'
    >>> _power_sentence(0.96, 4, 0.05, "binary", 1)[98:]
    'not even the largest gap the 0/1 scale allows (100 points) would be detected with 80% power.'
    """
    opening = "This is not evidence that the models are equivalent: "
    if sd_diff == 0:
        return (opening + f"the models did not differ on any of the {fmt.count(n)} questions, "
                "so these data cannot say how large a gap they could have detected.")
    mde = _minimum_detectable_gap(sd_diff, n, alpha)
    within = f"with {fmt.count(n)} questions and this much disagreement"
    if score_type == "binary" and mde > 1:
        return (opening + f"{within}, not even the largest gap the 0/1 scale allows "
                "(100 points) would be detected with 80% power.")
    unit = " points" if score_type == "binary" else ""
    return (opening + f"{within}, the comparison had 80% power only for gaps of about "
            f"{fmt.value(mde, score_type, digits)}{unit} or more.")


def _disagreement_sentence(doc: dict, test: dict) -> str:
    a, b = doc["difference"]["a"], doc["difference"]["b"]
    agreement = doc["agreement"]
    p = f"{named_test(test['name'])} p {fmt.p_value(test['p_value'])}"
    if "n_resamples" in test:
        p += f", {fmt.count(test['n_resamples'])} resamples"
    if "a_only" in agreement:
        total = agreement["a_only"] + agreement["b_only"]
        return (f"The models disagreed on {fmt.count(total)} questions, with {b} correct on "
                f"{fmt.count(agreement['b_only'])} and {a} on {fmt.count(agreement['a_only'])} "
                f"({p}).")
    return (f"{b} scored higher on {fmt.count(agreement['wins'])} questions and {a} on "
            f"{fmt.count(agreement['losses'])}, with {fmt.count(agreement['ties'])} ties ({p}).")


def compare_statement(doc: dict) -> str:
    """The statement for a paired comparison: scores, the paired gap with its interval, the
    discordant questions and the test, and which noise the intervals include (Miller 2024,
    "Adding Error Bars to Evals", arXiv:2411.00640, recommends reporting the paired gap).

    A gap whose interval includes zero is reported as undecided, with the smallest gap
    the data could have detected; it is never called equivalence.
    """
    if doc["settings"].get("alternative", "two-sided") != "two-sided":
        return one_sided_statement(doc)
    level = doc["settings"]["confidence_level"]
    score_type = doc["score_type"]
    difference = doc["difference"]
    a, b = difference["a"], difference["b"]
    interval = _headline(difference["intervals"])
    method = method_name(interval["method"])
    resamples = doc["settings"]["n_resamples"]
    gap = difference["estimate"]
    unit = " points" if score_type == "binary" else ""
    digits = fmt.decimals_for(score_type, interval["high"] - interval["low"])
    winner, loser, low, high, shown = b, a, interval["low"], interval["high"], gap
    if gap < 0:
        winner, loser, low, high, shown = a, b, -interval["high"], -interval["low"], -gap
    ends = (f"{fmt.value(low, score_type, digits, sign=True)} to "
            f"{fmt.value(high, score_type, digits, sign=True)}")
    how = f"{method} {fmt.level(level)} CI {ends}"
    if interval["method"].startswith("paired-bootstrap"):
        how += f", {fmt.count(resamples)} resamples"
    if interval["method"] == "newcombe":
        agreement = doc["agreement"]
        differ = agreement["a_only"] + agreement["b_only"]
        how += (f", chosen because {'only ' if differ else ''}{differ} "
                f"question{'' if differ == 1 else 's'} had one model right and the other "
                "wrong, too few for the paired bootstrap")
    models_by_name = {m["name"]: m for m in doc["models"]}
    ordered = dict(doc, models=[models_by_name[b], models_by_name[a]])
    sentences = [_scores_sentence(ordered),
                 "Because both models answered the same questions, we compare them on "
                 "per-question differences:"]
    excludes_zero = interval["low"] > 0 or interval["high"] < 0
    size = fmt.value(shown, score_type, digits)
    if excludes_zero:
        sentences[-1] += f" {winner} outperforms {loser} by {size}{unit} ({how})."
    elif shown == 0:
        sentences[-1] += (f" {b} and {a} scored the same ({how}), an interval that includes "
                          "zero, so these data cannot tell which model is better.")
    else:
        sentences[-1] += (f" {winner} is ahead of {loser} by {size}{unit} ({how}), an interval "
                          "that includes zero, so these data cannot tell which model is better.")
    test = doc["tests"][0]
    sentences.append(_disagreement_sentence(doc, test))
    alpha = 1 - level
    if excludes_zero != (test["p_value"] < alpha):
        sentences.append("The interval and the test disagree at this level: the evidence is "
                         "borderline.")
    sd_diff = difference["sd"]
    if not excludes_zero and sd_diff is not None and doc["n_items"] > 1:
        sentences.append(_power_sentence(sd_diff, doc["n_items"], alpha, score_type, digits))
    if "equivalence" in doc:
        sentences.append(equivalence_sentence(doc))
    sentences.append(unmeasured_noise(doc))
    return " ".join(sentences)


def one_sided_statement(doc: dict) -> str:
    """The statement of a one-sided comparison (``settings.alternative`` greater or less):
    "B is better than A" asked in advance, the gap's one-sided bound ("at least +x") and the
    one-sided p-value; a bound at or beyond zero is "not shown", never "the other way".

    >>> doc = {"n_items": 100, "score_type": "binary",
    ...        "settings": {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0,
    ...                     "alternative": "greater"},
    ...        "models": [{"name": n, "mean": m, "intervals": [{"method": "wilson", "low": l,
    ...                    "high": h}]} for n, m, l, h in (("A", .6, .5, .7), ("B", .7, .6, .8))],
    ...        "difference": {"a": "A", "b": "B", "estimate": 0.1, "sd": 0.4, "intervals": [
    ...            {"method": "paired-wald", "low": 0.034, "high": None}]},
    ...        "agreement": {"a_only": 3, "b_only": 13},
    ...        "tests": [{"name": "mcnemar-exact", "p_value": 0.0106}]}
    >>> one_sided_statement(doc).split("? ")[1].split(" (")[0]
    'B is better than A by 10.0 points, at least +3.4 points'
    """
    settings = doc["settings"]
    greater = settings["alternative"] == "greater"
    level, score_type = settings["confidence_level"], doc["score_type"]
    difference = doc["difference"]
    a, b = difference["a"], difference["b"]
    interval = _headline(difference["intervals"])
    gap = difference["estimate"]
    bound = interval["low"] if greater else interval["high"]
    digits = fmt.decimals_for(score_type, 2 * abs(gap - bound) if bound is not None else 0.0)
    unit = " points" if score_type == "binary" else ""
    better = "better" if greater else "worse"
    how = (f"{method_name(interval['method'])} one-sided "
           f"{fmt.level(level)} bound")
    if interval["method"].startswith("paired-bootstrap"):
        how += f", {fmt.count(settings['n_resamples'])} resamples"
    shown = (f"at {'least' if greater else 'most'} "
             f"{fmt.value(bound, score_type, digits, sign=True)}{unit} ({how})")
    models_by_name = {m["name"]: m for m in doc["models"]}
    sentences = [_scores_sentence(dict(doc, models=[models_by_name[b], models_by_name[a]])),
                 "Because both models answered the same questions, we compare them on "
                 f"per-question differences, asking one question fixed in advance: is {b} "
                 f"{better} than {a}?"]
    size = fmt.value(abs(gap), score_type, digits)
    shown_bound = bound is not None and (bound > 0 if greater else bound < 0)
    if shown_bound:
        sentences[-1] += f" {b} is {better} than {a} by {size}{unit}, {shown}."
    else:
        sentences[-1] += (f" {b} \u2212 {a} is {fmt.value(gap, score_type, digits, sign=True)}"
                          f"{unit}, {shown}, a bound that does not exclude zero, so these data "
                          f"do not show that {b} is {better} than {a}; a one-sided test says "
                          "nothing about a gap the other way.")
    test = doc["tests"][0]
    p = f"{named_test(test['name'])} one-sided p {fmt.p_value(test['p_value'])}"
    if "n_resamples" in test:
        p += f", {fmt.count(test['n_resamples'])} resamples"
    agrees = shown_bound == (test["p_value"] < 1 - level)
    sentences.append(f"The headline test agrees ({p})." if agrees else
                     f"The bound and the test disagree at this level ({p}): the evidence is "
                     "borderline.")
    sentences.append(unmeasured_noise(doc))
    return " ".join(sentences)


def equivalence_sentence(doc: dict) -> str:
    """The decision of the non-inferiority / equivalence tests, in words.

    A margin is judged from the (1 - 2 alpha) interval; "the data cannot rule out a loss
    of x" is said whenever the interval reaches below minus the margin.
    """
    from ..stats.equivalence import INTERVAL_WORDS  # with a margin only

    result = doc["equivalence"]
    score_type = doc["score_type"]
    a, b = doc["difference"]["a"], doc["difference"]["b"]
    interval = result["interval"]
    digits = fmt.decimals_for(score_type, interval["high"] - interval["low"])
    unit = " points" if score_type == "binary" else ""
    margin = fmt.value(result["margin"], score_type, digits)
    kind = INTERVAL_WORDS.get(interval.get("method", "paired-t"), "")  # older documents: t
    ends = (f"{fmt.level(interval['level'])} {kind}CI of the gap "
            f"{fmt.value(interval['low'], score_type, digits, sign=True)} to "
            f"{fmt.value(interval['high'], score_type, digits, sign=True)}")
    decision = result["decision"]
    if decision == "equivalent":
        return (f"Within a margin of \u00b1{margin}{unit} the models are equivalent ({ends}, inside "
                f"the margin; TOST p {fmt.p_value(result['tost_p'])}).")
    if decision == "non-inferior":
        return (f"{b} is not worse than {a} by more than {margin}{unit} ({ends}; "
                f"non-inferiority p {fmt.p_value(result['non_inferiority_p'])}).")
    if decision == "inferior":
        return f"{b} is worse than {a} by more than {margin}{unit} ({ends})."
    loss = fmt.value(-interval["low"], score_type, digits)
    sentence = (f"The data cannot rule out a loss of up to {loss}{unit} for {b} against {a} "
                f"({ends}), more than the margin of {margin}{unit}")
    if result["n_needed"] is not None:
        sentence += (f"; about {fmt.count(result['n_needed'])} questions would be needed to "
                     f"show a loss of at most {margin}{unit} (80% power, if the models are "
                     "truly equal)")
    return sentence + "."
