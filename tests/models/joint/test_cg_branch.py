"""Branch-and-price of the ``cg`` joint solver: branching on hand-built LP solutions, the
node bound with placed jobs, and proofs equal to brute force where the root LP has a gap."""

from __future__ import annotations

import dataclasses
import math
import os

import numpy as np
import pytest

from instances import Instance, Job, Node, Slot, generate
from models import solve_joint
from models.joint.cg import branch
from models.joint.cg import solve as cg_solve
from models.joint.cg.branch import branch_and_price
from models.joint.cg.branching import choose
from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals
from models.joint.cg.master import Master
from models.joint.cg.node import lagrangian
from models.joint.cg.pricing import Prices
from models.joint.cg.restrict import Limits, Rule
from models.joint.space import JobSpace
from planner.deadline import Deadline
from tests.joint_batch import solve_gap_case
from validation import check_alternatives
from validation.joint_brute import all_windows, brute_joint, value

CASES = int(os.environ.get("PLANNER_BP_CASES", "60"))
"""Random 4-job batches whose root LP has a gap (``PLANNER_BP_CASES=2000`` for a long run)."""


def two_node_space() -> JobSpace:
    """Return the space of a 1-task job on two nodes a and b, each free over [0, 10)."""
    inst = Instance(
        nodes=(Node("a", 1.0, 1.0), Node("b", 1.0, 2.0)),
        slots=(Slot("a", 0, 10), Slot("b", 0, 10)),
        jobs=(Job("j", nodes=1, volume=2.0),),
    )
    return JobSpace(inst, inst.jobs[0])


def test_branch_on_a_job_placed_half_the_time() -> None:
    """A job whose windows sum to 0.5 is branched on first: placed / not placed."""
    sp = two_node_space()
    a = Column.build(0, sp, 0, [0])
    assert choose([a], [0.5], [sp]) == (Rule(0, "placed", True), Rule(0, "placed", False))


def test_branch_on_a_node_used_part_of_the_time() -> None:
    """Placed once in all, on node a 0.3 and node b 0.7: one of the two nodes is required in
    one child and banned in the other."""
    sp = two_node_space()
    a, b = Column.build(0, sp, 0, [0]), Column.build(0, sp, 0, [1])
    used, banned = choose([a, b], [0.3, 0.7], [sp])
    assert used.kind == banned.kind == "node" and used.at == banned.at in ("a", "b")
    assert (used.j, used.on, banned.j, banned.on) == (0, True, 0, False)


def test_branch_on_the_start_at_the_mean() -> None:
    """Same node, starts 2 and 6 with weights 0.5: T ≤ 4 / T ≥ 5 (the mean start is 4)."""
    sp = two_node_space()
    early, late = Column.build(0, sp, 2, [0]), Column.build(0, sp, 6, [0])
    assert choose([early, late], [0.5, 0.5], [sp]) == (Rule(0, "start", False, 4),
                                                       Rule(0, "start", True, 5))


def test_an_integral_solution_needs_no_branching() -> None:
    """One window at 1.0 (and others at 0): nothing to branch on."""
    sp = two_node_space()
    a, b = Column.build(0, sp, 0, [0]), Column.build(0, sp, 3, [1])
    assert choose([a, b], [1.0, 0.0], [sp]) is None


def test_node_bound_counts_a_placed_job_even_when_its_window_is_dear() -> None:
    """μ = 5, values 3 and 9: a free job adds min(0, v − μ), a placed one v − μ, an unplaced
    one nothing, and a placed job without a window makes the node infeasible (+inf)."""
    duals = Duals(Linear(), Prices({"a": (np.array([1]), np.array([2.0]))}), 5.0, [0.0, 0.0],
                  fixed=10.0)
    free = [Limits(), Limits()]

    def near(got: float, exact: float) -> bool:  # lowered by its float margin, no more
        return exact - 1e-6 <= got < exact

    assert near(lagrangian(duals, [3.0, 9.0], free), 10.0 - 2.0 + (3.0 - 5.0) + 0.0)
    placed = [Limits(), Limits(placed=True)]
    assert near(lagrangian(duals, [3.0, 9.0], placed), 10.0 - 2.0 + (3.0 - 5.0) + (9.0 - 5.0))
    unplaced = [Limits(placed=False), Limits()]
    assert near(lagrangian(duals, [3.0, 9.0], unplaced), 10.0 - 2.0 + 0.0)
    assert lagrangian(duals, [3.0, None], placed) == math.inf


def test_a_passed_deadline_leaves_the_tree_open_and_claims_nothing() -> None:
    """With the deadline already passed no node is solved: the tree is not finished and the
    bound stays the root's (never the incumbent's unless they meet)."""
    inst = generate("tiny", 3, jobs=3)
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    sp = spaces[0]
    from models.joint.cg.pricing import price

    found = price(sp, Linear.of("cost"), Prices({}))
    assert found is not None
    col = Column.build(0, sp, found[1], found[2])
    master = Master(len(spaces), Linear.of("cost"), count=1)
    master.add(col)
    tree = branch_and_price(spaces, master, "cost", 1, [col], col.cost - 5.0,
                            deadline=Deadline(0.0))
    assert not tree.finished and tree.nodes == 0
    assert tree.low == col.cost - 5 < tree.best == col.cost


