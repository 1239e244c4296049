"""Conservative backfilling on the slot model (Toporkov et al. 2015, §2.2).

Jobs are taken in queue (batch) order and each is reserved at its earliest
window on the slots the earlier jobs' reservations left free: rough geometry
(each task runs as long as its own node needs), the job's own budget, first
fit (AMP). A later job may start before an earlier one only in time the
earlier reservations left free, so it never delays a reserved job — the
conservative variant. Backfilling ignores the VO policy (the combination
problem) and each job's own criterion: it optimises start times only
(§2.2, "inefficient resource usage by criteria differed from an average job
start time"). Every job is its own phase with at most one alternative, so
the cycle passes the independent cycle checker.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from instances import Instance, Job
from planner.heuristics.slotlist import SlotList
from planner.registry import resolve
from planner.vo.cycle import Combine, CycleOutcome, Phase
from planner.vo.free_time import FreeTime
from planner.window import Window


def earliest_window(
    instance: Instance, job: Job, free: SlotList, t: int | None = None, *, seed: int = 0
) -> Window | None:
    """Return ``job``'s earliest window on ``free`` starting at or after ``t`` (AMP), or None.

    The placements record the bounds of the free slots that hold them (not
    the slots clipped at ``t``), so the window checks against ``free``.
    """
    if t is None:
        probe, slots = job, free.slots()
    else:
        release = t if job.release is None else max(t, job.release)
        probe, slots = dataclasses.replace(job, release=release), list(free.slots_from(t))
    got = resolve("amp").solve(instance, probe, slots=slots, seed=seed)
    return None if got is None else rehosted(got, free)


def rehosted(window: Window, free: SlotList | FreeTime) -> Window:
    """Return ``window`` whose placements record the free slots that hold them."""
    placements = []
    for p in window.placements:
        host = free.host(p.node, p.start, p.end)
        if host is None:
            raise AssertionError("AMP returned a task outside the free slots")
        placements.append(dataclasses.replace(p, slot_start=host.start, slot_end=host.end))
    return Window(window.job, window.start, tuple(placements))


def reserve(free: SlotList, window: Window) -> None:
    """Subtract ``window``'s tasks from ``free``."""
    for p in window.placements:
        free.subtract(p.node, p.start, p.end)


@dataclass(frozen=True)
class Backfill:
    """Conservative backfilling: every job reserved at its earliest window, in queue order."""

    name: str = "backfill"

    def schedule(
        self,
        instance: Instance,
        batch: Sequence[Job],
        free: SlotList,
        combine: Combine,
        *,
        seed: int = 0,
    ) -> CycleOutcome:
        """Reserve the batch's jobs one by one; ``combine`` is not used."""
        phases = []
        for job in batch:
            before = tuple(free.slots())
            w = earliest_window(instance, job, free, seed=seed)
            found = () if w is None else (w,)
            if w is not None:
                reserve(free, w)
            phases.append(Phase((job.id,), before, found, found))
        return CycleOutcome(self.name, tuple(phases))
