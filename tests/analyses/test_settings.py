"""The settings every analysis shares: n_resamples is refused outside sensible bounds."""
import pytest

from evalbars.analyses.settings import MAX_RESAMPLES, MIN_RESAMPLES, checked_settings
from evalbars.cli import main
from evalbars.core.errors import EvalbarsError

LESSON = "examples/lesson_pair.csv"
COMMANDS = [
    ["ci", LESSON],
    ["compare", LESSON, "--a", "model_a", "--b", "model_b"],
    ["leaderboard", LESSON],
    ["select", LESSON, "--baseline", "model_a"],
    ["ablation", LESSON, "--full", "model_b", "--baseline", "model_a"],
    ["gate", LESSON, "--baseline", "model_a", "--candidate", "model_b",
     "--max-regression", "0.01"],
    ["seeds", "examples/seeds.csv", "--run", "seed"],
    ["passk", "examples/passk_samples.csv", "--sample", "sample"],
    ["simulate", "coverage", "--methods", "wald", "--n", "20"],
]


@pytest.mark.parametrize("value", [1, 2, 5, 99])
def test_too_few_resamples_are_refused(value):
    # 5 resamples gave "+15.2 to +24.8" around an estimate of +15.0 (issue 17, item 6).
    with pytest.raises(EvalbarsError, match=rf"n_resamples \(--n-resamples\) must be at least "
                                            rf"100, got {value}: "):
        checked_settings(0.95, value, 0)


@pytest.mark.parametrize("value", [10**7 + 1, 10**9, 10**12])
def test_too_many_resamples_are_refused(value):
    # 10**12 tried a 7 TiB allocation, 10**9 ran for hours (issue 17, item 6).
    with pytest.raises(EvalbarsError, match=r"n_resamples \(--n-resamples\) must be at most "
                                            r"10,000,000, got "):
        checked_settings(0.95, value, 0)


def test_the_bounds_themselves_are_accepted():
    assert checked_settings(0.95, MIN_RESAMPLES, 0).n_resamples == 100
    assert checked_settings(0.95, MAX_RESAMPLES, 0).n_resamples == 10**7


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
@pytest.mark.parametrize("value,words", [("5", "at least 100"),
                                         ("1000000000000", "at most 10,000,000")])
def test_every_command_refuses_in_one_line(capsys, argv, value, words):
    assert main([*argv, "--n-resamples", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"n_resamples (--n-resamples) must be {words}" in err


def test_battles_go_through_the_same_check(capsys, tmp_path):
    path = tmp_path / "battles.csv"
    path.write_text("model_a,model_b,winner\na,b,model_a\nb,c,model_a\nc,a,model_a\n")
    assert main(["leaderboard", str(path), "--battles", "--n-resamples", "2"]) == 2
    assert "n_resamples (--n-resamples) must be at least 100, got 2" in capsys.readouterr().err
