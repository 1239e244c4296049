"""Independent checker of backfilling's start-time invariants (Toporkov et al. 2015, §2.2).

Conservative backfilling never delays a reserved job: every job starts at
the earliest start of any feasible window on the instance's free slots
minus the reservations of the jobs before it in queue order. EASY-like
backfilling never delays the head: a job reserved while it heads the queue
(every earlier job already reserved or postponed, and it does not start
before the previous head) starts at the earliest feasible start, at or
after the previous head's start, on the slots left by the earlier
reservations; any other job starts "now": between the latest start so far
and the pending head's start. Earliest starts come
from the brute force of :mod:`validation.brute`; the checker never imports
the flow code. Use small instances (the brute force is exponential).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from instances import Instance, Slot
from validation.brute import brute_force
from validation.check import take_slot


def _earliest(instance: Instance, job_id: str, free: list[Slot], t: int | None) -> int | None:
    if t is not None:
        free = [Slot(s.node, max(s.start, t), s.end, s.price) for s in free if s.end > t]
    order = instance.node_index
    free = sorted(free, key=lambda s: (s.start, order[s.node]))
    got = brute_force(instance, job_id, "min_start", slots=free, max_slots=64)
    return None if got is None else got.start


def check_backfill(instance: Instance, phases: Sequence[Any], variant: str) -> list[str]:
    """Return the violations of ``variant`` (``conservative`` or ``easy``); empty when sound.

    ``phases`` are a backfilling cycle's phases in the order made, each with
    one job id in ``jobs`` and at most one window in ``reservations``.
    """
    if variant not in ("conservative", "easy"):
        raise ValueError(f"variant must be conservative or easy, got {variant!r}")
    queue = [j.id for j in instance.jobs]
    rank = {j: k for k, j in enumerate(queue)}
    free = list(instance.slots)
    done: set[str] = set()
    t = min((s.start for s in free), default=0)
    head_start: int | None = None  # start of the EASY head reserved last
    out: list[str] = []
    for ph in phases:
        (job,) = ph.jobs
        w = ph.reservations[0] if ph.reservations else None
        got = None if w is None else w.start
        head = all(q in done for q in queue[: rank[job]])
        if variant == "easy" and head and None not in (got, head_start) and got < head_start:
            head = False  # started before the pending head: a backfill, not a new head
        if variant == "conservative":
            if not head:
                out.append(f"order: '{job}' was scheduled before an earlier job of the queue")
            best = _earliest(instance, job, free, None)
            if got != best:
                out.append(f"delay: '{job}' starts at {got}, its earliest start is {best}")
        elif head:
            if head_start is not None:
                t = max(t, head_start)
            best = _earliest(instance, job, free, t)
            if got != best:
                out.append(f"delay: head '{job}' starts at {got}, its earliest start is {best}")
            head_start = got
        elif w is None:
            out.append(f"order: '{job}' was given up while not heading the queue")
        elif head_start is None or not t <= w.start <= head_start:
            out.append(f"backfill: '{job}' starts at {w.start}, outside [now, head start]")
        else:
            t = w.start
        done.add(job)
        if w is not None:
            for p in w.placements:
                if not take_slot(free, p.node, p.start, p.end):
                    out.append(f"reservation: '{job}' on '{p.node}' is not inside a free slot")
    return out
