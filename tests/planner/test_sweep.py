"""The forward pass of SPEC §5 (planner.heuristics.sweep) on the shared ``tiny`` instance."""

from __future__ import annotations

from instances import Instance, Job, Node, Slot
from planner.heuristics.feed import Feed
from planner.heuristics.sweep import Sweep, levels, performance_levels


def _trace(inst: Instance, job: Job, level: int | None = None, **kw) -> list[tuple]:
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


def test_performance_levels_share_a_duration() -> None:
    """Performance levels (SPEC §5): p = 3, 2.5, 2 for V = 5 give durations 2, 2, 3.

    Nodes (in order) c p=2, b p=2.5, a p=3; slots c [0,9), b [1,9), a [2,9).
    Level 2.5 (d = 2) admits b and a (not c) and needs b alive: T = 1 {b},
    T = 2 {a, b}; T = 0 (c's start) has nothing alive. Level 3 (d = 2) needs
    a: only T = 2 {a}. The duration levels are just 2 and 3.
    """
    nodes = (Node("c", 2.0), Node("b", 2.5), Node("a", 3.0))
    slots = (Slot("c", 0, 9), Slot("b", 1, 9), Slot("a", 2, 9))
    inst = Instance(nodes=nodes, slots=slots, geometry="square")
    job = Job("one", nodes=1, volume=5.0)
    assert performance_levels(Feed(inst, job)) == [(3.0, 2), (2.5, 2), (2.0, 3)]
    assert levels(Feed(inst, job)) == [2, 3]
    assert _trace(inst, job, 2, performance=3.0) == [(2, ["a2"])]
    assert _trace(inst, job, 2, performance=2.5) == [(1, ["b1"]), (2, ["a2", "b1"])]
    assert _trace(inst, job, 2) == [(1, ["b1"]), (2, ["a2", "b1"])]
