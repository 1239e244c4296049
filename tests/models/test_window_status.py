"""Status paths of window selection: infeasible jobs, time limits, honest bounds (models.Result)."""

from __future__ import annotations

import dataclasses

import pytest

from instances import CRITERIA, Instance, Job, Node, Slot, generate
from models import SOLVERS, STATUSES, solve_window
from tests.waiting import HANG_GUARD_S
from validation import brute_force_value, check_window


def small() -> Instance:
    """Two nodes with one slot each; job ``j`` takes both (costs 10 + 10, budget 25)."""
    nodes = (Node("a", 1.0, price=1.0, q=1.0), Node("b", 2.0, price=2.0, q=2.0))
    slots = (Slot("a", 0, 20), Slot("b", 0, 20))
    return Instance(nodes, slots, (Job("j", nodes=2, volume=10.0, budget=25),))


@pytest.mark.parametrize("solver", list(SOLVERS))
@pytest.mark.parametrize(
    "change",
    [
        {"budget": 19},  # the only window costs 20
        {"nodes": 3},  # only two nodes exist
        {"volume": 41.0},  # node b needs 21 quanta, its slot holds 20
        {"deadline": 9},  # node a cannot finish by 9
        {"min_performance": 3.0},  # no node is fast enough
    ],
)
def test_infeasible_job(solver: str, change: dict) -> None:
    """A job without any window is reported infeasible, with no window, objective or bound."""
    inst = small()
    job = dataclasses.replace(inst.jobs[0], **change)
    res = solve_window(dataclasses.replace(inst, jobs=(job,)), job, "min_cost", solver)
    assert res.status == "infeasible"
    assert res.windows == () and res.objective is None and res.bound is None


def _sound(res, optimum: float, criterion: str, inst: Instance, job: Job) -> None:
    """Check the promises of a time-limited result against the known optimum."""
    crit = CRITERIA[criterion]
    assert res.status in STATUSES and res.status != "infeasible"
    if res.status == "optimal":
        assert res.objective == pytest.approx(optimum)
    if res.status in ("optimal", "feasible"):
        assert check_window(inst, job, res.window) == []
        assert not crit.better(res.objective, optimum) or res.objective == pytest.approx(optimum)
    else:
        assert res.window is None and res.objective is None
    if res.bound is not None:  # a proven bound is never worse than the optimum
        assert not crit.better(optimum, res.bound) or res.bound == pytest.approx(optimum)


@pytest.fixture(scope="module")
def larger() -> Instance:
    """A toporkov2012 instance (about 450 slots, one 5-node job)."""
    return generate("toporkov2012", 3)


@pytest.mark.parametrize("criterion", ["dep", "coord", "min_finish"])
def test_dp_zero_time_limit_gives_unknown_with_bound(larger: Instance, criterion: str) -> None:
    """The DP stopped before its first step reports ``unknown`` and a valid bound."""
    job = larger.jobs[0]
    optimum = solve_window(larger, job, criterion, "dp").objective
    res = solve_window(larger, job, criterion, "dp", time_limit=0.0)
    assert res.status == "unknown" and res.bound is not None
    _sound(res, optimum, criterion, larger, job)


@pytest.mark.parametrize("solver", ["cpsat", "milp", "milp-highs"])
@pytest.mark.parametrize("limit", [1e-6, 0.02])
def test_tight_time_limit_never_claims_a_false_optimum(
    larger: Instance, solver: str, limit: float
) -> None:
    """Under a tight limit the status is feasible/unknown, or a true optimum; bounds are valid."""
    job = larger.jobs[0]
    for criterion in ("dep", "coord"):
        optimum = solve_window(larger, job, criterion, "dp").objective
        res = solve_window(larger, job, criterion, solver, time_limit=limit)
        _sound(res, optimum, criterion, larger, job)


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_result_fields(solver: str) -> None:
    """The Result names its solver and job, and its runtime is a non-negative number."""
    inst = small()
    res = solve_window(inst, "j", "max_q", solver)
    assert res.status == "optimal" and res.objective == pytest.approx(3.0)
    assert res.solver == solver and res.info["job"] == "j" and res.runtime >= 0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"solver": "gurobi"}, ValueError),  # not in SOLVERS
        ({"criterion": "max_speed"}, KeyError),  # not in CRITERIA
        ({"job": "nope"}, KeyError),  # no such job
        ({"solver": "dp", "backend": "highs"}, TypeError),  # option of another solver
    ],
)
def test_bad_arguments(kwargs: dict, error: type) -> None:
    """Unknown solvers, criteria, jobs and options are rejected with a named error."""
    args = {"job": "j", "criterion": "min_cost", "solver": "cpsat"} | kwargs
    with pytest.raises(error):
        solve_window(small(), **args)


