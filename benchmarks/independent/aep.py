"""The AEP scheme of docs/algorithms.md ("Keeping the best window"), shared by the AEP modules."""

from __future__ import annotations

from collections.abc import Callable

from common import Instance, Job, Slot, Step, job_slots, levels, steps, window

Select = Callable[[Instance, Job, list[Slot], Step], "list[int] | None"]
Value = Callable[[Instance, Job, list[Slot], int, list[int]], float]


def aep(
    inst: Instance, job: Job, select: Select, value: Value, *, exact: bool
) -> dict | None:
    """Best window by (value, T) over every level and step; ``exact``: once per distinct start."""
    slots = job_slots(inst, job)
    best: tuple[tuple[float, int], int, list[int]] | None = None
    kind = "duration" if exact else "performance"
    for level in levels(inst, job, slots, kind):
        for step in steps(slots, job.n, level):
            if exact and not step.last_at_T:
                continue
            chosen = select(inst, job, slots, step)
            if chosen is None:
                continue
            key = (value(inst, job, slots, step.T, chosen), step.T)
            if best is None or key < best[0]:
                best = (key, step.T, chosen)
    return None if best is None else window(inst, job, slots, best[1], best[2])
