"""The joint solve under one time budget (docs/exact-models.md, "Time budget"): the seeding
runs inside the limit and is capped on batches of very long slots, a default limit that
needs an unfinished two-phase run gives ``unknown``, and a deadline handed in is shared."""

from __future__ import annotations

import json
from typing import Any

import pytest

import planner
from instances import generate, loads_instance
from models import solve_joint
from models.joint.cg import integer
from models.joint.cg.budget import BUDGET, SEED_ALTERNATIVES
from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals
from models.joint.cg.generate import Generation
from models.joint.cg.pricing import Prices, price
from models.joint.cg.state import Incumbent, Root, Run, restrictions
from models.joint.space import JobSpace
from models.progress import SearchProgress
from planner.deadline import Deadline
from validation import check_alternatives


def long_slots(horizon: int) -> Any:
    """Return a 6-node, 3-job batch whose nodes are free for the whole ``horizon`` but for
    two short busy spells: each job has about horizon / 60 disjoint AMP alternatives."""
    nodes = [{"id": f"n{i}", "performance": float(p), "price": float(c)} for i, (p, c) in
             enumerate([(2, 2), (3, 3), (4, 4.5), (5, 5), (6, 6.5), (8, 8)], 1)]
    busy = [{"node": "n1", "start": 10, "end": 30}, {"node": "n3", "start": 50, "end": 70}]
    jobs = [{"id": f"j{k}", "nodes": 2 + k % 2, "volume": 120.0 + 20 * k, "budget": 10**6,
             "criterion": "min_finish"} for k in range(1, 4)]
    return loads_instance(json.dumps({
        "format": "planner.instance/1", "name": "long slots", "horizon": [0, horizon],
        "geometry": "rough", "nodes": nodes, "busy": busy, "jobs": jobs}))


def test_long_slots_seed_a_capped_number_of_columns() -> None:
    """On a batch of very long slots (AMP finds hundreds of alternatives per job; at a
    horizon of 2·10⁶ it took 37 s, all before the limit started), cg seeds at most
    SEED_ALTERNATIVES per job and proves the compact model's optimum."""
    inst = long_slots(30_000)
    assert min(map(len, planner.find_alternatives(inst, "amp").by_job().values())) > 2 * \
        SEED_ALTERNATIVES
    cg = solve_joint(inst, problem=8, solver="cg", t_star=10**6, time_limit=60)
    cpsat = solve_joint(inst, problem=8, solver="cpsat", t_star=10**6, time_limit=60)
    assert cg.info["cg"]["seeds"] <= 3 * SEED_ALTERNATIVES
    assert cg.status == cpsat.status == "optimal" and cg.objective == cpsat.objective
    assert check_alternatives(inst, cg.windows, sequential=False) == []


def test_the_seeding_runs_within_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """The alternatives search that seeds cg gets the seeding share of the limit as its
    deadline, and the per-job cap."""
    seen: list[dict[str, Any]] = []
    real = planner.find_alternatives

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(planner, "find_alternatives", spy)
    inst = generate("tiny", 3, jobs=3)
    r = solve_joint(inst, "finish", "cg", time_limit=20.0)
    assert r.status == "optimal" and len(seen) == 1
    deadline = seen[0]["deadline"]
    assert seen[0]["max_per_job"] == SEED_ALTERNATIVES
    assert deadline.end <= deadline.began + BUDGET.seeding.by * 20.0 + 1e-9


def test_an_unfinished_two_phase_run_gives_no_limit_and_unknown() -> None:
    """Problem (8) without t*: its default comes from a two-phase run; when the deadline
    passes first, nothing is solved — ``unknown``, no limit, and ``info`` says where."""
    inst = generate("tiny", 1, jobs=3)
    r = solve_joint(inst, problem=8, solver="cg", time_limit=Deadline(0.0))
    assert (r.status, r.objective, r.info["limit"], r.windows) == ("unknown", None, None, ())
    assert r.info["stopped_in"] == "two-phase run"


@pytest.mark.parametrize("solver", ["cg", "cpsat"])
def test_a_passed_deadline_handed_in_stops_every_stage(solver: str) -> None:
    """A caller's deadline that has passed (a command that spent its limit before the solve)
    leaves the solve no time: ``unknown``, no windows, no claim."""
    inst = generate("tiny", 1, jobs=3)
    r = solve_joint(inst, "cost", solver, time_limit=Deadline(0.0))
    assert r.status == "unknown" and r.windows == () and r.bound is None


def test_no_limit_means_no_limit() -> None:
    """``time_limit=None`` is no limit for the cg solver too: it proves the optimum."""
    inst = generate("tiny", 2, jobs=3)
    r = solve_joint(inst, "finish", "cg", time_limit=None)
    assert r.status == "optimal" and r.objective == solve_joint(inst, "finish").objective