def test_cpsat_zero_time_limit_returns_the_reduction_window(larger: Instance) -> None:
    """CP-SAT stopped at once still returns the dominance reduction's window as ``feasible``."""
    job = larger.jobs[0]
    optimum = solve_window(larger, job, "dep", "dp").objective
    res = solve_window(larger, job, "dep", "cpsat", time_limit=0.0)
    assert res.status == "feasible" and res.bound is not None
    assert res.objective < optimum < res.bound  # this instance's incumbent is not optimal
    _sound(res, optimum, "dep", larger, job)


_ABORT_CASE = """
from instances import Instance, Job, Node, Slot
from models import solve_window
nodes = (Node("a", 4.0, price=2.01, q=8.1), Node("b", 1.0, price=2.85, q=8.4),
         Node("c", 1.0, price=1.67, q=7.7))
slots = (Slot("a", 8, 24), Slot("b", 8, 11), Slot("c", 9, 17), Slot("c", 19, 25))
inst = Instance(nodes, slots, (Job("j", nodes=3, volume=2.6, max_price=2.46),), geometry="square")
print(solve_window(inst, "j", "max_q", "cpsat", free_start=True, reduce=False).status)
"""


def test_cpsat_square_model_that_crashed_ortools_is_infeasible() -> None:
    """The three nodes cost 7 + 9 + 6 > S = 19 at level 3: infeasible, and the process survives.

    With ``cp_model_probing_level = 0`` OR-Tools 9.15 found an "optimal" solution
    breaking the cardinality constraint here and aborted the whole process
    ("Infeasible solution!"), so this runs in a child process.
    """
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _ABORT_CASE], capture_output=True, text=True, timeout=HANG_GUARD_S
    )
    assert done.returncode == 0, done.stderr[-300:]
    assert done.stdout.split() == ["infeasible"]


def _q_instance(q_of: dict[str, float]) -> Instance:
    """Nodes a, b free over [0, 10), nodes c, d over [20, 30): start 0 holds {a, b}, 20 {c, d}."""
    nodes = tuple(Node(k, 1.0, price=1.0, q=v) for k, v in q_of.items())
    slots = (Slot("a", 0, 10), Slot("b", 0, 10), Slot("c", 20, 30), Slot("d", 20, 30))
    return Instance(nodes, slots, (Job("j", nodes=2, volume=5.0),))


@pytest.mark.parametrize("reduce", [True, False])
def test_cpsat_q_with_seven_decimals_is_not_declared_infeasible(reduce: bool) -> None:
    """q = 0.6666667 is no integer times 10^-6: the bound cut on rounded q must keep the window."""
    inst = _q_instance({"a": 0.6666667, "b": 0.6666667, "c": 0.1, "d": 0.1})
    res = solve_window(inst, "j", "max_q", "cpsat", reduce=reduce)
    assert res.status == "optimal"
    assert res.objective == pytest.approx(1.3333334, abs=1e-12)
    assert res.window.nodes == ("a", "b")


TINY_Q = [  # q of {a, b} vs {c, d}: the optimum is {a, b}
    # rounded by 10^6 {c, d} reads 1 + 2 = 3 and {a, b} 1 + 1 = 2
    ({"a": 1.4e-6, "b": 1.4e-6, "c": 1.0e-6, "d": 1.6e-6}, 2.8e-6),
    # every q is within an absolute 1e-9 of 0; solver tolerances hide the difference
    ({"a": 1.0e-9, "b": 1.0e-9, "c": 0.5e-9, "d": 0.5e-9}, 2.0e-9),
    # full-precision reals: q * 10^6 is within a relative 1e-9 of an integer, yet not one
    ({"a": 918.2343317851318, "b": 829.8529036589914, "c": 1.5, "d": 2.5}, 1748.0872354441232),
]


@pytest.mark.parametrize(("q", "optimum"), TINY_Q)
@pytest.mark.parametrize(
    ("solver", "options"),
    [("cpsat", {}), ("cpsat", {"reduce": False}), ("milp", {}), ("milp-highs", {}), ("dp", {})],
)
def test_tiny_or_rounded_q_never_gives_a_false_optimum(
    q: dict[str, float], optimum: float, solver: str, options: dict
) -> None:
    """q that CP-SAT must round, or too small for absolute tolerances: never a false ``optimal``.

    A result may be ``feasible`` with a valid bound (CP-SAT's model of rounded
    q proves nothing), but an ``optimal`` one has the true optimum.
    """
    inst = _q_instance(q)
    assert brute_force_value(inst, "j", "max_q") == pytest.approx(optimum, rel=1e-12)
    res = solve_window(inst, "j", "max_q", solver, **options)
    assert res.status in ("optimal", "feasible")
    if res.status == "optimal":
        assert res.objective == pytest.approx(optimum, rel=1e-12)
    assert res.bound >= optimum * (1 - 1e-12)
