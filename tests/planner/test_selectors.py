"""Subset selectors (SPEC §5, §6, §9) against enumeration of every n-subset."""

from __future__ import annotations

import importlib
from itertools import combinations

import numpy as np
import pytest

from instances import Instance, Job, Node, Slot
from planner import search
from planner.heuristics.selectors import knapsack
from validation import check_window

knapsack_module = importlib.import_module("planner.heuristics.selectors.knapsack")


def _enumerate(z, c, n, budget, must=None) -> float | None:
    best = None
    for comb in combinations(range(len(z)), n):
        if budget is not None and sum(c[i] for i in comb) > budget:
            continue
        if must is not None and not any(must[i] for i in comb):
            continue
        v = sum(z[i] for i in comb)
        best = v if best is None else min(best, v)
    return best


@pytest.mark.parametrize("dense_cap", [4096, 0])
@pytest.mark.parametrize("with_must", [False, True])
def test_knapsack_matches_enumeration(
    with_must: bool, dense_cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On 400 seeded item sets the DP's subset is feasible and optimal (dense and Pareto forms)."""
    monkeypatch.setattr(knapsack_module, "DENSE_CAP", dense_cap)
    rng = np.random.default_rng(7)
    for _ in range(400):
        m = int(rng.integers(1, 9))
        n = int(rng.integers(1, m + 1))
        z = rng.integers(-20, 20, size=m).astype(float)
        c = rng.integers(0, 15, size=m)
        budget = None if rng.random() < 0.15 else int(rng.integers(0, 60))
        must = rng.random(m) < 0.3 if with_must else None
        got = knapsack(z, c, n, budget, must)
        best = _enumerate(z, c, n, budget, must)
        if best is None:
            assert got is None
            continue
        assert got is not None and len(set(got.tolist())) == n
        assert budget is None or c[got].sum() <= budget
        assert must is None or must[got].any()
        assert z[got].sum() == pytest.approx(best)


@pytest.mark.parametrize(
    ("budget", "expected"),
    [
        (None, [0, 1]),  # unbounded: the two best values
        (9, [0, 2]),  # 0+1 costs 10; 0+2 costs 9 (value -7)
        (5, [2, 3]),  # only 2+3 (cost 5) fits
        (4, None),  # nothing fits
    ],
)
def test_knapsack_hand_cases(budget: int | None, expected: list[int] | None) -> None:
    """z = (-5, -4, -2, 0), c = (6, 4, 3, 2), n = 2: minimise z within the budget."""
    z = np.array([-5.0, -4.0, -2.0, 0.0])
    c = np.array([6, 4, 3, 2])
    got = knapsack(z, c, 2, budget)
    assert (None if got is None else sorted(got.tolist())) == expected


def _spread() -> Instance:
    """Six nodes, performance 1..6, price 1, all free on [0, 100); V = 60 (d = 60/p)."""
    nodes = tuple(Node(f"n{p}", float(p), price=1.0) for p in range(1, 7))
    slots = tuple(Slot(nd.id, 0, 100) for nd in nodes)
    job = Job("j", nodes=3, volume=60.0, budget=100, criterion="min_proc_time")
    return Instance(nodes=nodes, slots=slots, jobs=(job,))


def test_random_subset_is_seeded_and_feasible() -> None:
    """The simplified minProcTime draws with the given seed: same seed, same window; all feasible.

    Tasks cost their durations (60, 30, 20, 15, 12, 10); three of them fit
    100 unless n1 (60) is drawn with n2 (30) and another, which the repair fixes.
    """
    inst = _spread()
    runs = {seed: search(inst, "j", "min_proc_time", seed=seed) for seed in range(20)}
    for seed, w in runs.items():
        assert w is not None and check_window(inst, "j", w) == []
        assert search(inst, "j", "min_proc_time", seed=seed) == w
    assert len({w.nodes for w in runs.values()}) > 1
    exact = search(inst, "j", "min_proc_time_exact")
    assert exact.proc_time == 10 + 12 + 15
    assert all(w.proc_time >= exact.proc_time for w in runs.values())
