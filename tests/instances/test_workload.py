"""Cluster workload data: machines, jobs, queue order and durations."""

from __future__ import annotations

import pytest

from instances.errors import DataError
from instances.workload import ClusterJob, Machine, Workload


def test_queue_order_is_submit_then_given_order() -> None:
    """Jobs are sorted by submit time; ties keep the given order."""
    jobs = (ClusterJob("b", 5, 1, 10), ClusterJob("a", 0, 1, 10), ClusterJob("c", 5, 1, 10))
    w = Workload((Machine("m", 4),), jobs)
    assert [j.id for j in w.jobs] == ["a", "b", "c"]


def test_planned_and_actual_durations_with_walltime_kill() -> None:
    """Planned = ceil(e/s); actual = ceil(min(w, e)/s); a job past its estimate is killed."""
    fast = Machine("m", 2, speed=2.0)
    job = ClusterJob("j", 0, 1, work=15, estimate=11)
    assert job.planned_duration(fast) == 6 and job.actual_duration(fast) == 6 and job.killed()
    exact = ClusterJob("k", 0, 1, work=9)
    assert exact.requested == 9 and exact.planned_duration(fast) == 5 and not exact.killed()


def test_cpu_offsets_number_cpus_across_machines() -> None:
    """CPU numbers run 0, 1, ... across machines in machine order."""
    w = Workload((Machine("a", 3), Machine("b", 2), Machine("c", 1)))
    assert w.cpu_offsets() == (0, 3, 5) and w.total_cpus == 6


@pytest.mark.parametrize(
    ("build", "path"),
    [
        (lambda: Machine("m", 0), "cpus"),  # a machine needs a CPU
        (lambda: Machine("m", 1, speed=0), "speed"),  # speed must be positive
        (lambda: ClusterJob("j", -1, 1, 1), "submit"),  # no negative submit
        (lambda: ClusterJob("j", 0, 0, 1), "cpus"),  # a job needs a CPU
        (lambda: ClusterJob("j", 0, 1, 1.5), "work"),  # work is integer seconds
        (lambda: ClusterJob("j", 0, 1, 1, estimate=-2), "estimate"),  # no negative estimate
        (lambda: Workload(()), "machines"),  # at least one machine
        (lambda: Workload((Machine("m", 2),), (ClusterJob("j", 0, 3, 1),)), "jobs[0].cpus"),
        (lambda: Workload((Machine("m", 2), Machine("m", 1))), "machines[1].id"),  # unique ids
    ],
)
def test_invalid_data_names_the_field(build, path: str) -> None:
    """Each violated rule raises a DataError naming the field."""
    with pytest.raises(DataError) as err:
        build()
    assert err.value.path == path


def test_horizon_bound_keeps_every_end_inside_int64() -> None:
    """max r_j + sum ceil(e_j / s_min) must stay <= 2^62; the slowest machine counts."""
    slow, fast = Machine("s", 1, speed=1e-3), Machine("f", 1, speed=1.0)
    jobs = tuple(ClusterJob(str(i), 10**12, 1, 10**12) for i in range(4700))
    Workload((fast,), jobs)  # 4700 * 10^12 + 10^12 < 2^62 at speed 1
    with pytest.raises(DataError, match=r"^jobs: .*2\^62"):
        Workload((fast, slow), jobs)  # at speed 10^-3 the serial horizon is 4.7e18 > 2^62


def test_largest_values_the_limits_allow_are_valid() -> None:
    """The documented maxima themselves are accepted (the limits are inclusive)."""
    m = Machine("m", 2**31 - 1, speed=1e-3)
    job = ClusterJob("j", 10**12, 2**31 - 1, 10**12, 10**12, 10**12)
    Workload((m, Machine("n", 1, speed=1e6)), (job,))
    assert job.planned_duration(m) == 10**15