@pytest.mark.parametrize("seed", range(CASES))
def test_branch_and_price_proves_the_brute_force_optimum(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4-job batches, every node explored by branch-and-price (no integer-master shortcut):
    the proven optimum equals brute force and the windows pass the joint checker."""
    monkeypatch.setattr(branch, "HEURISTIC_EVERY", 10**9)
    monkeypatch.setattr(cg_solve, "CLOSE", "branch")
    r, placed, best, inst = solve_gap_case(seed)
    assert r.status == "optimal"
    assert check_alternatives(inst, r.windows, sequential=False) == []
    assert (len(r.info["placed"]), r.objective) == (placed, best)


def from_scratch(seed: int) -> tuple[Instance, str, int, bool]:
    """Return a 4-job tiny batch, its objective, a side limit on Σ proc_time, start rule."""
    geometry = ("rough", "square")[seed % 2]
    inst = dataclasses.replace(generate("tiny", 900 + seed, jobs=4), geometry=geometry)
    return inst, ("cost", "finish", "proc_time", "runtime")[seed % 4], 6 + seed % 9, seed % 3 > 0


@pytest.mark.parametrize("seed", range(CASES))
def test_the_tree_alone_finds_and_proves_the_optimum(seed: int) -> None:
    """Branch-and-price from nothing (no incumbent, no columns, a root bound of −10⁹, a
    limit on Σ proc_time): the tree's own solution is the brute-force optimum at the
    brute-force placed count, it passes the joint checker, and the tree is finished."""
    inst, metric, limit, free = from_scratch(seed)
    windows = [all_windows(inst, job, free_start=free) for job in inst.jobs]
    sides = [(lambda w: value(w, "proc_time"), limit)]
    placed, best = brute_joint(windows, lambda w: value(w, metric), "min", sides)
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    master = Master(len(spaces), Linear.of(metric), [(Linear.of("proc_time"), limit)],
                    count=placed)
    tree = branch_and_price(spaces, master, metric, 1, [], -1e9, free_start=free)
    assert tree.finished and tree.low == tree.best == best
    assert len(tree.columns) == placed
    assert sum(c.proc_time for c in tree.columns) <= limit
    got = solve_joint(inst, metric, "cg", free_start=free)  # the same batch, for its windows
    assert check_alternatives(inst, got.windows, sequential=False) == []


def test_start_intervals_from_fixing_may_be_numpy_integers() -> None:
    """Reduced-cost fixing yields numpy integers; the restricted space clips slots with them
    (a slot's ends must be Python integers) and keeps only starts inside the intervals."""
    from models.joint.cg.restrict import compatible, restrict

    sp = two_node_space()
    lim = Limits(spans=[(np.int64(2), np.int64(3)), (np.int64(7), np.int64(7))])
    rs = restrict(sp, lim)
    assert rs is not None
    assert sorted((o.node, o.slot.start, o.slot.end) for o in rs.options) == [
        ("a", 2, 5), ("a", 7, 9), ("b", 2, 5), ("b", 7, 9)]
    assert all(type(o.slot.end) is int for o in rs.options)
    assert [compatible(Column.build(0, sp, t, [0]), sp, lim) for t in (1, 2, 3, 4, 7, 8)] == [
        False, True, True, False, True, False]


def test_a_node_left_unsettled_stays_open_and_the_tree_claims_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A child node that cannot be settled (as after a failed LP or the deadline) goes back
    on the heap beside its equal-bound sibling (no comparison of nodes), the search stops,
    and the reported bound is the open nodes' least, below the optimum."""
    from models.joint.cg import node as node_module

    solve = node_module.NodeSearch.solve_node

    def unsettled_children(self, rules, bound, best, *limit):  # type: ignore[no-untyped-def]
        got = solve(self, rules, bound, best, *limit)
        return (bound, None, got[2], False) if rules else got

    monkeypatch.setattr(node_module.NodeSearch, "solve_node", unsettled_children)
    monkeypatch.setattr(branch, "DIVE_EVERY", 10**9)
    for seed in range(CASES):
        inst, metric, limit, free = from_scratch(seed)
        spaces = [JobSpace(inst, job) for job in inst.jobs]
        windows = [all_windows(inst, job, free_start=free) for job in inst.jobs]
        sides = [(lambda w: value(w, "proc_time"), limit)]
        placed, best = brute_joint(windows, lambda w, metric=metric: value(w, metric), "min", sides)
        master = Master(len(spaces), Linear.of(metric), [(Linear.of("proc_time"), limit)],
                        count=placed)
        tree = branch_and_price(spaces, master, metric, 1, [], -1e9, free_start=free)
        if tree.nodes > 1:  # the root branched: a child was left open
            assert not tree.finished and tree.open >= 1
            assert tree.low <= best
            return
    pytest.fail("no case branched at the root")


def test_fixing_that_leaves_no_start_leaves_no_window() -> None:
    """Reduced-cost fixing may leave a job no start interval at all (``spans == []``): the
    restricted space is then empty, exactly as ``compatible`` rejects every window, and a
    job that must be placed makes the node infeasible (never "any start")."""
    from models.joint.cg.restrict import compatible, restrict

    sp = two_node_space()
    lim = Limits(placed=True, spans=[])
    assert restrict(sp, lim) is None
    assert not compatible(Column.build(0, sp, 0, [0]), sp, lim)
