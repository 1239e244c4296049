"""The set-packing problem over listed windows (SCIP) against brute force, with and without an
escape window."""

from __future__ import annotations

import dataclasses

import pytest

from instances import Instance, generate
from models.joint.cg import packing
from models.joint.cg.budget import SCIP_RESERVE, SCIP_TEARDOWN
from models.joint.cg.column import Column, Linear
from models.joint.cg.enumeration import windows_below
from models.joint.cg.packing import available, scip_seconds, solve_packing
from models.joint.cg.pricing import Prices
from models.joint.space import JobSpace
from planner import make_window
from planner.deadline import Deadline
from validation import check_alternatives
from validation.joint_brute import all_windows, brute_joint, value

pytestmark = pytest.mark.skipif(not available(), reason="this OR-Tools build has no SCIP")


def every_column(inst: Instance, free: bool) -> tuple[list[JobSpace], list[Column]]:
    """Return the jobs' spaces and every window of every job as a column."""
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    columns = [Column.build(j, sp, T, chosen) for j, sp in enumerate(spaces)
               for _, T, chosen in windows_below(sp, Linear(), Prices({}), 0.0,
                                                 free_start=free)]
    return spaces, columns


def windows(inst: Instance, spaces: list[JobSpace], columns: list[Column]) -> list:
    """Return the columns as windows of the instance."""
    out = []
    for col in columns:
        hosts = sorted((spaces[col.j].options[k].host for k in col.chosen),
                       key=lambda s: inst.node_index[s.node])
        out.append(make_window(inst, spaces[col.j].job, col.T, hosts))
    return out


SEEDS = (0, 1, 2, 3, 4, 5, 6, 8, 9, 10)
"""Tiny batches whose brute force takes well under a second (seed 7's takes about 10 s)."""
CASES = [(seed, geometry, free, metric) for seed in SEEDS for geometry in ("rough", "square")
         for free in (True, False) for metric in ("cost", "finish")]


@pytest.mark.parametrize(("seed", "geometry", "free", "metric"), CASES)
def test_packing_over_every_window_is_the_brute_force_optimum(
    seed: int, geometry: str, free: bool, metric: str
) -> None:
    """Every window of a 4-job batch listed, the count fixed at the brute-force count: SCIP's
    optimum is the brute-force optimum, its bound equals it, and its windows pass the joint
    checker."""
    inst = dataclasses.replace(generate("tiny", 900 + seed, jobs=4), geometry=geometry)
    spaces, columns = every_column(inst, free)
    placed, best = brute_joint([all_windows(inst, job, free_start=free) for job in inst.jobs],
                               lambda w: value(w, metric), "min", [])
    got = solve_packing(len(spaces), columns, metric, 1, [], count=placed)
    assert got.status == "optimal"
    assert (len(got.columns), got.value) == (placed, best)
    assert got.bound == pytest.approx(best)
    assert check_alternatives(inst, windows(inst, spaces, got.columns), sequential=False) == []


def test_side_rows_must_jobs_and_an_impossible_count() -> None:
    """A side limit on Σ proc_time and a job that must be placed hold in the optimum; more
    windows than jobs is infeasible."""
    inst = generate("tiny", 903, jobs=4)
    spaces, columns = every_column(inst, True)
    free = solve_packing(len(spaces), columns, "cost", 1, [], count=2)
    assert free.status == "optimal"
    limit = min(c.proc_time for c in columns) * 2 + 5
    must = max({c.j for c in columns})
    got = solve_packing(len(spaces), columns, "cost", 1, [("proc_time", limit)], count=2,
                        must=[must])
    if got.status == "optimal":
        assert sum(c.proc_time for c in got.columns) <= limit
        assert must in {c.j for c in got.columns}
        assert got.value >= free.value
    else:
        assert got.status == "infeasible"
    assert solve_packing(len(spaces), columns, "cost", 1, [], count=5).status == "infeasible"


def test_a_hint_of_listed_columns_is_taken() -> None:
    """A feasible hint: the answer is at least as good as the hint."""
    inst = generate("tiny", 905, jobs=4)
    spaces, columns = every_column(inst, True)
    hint = [columns[0]]
    got = solve_packing(len(spaces), columns, "finish", 1, [], count=1, hint=hint)
    assert got.status == "optimal"
    assert got.value <= hint[0].metric("finish")


