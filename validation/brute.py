"""Brute-force reference solver for one job's window (SPEC §3, §4).

Enumerates every window start and every n-subset of slots on distinct
nodes, recomputing durations, costs and the budget from the data classes
and the two SPEC §1 unit functions only. It shares no search code with the
heuristics or the exact models, so it is an independent reference for
them on tiny instances (it refuses more than ``max_slots`` suitable slots).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from instances import CRITERIA, Instance, Job, Slot, cost, duration
from planner import Window, make_window

MAX_SLOTS = 12
_EPS = 1e-9


def _durations(instance: Instance, job: Job, slots: Sequence[Slot]) -> list[int]:
    perf = [instance.node(s.node).performance for s in slots]
    if instance.geometry == "square":
        return [duration(job.volume, min(perf))] * len(perf)
    return [duration(job.volume, p) for p in perf]


def _price(instance: Instance, slot: Slot) -> float:
    return slot.price if slot.price is not None else instance.node(slot.node).price


def _starts(suitable: Sequence[Slot], free_start: bool) -> list[int]:
    if free_start:
        return list(range(min(s.start for s in suitable), max(s.end for s in suitable)))
    return sorted({s.start for s in suitable})


def brute_force(
    instance: Instance,
    job: Job | str,
    criterion: str | None = None,
    *,
    slots: Sequence[Slot] | None = None,
    free_start: bool = False,
    max_slots: int = MAX_SLOTS,
) -> Window | None:
    """Return an optimal window of ``job`` for a SPEC §4 criterion, or None if none exists.

    Parameters
    ----------
    instance
        The instance (its geometry gives the task durations, SPEC §3).
    job
        The job or its id.
    criterion
        A SPEC §4 criterion name; default the job's own.
    slots
        The free slots to search (default: the instance's), sorted by
        (start, node order).
    free_start
        False: try only the starts of suitable slots (the "AEP space" of
        SPEC §4). True: try every integer start within the suitable slots'
        span.
    max_slots
        Refuse (ValueError) a job with more suitable slots than this: the
        enumeration is exponential in the job's node count.

    Returns
    -------
    Window or None
        Among optimal windows, the earliest start, then the lexicographically
        smallest tuple of node positions (instance node order).
    """
    job = instance.job(job) if isinstance(job, str) else job
    name = criterion or job.criterion
    if name not in CRITERIA:
        raise ValueError(f"unknown criterion '{name}' (choose from: {', '.join(CRITERIA)})")
    crit = CRITERIA[name]
    suitable = instance.suitable_slots(job, slots)
    if len(suitable) > max_slots:
        raise ValueError(
            f"brute force is for tiny instances: job '{job.id}' has {len(suitable)} "
            f"suitable slots, more than {max_slots}"
        )
    if len(suitable) < job.nodes:
        return None
    budget = job.effective_budget
    order = instance.node_index
    best: Window | None = None
    best_key = 0.0
    for t in _starts(suitable, free_start):
        # At most one slot per node contains t (slots of a node never overlap).
        alive = sorted((s for s in suitable if s.start <= t < s.end), key=lambda s: order[s.node])
        for subset in combinations(alive, job.nodes):
            ds = _durations(instance, job, subset)
            if any(t + d > s.end for s, d in zip(subset, ds, strict=True)):
                continue
            total = sum(cost(_price(instance, s), d) for s, d in zip(subset, ds, strict=True))
            if budget is not None and total > budget:
                continue
            window = make_window(instance, job, t, subset)
            key = crit.normalised(window.metric(crit.metric))
            if best is None or key < best_key - _EPS:
                best, best_key = window, key
    return best


def brute_force_value(
    instance: Instance,
    job: Job | str,
    criterion: str | None = None,
    *,
    slots: Sequence[Slot] | None = None,
    free_start: bool = False,
    max_slots: int = MAX_SLOTS,
) -> float | None:
    """Return the optimal SPEC §4 criterion value (None when no window exists)."""
    job = instance.job(job) if isinstance(job, str) else job
    name = criterion or job.criterion
    window = brute_force(
        instance, job, name, slots=slots, free_start=free_start, max_slots=max_slots
    )
    return None if window is None else window.value(name)


def earliest_start(
    instance: Instance, job: Job | str, *, slots: Sequence[Slot] | None = None
) -> int | None:
    """Return the earliest start of any feasible window of ``job`` (None if none exists)."""
    window = brute_force(instance, job, "min_start", slots=slots)
    return None if window is None else window.start
