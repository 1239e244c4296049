"""The exact-snapshot schedule checker: a valid schedule passes, each broken rule is named."""

from __future__ import annotations

import pytest

from instances.workload import ClusterJob, Machine, Workload
from validation.snapshot_check import check_snapshot

# m1: 2 CPUs at speed 1; m2: 1 CPU at speed 2. a (2 CPUs, work 10) and b (1 CPU, work 4,
# deadline 5) released at 0, c (1 CPU, work 6, deadline 20) at 3.
WL = Workload(
    (Machine("m1", 2, 1.0), Machine("m2", 1, 2.0)),
    (ClusterJob("a", 0, 2, 10), ClusterJob("b", 0, 1, 4, deadline=5),
     ClusterJob("c", 3, 1, 6, deadline=20)),
)  # fmt: skip
# a on m1 [0, 10); b on m2 [0, 2); c on m2 [3, 6): nothing late, Cmax = 10 - 0
GOOD = (("a", "m1", 0), ("b", "m2", 0), ("c", "m2", 3))


def test_valid_schedule_passes() -> None:
    """The hand-built schedule delays nothing and ends at 10: no violation."""
    assert check_snapshot(WL, GOOD, 0, 10) == []


@pytest.mark.parametrize(
    ("windows", "delayed", "makespan", "rule"),
    [
        (GOOD, 1, 10, "delayed"),  # claims one late job, none is
        (GOOD, 0, 9, "makespan"),  # claims a shorter makespan
        ((("a", "m1", 0), ("b", "m2", 0), ("c", "m2", 1)), 0, 10, "release"),  # c before r=3
        ((("a", "m1", 0), ("b", "m1", 0), ("c", "m2", 3)), 0, 10, "capacity"),  # 3 CPUs on m1
        ((("a", "m2", 0), ("b", "m2", 0), ("c", "m2", 3)), 0, 10, "machine"),  # a needs 2 CPUs
        ((("a", "m1", 0), ("b", "m2", 0)), 0, 10, "rows"),  # c missing
        ((*GOOD, ("a", "m1", 0)), 0, 10, "rows"),  # a twice
        ((("a", "m1", 0), ("b", "m2", 4), ("c", "m2", 6)), 0, 10, "delayed"),  # b ends 6 > 5
    ],
)
def test_each_broken_rule_is_named(windows: tuple, delayed: int, makespan: int, rule: str) -> None:
    """A schedule or claim breaking one rule yields a violation naming that rule."""
    out = check_snapshot(WL, windows, delayed, makespan)
    assert out and any(v.startswith(f"{rule}:") for v in out), out
