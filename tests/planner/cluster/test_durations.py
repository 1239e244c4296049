"""Durations per machine speed: computed on first use, equal to ClusterJob's rule, forgotten."""

from __future__ import annotations

from instances.workload import ClusterJob, Machine, Workload
from planner.cluster.durations import Scaled, cached_tables, durations

MACHINES = (Machine("a", 2, 1.0), Machine("b", 2, 1.5), Machine("c", 2, 1.5), Machine("d", 1, 3.0))
JOBS = tuple(ClusterJob(f"j{i}", i, 1, w, e) for i, (w, e) in enumerate([(10, 12), (7, 5), (0, 0)]))


def test_every_entry_is_the_scalar_rule() -> None:
    """planned[m][j] and actual[m][j] equal ClusterJob.planned/actual_duration on every machine."""
    wl = Workload(MACHINES, JOBS)
    planned, actual = durations(wl)
    for m, machine in enumerate(wl.machines):
        for j, job in enumerate(wl.jobs):
            assert planned[m][j] == job.planned_duration(machine)
            assert actual[m][j] == job.actual_duration(machine)


def test_speed_one_uses_the_jobs_seconds_and_equal_speeds_share() -> None:
    """Speed 1 is the jobs' own list; machines b and c (both 1.5) share one lazy table."""
    planned, actual = durations(Workload(MACHINES, JOBS))
    assert planned[0] == [12, 5, 0] and actual[0] == [10, 5, 0]
    assert planned[1] is planned[2] and isinstance(planned[1], Scaled)
    assert cached_tables(planned) == [planned[1], planned[3]]


def test_tables_hold_only_what_was_asked_until_forgotten() -> None:
    """A table caches a planned duration on first use, drops it on forget; actual never caches."""
    planned, actual = durations(Workload(MACHINES, JOBS))
    table = planned[3]
    assert len(table) == 0 and table[0] == 4 and dict(table) == {0: 4}  # ceil(12 / 3)
    table.forget(0)
    table.forget(0)  # twice: harmless
    assert len(table) == 0
    assert actual[3][1] == 2 and len(actual[3]) == 0  # ceil(5 / 3), not kept
