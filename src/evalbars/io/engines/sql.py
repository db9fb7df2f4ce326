"""The queries an engine runs: the canonical long table, and its one-pass reduction.

Both are plain SQL that DuckDB and Spark SQL read alike (:class:`Dialect` holds the few
spellings that differ). :func:`canonical` maps the user's columns onto the canonical long
table of answers (item, model, score, per-item labels, sample, run as strings exactly as written;
the score parsed as :mod:`evalbars.io.cells` parses a cell, with its status: read, empty,
or not a finite number within 1e100), and :func:`reduction` reduces it per (model, run,
item) in one pass: rows, answers, sum, sum of squares, and the counts the checks need
(0/1 and integer answers, empty scores, distinct samples, per-item labels, odd rows).

>>> print(score_status('"s"', "text", DUCKDB))  # doctest: +NORMALIZE_WHITESPACE
CASE WHEN "s" IS NULL OR trim(CAST("s" AS STRING)) = '' THEN 1 WHEN lower(trim(CAST("s" AS
STRING))) IN ('true', 'false') THEN 0 WHEN regexp_full_match(trim(CAST("s" AS STRING)),
'[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?') AND abs(TRY_CAST(trim(CAST("s" AS
STRING)) AS DOUBLE)) <= 1e100 THEN 0 ELSE 2 END
"""
from __future__ import annotations

from dataclasses import dataclass

from ..labels import ROLES

NUMBER = "[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?"
"""A score written as a number: what Python's ``float`` reads, less NaN, the infinities,
``_`` separators and digits other than ASCII's (which :mod:`evalbars.io.cells` refuses)."""

