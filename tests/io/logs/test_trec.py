"""TREC runs scored against qrels: evalbars.io.logs.trec, through evalbars.io.ingest.load."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from evalbars.core.errors import EvalbarsError
from evalbars.io.ingest import load

pytest.importorskip("ir_measures")

OWN = Path(__file__).parents[2] / "data" / "logs" / "trec"
BM25, DENSE, QRELS = OWN / "run_bm25.txt", OWN / "run_dense.txt", OWN / "qrels.txt"
REAL = Path(__file__).parents[4] / "shared" / "fixtures" / "logs" / "trec"
real = pytest.mark.skipif(not REAL.is_dir(), reason="shared/fixtures/logs is not beside the repo")


def error(*args, **kwargs) -> str:
    with pytest.raises(EvalbarsError) as info:
        load(*args, **kwargs)
    return str(info.value)


def ndcg(gains: list[int], ideal: list[int]) -> float:
    """nDCG with linear gains and a log2(rank + 1) discount, as trec_eval's ndcg_cut."""
    def dcg(values):
        return sum(g / math.log2(rank + 2) for rank, g in enumerate(values))
    return dcg(gains) / dcg(ideal)


@real
def test_real_compat_run():
    # compat.run has one run (tag "run") and two queries, both judged in compat.qrels.
    # By hand (the run's scores fall 1000, 999, ...: no ties): query 31_1's first document
    # MARCO_2925879 is judged relevant, so RR = 1; 31_2's first relevant document
    # (CAR_0848...) is at rank 26, RR = 1/26. nDCG@10: the relevance of 31_1's top ten is
    # 4 4 4 4 4 3 4 4 30 50 and its best ten judgements 50 50 30 30 10 4 4 4 4 4; no
    # document of 31_2's top ten is relevant, so 0.
    qrels = REAL / "compat.qrels"
    data = load(REAL / "compat.run", qrels=qrels)
    assert data.models == ("run",) and data.items == ("31_1", "31_2")
    expected = ndcg([4, 4, 4, 4, 4, 3, 4, 4, 30, 50], [50, 50, 30, 30, 10, 4, 4, 4, 4, 4])
    assert data.scores[:, 0] == pytest.approx([expected, 0.0])
    assert expected == pytest.approx(0.32529, abs=1e-5)
    rr = load(REAL / "compat.run", qrels=qrels, metric="RR")
    assert rr.scores[:, 0] == pytest.approx([1.0, 1 / 26])


def test_paired_runs_reciprocal_rank():
    # qrels: q1 d1=1 d2=0 d3=2; q2 d4=1; q3 d5=1 d6=1; q4 d7=1.
    # bm25 ranks q1 d2 d1 d3 (first relevant at 2: 1/2), q2 d8 d4 (1/2), q3 d5 (1), no q4
    # (0, as trec_eval -c), and q9, which no qrels judge (left out).
    # dense: q1 d3 (1), q2 d4 (1), q3 d9 d6 (1/2), q4 d7 (1).
    data = load(BM25, DENSE, qrels=QRELS, metric="RR")
    assert data.models == ("bm25", "dense") and data.items == ("q1", "q2", "q3", "q4")
    assert data.scores.tolist() == [[0.5, 1], [0.5, 1], [1, 0.5], [0, 1]]
    text = data.describe()
    assert "a query missing from a run scores 0 (trec_eval -c)" in text
    assert "run 'bm25' has no results for 1 judged query ('q4'): scored 0" in text
    assert "1 query the qrels do not judge ('q9'): left out" in text
    assert data.source["log"]["settings"]["absent"] == {"bm25": 1}


def test_default_metric_is_ndcg_at_10():
    # bm25 q1: relevance by rank 0 1 2, ideal 2 1 0; q3: 1 0 1, ideal 1 1.
    data = load(BM25, DENSE, qrels=QRELS)
    assert data.source["columns"]["score"] == "nDCG@10"
    assert data.column("bm25")[0] == pytest.approx(ndcg([0, 1, 2], [2, 1, 0]))
    assert data.column("bm25")[2] == pytest.approx(ndcg([1, 0, 1], [1, 1]))
    assert data.column("dense")[2] == pytest.approx(ndcg([0, 1], [1, 1]))


def test_one_file_with_two_tags_and_one_tag_twice(tmp_path):
    both = tmp_path / "both.txt"
    both.write_text(BM25.read_text() + DENSE.read_text())
    assert load(both, qrels=QRELS).models == ("bm25", "dense")
    copy = tmp_path / "bm25_copy.txt"
    copy.write_text(BM25.read_text())
    assert load(BM25, copy, qrels=QRELS).models == ("bm25@run_bm25", "bm25@bm25_copy")


def test_detected_by_qrels_or_content(tmp_path):
    run = tmp_path / "run.trec"
    run.write_text(BM25.read_text())
    assert "give the qrels file" in error(run)  # recognised as a run by its lines


def test_error_ir_measures_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_measures", None)
    assert "pip install 'evalbars[trec]'" in error(BM25, qrels=QRELS)


def test_error_unknown_measure():
    assert "not a measure ir_measures knows" in error(BM25, qrels=QRELS, metric="Banana@3")


