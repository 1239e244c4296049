"""Diving with limited discrepancy (models.joint.cg.diving): its incumbents pass the exact
re-check, lie between the root bound and the incumbent they beat, and a rejected solution
is never returned."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from models.joint.cg import solve as cg_solve
from models.joint.cg.column import Column
from models.joint.cg.diving import dive_root
from models.joint.cg.generate import generate
from models.joint.exact import broken
from tests.joint_batch import no_search, six_job_batch, solve_gap_case
from validation import check_alternatives


def placement(columns: Sequence[Column]) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Return ``columns`` as job index → (start, option indices)."""
    return {c.j: (c.T, c.chosen) for c in columns}


@pytest.mark.parametrize("objective", ["finish", "proc_time", "cost"])
def test_dive_incumbents_pass_the_exact_recheck(objective: str) -> None:
    """From the root of the 6-job css2015 batch (count fixed to AMP's), every solution the
    dive offers and the one it returns pass :func:`models.joint.exact.broken` and place the
    fixed count; the returned one beats AMP's and is at least the root bound."""
    spaces, fresh = six_job_batch(objective)
    master = fresh()
    amp = sum(c.metric(objective) for c in master.columns)
    root = generate(spaces, master)
    offered: list[list[Column]] = []

    def accept(cols: Sequence[Column]) -> bool:
        offered.append(list(cols))
        return broken(spaces, placement(cols)) is None

    found = dive_root(spaces, master, objective, 1, amp, accept=accept)
    assert offered and found.columns is not None
    for cols in offered:
        assert broken(spaces, placement(cols)) is None
        assert len({c.j for c in cols}) == len(cols) == master.count
    assert found.value == sum(c.metric(objective) for c in found.columns)
    assert math.ceil(root.bound - 1e-6) <= found.value < amp


def test_dive_never_returns_a_rejected_solution() -> None:
    """When the re-check rejects every solution, the dive returns none and its value stays
    the incumbent's."""
    spaces, fresh = six_job_batch("finish")
    master = fresh()
    amp = sum(c.metric("finish") for c in master.columns)
    generate(spaces, master)
    found = dive_root(spaces, master, "finish", 1, amp, accept=lambda cols: False)
    assert found.columns is None and found.value == amp and not found.found


def test_dive_leaves_the_master_as_it_was() -> None:
    """After a dive every column of the master is free again (upper bound infinite) and the
    master's LP value is the root's (the dive's columns may only lower it)."""
    spaces, fresh = six_job_batch("finish")
    master = fresh()
    root = generate(spaces, master)
    amp = sum(c.metric("finish") for c in master.columns[:master.count])
    dive_root(spaces, master, "finish", 1, amp + 1000, accept=lambda cols: True)
    inf = master.lp.infinity()
    assert all(x.ub() == inf for x in master.x)
    assert master.solve() <= root.lp + 1e-6


@pytest.mark.slow
def test_cg_solver_with_the_dive_proves_the_brute_force_optima(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the root dive switched on (and no integer master nor search after the root, so
    that the dive starts from the first incumbent), the cg solver still returns each tiny
    gap case's brute-force optimum, proven, with windows that pass the joint checker."""
    monkeypatch.setattr(cg_solve, "DIVING", True)
    no_search(monkeypatch)
    dived = 0
    for seed in range(10):
        r, placed, best, inst = solve_gap_case(seed)
        assert r.status == "optimal"
        assert (len(r.info["placed"]), r.objective) == (placed, best)
        assert check_alternatives(inst, r.windows, sequential=False) == []
        dived += "dive" in r.info["cg"]
    assert dived  # the dive ran on some case whose gap the root left open