def test_a_count_stage_stopped_in_its_first_round_claims_no_count_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Phase 1 given no time (its share already passed, as on a loaded machine at 100 × 100):
    the deadline stops its first pricing round, there is no LP bound on the count (it once
    crashed rounding −∞), so the compact model settles the count — and proves the optimum."""
    import dataclasses

    from models.joint.cg import solve as cg_solve
    from planner.deadline import Share

    inst = generate("tiny", 2, jobs=4)  # the first incumbent places 3 of 4 reachable jobs
    monkeypatch.setattr(cg_solve, "BUDGET", dataclasses.replace(BUDGET, count_lp=Share(by=0.0)))
    r = solve_joint(inst, "cost", "cg")
    assert r.status == "optimal" and r.info["cg"]["closed_by"] == "compact"
    assert r.objective == solve_joint(inst, "cost", "cpsat").objective


def test_the_integer_masters_second_solve_gets_what_the_first_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The integer master that maximises the placed count, then minimises the objective,
    runs CP-SAT twice under one deadline: each run is told the seconds left when it
    starts (a clock that moves 7 s per run), not the first run's limit again."""
    now = [0.0]
    told: list[float] = []
    real = integer.run_cpsat

    def run(solver: Any, model: Any) -> int:
        told.append(solver.parameters.max_time_in_seconds)
        now[0] += 7.0
        return real(solver, model)

    monkeypatch.setattr(integer, "run_cpsat", run)
    inst = generate("tiny", 3, jobs=3)
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    best = [price(sp, Linear.of("finish"), Prices({})) for sp in spaces]  # each job alone
    columns = [Column.build(j, sp, T, chosen)
               for j, (sp, found) in enumerate(zip(spaces, best, strict=True))
               if found is not None for _, T, chosen in [found]]
    deadline = Deadline(20.0, clock=lambda: now[0])
    integer.integer_master(len(spaces), columns, "finish", 1, [], deadline=deadline)
    assert told == [20.0, 13.0]


def root_of_jobs_alone(metric: str = "finish") -> tuple[list[JobSpace], Generation, list[Column]]:
    """Return a 3-job tiny batch's spaces (each job has a window), the generation of the
    bound "every job alone" (zero prices; the bound every cg root starts from) and each
    job's best window."""
    inst = generate("tiny", 2, jobs=3)
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    form = Linear.of(metric)
    found = [price(sp, form, Prices({})) for sp in spaces]
    assert all(f is not None for f in found)
    values: list[float | None] = [f[0] for f in found if f is not None]
    mu = max(v for v in values if v is not None)
    duals = Duals(form, Prices({}), mu, [0.0] * len(spaces), mu * len(spaces))
    bound = duals.lagrangian(values)
    gen = Generation(bound, bound, 0, True, duals, values)
    columns = [Column.build(j, sp, f[1], f[2])
               for j, (sp, f) in enumerate(zip(spaces, found, strict=True)) if f is not None]
    return spaces, gen, columns


class PassesAfter:
    """A clock at 0 for its first ``calls`` readings, then far past any deadline."""

    def __init__(self, calls: int) -> None:
        self.calls, self.read = calls, 0

    def __call__(self) -> float:
        self.read += 1
        return 0.0 if self.read <= self.calls else 1e6


def test_reduced_cost_fixing_stops_at_the_deadline() -> None:
    """The fixing limits are computed job by job, the deadline asked before each: a
    deadline that passes after the first job gives None; none gives one rule per job."""
    spaces, gen, _ = root_of_jobs_alone()
    best = int(gen.bound) + 5
    assert restrictions(spaces, gen, best, True, Deadline(10.0, began=0.0,
                                                          clock=PassesAfter(1))) is None
    rules = restrictions(spaces, gen, best, True)
    assert rules is not None and len(rules) == len(spaces)


@pytest.mark.parametrize(("deadline", "kept_old"), [
    (Deadline(None), False),  # no limit: the limits are tightened to the new value
    (Deadline(10.0, began=0.0, clock=PassesAfter(0)), True),  # passed: the old ones stay
])
def test_a_better_incumbent_keeps_the_old_limits_past_the_deadline(
    deadline: Deadline, kept_old: bool
) -> None:
    """An incumbent offered a better solution takes it; the reduced-cost limits are
    recomputed for its value unless the deadline has passed, when the old limits (valid,
    only looser) stay."""
    spaces, gen, columns = root_of_jobs_alone()
    run = Run(spaces, "finish", 1, [], True, 1, 0, deadline,
              SearchProgress("cg", enabled=False))
    old: list[Any] = []
    inc = Incumbent([], 10**9, int(gen.bound) - 1, old)
    got = inc.offer(run, Root(None, gen, len(spaces)), columns)  # type: ignore[arg-type]
    assert got.value == run.value(columns) < 10**9 and got.columns == columns
    assert (got.base is old) is kept_old
