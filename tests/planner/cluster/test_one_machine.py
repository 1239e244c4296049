"""The fused one-machine loop of FCFS and EASY replays exactly as the general event loop."""

from __future__ import annotations

import random

import pytest

from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import Cluster, Policy, ReservationLog, simulate
from planner.cluster.durations import durations
from planner.cluster.one_machine import fused
from planner.cluster.policies.easy import Easy
from planner.cluster.policies.fcfs import Fcfs


class GeneralFcfs(Fcfs):
    """FCFS as a subclass: the engine drives it through the policy interface."""


class GeneralEasy(Easy):
    """EASY as a subclass: the engine drives it through the policy interface."""


def one_machine_workload(seed: int) -> Workload:
    """Return a random one-machine workload: ties, zero lengths, kills, speed 1 or 2."""
    rng = random.Random(seed)
    cpus = rng.randint(1, 8)
    machine = Machine("m", cpus, speed=rng.choice((1.0, 1.0, 2.0)))
    jobs = []
    for i in range(rng.randint(1, 40)):
        work = rng.choice((0, rng.randint(1, 12), rng.randint(1, 60)))
        estimate = rng.choice((None, work, work + rng.randint(0, 10), max(0, work - 3)))
        jobs.append(ClusterJob(f"j{i}", rng.randint(0, 50), rng.randint(1, cpus), work,
                               estimate=estimate))  # fmt: skip
    return Workload((machine,), tuple(jobs), name=f"one-{seed}")


def outcome(workload: Workload, policy: type[Policy], logged: bool) -> tuple[object, ...]:
    """Return everything a replay records: starts, ends, event order, instants, reservations."""
    log = ReservationLog() if logged else None
    progress: list[int] = []
    r = simulate(workload, policy, log=log, progress=progress.append)
    rows = log.rows if log is not None else None
    return r.start, r.machine, r.finish, r.events, r.instants, r.alloc, rows, progress


@pytest.mark.parametrize("logged", [True, False])  # EASY skips a lone head's shadow unlogged
@pytest.mark.parametrize(("fast", "general"), [(Fcfs, GeneralFcfs), (Easy, GeneralEasy)])
def test_fused_loop_equals_the_general_loop(fast: type[Policy], general: type[Policy],
                                            logged: bool) -> None:  # fmt: skip
    """400 random one-machine workloads: the same starts, ends, events and reservation rows."""
    for seed in range(400):
        wl = one_machine_workload(seed)
        assert outcome(wl, fast, logged) == outcome(wl, general, logged), seed


def test_only_the_exact_policies_on_one_machine_are_fused() -> None:
    """Subclasses (Flexible backfilling extends EASY) and several machines keep the general loop."""
    one = Workload((Machine("m", 2),), (ClusterJob("a", 0, 1, 1),))
    two = Workload((Machine("m", 2), Machine("n", 2)), (ClusterJob("a", 0, 1, 1),))

    def cluster(wl: Workload) -> Cluster:
        return Cluster(wl, *durations(wl))

    assert fused(cluster(one), Easy(cluster(one))) and fused(cluster(one), Fcfs(cluster(one)))
    assert not fused(cluster(one), GeneralEasy(cluster(one)))
    assert not fused(cluster(two), Easy(cluster(two)))
