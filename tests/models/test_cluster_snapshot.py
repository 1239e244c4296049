"""The CP-SAT snapshot model (seed 001's criteria, lexicographic) against brute force, and no
heuristic policy beating a proven optimum."""

from __future__ import annotations

import math
import random

import pytest

from instances.workload import ClusterJob, Machine, Workload
from models.cluster import solve_snapshot
from planner.cluster import simulate
from validation.cluster_brute import brute_snapshot


def tiny(seed: int) -> Workload:
    """Return 2 machines (1-4 CPUs, speed 1 or 2) and 2-5 jobs with releases and deadlines."""
    rng = random.Random(seed)
    machines = tuple(Machine(f"m{k}", rng.randint(1, 4), rng.choice((1.0, 2.0))) for k in range(2))
    widest = max(m.cpus for m in machines)
    jobs = []
    for i in range(rng.randint(2, 5)):
        r, w = rng.randint(0, 6), rng.randint(1, 9)
        d = r + rng.randint(1, 12) if rng.random() < 0.7 else None
        jobs.append(ClusterJob(f"j{i}", r, rng.randint(1, widest), w, deadline=d))
    jobs.sort(key=lambda j: j.submit)
    return Workload(machines, tuple(jobs), name=f"tiny-{seed}")


def recomputed(wl: Workload, windows: tuple[tuple[str, str, int], ...]) -> tuple[int, int]:
    """Check capacity and releases of a CP-SAT schedule; return its (delayed, makespan)."""
    jobs = {j.id: j for j in wl.jobs}
    mach = {m.id: m for m in wl.machines}
    spans = []
    for jid, mid, start in windows:
        job, m = jobs[jid], mach[mid]
        p = math.ceil(round(job.work / m.speed, 9))
        assert start >= job.submit and m.cpus >= job.cpus
        spans.append((mid, start, start + max(p, 1), start + p, job))
    for mid, s, _, _, _ in spans:
        use = sum(j.cpus for m2, s2, e2, _, j in spans if m2 == mid and s2 <= s < e2)
        assert use <= mach[mid].cpus
    late = sum(j.deadline is not None and c > j.deadline for *_, c, j in spans)
    return late, max(c for *_, c, _ in spans) - min(j.submit for j in wl.jobs)


@pytest.mark.parametrize("seed", range(25))
def test_cpsat_agrees_with_brute_force(seed: int) -> None:
    """Proven optimal (delayed, makespan) equals the enumeration's, and the schedule is valid."""
    wl = tiny(seed)
    res = solve_snapshot(wl, time_limit=20)
    assert res.status == "optimal"
    got = (res.objective, res.info["makespan"])
    assert got == brute_snapshot(wl)
    assert recomputed(wl, res.windows) == got
    assert res.bound == res.objective and res.info["makespan_bound"] == res.info["makespan"]


@pytest.mark.parametrize("seed", range(12))
def test_no_heuristic_beats_the_optimum(seed: int) -> None:
    """Every policy's replay is lexicographically no better than the proven optimum."""
    wl = tiny(100 + seed)
    res = solve_snapshot(wl, time_limit=20)
    assert res.status == "optimal"
    best = (res.objective, res.info["makespan"])
    for policy in ("fcfs", "easy", "flex", "egedf", "tabu"):
        s = simulate(wl, policy).summary()
        assert (s["delayed"], s["makespan"]) >= best, policy


def test_a_time_limit_never_claims_optimal() -> None:
    """A 30-job snapshot under a 0.05 s limit is at best feasible, with bound <= objective."""
    from instances.generators.registry import generate_workload

    wl = generate_workload("klusacek2008", 2, machines=5, jobs=30, interarrival=20.0)
    res = solve_snapshot(wl, solver="cpsat", time_limit=0.05)
    assert res.status in ("feasible", "unknown")
    if res.status == "feasible":
        assert res.bound is not None and res.bound <= res.objective


@pytest.mark.parametrize("seed", range(10))
def test_milp_agrees_with_cpsat(seed: int) -> None:
    """The time-indexed MILP (CBC) proves the same (delayed, makespan) as CP-SAT."""
    from models.cluster import solve_snapshot_milp

    wl = tiny(200 + seed)
    milp = solve_snapshot_milp(wl, time_limit=30)
    cpsat = solve_snapshot(wl, time_limit=20)
    assert milp.status == cpsat.status == "optimal"
    got = (milp.objective, milp.info["makespan"])
    assert got == (cpsat.objective, cpsat.info["makespan"])
    assert recomputed(wl, milp.windows) == got
