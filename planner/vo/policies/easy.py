"""EASY-like (aggressive) backfilling on the slot model (Toporkov et al. 2015, §2.2; Lifka 1995).

Only the head of the queue holds a reservation (at its earliest window);
the other jobs get none and start at the current time ``t`` only if a
window starting at ``t`` fits in the time left free — the head's
reservation included, so they never delay the head. Time advances to the
next instant free time appears (a free slot's start) or the head starts;
when the head starts, the next job in queue order becomes the head. On
this static slot list (run times as reserved) free time only shrinks, so a
job's earliest start never moves back: it is searched again only once
``t`` reaches it. A head with no window in the interval is postponed to
the next cycle, as are the jobs still waiting when the queue empties of
heads. Every reservation is its own phase, in the order made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from instances import Instance, Job
from planner.heuristics.slotlist import SlotList
from planner.vo.cycle import Combine, CycleOutcome, Phase
from planner.vo.policies.backfill import earliest_window, reserve


def _next_time(free: SlotList, t: int, head_start: int) -> int:
    later = [s.start for s in free.slots_from(t + 1) if s.start > t]
    return min([head_start, *later])


@dataclass(frozen=True)
class EasyBackfill:
    """EASY-like backfilling: the head reserved, the others started now if they fit now."""

    name: str = "easy"

    def schedule(
        self,
        instance: Instance,
        batch: Sequence[Job],
        free: SlotList,
        combine: Combine,
        *,
        seed: int = 0,
    ) -> CycleOutcome:
        """Run the queue through time; ``combine`` is not used."""
        slots = free.slots()
        t = min((s.start for s in slots), default=0)
        queue = list(batch)
        bound = {j.id: t for j in batch}  # no window of the job starts earlier
        phases: list[Phase] = []
        head = None
        while queue:
            if head is None:
                before = tuple(free.slots())
                head = earliest_window(instance, queue[0], free, t, seed=seed)
                if head is None:
                    phases.append(Phase((queue.pop(0).id,), before, (), ()))
                    continue
                reserve(free, head)
                phases.append(Phase((queue[0].id,), before, (head,), (head,)))
            for job in list(queue[1:]):
                if bound[job.id] > t:
                    continue
                before = tuple(free.slots())
                w = earliest_window(instance, job, free, t, seed=seed)
                bound[job.id] = 10**18 if w is None else w.start
                if w is not None and w.start == t:
                    reserve(free, w)
                    phases.append(Phase((job.id,), before, (w,), (w,)))
                    queue.remove(job)
            if head.start == t:
                queue.pop(0)
                head = None
            else:
                t = _next_time(free, t, head.start)
        return CycleOutcome(self.name, tuple(phases))
