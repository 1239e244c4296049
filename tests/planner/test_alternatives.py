"""The alternatives search of SPEC §8 (planner.find_alternatives)."""

from __future__ import annotations

import pytest

from instances import Instance, Job
from planner import find_alternatives
from planner.deadline import Deadline
from tests.conftest import with_job
from validation import check_alternatives


def test_rounds_on_the_tiny_batch(tiny: Instance) -> None:
    """AMP on j1 (n=2, budget 20) and j2 (n=1, linux), rounds in batch order.

    Round 1: j1 takes a [4,12) + b [4,8) (T = 4, the first fit); j2 takes c
    [6,10). Round 2 on what is left: j1's next window, then j2's, and so on
    until a round finds nothing. Every window is replayed by the checker.
    """
    alts = find_alternatives(tiny, "amp")
    first = alts.windows[:2]
    assert [(w.job, w.start, w.nodes) for w in first] == [("j1", 4, ("a", "b")), ("j2", 6, ("c",))]
    assert check_alternatives(tiny, alts.windows) == []
    by_job = alts.by_job()
    assert set(by_job) == {"j1", "j2"} and all(by_job.values())
    assert len(alts) == sum(len(v) for v in by_job.values())


@pytest.mark.parametrize("checks", [0, 1, 2, 3])
def test_a_deadline_stops_the_search_and_says_so(tiny: Instance, checks: int) -> None:
    """A deadline that passes after ``checks`` window searches (a clock moved by each check)
    stops the search there: the windows found are the first ones of the full search, and
    :attr:`Alternatives.complete` is False; without a deadline it is True."""
    full = find_alternatives(tiny, "amp")
    assert full.complete and len(full) > 3
    ticks = iter(range(10**6))
    clock = lambda: float(next(ticks))  # noqa: E731 (one tick per reading)
    deadline = Deadline(checks + 0.5, clock=clock)  # read once here, then once per search
    cut = find_alternatives(tiny, "amp", deadline=deadline)
    assert not cut.complete and len(cut) == checks
    assert cut.windows == full.windows[:checks]


def test_cap_per_job(tiny: Instance) -> None:
    """``max_per_job=1`` stops each job after its first alternative."""
    alts = find_alternatives(tiny, "min_cost", max_per_job=1)
    assert [w.job for w in alts.windows] == ["j1", "j2"]


def test_job_subset_and_empty_jobs(tiny: Instance) -> None:
    """``jobs`` restricts the batch; a job without any window is present with an empty list."""
    inst = with_job(tiny, Job("big", nodes=5, volume=8.0))
    alts = find_alternatives(inst, "amp")
    assert alts.windows == () and alts.by_job() == {"big": []}
    only = find_alternatives(tiny, "amp", jobs=["j2"])
    assert {w.job for w in only.windows} == {"j2"}


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"algorithm": "nope"}, KeyError),  # unknown algorithm
        ({"algorithm": "amp", "jobs": ["zz"]}, KeyError),  # unknown job
        ({"algorithm": "amp", "max_per_job": -1}, ValueError),  # negative cap
    ],
)
def test_bad_arguments(tiny: Instance, kwargs: dict, error: type) -> None:
    """Bad arguments raise a one-line error."""
    with pytest.raises(error):
        find_alternatives(tiny, **kwargs)


def test_slot_list_subtracts_like_instances_subtract() -> None:
    """SlotList (binary search) leaves the same sorted list as instances.subtract (SPEC §7)."""
    from instances import subtract
    from planner import search
    from planner.heuristics.slotlist import SlotList
    from tests.planner.families import small

    for seed in range(10):
        inst = small("toporkov2011", seed)
        free = SlotList(inst.slots, inst.node_index)
        reference = list(inst.slots)
        for job in inst.jobs:
            window = search(inst, job, "amp", slots=free.slots())
            if window is None:
                continue
            taken = [(p.node, p.start, p.end) for p in window.placements]
            for node, start, end in taken:
                free.subtract(node, start, end)
            reference = subtract(reference, taken, inst.node_index)
            assert free.slots() == reference
            t0 = window.start
            assert list(free.slots_from(t0)) == [s for s in reference if s.end > t0]
