"""The joint master LP (models/joint/cg/master.py): its node-time rows are held in
differenced form, so its value must equal that of the plain clique rows, built here
independently, and the duals it recovers for those rows must price its columns as an
optimal LP basis does."""

from __future__ import annotations

import random

import pytest
from ortools.linear_solver import pywraplp

from models.joint.cg.column import Column, Linear
from models.joint.cg.master import Master
from tests.joint_batch import random_column


def _dense_value(columns: list[Column], jobs: int, form: Linear, count: int | None) -> float:
    """Return the LP value with one plain row per node and task start (the clique rows)."""
    lp = pywraplp.Solver.CreateSolver("GLOP")
    inf = lp.infinity()
    x = [lp.NumVar(0.0, inf, "") for _ in columns]
    for j in range(jobs):
        lp.Add(sum(v for v, c in zip(x, columns, strict=True) if c.j == j) <= 1)
    if count is not None:
        lp.Add(sum(x) == count)
    starts = {(node, s) for c in columns for node, s, _ in c.tasks}
    for node, t in starts:
        lp.Add(sum(v for v, c in zip(x, columns, strict=True)
                   for n, s, e in c.tasks if n == node and s <= t < e) <= 1)
    lp.Minimize(sum(c.value(form) * v for v, c in zip(x, columns, strict=True)))
    assert lp.Solve() == pywraplp.Solver.OPTIMAL
    return lp.Objective().Value()


@pytest.mark.parametrize("differenced", [True, False])
@pytest.mark.parametrize("seed", range(40))
def test_differenced_rows_give_the_plain_lp_and_its_duals(seed: int, differenced: bool) -> None:
    """Columns enter in three batches (rows then land before, between and after earlier
    rows); after each solve the value equals the plain clique-row LP's, every column's
    reduced cost under the recovered duals is ≥ 0, and it is 0 for the columns in use
    (rows differenced or whole)."""
    rng = random.Random(seed)
    jobs = 5
    form = Linear.of("finish") if seed % 2 else Linear.of("cost", -1.0)
    count = 3 if seed % 2 else None
    master = Master(jobs, form, count=count, differenced=differenced)
    for j in range(jobs):  # one early window per job keeps the fixed count feasible
        master.add(Column(j=j, T=40 * j + 100, chosen=(0,), tasks=(("a", 40 * j + 100,
                          40 * j + 101),), proc_time=1, cost=1, runtime=1))
    for _ in range(3):
        for _ in range(rng.randrange(4, 12)):
            master.add(random_column(rng, rng.randrange(jobs)))
        value = master.solve()
        assert value == pytest.approx(_dense_value(master.columns, jobs, form, count), abs=1e-6)
        duals = master.duals()
        for col, x in zip(master.columns, master.values(), strict=True):
            reduced = duals.reduced(col)
            assert reduced >= -1e-6
            if x > 1e-6:
                assert reduced == pytest.approx(0.0, abs=1e-6)


def test_a_row_added_before_the_first_row_of_a_node_is_kept_whole_or_differenced() -> None:
    """A later task start before the node's first row gets that row as its parent; the LP
    still forbids the two overlapping tasks together (value −1, not −2)."""
    master = Master(2, Linear(one=-1.0))
    master.add(Column(j=0, T=10, chosen=(0,), tasks=(("a", 10, 20),), proc_time=10, cost=1,
                      runtime=10))
    assert master.solve() == pytest.approx(-1.0)
    master.add(Column(j=1, T=5, chosen=(0,), tasks=(("a", 5, 15),), proc_time=10, cost=1,
                      runtime=10))
    assert master.solve() == pytest.approx(-1.0)
    assert master.parent["a"] == {10: None, 5: 10}
