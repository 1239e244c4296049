"""Exact window selection (SPEC §3–§4, §6): hand-checked optima and cross-method agreement."""

from __future__ import annotations

import dataclasses

import pytest

import validation
from instances import CRITERIA, Instance, Job, Node, Slot, generate, read_instance
from models import SOLVERS, solve_window
from validation import check_window

METHODS = ("cpsat", "milp", "dp")
# the three methods, plus CP-SAT without the dominance reduction (its plain compact model)
VARIANTS = [(m, {}) for m in METHODS] + [("cpsat", {"reduce": False})]


def fixture(geometry: str = "rough") -> Instance:
    """Three nodes, four slots, one 2-node job of volume 10 (durations a 10, b 5, c 5).

    Costs at those durations: a 10, b 10, c 5; the budget is 25.
    AEP starts 0, 5, 10 host {a, c}, {a, b} and {a, b, c} (rough geometry).
    """
    nodes = (
        Node("a", performance=1.0, price=1.0, q=1.0),
        Node("b", performance=2.0, price=2.0, q=3.0),
        Node("c", performance=2.0, price=1.0, q=2.0),
    )
    slots = (Slot("a", 0, 20), Slot("b", 5, 15), Slot("c", 0, 8), Slot("c", 10, 30))
    job = Job("j", nodes=2, volume=10.0, budget=25)
    return Instance(nodes, slots, (job,), geometry=geometry)


# Optima worked out by hand in the fixture docstring's terms.
EXPECTED = {
    "rough": {
        "min_start": 0,  # {a, c} at 0
        "min_finish": 10,  # {a, c} at 0, both end by 10
        "min_cost": 15,  # {a, c} at 0 (or {b, c} at 10)
        "min_runtime": 5,  # {b, c} at 10
        "min_proc_time": 10,  # {b, c} at 10
        "max_q": 5.0,  # {b, c} at 10
        "dep": 2.5,  # {a, b} at 5: near 5 and 0
        "coord": 5.0,  # {a, b} at 5: far 5 and 5
    },
    "square": {
        "min_start": 10,  # at 5 {a, b} lasts 10 each and costs 30 > 25
        "min_finish": 15,  # {b, c} at 10, level 5
        "min_cost": 15,  # {b, c} at 10
        "min_runtime": 5,
        "min_proc_time": 10,
        "max_q": 5.0,
        "dep": 0.0,  # both windows at 10 touch a slot edge on every node
        "coord": 10.0,  # {a, c}: far 10 and 10; {b, c}: 5 and 15
    },
}


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("criterion", list(CRITERIA))
@pytest.mark.parametrize("solver", list(SOLVERS))
def test_hand_checked_optimum(geometry: str, criterion: str, solver: str) -> None:
    """Every solver reaches the hand-computed optimum and returns a feasible window."""
    inst = fixture(geometry)
    res = solve_window(inst, "j", criterion, solver)
    assert res.status == "optimal"
    assert res.objective == pytest.approx(EXPECTED[geometry][criterion])
    assert res.bound == pytest.approx(res.objective)
    assert res.solver == solver
    assert check_window(inst, "j", res.window) == []
    assert res.window.value(criterion) == pytest.approx(res.objective)


@pytest.mark.parametrize("solver", METHODS)
@pytest.mark.parametrize(
    ("criterion", "aep", "free"),
    [
        ("dep", 0.0, 23.0),  # n4's slot [50, 100), d = 3: T = 73 is 23 from both edges
        ("coord", 22.0, 11.0),  # n4's slot [15, 40): T = 26 is 11 from both edges
        ("max_q", 6.0, 6.0),  # free start never helps other criteria (SPEC §4)
    ],
)
def test_free_start_on_example(solver: str, criterion: str, aep: float, free: float) -> None:
    """Job j3 of the example instance (one linux node n4): free start helps DEP and COORD."""
    inst = read_instance("instances/data/example.json")
    a = solve_window(inst, "j3", criterion, solver)
    f = solve_window(inst, "j3", criterion, solver, free_start=True)
    assert (a.status, f.status) == ("optimal", "optimal")
    assert (a.objective, f.objective) == (pytest.approx(aep), pytest.approx(free))
    assert check_window(inst, "j3", f.window) == []


