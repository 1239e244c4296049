"""The column-generation snapshot bounds and the ``cg`` solver against brute force (Klusáček &
Rudová 2008's lexicographic objective): bound ≤ optimum ≤ every policy, schedules checked."""

from __future__ import annotations

import random

import numpy as np
import pytest

from instances.workload import ClusterJob, Machine, Workload
from models.cluster import snapshot_bounds, solve_snapshot, solve_snapshot_cg
from models.cluster.pricing import price_machine
from planner.cluster import simulate
from planner.registry import SNAPSHOT_SOLVERS
from validation.cluster_brute import brute_snapshot
from validation.snapshot_check import check_snapshot


def tiny(seed: int, machines: int = 2) -> Workload:
    """Return 1-3 machines (1-4 CPUs, speed 1 or 2) and 2-5 jobs with releases and deadlines."""
    rng = random.Random(seed)
    ms = tuple(Machine(f"m{k}", rng.randint(1, 4), rng.choice((1.0, 2.0)))
               for k in range(machines))  # fmt: skip
    widest = max(m.cpus for m in ms)
    jobs = []
    for i in range(rng.randint(2, 5 if machines < 3 else 4)):
        r, w = rng.randint(0, 6), rng.randint(1, 9)
        d = r + rng.randint(1, 12) if rng.random() < 0.7 else None
        jobs.append(ClusterJob(f"j{i}", r, rng.randint(1, widest), w, deadline=d))
    jobs.sort(key=lambda j: j.submit)
    return Workload(ms, tuple(jobs), name=f"tiny-{seed}")


@pytest.mark.parametrize("seed", range(30))
def test_pricing_equals_every_start(seed: int) -> None:
    """The breakpoint pricing equals the minimum over every integer start, random bucket prices."""
    rng = np.random.default_rng(seed)
    bounds = np.unique(np.concatenate(([0, 40], rng.integers(1, 40, size=5)))).astype(np.int64)
    prices = rng.random(len(bounds) - 1) * rng.integers(0, 2, size=len(bounds) - 1)
    n = 6
    cpus = rng.integers(1, 4, size=n)
    hold = rng.integers(1, 12, size=n)
    lo = rng.integers(0, 10, size=n)
    hi = np.maximum(lo, 40 - hold - rng.integers(0, 10, size=n))
    late = rng.integers(0, 40, size=n)
    for deadlines in (None, late):
        cost, start = price_machine(bounds, prices, cpus, hold, lo, hi, deadlines)
        for j in range(n):
            per_second = np.repeat(prices, np.diff(bounds))
            every = [cpus[j] * per_second[t:t + hold[j]].sum()
                     + (deadlines is not None and t > late[j])
                     for t in range(lo[j], hi[j] + 1)]  # fmt: skip
            assert cost[j] == pytest.approx(min(every))
            assert every[start[j] - lo[j]] == pytest.approx(cost[j])


@pytest.mark.parametrize("buckets", [48, 3])
@pytest.mark.parametrize("seed", range(40))
def test_bound_below_optimum_below_policies(seed: int, buckets: int) -> None:
    """Bounds (U_lb, C_lb) ≤ the brute-force optimum ≤ every policy's (U, Cmax), exact or
    bucketed; seeded with the optimum's own values, so every makespan probe is below it."""
    wl = tiny(seed, machines=1 + seed % 3)
    u, c = brute_snapshot(wl)
    b = snapshot_bounds(wl, u + 1, c + 1, time_limit=30.0, buckets=buckets)
    assert b.delayed <= u and b.makespan <= c
    for policy in ("fcfs", "easy", "flex", "egedf", "tabu"):
        s = simulate(wl, policy).summary()
        assert (s["delayed"], s["makespan"]) >= (u, c), policy


@pytest.mark.parametrize("seed", range(40))
def test_cg_solver_schedule_checked_and_never_falsely_optimal(seed: int) -> None:
    """The cg schedule passes the snapshot checker; its bounds ≤ optimum ≤ its values; it says
    optimal only on the optimum; CP-SAT never finds better than a cg 'optimal'."""
    wl = tiny(500 + seed, machines=1 + seed % 3)
    opt = brute_snapshot(wl)
    res = solve_snapshot_cg(wl, time_limit=20)
    got = (res.objective, res.info["makespan"])
    assert check_snapshot(wl, res.windows, *got) == []
    assert res.bound <= opt[0] <= got[0]
    assert got >= opt
    if res.bound == opt[0]:
        assert res.info["makespan_bound"] <= opt[1]
    if res.status == "optimal":
        assert got == opt and res.info["gap"] == 0.0
        other = solve_snapshot(wl, solver="cpsat", time_limit=20)
        assert (other.objective, other.info["makespan"]) >= got


def test_cg_proves_a_loaded_snapshot_beyond_the_critical_job() -> None:
    """On a 30-job, 5-machine klusacek2008 snapshot the LP makespan bound beats the
    critical-job bound r_j + min p_jm (so the decomposition proves something of its own)."""
    from instances.generators.registry import generate_workload

    wl = generate_workload("klusacek2008", 1, machines=5, jobs=30, interarrival=40.0)
    b = snapshot_bounds(wl, 0, 3821, time_limit=60.0)
    assert b.makespan > b.critical
    assert any(state == "infeasible" for _, state in b.probes)


@pytest.mark.parametrize("solver", list(SNAPSHOT_SOLVERS))
def test_every_registered_solver_runs(solver: str) -> None:
    """Each registry name solves a tiny snapshot to its brute-force optimum."""
    wl = tiny(7)
    res = solve_snapshot(wl, solver=solver, time_limit=20)
    assert res.status == "optimal"
    assert (res.objective, res.info["makespan"]) == brute_snapshot(wl)


@pytest.mark.parametrize("name", [
    "CG",        # names are lower case
    "simplex",   # not a snapshot solver
    "",          # empty
])  # fmt: skip
def test_unknown_solver_is_refused(name: str) -> None:
    """An unknown solver name raises ValueError naming the choices."""
    with pytest.raises(ValueError, match="choose from: cpsat"):
        solve_snapshot(tiny(1), solver=name)



@pytest.mark.parametrize(("limit", "unbounded"), [(None, True), (20.0, False)])
def test_no_time_limit_means_no_limit(
    monkeypatch: pytest.MonkeyPatch, limit: float | None, unbounded: bool
) -> None:
    """``time_limit=None`` reaches the bounds and the CP-SAT stage as no limit (it once
    became 60 s here while it meant no limit in every other exact solve)."""
    from models.cluster import cg_solve

    seen: list = []
    real_bounds, real_cpsat = cg_solve.snapshot_bounds, cg_solve.solve_snapshot_cpsat

    def bounds(*args, time_limit, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(time_limit.end)
        return real_bounds(*args, time_limit=time_limit, **kwargs)

    def cpsat(*args, time_limit, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(time_limit)
        return real_cpsat(*args, time_limit=time_limit, **kwargs)

    monkeypatch.setattr(cg_solve, "snapshot_bounds", bounds)
    monkeypatch.setattr(cg_solve, "solve_snapshot_cpsat", cpsat)
    for seed in range(500, 540):
        wl = tiny(seed, machines=1 + seed % 3)
        res = solve_snapshot_cg(wl, time_limit=limit)
        if res.info.get("cpsat") is not None:
            break
    assert seen and all((x is None) is unbounded for x in seen)
    assert len(seen) >= 2  # the bounds and CP-SAT were both reached
