"""q of large magnitude that nearly cancels: no solver may claim a false ``optimal`` (issue 15).

The reported case: toporkov2018 seed 1 (seed 004 families) with q = 1e12 + f on
three nodes and -0.75e12 + f on the others, f with four decimals. CP-SAT used to
say ``optimal 1.95093`` while DP and the MILP found a window worth 2.79761.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from instances import Instance, generate
from models import SOLVERS, solve_window
from models.window.space import WindowSpace, criterion_of, exact_q
from validation import check_window


def cancelling(big: float, seed: int = 1) -> Instance:
    """toporkov2018 seed 1 with q = big + f on three nodes, -0.75 big + f elsewhere."""
    inst = generate("toporkov2018", 1)
    rng = random.Random(seed)
    nodes = []
    for i, node in enumerate(inst.nodes):
        f = round(rng.uniform(0, 0.49), 4)
        nodes.append(dataclasses.replace(node, q=(big if i < 3 else -0.75 * big) + f))
    return dataclasses.replace(inst, nodes=tuple(nodes), slots=None)


def _decimal_value(inst: Instance, window) -> Fraction:
    """The exact sum of the window's q, read as the decimals written in the file."""
    return sum((Fraction(repr(inst.node(p.node).q)) for p in window.placements), Fraction(0))


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_huge_cancelling_q_is_never_claimed_optimal(solver: str) -> None:
    """q ≈ 1e12 with four decimals is not exactly representable: no ``optimal`` claim."""
    inst = cancelling(1e12)
    res = solve_window(inst, inst.jobs[0], "max_q", solver, time_limit=2.0)
    assert res.status in ("feasible", "unknown")  # a MILP may find nothing in 2 s
    if res.window is not None:
        check_window(inst, inst.jobs[0], res.window)
        assert res.bound >= res.objective
        assert "exact integer scaling" in res.info["reason"]


def test_moderate_cancelling_q_all_solvers_agree_exactly() -> None:
    """q ≈ 1e6 with four decimals scales exactly: CP-SAT and DP prove the same optimum.

    Optimality is measured on the exact decimal sums, so two claimed optima are
    equal. (The MILPs take the same exactness rule in solve_window; the huge case
    above runs them.)
    """
    inst = cancelling(1e6)
    job = inst.jobs[0]
    values = {}
    for solver in ("cpsat", "dp"):
        res = solve_window(inst, job, "max_q", solver, time_limit=2.0)
        if res.window is None:  # a time-limited MILP may stop without a window
            assert res.status == "unknown" and solver.startswith("milp")
            continue
        check_window(inst, job, res.window)
        if res.status == "optimal":
            values[solver] = _decimal_value(inst, res.window)
        else:  # a time-limited MILP may stop unproven; its window is never better
            assert res.status == "feasible" and solver.startswith("milp")
            values[solver + "-feasible"] = _decimal_value(inst, res.window)
    best = max(values.values())
    claimed = {k: v for k, v in values.items() if not k.endswith("-feasible")}
    assert {"cpsat", "dp"} <= set(claimed)
    assert all(v == best for v in claimed.values())


def test_exact_q_scales_decimals_and_refuses_what_does_not_fit() -> None:
    """The exact scaling reads q as written, with a power of ten, or gives up (None)."""
    assert exact_q([7.52, -0.5, 3.0]) == ([752, -50, 300], 2)
    assert exact_q([1e300, 2e300]) == ([1, 2], -300)  # large round q scale down exactly
    assert exact_q([1e12 + 0.1234, 1.0]) is None  # 10^4 · 1e12 does not fit
    assert exact_q([]) == ([], 0)


def test_space_q_is_exact_integers_when_representable() -> None:
    """The space's q are scaled integers, so float sums of any subset are exact."""
    inst = cancelling(1e6)
    sp = WindowSpace(inst, inst.jobs[0], criterion_of(inst.jobs[0], "max_q"))
    assert sp.q_exact
    assert all(float(v).is_integer() for v in sp.q)


def test_joint_model_never_claims_optimal_on_huge_cancelling_q() -> None:
    """The joint model uses the same exact scaling: q ≈ 1e12 with four decimals is no proof.

    {a, b} sums to 1e12 + 0.2 - 1e12 + 0.1 = 0.3 and {c, d} to 0.2; floats of
    that magnitude keep only about four decimals, so a rounded model cannot tell.
    """
    from instances import Job, Node, Slot
    from models import solve_joint

    q = {"a": 1e12 + 0.2, "b": -1e12 + 0.1, "c": 0.1, "d": 0.1}
    nodes = tuple(Node(k, 1.0, price=1.0, q=v) for k, v in q.items())
    slots = (Slot("a", 0, 10), Slot("b", 0, 10), Slot("c", 20, 30), Slot("d", 20, 30))
    inst = Instance(nodes, slots, (Job("j", nodes=2, volume=10.0),))
    res = solve_joint(inst, "q")
    assert res.status == "feasible"
    assert res.bound is not None and res.bound >= 0.3 - 1e-3


@pytest.mark.parametrize("solver", ["milp", "milp-highs"])
def test_milp_optimal_beyond_its_safe_magnitude_is_reported_feasible(solver: str) -> None:
    """q of 10^9 per task: the MILP's tolerances are unsafe, so its optimum is no proof.

    The budget excludes the two best nodes together, so the budget-free relaxation
    does not prove the window either: the MILP answers ``feasible`` with the reason,
    while the DP (exact integers) proves the same value optimal.
    """
    from instances import Job, Node, Slot

    q = {"a": 3e9 + 1, "b": 2e9 + 1, "c": 1e9 + 1, "d": 1e9}  # no common power of ten
    price = {"a": 3.0, "b": 3.0, "c": 1.0, "d": 1.0}
    nodes = tuple(Node(k, 1.0, price=price[k], q=v) for k, v in q.items())
    slots = tuple(Slot(k, 0, 10) for k in q)
    inst = Instance(nodes, slots, (Job("j", nodes=2, volume=10.0, budget=40),))
    exact = solve_window(inst, "j", "max_q", "dp")
    assert exact.status == "optimal" and exact.objective == 4e9 + 2  # a with c
    res = solve_window(inst, "j", "max_q", solver)
    assert res.status == "feasible" and "10^9" in res.info["reason"]
    assert res.objective == exact.objective and res.bound >= exact.objective
    check_window(inst, inst.jobs[0], res.window)
