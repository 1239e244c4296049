"""The forward pass of SPEC §5 (planner.heuristics.sweep) on the shared ``tiny`` instance."""

from __future__ import annotations

from instances import Instance, Job
from planner.heuristics.feed import Feed
from planner.heuristics.sweep import Sweep, levels


def _trace(inst: Instance, job: Job, level: int | None = None, **kw: bool) -> list[tuple]:
    feed = Feed(inst, job)
    sw = Sweep(feed, level, **kw)
    return [(t, sorted(feed.slot[i].node + str(feed.slot[i].start) for i in sw.alive()))
            for t in sw.steps()]  # fmt: skip


def test_alive_sets_and_expiry(tiny: Instance) -> None:
    """n = 1, V = 8 (d: a 8, b 4, c 4, d 2): a slot is alive while e − T ≥ d.

    b [4,14) is still alive at T = 10 (14 − 10 = 4 = d) and gone at 20;
    a [0,20) dies after T = 12, d [10,16) after 14, c [6,30) after 26.
    """
    job = Job("one", nodes=1, volume=8.0)
    assert _trace(tiny, job) == [
        (0, ["a0"]),
        (4, ["a0", "b4"]),
        (6, ["a0", "b4", "c6"]),
        (10, ["a0", "b4", "c6", "d10"]),
        (20, ["b20", "c6"]),
        (24, ["a24", "b20", "c6"]),
    ]


def test_a_step_needs_n_alive_slots(tiny: Instance) -> None:
    """With n = 3 only the steps with three or more alive slots are yielded."""
    job = Job("three", nodes=3, volume=8.0)
    assert [t for t, _ in _trace(tiny, job)] == [6, 10, 24]


def test_last_of_start_merges_equal_starts(tiny: Instance) -> None:
    """With ``last_of_start`` each distinct start is one step (here every start is distinct)."""
    job = Job("one", nodes=1, volume=8.0)
    assert [t for t, _ in _trace(tiny, job, last_of_start=True)] == [0, 4, 6, 10, 20, 24]


def test_square_levels_and_skip_rule(tiny: Instance) -> None:
    """Square levels are the distinct durations 2, 4, 8; a level-4 step needs a b or c slot alive.

    Level 4 admits b, c, d (task 4): d [10,16) alone would be skipped, but
    every step from T = 4 on has b or c alive. T = 0 (a, not admitted) has
    nothing alive. Level 2 admits only d and yields its lone slot at T = 10.
    """
    job = Job("one", nodes=1, volume=8.0)
    assert levels(Feed(tiny, job)) == [2, 4, 8]
    assert _trace(tiny, job, 2) == [(10, ["d10"])]
    assert _trace(tiny, job, 4) == [
        (4, ["b4"]),
        (6, ["b4", "c6"]),
        (10, ["b4", "c6", "d10"]),
        (20, ["b20", "c6"]),
        (24, ["b20", "c6"]),
    ]
