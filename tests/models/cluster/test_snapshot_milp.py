"""The snapshot MILP's ``optimal``: CBC's claim kept only as the re-checked integer value."""

from __future__ import annotations

import random

import pytest

from instances.workload import ClusterJob, Machine, Workload
from models.cluster import solve_snapshot
from models.cluster.milp import MAX_PROOF, _proven
from validation.cluster_brute import brute_snapshot
from validation.snapshot_check import check_snapshot


def _tiny(seed: int) -> Workload:
    """Return a seeded snapshot of 1–2 machines and 2–4 short jobs (some with deadlines)."""
    rng = random.Random(seed)
    machines = tuple(Machine(f"m{i}", rng.randint(1, 3), rng.choice([1.0, 2.0]))
                     for i in range(rng.randint(1, 2)))  # fmt: skip
    widest = max(m.cpus for m in machines)
    jobs = []
    for k in range(rng.randint(2, 4)):
        submit = rng.randint(0, 4)
        due = submit + rng.randint(1, 6) if rng.random() < 0.6 else None
        jobs.append(ClusterJob(f"j{k}", submit, rng.randint(1, widest), rng.randint(0, 5),
                               deadline=due))  # fmt: skip
    return Workload(machines, tuple(jobs))


@pytest.mark.parametrize("seed", range(12))
def test_milp_optimal_is_brute_force(seed: int) -> None:
    """On tiny seeded snapshots the MILP proves the brute-force optimum (U*, Cmax*), its
    bounds equal it, and its schedule passes the independent checker."""
    wl = _tiny(seed)
    r = solve_snapshot(wl, solver="milp", time_limit=30)
    u, cmax = brute_snapshot(wl)
    assert r.status == "optimal"
    assert (r.objective, r.bound, r.info["makespan"], r.info["makespan_bound"]) == (
        u, u, cmax, cmax)  # fmt: skip
    assert check_snapshot(wl, r.windows, r.objective, r.info["makespan"]) == []


@pytest.mark.parametrize(("value", "claimed", "kept"), [
    (7, 7.0, True),                          # CBC's objective is the schedule's value
    (7, 7.0000000001, True),                 # within CBC's print precision
    (7, 6.0, False),                         # CBC claims a unit better than its schedule
    (7, 8.0, False),                         # or a unit worse
    (7, None, False),                        # no objective read
    (MAX_PROOF, float(MAX_PROOF), True),     # the largest value kept
    (MAX_PROOF + 1, MAX_PROOF + 1.0, False), # past it CBC's tolerances reach a unit
])  # fmt: skip
def test_cbc_optimal_kept_only_as_the_integer_value(value: int, claimed: float | None,
                                                    kept: bool) -> None:  # fmt: skip
    """CBC's ``optimal`` stands only when its objective is the re-checked integer value,
    within the magnitude where its tolerances stay below one unit."""
    assert _proven(value, claimed) is kept
