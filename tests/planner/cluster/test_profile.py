"""The free-CPU profile of conservative backfilling: a step function, worked by hand."""

from __future__ import annotations

import pytest

from planner.cluster.profile import Profile


def busy_profile() -> Profile:
    """4 CPUs; 3 taken on [0, 10), 2 on [10, 20), 4 on [25, 30): free 1, 2, 4, 0, 4."""
    p = Profile(4)
    p.add(0, 10, -3)
    p.add(10, 20, -2)
    p.add(25, 30, -4)
    return p


def test_steps_merge_equal_neighbours() -> None:
    """Adding and removing a reservation leaves the same breakpoints."""
    p = busy_profile()
    assert (p.times, p.free) == ([0, 10, 20, 25, 30], [1, 2, 4, 0, 4])
    p.add(3, 12, -1)
    p.add(3, 12, 1)
    assert (p.times, p.free) == ([0, 10, 20, 25, 30], [1, 2, 4, 0, 4])


@pytest.mark.parametrize(
    ("need", "length", "now", "start"),
    [
        (1, 100, 0, 30),  # 1 CPU for 100 s: [25, 30) is full, so after it
        (1, 25, 0, 0),  # 1 CPU for 25 s fits from 0 up to 25
        (2, 5, 0, 10),  # 2 CPUs: from 10 (5 s fit before 25)
        (2, 16, 0, 30),  # 2 CPUs for 16 s: 10 + 16 > 25, so 30
        (4, 5, 0, 20),  # 4 CPUs for 5 s fill [20, 25) exactly
        (4, 6, 0, 30),  # ... but not 6 s
        (2, 3, 12, 12),  # a search from now = 12 starts inside a step
        (3, 1, 26, 30),  # from inside the full step
        (1, 0, 26, 30),  # zero length: CPUs needed at the start instant only
        (1, 0, 24, 24),  # zero length at 24 (free 4), ends before the full step
    ],
)
def test_earliest_start(need: int, length: int, now: int, start: int) -> None:
    """Earliest t >= now with ``need`` CPUs free on [t, t + length)."""
    assert busy_profile().earliest(need, length, now) == start


def test_trim_keeps_the_current_step() -> None:
    """Trimming at 12 drops the steps that ended; the step holding 12 stays."""
    p = busy_profile()
    p.trim(12)
    assert (p.times, p.free) == ([10, 20, 25, 30], [2, 4, 0, 4])
    assert p.earliest(4, 5, 12) == 20


def test_vectorised_durations_match_the_scalar_rule() -> None:
    """engine.scaled equals ceil(round(x / s, 9)) (ClusterJob's rule) on 20,000 random cases."""
    import math
    import random

    from planner.cluster.durations import scaled

    rng = random.Random(1)
    for _ in range(4000):
        xs = [rng.randint(0, 10**6) for _ in range(5)]
        s = rng.choice([0.1, 0.3, 0.7, 1.5, 3.0, rng.uniform(0.1, 5), rng.randint(200, 600) / 200])
        assert scaled(xs, s) == [math.ceil(round(x / s, 9)) for x in xs]
