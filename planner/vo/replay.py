"""Execution replay of a cycle's schedule with shorter real run times (Toporkov et al. 2015, §7.2).

The paper's stress test: every task's real run time is drawn uniformly in
[0.2, 1] × its reserved time ("Real job execution time was specified as a
random variable uniformly distributed in the interval [0.2 · Tres, Tres]").
A task ends early and releases the rest of its reservation at the next
whole quantum. CSS and the batch-slicer keep their preliminary schedule
(Table 3: their real start equals the scheduled one); backfilling, with
``reuse=True``, re-plans on the released time: at every release, each job
not yet started, in queue order, moves to its earliest window from that
instant if that is earlier than its reservation, every other reservation
held (conservative compression, so no job is delayed;
:mod:`planner.vo.replan`). Released time becomes known only when the task
ends. Table 3 shows the
paper's backfilling using released time (real start 37.3 against 69
scheduled; §7.2, "backfilling conducts scheduling on basis of dynamically
updated information"). Jobs left unplaced by the preliminary schedule stay
unplaced, so every method is compared on its own placed set.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from instances import Instance
from planner.vo.free_time import FreeTime
from planner.vo.replan import compress, task_nodes
from planner.window import Window

LOW = 0.2
"""Real run time / reserved time is uniform in [LOW, 1] (Toporkov et al. 2015, §7.2)."""


def task_factors(instance: Instance, seed: int) -> dict[str, np.ndarray]:
    """Return job id → real/reserved factor per task (index = placement order), seeded.

    One row per batch job in batch order, so every method of one cycle draws
    the same factors (paired comparison).
    """
    rng = np.random.default_rng(seed)
    width = max((j.nodes for j in instance.jobs), default=0)
    table = rng.uniform(LOW, 1.0, size=(len(instance.jobs), width))
    return {j.id: table[k] for k, j in enumerate(instance.jobs)}


@dataclass(frozen=True)
class Execution:
    """One placed job: scheduled (reserved) and real start, execution time (Σ task times), finish.

    ``window`` is the window the job ran in (its reservation, or where
    re-planning moved it); task ``i`` really ran ``factor_i`` × its duration.
    ``moves`` lists every re-planning move as (instant, new window), in order.
    """

    job: str
    scheduled_start: int
    real_start: int
    scheduled_time: int
    real_time: float
    real_finish: float
    window: Window
    moves: tuple[tuple[int, Window], ...] = ()
    scheduled_finish: int | None = None


def _real(w: Window, f: np.ndarray) -> list[float]:
    return [float(f[i]) * p.duration for i, p in enumerate(w.placements)]


def replay(
    instance: Instance,
    reservations: Sequence[Window],
    factors: Mapping[str, np.ndarray],
    *,
    reuse: bool = False,
    seed: int = 0,
) -> list[Execution]:
    """Execute ``reservations`` with real task times ``factors``; return one row per job.

    Parameters
    ----------
    instance
        The cycle's instance (its free slots before the cycle, its batch in queue order).
    reservations
        The preliminary schedule (one window per placed job).
    factors
        :func:`task_factors` of the cycle.
    reuse
        Re-plan the jobs not yet started on released time (backfilling).
    seed
        Seed of the re-planning searches (AMP does not use it).
    """
    plan = {w.job: w for w in reservations}
    if not reuse:
        return [_row(plan[j], plan[j], factors[j]) for j in plan]
    free = FreeTime(instance)
    for w in reservations:
        for p in w.placements:
            free.take(p.node, p.start, p.end)
    queue = [j for j in instance.jobs if j.id in plan]
    tasks = {j.id: task_nodes(instance, j) for j in queue}
    moves: dict[str, list[tuple[int, Window]]] = {j.id: [] for j in queue}
    now: dict[str, Window] = dict(plan)
    started: set[str] = set()
    releases: dict[int, list[tuple[str, int, int]]] = {}
    events = {w.start for w in reservations}
    while events:
        t = min(events)
        events.discard(t)
        if t in releases:
            for node, a, b in releases.pop(t):
                free.give(node, a, b)
            compress(instance, queue, now, started, free, t, tasks=tasks, moves=moves, seed=seed)
        for j in queue:
            w = now[j.id]
            if j.id in started or w.start != t:
                continue
            started.add(j.id)
            for p, r in zip(w.placements, _real(w, factors[j.id]), strict=True):
                end = p.start + math.ceil(r)
                if end < p.end:
                    releases.setdefault(end, []).append((p.node, end, p.end))
                    events.add(end)
        events |= {w.start for j, w in now.items() if j not in started and w.start > t}
    return [_row(plan[j.id], now[j.id], factors[j.id], moves[j.id]) for j in queue]


def _row(scheduled: Window, real: Window, f: np.ndarray, moves: Sequence[Any] = ()) -> Execution:
    times = _real(real, f)
    return Execution(scheduled.job, scheduled.start, real.start, scheduled.proc_time,
                     sum(times), real.start + max(times), real, tuple(moves),
                     scheduled.finish)  # fmt: skip
