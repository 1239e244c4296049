"""Backfilling's re-planning on released time, conservative compression (Toporkov et al. 2015).

Toporkov et al. 2015, §7.2. At a release instant ``t`` every job not yet
started, in queue order, moves to its earliest window (AMP, the search
backfilling reserved it with) from ``t`` if that starts before its
reservation; every other reservation is held while one job moves, so no
job is delayed. Most searches find nothing earlier, so each is preceded by
a cheap necessary test (:func:`may_start_before`): n suitable nodes free
long enough at one instant before the reservation, their n cheapest tasks
within the job's budget. Only jobs passing it are searched; the outcome
equals searching every job.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from instances import Instance, Job, cost, duration
from planner.registry import resolve
from planner.vo.free_time import FreeTime
from planner.vo.policies.backfill import rehosted
from planner.window import Window

Task = tuple[str, int, float]
"""A node a job may use: (node id, the job's rough task time there, the node's price)."""


def task_nodes(instance: Instance, job: Job) -> list[Task]:
    """Return the nodes ``job`` suits with its rough task time and the node's price, in order."""
    return [(n.id, duration(job.volume, n.performance), n.price)
            for n in instance.nodes if job.suits(n)]  # fmt: skip


def compress(
    instance: Instance,
    queue: Sequence[Job],
    now: dict[str, Window],
    started: set[str],
    free: FreeTime,
    t: int,
    *,
    tasks: Mapping[str, list[Task]],
    moves: dict[str, list[tuple[int, Window]]],
    seed: int = 0,
) -> None:
    """Move each job of ``queue`` not in ``started`` to an earlier window from ``t`` if one exists.

    ``now`` (job → its current window), ``free`` and ``moves`` (job → its
    moves as (``t``, new window)) are updated in place; ``tasks`` is job id
    → :func:`task_nodes`.
    """
    for job in queue:
        w = now[job.id]
        if job.id in started or w.start <= t:
            continue
        if not may_start_before(job, tasks[job.id], free, w, t):
            continue
        for p in w.placements:
            free.give(p.node, p.start, p.end)
        got = earlier_window(instance, job, free, t, w.start, seed=seed)
        for p in (w if got is None else got).placements:
            free.take(p.node, p.start, p.end)
        if got is not None:
            now[job.id] = got
            moves[job.id].append((t, got))


def may_start_before(job: Job, tasks: list[Task], free: FreeTime, own: Window, t: int) -> bool:
    """Return False only if ``job`` has no window from ``t`` starting before ``own.start``.

    The window would need, at one instant T in [t, own.start), n of the
    job's ``tasks`` nodes each free over [T, T + its task time) — in
    ``free`` plus the job's own reservation ``own`` — whose n cheapest task
    costs fit the budget. Task times and costs are the rough ones, never
    longer than the square geometry's, so the test only admits more than
    the search does.
    """
    first = t if job.release is None else max(t, job.release)
    last = own.start - 1
    mine = {p.node: (p.start, p.end) for p in own.placements}
    spans: list[tuple[int, int, int]] = []  # (first start, last start, task cost)
    for node, d, node_price in tasks:
        for s, e, price in _pieces(free, node, node_price, mine.get(node), t, own.start):
            if job.deadline is not None:
                e = min(e, job.deadline)
            lo, hi = max(s, first), min(e - d, last)
            if lo <= hi:
                spans.append((lo, hi, cost(price, d)))
    n = job.nodes
    if len(spans) < n:
        return False
    budget = job.effective_budget
    for at, _, _ in spans:
        costs = [c for lo, hi, c in spans if lo <= at <= hi]
        if len(costs) >= n and (budget is None or sum(sorted(costs)[:n]) <= budget):
            return True
    return False


def _pieces(
    free: FreeTime, node: str, node_price: float, own: tuple[int, int] | None, t: int, before: int
) -> list[tuple[int, int, float]]:
    """Return ``node``'s free intervals meeting [t, before) with their prices per quantum,
    ``own`` merged with the intervals it touches (at the lowest price of the parts)."""
    out = [(s.start, s.end, node_price if s.price is None else s.price)
           for s in free.by_node.get(node, ()) if s.end > t and s.start <= before]  # fmt: skip
    if own is None:
        return out
    a, b = own
    base = free.base(node, a, b).price
    price = node_price if base is None else base
    rest = []
    for s, e, pr in out:
        if e == a or s == b:
            a, b, price = min(a, s), max(b, e), min(price, pr)
        else:
            rest.append((s, e, pr))
    return [*rest, (a, b, price)]


def earlier_window(
    instance: Instance, job: Job, free: FreeTime, t: int, before: int, *, seed: int = 0
) -> Window | None:
    """Return ``job``'s earliest window (AMP) from ``t`` if it starts before ``before``, else None.

    AMP reads slots in start order and stops at the first fitting step, so
    the slots starting at or after ``before`` never change its answer below
    ``before``: they are left out. Placements record the free slot holding them.
    """
    release = t if job.release is None else max(t, job.release)
    slots = free.slots(instance.node_index, t, before)
    got = resolve("amp").solve(instance, dataclasses.replace(job, release=release), slots=slots,
                               seed=seed)  # fmt: skip
    if got is None:
        return None
    if got.start >= before:
        raise AssertionError("AMP returned a window from a slot starting too late")
    return rehosted(got, free)
