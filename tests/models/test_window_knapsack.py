"""The n-of-m subset DP of SPEC §6 (models.window.knapsack.select) against enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models.window.knapsack import select


def enumerate_best(z, c, n, budget, exact):
    """Return the best Σ z over feasible n-subsets by enumeration (None if there is none)."""
    best = None
    for comb in itertools.combinations(range(len(z)), n):
        pick = list(comb)
        if budget is not None and c[pick].sum() > budget:
            continue
        if exact is not None and not exact[pick].any():
            continue
        value = z[pick].sum()
        best = value if best is None or value < best else best
    return best


@pytest.mark.parametrize(
    ("z", "c", "n", "budget", "exact", "want"),
    [
        ([-5, -4, -3], [3, 2, 1], 2, 3, None, [1, 2]),  # the two best cost 5 > 3
        ([-5, -4, -3], [3, 2, 1], 2, None, None, [0, 1]),  # no budget: the two best
        ([-5, -4, -3], [3, 2, 1], 2, 2, None, None),  # the two cheapest cost 3 > 2
        ([-5, -4, -3], [1, 1, 1], 2, 5, [False, False, True], [0, 2]),  # needs item 2
        ([-5, -4], [1, 1], 3, None, None, None),  # fewer items than n
        ([-5, -4, -3], [30, 20, 10], 2, 39, None, [1, 2]),  # costs in units of 10, S rounds down
    ],
)
def test_hand_rows(z, c, n, budget, exact, want) -> None:
    """Small rows worked out by hand."""
    ex = None if exact is None else np.array(exact)
    got = select(np.array(z, float), np.array(c), n, budget, ex)
    assert (None if got is None else sorted(got.tolist())) == want


def test_random_rows_match_enumeration() -> None:
    """Seeded random rows (costs, budgets, exact masks) give the enumerated optimum."""
    rng = np.random.default_rng(2024)
    for _ in range(400):
        m = int(rng.integers(1, 8))
        n = int(rng.integers(1, m + 1))
        z = rng.integers(-10, 10, m).astype(float)
        c = rng.integers(0, 8, m)
        budget = None if rng.random() < 0.2 else int(rng.integers(0, 25))
        exact = None if rng.random() < 0.5 else rng.random(m) < 0.4
        want = enumerate_best(z, c, n, budget, exact)
        got = select(z, c, n, budget, exact)
        if want is None:
            assert got is None
            continue
        assert got is not None and len(set(got.tolist())) == n
        assert budget is None or c[got].sum() <= budget
        assert exact is None or exact[got].any()
        assert z[got].sum() == pytest.approx(want)
