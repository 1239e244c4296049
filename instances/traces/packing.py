"""Assign an SWF log's jobs to concrete processors and cut a window into slots.

The log says how many processors each job held, not which. A deterministic
first-fit packing (jobs by start time, then job number; each takes the
lowest-numbered processors free at its start) makes that concrete without
ever using more than MaxProcs processors at once. A job that finds too few
free processors (possible in logs whose times were rounded or cleaned) is
delayed to the earliest time enough are free; such jobs are counted.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from instances.slot import Busy
from instances.traces.swf import SwfLog


@dataclass(frozen=True)
class PackedJob:
    """One log job on concrete processors (0-based indices), times in seconds."""

    number: int
    start: float
    end: float
    processors: tuple[int, ...]


@dataclass(frozen=True)
class Packing:
    """The packed jobs and what the packing had to skip or delay."""

    processors: int
    jobs: tuple[PackedJob, ...]
    counts: dict[str, int]


def pack(log: SwfLog, processors: int) -> Packing:
    """Pack ``log`` on ``processors`` processors (first fit; see the module docstring)."""
    free_at = np.full(processors, -math.inf)
    jobs: list[PackedJob] = []
    counts: Counter[str] = Counter()
    for rec in sorted(log.records, key=lambda r: (r.start, r.number)):
        if rec.run <= 0:
            counts["zero_run_time"] += 1
            continue
        if rec.processors > processors:
            counts["too_many_processors"] += 1
            continue
        start = rec.start
        free = np.flatnonzero(free_at <= start)
        if len(free) < rec.processors:
            start = float(np.sort(free_at)[rec.processors - 1])
            free = np.flatnonzero(free_at <= start)
            counts["delayed"] += 1
        chosen = free[: rec.processors]
        end = start + rec.run
        free_at[chosen] = end
        jobs.append(PackedJob(rec.number, start, end, tuple(int(i) for i in chosen)))
    return Packing(processors, tuple(jobs), dict(sorted(counts.items())))


def window_busy(
    packing: Packing, node_ids: list[str], start: float, length: float, quantum: float
) -> tuple[list[Busy], int]:
    """Return the busy intervals (in quanta) inside ``[start, start + length)`` and the horizon end.

    A job's interval is clipped to the window and widened to whole quanta
    (``floor`` of its start, ``ceil`` of its end), so a partly busy quantum
    counts as busy.
    """
    horizon = math.ceil(round(length / quantum, 9))
    stop = start + length
    busy: list[Busy] = []
    for job in packing.jobs:
        if job.end <= start or job.start >= stop:
            continue
        lo = math.floor(round((max(job.start, start) - start) / quantum, 9))
        hi = min(horizon, math.ceil(round((min(job.end, stop) - start) / quantum, 9)))
        if lo < hi:
            busy.extend(Busy(node_ids[p], lo, hi) for p in job.processors)
    return busy, horizon
