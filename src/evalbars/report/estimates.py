"""Every estimate of a report document with its intervals, as tidy rows.

One dict per (quantity, method): the rows behind the report's figure, the LaTeX table,
the matplotlib figures and ``result.to_frame()``, in full precision.
"""
from __future__ import annotations

__all__ = ["estimates"]


def estimates(doc: dict) -> list[dict]:
    """Every estimate of a document with its intervals, one dict per (quantity, method).

    Keys: ``quantity`` (``score``, ``rating``, ``difference``, ``pass@k``, ``pass@k
    difference``), ``name``, ``method``, ``estimate``, ``low``, ``high``, ``default``
    (the first interval listed, the one reports show) and ``level``; leaderboard rows add
    ``rank``, ``rank_low``, ``rank_high`` and ``p_best``, pass@k rows ``k``. Kinds
    without intervals give an empty list.

    Examples
    --------
    >>> doc = {"kind": "ci", "settings": {"confidence_level": 0.95}, "models": [
    ...     {"name": "m", "n": 10, "mean": 0.7, "intervals": [
    ...         {"method": "wilson", "low": 0.4, "high": 0.9}]}]}
    >>> estimates(doc)[0]["low"], estimates(doc)[0]["default"]
    (0.4, True)
    """
    if doc.get("kind") == "gate":
        return estimates(doc.get("comparison") or {})
    conf = (doc.get("settings") or {}).get("confidence_level")
    out: list[dict] = []

    def add(quantity: str, name: str, estimate, intervals: list, **extra) -> None:
        for index, interval in enumerate(intervals or []):
            out.append({"quantity": quantity, "name": name, "method": interval.get("method"),
                        "estimate": estimate, "low": interval.get("low"),
                        "high": interval.get("high"), "default": index == 0, "level": conf,
                        **extra})

    if doc.get("kind") == "passk":
        method = doc["settings"].get("method")
        for model in doc["models"]:
            for row in model["pass_at_k"]:
                add(f"pass@{row['k']}", model["name"], row["estimate"],
                    [{"method": method, "low": row["low"], "high": row["high"]}], k=row["k"])
        for row in doc.get("difference") or []:
            add(f"pass@{row['k']} difference", f"{doc['b']} \u2212 {doc['a']}", row["estimate"],
                [{"method": method, "low": row["low"], "high": row["high"]}], k=row["k"])
        return out
    for model in doc.get("models") or []:
        if not isinstance(model, dict) or "intervals" not in model:
            continue
        quantity = "rating" if "rating" in model else "score"
        extra = {key: model[key] for key in ("rank", "rank_low", "rank_high", "p_best")
                 if key in model}
        add(quantity, model["name"], model.get("mean", model.get("rating")), model["intervals"],
            **extra)
    difference = doc.get("difference")
    if isinstance(difference, dict):
        add("difference", f"{difference['b']} \u2212 {difference['a']}", difference["estimate"],
            difference["intervals"])
    for pair in doc.get("pairs") or []:
        add("difference", f"{pair['b']} \u2212 {pair['a']}", pair["estimate"], pair["intervals"])
    return out
