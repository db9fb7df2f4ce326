"""Hand-made report documents shared by the report, notebook and plot tests (a helper).

Each has the documented shape of its kind; ``HOSTILE`` is a model name that is an HTML
injection.
"""
import numpy as np
import pandas as pd

HOSTILE = "<script>alert(1)</script>"


def leaderboard_doc() -> dict:
    """A hand-made leaderboard document of the documented shape (docs/leaderboard.md)."""
    def model(name, mean, low, high, rank, rank_low, rank_high, p_best):
        return {"name": name, "n": 400, "mean": mean,
                "intervals": [{"method": "wilson", "low": low, "high": high}],
                "rank": rank, "rank_low": rank_low, "rank_high": rank_high, "p_best": p_best}

    return {"schema_version": 1, "kind": "leaderboard", "n_items": 400, "score_type": "binary",
            "settings": {"confidence_level": 0.95, "n_resamples": 2000, "seed": 0},
            "models": [model("gamma", 0.80, 0.758, 0.836, 1, 1, 2, 0.71),
                       model("beta", 0.79, 0.747, 0.827, 2, 1, 2, 0.29),
                       model("alpha", 0.70, 0.653, 0.743, 3, 3, 3, 0.0)],
            "baseline": None,
            "correction": {"method": "holm", "alpha": 0.05, "n_tests": 1, "family": "all pairs"},
            "pairs": [{"a": "beta", "b": "gamma", "estimate": 0.01,
                       "intervals": [{"method": "paired-bootstrap-percentile", "low": -0.01,
                                      "high": 0.03}], "test": "mcnemar-exact",
                       "p_value": 0.4, "p_adjusted": 0.4}],
            "groups": [["gamma", "beta"], ["alpha"]], "statement": "gamma leads.",
            "warnings": [], "provenance": {"version": "0.1.0", "seed": 0, "inputs": []}}


def passk_doc() -> dict:
    """A hand-made pass@k document of the documented shape."""
    def rows(base: float) -> list[dict]:
        return [{"k": k, "estimate": base + 0.1 * i, "low": base + 0.1 * i - 0.05,
                 "high": base + 0.1 * i + 0.05, "shortcut": base + 0.08 * i}
                for i, k in enumerate((1, 5))]

    return {"schema_version": 1, "kind": "passk",
            "settings": {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0, "k": [1, 5],
                         "method": "bootstrap-percentile", "resample": "questions",
                         "shortcut": "1 - (1 - c/n)^k"},
            "models": [{"name": "small", "n_items": 50, "answers": {"min": 10, "max": 10},
                        "pass_at_k": rows(0.3)},
                       {"name": "large", "n_items": 50, "answers": {"min": 10, "max": 10},
                        "pass_at_k": rows(0.4)}],
            "a": "small", "b": "large",
            "difference": [{"k": 1, "estimate": 0.1, "low": 0.05, "high": 0.15}],
            "statement": "large is ahead.", "warnings": [],
            "provenance": {"version": "0.1.0", "seed": 0, "inputs": []}}


def bradley_terry_doc() -> dict:
    """A real ratings document: models with a rating, not a mean, and no score type."""
    from evalbars.analyses.battles import bradley_terry

    rng = np.random.default_rng(0)
    strength = {"a": 0.3, "b": -0.4, "c": 0.5}
    rows = []
    for _ in range(300):
        first, second = rng.choice(list(strength), size=2, replace=False)
        p_first = 1 / (1 + np.exp(strength[second] - strength[first]))
        rows.append({"model_a": first, "model_b": second,
                     "winner": "model_a" if rng.random() < p_first else "model_b"})
    return bradley_terry(pd.DataFrame(rows), n_resamples=300).to_dict()
