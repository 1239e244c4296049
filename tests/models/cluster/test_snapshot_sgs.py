"""The serial schedule-generation heuristic of the ``cg`` snapshot solver: valid schedules, never
better than the brute-force optimum, never worse than where it started."""

from __future__ import annotations

import pytest

from models.cluster.incumbents import evaluate, policy_schedules
from models.cluster.sgs import generate, improve, orders
from tests.models.cluster.test_snapshot_cg import tiny
from validation.cluster_brute import brute_snapshot
from validation.snapshot_check import check_snapshot


def _windows(wl, s):
    return [(j.id, wl.machines[m].id, t) for j, (m, t) in zip(wl.jobs, s.placement, strict=True)]


@pytest.mark.parametrize("seed", range(30))
def test_every_order_gives_a_checked_schedule(seed: int) -> None:
    """Each start order's schedule passes the snapshot checker with its claimed U and Cmax,
    and is no better than the optimum."""
    wl = tiny(900 + seed, machines=1 + seed % 3)
    opt = brute_snapshot(wl)
    for order in orders(wl):
        s = generate(wl, order)
        assert check_snapshot(wl, _windows(wl, s), s.delayed, s.makespan) == []
        assert s.key >= opt


@pytest.mark.parametrize("seed", range(20))
def test_improve_never_worsens_its_start(seed: int) -> None:
    """improve() returns a schedule no worse than the best policy and no better than optimal."""
    wl = tiny(950 + seed, machines=1 + seed % 3)
    start = policy_schedules(wl)[0]
    s = improve(wl, (0, 0), 0.5, start)
    assert start.key >= s.key >= brute_snapshot(wl)
    assert check_snapshot(wl, _windows(wl, s), s.delayed, s.makespan) == []


@pytest.mark.parametrize(("placement", "valid"), [
    ([(0, 0), (0, 5)], True),     # one after the other
    ([(0, 0), (0, 4)], False),    # overlap: 4 CPUs on a 2-CPU machine at second 4
    ([(0, -1), (0, 5)], False),   # starts before its release
    ([(1, 0), (0, 5)], False),    # no machine 1
])  # fmt: skip
def test_evaluate_refuses_invalid_placements(placement: list, valid: bool) -> None:
    """Two 2-CPU jobs of 5 s on one 2-CPU machine: only a valid placement is evaluated."""
    from instances.workload import ClusterJob, Machine, Workload

    wl = Workload((Machine("m", 2),), (ClusterJob("a", 0, 2, 5), ClusterJob("b", 0, 2, 5)))
    s = evaluate(wl, placement)
    assert (s is not None) == valid
    if valid:
        assert s.key == (0, 10)