@pytest.mark.parametrize("text, message", [
    ("q1 0 d1\n", "has 3 fields; a qrels"),
    ("q1 0 d1 high\n", "relevance 'high' at line 1"),
    ("q1 0 d1 1\nq1 0 d1 0\n", "judged twice"),
    ("\n", "is empty"),
])
def test_error_bad_qrels(tmp_path, text, message):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(text)
    assert message in error(BM25, qrels=qrels)


@pytest.mark.parametrize("text, message", [
    ("q1 Q0 d1 1 high bm25\n", "must be an integer and score 'high' a number"),
    ("q1 Q0 d1 1 2.0 x\nq1 Q0 d1 2 1.0 x\n", "retrieved twice"),
    ("q1 Q0 d1 1 2.0\n", "has 5 fields"),
    ("\n", "is empty"),
])
def test_error_bad_runs(tmp_path, text, message):
    run = tmp_path / "run.txt"
    run.write_text(text)
    assert message in error(run, qrels=QRELS)


def test_error_not_utf8(tmp_path):
    run = tmp_path / "run.txt"
    run.write_bytes(b"q1 Q0 d\xff 1 1.0 x\n")
    assert "is not UTF-8 text" in error(run, qrels=QRELS)


def test_error_unreadable_qrels(tmp_path):
    assert "could not read" in error(BM25, qrels=tmp_path)  # a folder, not a file


def test_error_options_of_other_formats():
    assert "scorer= (--scorer) does not apply to trec logs" in error(BM25, qrels=QRELS,
                                                                     scorer="x")


WILD = Path(__file__).parents[4] / "shared" / "fixtures" / "logs" / "wild" / "trec"
wild = pytest.mark.skipif(not WILD.is_dir(), reason="shared/fixtures/logs is not beside the repo")

TREC_EVAL = {"nDCG@10": "ndcg_cut_10", "AP": "map", "RR": "recip_rank", "P@5": "P_5"}
"""ir_measures names -> trec_eval's, as trec_eval prints them in out.test.aq."""


def trec_eval_figures(path: Path) -> dict:
    """measure -> {query or 'all': value} from a trec_eval -q output file."""
    figures: dict = {}
    for line in path.read_text().splitlines():
        measure, query, value = line.split()
        if measure in TREC_EVAL.values():
            figures.setdefault(measure, {})[query] = float(value)
    return figures


@wild
@pytest.mark.parametrize("qrels", ["qrels.test", "qrels.test.with-comments"])
@pytest.mark.parametrize("metric", list(TREC_EVAL))
def test_wild_trec_eval_figures(qrels, metric):
    # usnistgov/trec_eval's own test: out.test.aq is `trec_eval -q qrels.test results.test`
    # (nDCG@10 0.3016, map 0.1785, recip_rank 0.4064, P_5 0.2667 over 3 queries). The
    # qrels with '#' comment lines must give exactly the same figures.
    expected = trec_eval_figures(WILD / "out.test.aq")[TREC_EVAL[metric]]
    data = load(WILD / "results.test", qrels=WILD / qrels, metric=metric)
    assert data.models == ("STANDARD",) and data.items == ("301", "302", "303")
    assert data.scores[:, 0] == pytest.approx([expected[q] for q in data.items], abs=5e-5)
    assert data.scores[:, 0].mean() == pytest.approx(expected["all"], abs=5e-5)


@wild
def test_wild_trec_eval_means_as_the_readme_gives_them():
    means = {metric: load(WILD / "results.test", qrels=WILD / "qrels.test.with-comments",
                          metric=metric).scores.mean() for metric in TREC_EVAL}
    assert means == pytest.approx({"nDCG@10": 0.3016, "AP": 0.1785, "RR": 0.4064,
                                   "P@5": 0.2667}, abs=5e-5)


@wild
@pytest.mark.parametrize("metric", list(TREC_EVAL))
def test_wild_run_with_extra_fields(metric):
    # results.trunc: lines with words after the run id, which trec_eval ignores, and no
    # query 302: out.test.aqc is `trec_eval -q -c qrels.test results.trunc` (302 scores 0).
    expected = trec_eval_figures(WILD / "out.test.aqc")[TREC_EVAL[metric]]
    data = load(WILD / "results.trunc", qrels=WILD / "qrels.test", metric=metric)
    assert data.models == ("STANDARD",) and data.items == ("301", "302", "303")
    assert data.scores[:, 0] == pytest.approx([expected[q] for q in data.items], abs=5e-5)
    assert data.scores[:, 0].mean() == pytest.approx(expected["all"], abs=5e-5)
    text = data.describe()
    assert "have fields after the run tag: ignored, as trec_eval ignores them" in text
    assert "run 'STANDARD' has no results for 1 judged query ('302'): scored 0" in text


def test_comment_lines_of_qrels_and_extra_run_fields(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("# judged by hand\n" + QRELS.read_text() + "#q4 0 d7 0\n")
    run = tmp_path / "run.txt"
    run.write_text("".join(line.rstrip("\n") + " tail words\n"
                           for line in BM25.read_text().splitlines(keepends=True)))
    data = load(run, qrels=qrels, metric="RR")
    assert data.scores[:, 0].tolist() == [0.5, 0.5, 1, 0]  # as in the test of bm25 above
    assert "(lines 1, 2, 3 and 6 more) have fields after the run tag" in data.describe()
    qrels.write_text(" # not at the start of the line\n")  # trec_eval: malformed
    assert "line 1 of" in error(run, qrels=qrels) and "has 8 fields" in error(run, qrels=qrels)
