"""The counting inside the sign-flip test: enumeration and the Monte Carlo tolerance."""
import itertools
import math

import numpy as np
import pytest

from evalbars.stats import permutation
from evalbars.stats.permutation import TIE_RTOL


def brute(mags, edge, two_sided):
    # Every sign pattern written out: the independent count.
    sums = [sum(s * v for s, v in zip(signs, mags))
            for signs in itertools.product((1.0, -1.0), repeat=len(mags))]
    return sum((abs(s) if two_sided else s) >= edge for s in sums)


@pytest.mark.parametrize("two_sided", [True, False])
def test_meet_in_the_middle_counts_every_pattern(two_sided):
    rng = np.random.default_rng(0)
    for m in (1, 2, 5, 9):
        mags = np.sort(rng.integers(1, 6, size=m).astype(float))  # integers: exact ties
        for edge in (-3.0, 0.0, 1.0, 2.5, 4.0, float(mags.sum()), mags.sum() + 1):
            assert permutation._count_reaching(mags, edge, two_sided) == \
                brute(mags, edge, two_sided), (m, edge)


def exact_count(signed, total, mags, alternative):
    edge = permutation._edge(total, TIE_RTOL * math.fsum(mags), alternative)
    return int(np.count_nonzero(signed >= edge))


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_the_quick_tolerance_counts_as_the_exact_one(alternative):
    rng = np.random.default_rng(1)
    mags = np.sort(rng.random(1000)) * 3.0
    total = 1.7
    edge = permutation._edge(total, TIE_RTOL * math.fsum(mags), alternative)
    # null sums right at the exact edge and one ulp either side, where only the exactly
    # rounded tolerance decides, and others well away from it
    near = np.array([edge, np.nextafter(edge, -np.inf), np.nextafter(edge, np.inf)])
    for signed in (near, rng.normal(size=500), np.concatenate([near, rng.normal(size=50)])):
        assert permutation._count_null(signed, total, mags, alternative) == \
            exact_count(signed, total, mags, alternative)