def _tiny(seed: int, geometry: str) -> Instance:
    return generate("tiny", seed, geometry=geometry)


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("seed", range(4))
def test_methods_agree_on_tiny(seed: int, geometry: str) -> None:
    """CP-SAT, MILP and DP reach the same optimum for every job and criterion (AEP space)."""
    inst = _tiny(seed, geometry)
    for job in inst.jobs:
        for criterion in CRITERIA:
            results = {m: solve_window(inst, job, criterion, m) for m in METHODS}
            statuses = {r.status for r in results.values()}
            assert len(statuses) == 1, (job.id, criterion, results)
            if statuses == {"infeasible"}:
                assert all(r.window is None and r.objective is None for r in results.values())
                continue
            assert statuses == {"optimal"}
            values = [r.objective for r in results.values()]
            assert values == pytest.approx([values[0]] * len(values)), (job.id, criterion)
            for r in results.values():
                assert check_window(inst, job, r.window) == []


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("seed", range(4))
def test_free_start_agrees_and_never_loses(seed: int, geometry: str) -> None:
    """With free_start the methods agree; DEP/COORD are never worse than in the AEP space."""
    inst = _tiny(seed, geometry)
    for job in inst.jobs:
        for criterion in ("dep", "coord", "min_cost"):
            free = [solve_window(inst, job, criterion, m, free_start=True) for m in METHODS]
            assert len({r.status for r in free}) == 1
            if free[0].status == "infeasible":
                continue
            assert [r.objective for r in free] == pytest.approx([free[0].objective] * 3)
            aep = solve_window(inst, job, criterion, "dp")
            assert not CRITERIA[criterion].better(aep.objective, free[0].objective)
            for r in free:
                assert check_window(inst, job, r.window) == []


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("seed", range(6))
def test_brute_force_agreement(seed: int, geometry: str) -> None:
    """Every method matches ``validation.brute_force`` (AEP and free start), windows feasible."""
    brute_force = getattr(validation, "brute_force", None)
    if brute_force is None:
        pytest.skip("validation.brute_force is not available yet")
    inst = _tiny(seed, geometry)
    for job in inst.jobs:
        for criterion in CRITERIA:
            for free_start in (False, True):
                ref = brute_force(inst, job, criterion, free_start=free_start)
                for m, options in VARIANTS:
                    res = solve_window(inst, job, criterion, m, free_start=free_start, **options)
                    if ref is None:
                        assert res.status == "infeasible", (job.id, criterion, m)
                    else:
                        assert res.status == "optimal", (job.id, criterion, m)
                        assert res.objective == pytest.approx(ref.value(criterion))
                        assert check_window(inst, job, res.window) == []


def test_slots_override_and_job_criterion() -> None:
    """``slots`` replaces the instance's free time; criterion None means the job's own."""
    inst = fixture()
    res = solve_window(inst, "j", None, "dp", slots=[Slot("b", 5, 15), Slot("c", 10, 30)])
    assert res.status == "optimal" and res.info["criterion"] == "min_start"
    assert res.objective == 10
    assert check_window(inst, "j", res.window, slots=[Slot("b", 5, 15), Slot("c", 10, 30)]) == []


def test_release_and_deadline_clip_the_slots() -> None:
    """A release of 3 leaves starts 3, 5, 10; the earliest window is {a, b} at 5 (rough)."""
    inst = fixture()
    job = dataclasses.replace(inst.jobs[0], release=3)
    inst = dataclasses.replace(inst, jobs=(job,))
    for m in METHODS:
        res = solve_window(inst, job, "min_start", m)
        assert res.objective == 3 or res.objective == 5
        assert check_window(inst, job, res.window) == []
    # {a, c} at 3 fits: a [3, 13) in [3, 20), c [3, 8) in [3, 8)
    assert solve_window(inst, job, "min_start", "dp").objective == 3


def test_same_input_same_objective() -> None:
    """With the default parameters repeated solves give the same objective."""
    inst = _tiny(1, "rough")
    for m in METHODS:
        runs = {solve_window(inst, inst.jobs[0], "max_q", m).objective for _ in range(3)}
        assert len(runs) == 1