def test_the_escape_window_stands_for_the_solutions_not_listed() -> None:
    """Every window listed, the count at the brute-force count: an escape worth less than the
    optimum is taken (and proves its value); one worth more is not."""
    inst = generate("tiny", 903, jobs=4)
    spaces, columns = every_column(inst, True)
    placed, best = brute_joint([all_windows(inst, job) for job in inst.jobs],
                               lambda w: value(w, "cost"), "min", [])
    below = solve_packing(len(spaces), columns, "cost", 1, [], count=placed, escape=best - 1)
    assert (below.status, below.escaped, below.value, below.columns) == (
        "optimal", True, best - 1, [])
    above = solve_packing(len(spaces), columns, "cost", 1, [], count=placed, escape=best + 1)
    assert (above.status, above.escaped, above.value) == ("optimal", False, best)


class BuildClock:
    """A clock that reads 0 once (when the set packing starts) and ``built`` ever after: the
    model took ``built`` seconds to build."""

    def __init__(self, built: float) -> None:
        self.built, self.calls = built, 0

    def __call__(self) -> float:
        self.calls += 1
        return 0.0 if self.calls == 1 else self.built


@pytest.mark.parametrize(
    ("limit", "built", "seconds"),
    [
        (None, 5.0, None),  # no limit: SCIP gets none
        (30.0, 0.0, 30.0 - SCIP_RESERVE),  # built at once: the fixed reserve only
        (30.0, 10.0, 20.0 - SCIP_RESERVE - 10.0 * SCIP_TEARDOWN),  # less the build's share
        (12.0, 10.0, 0.0),  # 2 s left, a reserve of more than that: no time
    ],
)
def test_scip_gets_what_is_left_less_a_reserve_grown_with_the_build(
    limit: float | None, built: float, seconds: float | None
) -> None:
    """SCIP's seconds are the deadline's seconds left less the fixed reserve and the share of
    the build's seconds kept for its late stop and the freeing of its model."""
    clock = BuildClock(built)
    deadline = Deadline(limit, began=0.0, clock=clock)
    clock()  # the set packing starts at 0; its model is built at ``built``
    got = scip_seconds(deadline, built)
    assert got == (None if seconds is None else pytest.approx(seconds))


def test_solve_packing_tells_scip_the_seconds_left_after_its_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model that took 10 s of a 30 s deadline to build: SCIP is told to stop after
    20 s less its reserve, in milliseconds, and still answers the small model."""
    told: list[int] = []
    set_limit = packing.pywraplp.Solver.SetTimeLimit

    def record(solver: object, ms: int) -> None:
        told.append(ms)
        set_limit(solver, ms)

    monkeypatch.setattr(packing.pywraplp.Solver, "SetTimeLimit", record)
    inst = generate("tiny", 905, jobs=4)
    spaces, columns = every_column(inst, True)
    deadline = Deadline(30.0, began=0.0, clock=BuildClock(10.0))
    got = solve_packing(len(spaces), columns, "finish", 1, [], count=1, deadline=deadline)
    assert told == [int(1000 * (20.0 - SCIP_RESERVE - 10.0 * SCIP_TEARDOWN))]
    assert got.status == "optimal"


def test_scip_is_not_started_when_its_reserve_does_not_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model that took 10 s of a 12 s deadline to build: the 2 s left are less than the
    reserve its late stop and freeing need, so SCIP never runs and the answer is unknown."""

    def never(*args: object) -> None:
        raise AssertionError("SCIP was started")

    monkeypatch.setattr(packing, "run_interruptible", never)
    inst = generate("tiny", 905, jobs=4)
    spaces, columns = every_column(inst, True)
    deadline = Deadline(12.0, began=0.0, clock=BuildClock(10.0))
    got = solve_packing(len(spaces), columns, "finish", 1, [], count=1, deadline=deadline)
    assert (got.status, got.columns, got.value, got.bound) == ("unknown", [], None, None)
