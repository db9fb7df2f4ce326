"""Shared test fixtures: the example data shipped in the repo, and the shared/ fixtures."""
from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so CI is reproducible: a failure
# there is a bug in the change, not a new random draw. HYPOTHESIS_PROFILE=explore draws
# fresh examples each run, to hunt for new failures by hand.
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared"


def read_columns(path: Path, *names: str) -> list[np.ndarray]:
    """Columns of a small CSV as float arrays (test helper, independent of evalbars.io.ingest)."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [np.array([float(row[name]) for row in rows]) for name in names]


@pytest.fixture
def lesson_path() -> Path:
    return EXAMPLES / "lesson_pair.csv"


@pytest.fixture
def cookbook_path() -> Path:
    return EXAMPLES / "cookbook_topics.csv"


@pytest.fixture
def lesson() -> tuple[np.ndarray, np.ndarray]:
    """(a, b): seed 000's fake pair, 500 questions of 0/1 outcomes."""
    return tuple(read_columns(EXAMPLES / "lesson_pair.csv", "model_a", "model_b"))


@pytest.fixture
def cookbook() -> tuple[np.ndarray, np.ndarray]:
    """(a, b): seed 002's cookbook data, 200 examples of 0/1 outcomes."""
    return tuple(read_columns(EXAMPLES / "cookbook_topics.csv", "system_a", "system_b"))


@pytest.fixture(autouse=True)
def _run_from_the_repository_root(monkeypatch):
    """Paths such as examples/lesson_pair.csv resolve the same from any working folder."""
    monkeypatch.chdir(ROOT)

# The engine tests (tests/io/engines) share one SparkSession (local[2]), started once.
@pytest.fixture(scope="session")
def spark():
    """One local[2] SparkSession for every Spark test; skipped, saying why, without pyspark
    or Java."""
    pytest.importorskip("pyspark", reason="pyspark is not installed: pip install "
                                          "'evalbars[spark]'")
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java (Debian: apt-get install openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("evalbars-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
