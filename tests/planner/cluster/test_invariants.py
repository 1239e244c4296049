"""SPEC §10 invariants on thousands of random small workloads, via the independent checker.

Every replay is written to ``jobs.csv`` and a reservation log and passed to
:mod:`validation.cluster_check`: capacity, no CPU shared, no start before
submission, durations with the walltime kill, metrics, and each policy's own
invariant (FCFS never starts a job before an earlier-queued one; EASY never
delays the head past a shadow time it was given; conservative never starts a
job after its first reservation).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import POLICIES
from tests.planner.cluster.helpers import run_checked

WORKLOADS = 700


def random_workload(seed: int) -> Workload:
    """Return a small workload: 1-3 machines, up to 14 jobs with ties, zero lengths, kills."""
    rng = random.Random(seed)
    machines = tuple(
        Machine(f"m{k}", rng.randint(1, 6), speed=rng.choice((1.0, 1.0, 1.5, 2.0)))
        for k in range(rng.randint(1, 3))
    )
    widest = max(m.cpus for m in machines)
    jobs = []
    for i in range(rng.randint(1, 14)):
        work = rng.choice((0, rng.randint(1, 12), rng.randint(1, 30)))
        estimate = rng.choice((None, work, work + rng.randint(0, 10), max(0, work - 3)))
        jobs.append(ClusterJob(f"j{i}", rng.randint(0, 25), rng.randint(1, widest), work,
                               estimate=estimate))  # fmt: skip
    return Workload(machines, tuple(jobs), name=f"random-{seed}")


@pytest.mark.parametrize("policy", list(POLICIES))
def test_random_workloads_pass_the_checker(policy: str, tmp_path: Path) -> None:
    """700 random workloads per registered policy: every replay has no violation."""
    for seed in range(WORKLOADS):
        workload = random_workload(seed)
        replay = run_checked(workload, policy, tmp_path)
        assert all(r.start >= r.submit for r in replay.records)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_starts_only_at_event_instants(policy: str) -> None:
    """Time jumps from event to event: every start is a submission or a completion instant."""
    from planner.cluster import simulate

    for seed in range(300):
        replay = simulate(random_workload(seed), policy)
        instants = {r.submit for r in replay.records} | {r.finish for r in replay.records}
        assert all(r.start in instants for r in replay.records)


@pytest.mark.parametrize("policy", ["easy", "conservative"])
def test_promises_never_move_later(policy: str) -> None:
    """A job's logged reservation (EASY: the head's shadow time) never moves later."""
    from planner.cluster import ReservationLog, simulate

    for seed in range(400):
        log = ReservationLog()
        simulate(random_workload(seed), policy, log=log)
        latest: dict[str, int] = {}
        for _, job, _, _, start in log.rows:
            assert start <= latest.get(job, start), (seed, job)
            latest[job] = start