READ, EMPTY, BAD = 0, 1, 2
"""The status of a score cell: read, empty (a missing score), not a finite number."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """The spellings that differ between engines: quoting a column, a full regex match."""

    quote: str
    full_match: str  # format string with {expr} and {pattern}
    backslash_escapes: bool  # a backslash in a string literal escapes the next character
    bit: str  # format string: the BIGINT with bit {n} set

    def q(self, name: str) -> str:
        """``name`` quoted as a column identifier."""
        return self.quote + name.replace(self.quote, self.quote * 2) + self.quote

    def literal(self, value: str) -> str:
        """``value`` as a string literal."""
        if self.backslash_escapes:
            value = value.replace("\\", "\\\\")
        return "'" + value.replace("'", "''" if not self.backslash_escapes else "\\'") + "'"


DUCKDB = Dialect('"', "regexp_full_match({expr}, '{pattern}')", False,
                "(CAST(1 AS BIGINT) << {n})")
SPARK = Dialect("`", "{expr} RLIKE '^({pattern})$'", True, "shiftleft(CAST(1 AS BIGINT), {n})")


def score_status(col: str, kind: str, dialect: Dialect, nan_missing: bool = False,
                 nan_text: bool = False) -> str:
    """SQL for the status (:data:`READ`, :data:`EMPTY`, :data:`BAD`) of score column ``col``
    of ``kind`` ("text" for strings, else a numeric or boolean type)."""
    if kind != "text":
        value = f"CAST({col} AS DOUBLE)"
        empty = f"{col} IS NULL" + (f" OR isnan({value})" if nan_missing else "")
        # isnan first: DuckDB compares a NaN read from a column as below 1e100; in a
        # relation whose statistics leave NaN out it folds isnan() to false, not the text
        nan = f"CAST({value} AS STRING) = 'nan'" if nan_text else f"isnan({value})"
        return f"CASE WHEN {empty} THEN {EMPTY} WHEN {nan} THEN {BAD} " \
               f"WHEN abs({value}) <= 1e100 THEN {READ} ELSE {BAD} END"
    text = f"trim(CAST({col} AS STRING))"
    number = dialect.full_match.format(expr=text, pattern=NUMBER)
    return (f"CASE WHEN {col} IS NULL OR {text} = '' THEN {EMPTY} "
            f"WHEN lower({text}) IN ('true', 'false') THEN {READ} "
            f"WHEN {number} AND abs(TRY_CAST({text} AS DOUBLE)) <= 1e100 THEN {READ} "
            f"ELSE {BAD} END")


def score_value(col: str, kind: str) -> str:
    """SQL for the score of a cell whose status is :data:`READ` (else NULL)."""
    if kind != "text":
        return f"CAST({col} AS DOUBLE)"
    text = f"trim(CAST({col} AS STRING))"
    return (f"CASE WHEN lower({text}) = 'true' THEN 1.0 WHEN lower({text}) = 'false' "
            f"THEN 0.0 ELSE TRY_CAST({text} AS DOUBLE) END")


def canonical(roles: dict[str, str | None], kinds: dict[str, str], dialect: Dialect,
              source: str, nan_missing: bool = False, nan_text: bool = False) -> str:
    """SELECT the canonical long table from the relation ``source``: columns item, model,
    the per-item labels (cluster, stratum, split), sample, run (strings or NULL), st
    (status), v (score or NULL), raw (the cell as a string), __file and __row (where the
    row came from)."""
    q = dialect.q
    out = []
    for role in ("item", "model", *ROLES, "sample", "run"):
        name = roles.get(role)
        out.append(f"CAST({q(name)} AS STRING) AS {role}" if name else f"NULL AS {role}")
    score = q(roles["score"])
    status = score_status(score, kinds[roles["score"]], dialect, nan_missing, nan_text)
    out.append(f"{status} AS st")
    out.append(f"CASE WHEN ({status}) = {READ} THEN {score_value(score, kinds[roles['score']])}"
               f" END AS v")
    out.append(f"CAST({score} AS STRING) AS raw")
    out += ["__file", "__row"]
    return f"SELECT {', '.join(out)} FROM {source}"


def _count(condition: str) -> str:
    """How many rows of a cell meet ``condition``, as an INT in every engine (4 bytes a
    cell to bring back)."""
    return f"CAST(sum(CASE WHEN {condition} THEN 1 ELSE 0 END) AS INT)"


def _empty(col: str) -> str:
    return _count(f"{col} IS NULL OR {col} = ''")


SMALL_SAMPLE = "0|[1-9][0-9]?"
"""Sample values written as the integers 0 to 62 are counted as bits of one BIGINT."""


def _small(dialect: Dialect) -> str:
    return (f"({dialect.full_match.format(expr='sample', pattern=SMALL_SAMPLE)} AND "
            f"TRY_CAST(sample AS INT) < 63)")


def _distinct_samples(dialect: Dialect, exact: bool) -> str:
    """Distinct samples per cell.

    ``count(DISTINCT sample)`` costs a hash set per cell; sample values that are the
    integers 0 to 62 (the usual epochs and repeats) are counted exactly, and far faster,
    as the bits set in a BIGINT; rows with other values are counted as odd (see
    :func:`reduction`), and then the reduction runs again, ``exact``.
    """
    if exact:
        return "CAST(count(DISTINCT sample) AS INT) AS n_samples"
    bit = dialect.bit.format(n="TRY_CAST(sample AS INT)")
    return (f"CAST(bit_count(bit_or(CASE WHEN {_small(dialect)} THEN {bit} ELSE CAST(0 AS "
            f"BIGINT) END)) AS INT) AS n_samples")


def flags(roles: dict, dialect: Dialect, exact: bool) -> dict[str, str]:
    """Conditions on a row that need a closer look: a bad score, an empty label, a sample
    value the bit count cannot count."""
    found = {"n_bad": f"st = {BAD}"}
    for role, name in (*((role, f"{role}_empty") for role in ROLES), ("sample", "s_empty"),
                       ("run", "r_empty")):
        if roles.get(role) is not None:
            found[name] = f"{role} IS NULL OR {role} = ''"
    if roles.get("sample") is not None and not exact:
        found["s_odd"] = f"NOT {_small(dialect)}"
    return found


def reduction(roles: dict[str, str | None], canon: str, dialect: Dialect = DUCKDB,
              exact: bool = False) -> str:
    """SELECT, from the canonical table ``canon``, one row per (model, run, item): model,
    run (with a run column), item; n_rows, n (scored answers), s, ss (their sum and sum of
    squares), n01, nint (0/1 and integer answers), n_empty (empty scores), n_samples
    (distinct samples, with a sample column; ``exact``: counted by a hash set), ROLE_lo,
    ROLE_hi (the least and greatest label of each per-item label role given: cluster_lo,
    ...) and odd (rows meeting a condition of :func:`diagnosis`). Which model comes
    first, :func:`first_seen` says."""
    has = {role: roles.get(role) is not None for role in (*ROLES, "sample", "run")}
    keys = ["model"] + (["run"] if has["run"] else []) + ["item"]
    odd = " OR ".join(f"({c})" for c in flags(roles, dialect, exact).values())
    columns = keys + [
        "CAST(count(*) AS INT) AS n_rows", "CAST(count(v) AS INT) AS n", "sum(v) AS s",
        "sum(v * v) AS ss", f"{_count('v = 0 OR v = 1')} AS n01",
        f"{_count('v = round(v, 0)')} AS nint", f"{_count(f'st = {EMPTY}')} AS n_empty"]
    if has["sample"]:
        columns.append(_distinct_samples(dialect, exact))
    for role in ROLES:
        if has[role]:
            columns += [f"min({role}) AS {role}_lo", f"max({role}) AS {role}_hi"]
    columns.append(f"{_count(odd)} AS odd")
    return f"SELECT {', '.join(columns)} FROM {canon} GROUP BY {', '.join(keys)}"


def first_seen(canon: str) -> str:
    """SELECT each model's first row in each file it is in (model, file index, row): reads
    the model column only."""
    return f"SELECT model, __file, min(__row) FROM {canon} GROUP BY model, __file"


def diagnosis(roles: dict[str, str | None], canon: str, where: str, dialect: Dialect,
              exact: bool = False) -> str:
    """SELECT how many rows of ``canon`` meeting ``where`` meet each condition that makes
    a row odd (see :func:`reduction`): n_bad, cluster_empty (and each label role's),
    s_empty, r_empty, s_odd."""
    conditions = flags(roles, dialect, exact)
    return (f"SELECT {', '.join(f'{_count(c)} AS {name}' for name, c in conditions.items())} "
            f"FROM {canon} WHERE {where}")
