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


@pytest.mark.parametrize(
    ("need", "length", "until", "start"),
    [
        (1, 100, 25, 0),  # 1 CPU for 100 s from 0: the window is clipped at 25
        (1, 100, 30, 30),  # ... but not at 30: [25, 30) is full, so until
        (2, 5, 30, 10),  # 2 CPUs from 10
        (2, 16, 25, 10),  # [10, 26) clipped at 25 fits
        (2, 16, 30, 30),  # not clipped before the full step: until
        (4, 6, 25, 20),  # 6 s from 20 end past 25 = until, so the clip makes it fit
        (3, 1, 10, 10),  # 3 CPUs free nowhere before 10: until
        (1, 5, 0, 0),  # an empty range: until
    ],
)
def test_earliest_before_a_reservation(need: int, length: int, until: int, start: int) -> None:
    """Earliest t in [0, until) with ``need`` CPUs free on [t, min(t + length, until))."""
    assert busy_profile().earliest_before(need, length, 0, until) == start


def test_earliest_before_equals_taking_the_reservation_out() -> None:
    """On 5,000 random profiles: reading with a reservation in place = taking it out first."""
    import random

    rng = random.Random(7)
    for _ in range(5000):
        p = Profile(6)
        for _ in range(rng.randint(0, 8)):  # other reservations and running jobs
            a, b = sorted(rng.sample(range(40), 2))
            p.add(a, b, -rng.randint(0, min(p.free)))
        need, hold, now = rng.randint(1, 6), rng.randint(1, 12), rng.randint(0, 10)
        t = p.earliest(need, hold, rng.randint(now, 45))  # the job's start: any that fits
        p.add(t, t + hold, -need)
        shortcut = p.earliest_before(need, hold, now, t)
        p.add(t, t + hold, need)  # taken out
        assert shortcut == p.earliest(need, hold, now)


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
