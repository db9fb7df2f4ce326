"""`evalbars gate`: exit 0 pass, 1 regression shown, 3 cannot tell, with one line saying so."""
import json

from evalbars.analyses.gate import gate
from evalbars.cli import main


def write(path, a, b):
    path.write_text("id,base,cand\n" + "".join(
        f"q{i},{x},{y}\n" for i, (x, y) in enumerate(zip(a, b))))
    return str(path)


def test_pass_fail_inconclusive(tmp_path, capsys):
    same = [1] * 300 + [0] * 100
    better = write(tmp_path / "better.csv", same, same[:-20] + [1] * 20)
    worse = write(tmp_path / "worse.csv", same, [0] * 40 + same[40:])
    unsure = write(tmp_path / "unsure.csv", [1] * 10 + [0] * 10 + [1] * 20,
                   [0] * 10 + [1] * 8 + [0] * 2 + [1] * 20)
    for path, status, word in ((better, 0, "PASS"), (worse, 1, "FAIL"),
                               (unsure, 3, "INCONCLUSIVE")):
        assert main(["gate", path, "--baseline", "base", "--candidate", "cand",
                     "--max-regression", "0.02", "--n-resamples", "500"]) == status
        out = capsys.readouterr().out
        assert out.startswith(word), out
    assert "questions would decide it" in out


def test_json_equals_api(tmp_path, capsys, lesson_path):
    status = main(["gate", str(lesson_path), "--baseline", "model_a", "--candidate", "model_b",
                   "--max-regression", "0.01", "--format", "json", "--n-resamples", "800"])
    doc = json.loads(capsys.readouterr().out)
    api = gate(lesson_path, baseline="model_a", candidate="model_b", max_regression=0.01,
               n_resamples=800).to_dict()
    assert status == 0 and doc == json.loads(json.dumps(api))
    assert doc["kind"] == "gate" and doc["decision"] == "pass" and doc["exit_status"] == 0


def test_markdown_summary(capsys, lesson_path):
    main(["gate", str(lesson_path), "--baseline", "model_b", "--candidate", "model_a",
          "--max-regression", "0.01", "--format", "markdown", "--n-resamples", "500"])
    out = capsys.readouterr().out
    assert out.startswith("\u274c **FAIL: model_a regresses against model_b")


def test_bad_alpha_is_exit_2(capsys, lesson_path):
    assert main(["gate", str(lesson_path), "--max-regression", "0.01", "--alpha", "0.9"]) == 2
    assert capsys.readouterr().err == ("evalbars: error: --alpha must be a number strictly "
                                       "between 0 and 0.5 (0.05 for 5%), got 0.9\n")
