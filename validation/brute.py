"""Brute-force reference solver for one job's window (docs/concepts.md).

Enumerates every window start and every n-subset of slots on distinct
nodes, recomputing suitability, clipping, durations, costs, the budget and
every criterion value from the data classes and the docs/concepts.md unit
functions (``duration``, ``cost``, ``budget_from_price``) only. It shares no
code with the heuristics, the exact models or the window metrics (it fills
:class:`planner.Placement` and :class:`planner.Window` only to return its
answer; the value it optimises, and :func:`brute_force_value` returns, is
its own), so it is an independent reference for them on tiny instances (it
refuses more than ``max_slots`` suitable slots).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from instances import CRITERIA, Instance, Job, Node, Slot, budget_from_price, cost, duration
from planner import Placement, Window

MAX_SLOTS = 12
_REL = 1e-12
"""Relative tolerance of "strictly better": float sums of q differ by noise only."""


def _suits(job: Job, node: Node) -> bool:
    """docs/concepts.md: performance ≥ P and every requirement (number: minimum; string: exact)."""
    if node.performance < job.min_performance:
        return False
    for name, wanted in job.requirements.items():
        have = node.attributes.get(name)
        if have is None or isinstance(have, str) != isinstance(wanted, str):
            return False
        if have != wanted if isinstance(wanted, str) else have < wanted:
            return False
    return True


def _suitable(
    instance: Instance, job: Job, slots: Sequence[Slot] | None
) -> list[tuple[Slot, Slot]]:
    """(clipped, slot) for the slots of suitable nodes: ``clipped`` is cut to [release, deadline),
    sorted by (clipped start, node order); ``slot`` keeps the edges distances are measured to."""
    order = {node.id: k for k, node in enumerate(instance.nodes)}
    nodes = {node.id: node for node in instance.nodes}
    out = []
    for s in instance.slots if slots is None else slots:
        if not _suits(job, nodes[s.node]):
            continue
        lo = s.start if job.release is None else max(s.start, job.release)
        hi = s.end if job.deadline is None else min(s.end, job.deadline)
        if lo < hi:
            out.append((Slot(s.node, lo, hi, s.price), s))
    return sorted(out, key=lambda pair: (pair[0].start, order[pair[0].node]))


def _budget(job: Job) -> int | None:
    """docs/concepts.md: S = budget, else floor(C·V·n) from max_price, else unbounded."""
    if job.budget is not None:
        return job.budget
    if job.max_price is not None:
        return budget_from_price(job.max_price, job.volume, job.nodes)
    return None


def _metric(
    name: str,
    t: int,
    slots: Sequence[Slot],
    ds: Sequence[int],
    costs: Sequence[int],
    qs: Sequence[float],
) -> float:
    """The docs/concepts.md metric ``name`` of the window at ``t`` on ``slots`` with task lengths
    ``ds``."""
    if name == "start":
        return t
    if name == "runtime":
        return max(ds)
    if name == "finish":
        return t + max(ds)
    if name == "cost":
        return sum(costs)
    if name == "proc_time":
        return sum(ds)
    if name == "q":
        return sum(qs)
    gaps = [(t - s.start, s.end - (t + d)) for s, d in zip(slots, ds, strict=True)]
    if name == "near_distance":
        return sum(min(g) for g in gaps) / len(gaps)
    if name == "far_distance":
        return sum(max(g) for g in gaps) / len(gaps)
    raise ValueError(f"unknown metric '{name}'")


def _solve(
    instance: Instance,
    job: Job,
    name: str,
    slots: Sequence[Slot] | None,
    free_start: bool,
    max_slots: int,
) -> tuple[Window, float] | None:
    if name not in CRITERIA:
        raise ValueError(f"unknown criterion '{name}' (choose from: {', '.join(CRITERIA)})")
    crit = CRITERIA[name]
    sign = 1.0 if crit.sense == "min" else -1.0
    suitable = _suitable(instance, job, slots)
    if len(suitable) > max_slots:
        raise ValueError(
            f"brute force is for tiny instances: job '{job.id}' has {len(suitable)} "
            f"suitable slots, more than {max_slots}"
        )
    if len(suitable) < job.nodes:
        return None
    budget = _budget(job)
    nodes = {node.id: node for node in instance.nodes}
    order = {node.id: k for k, node in enumerate(instance.nodes)}
    if free_start:
        starts = range(min(c.start for c, _ in suitable), max(c.end for c, _ in suitable))
    else:
        starts = sorted({c.start for c, _ in suitable})
    best: tuple[float, int, list[Slot], list[int], list[int]] | None = None
    for t in starts:
        # At most one slot per node contains t (slots of a node never overlap).
        alive = sorted(
            (pair for pair in suitable if pair[0].start <= t < pair[0].end),
            key=lambda pair: order[pair[0].node],
        )
        for pairs in combinations(alive, job.nodes):
            subset = [host for _, host in pairs]
            perf = [nodes[s.node].performance for s in subset]
            if instance.geometry == "square":
                ds = [duration(job.volume, min(perf))] * len(subset)
            else:
                ds = [duration(job.volume, p) for p in perf]
            if any(t + d > c.end for (c, _), d in zip(pairs, ds, strict=True)):
                continue
            prices = [nodes[s.node].price if s.price is None else s.price for s in subset]
            costs = [cost(p, d) for p, d in zip(prices, ds, strict=True)]
            if budget is not None and sum(costs) > budget:
                continue
            qs = [nodes[s.node].q for s in subset]
            # distances to the slots' own edges, not to the release/deadline (docs/concepts.md)
            value = _metric(crit.metric, t, subset, ds, costs, qs)
            if best is None or sign * (best[0] - value) > _REL * max(abs(value), abs(best[0])):
                best = (value, t, list(subset), ds, costs)
    if best is None:
        return None
    value, t, chosen, ds, costs = best
    placements = tuple(
        Placement(
            node=s.node,
            start=t,
            end=t + d,
            cost=c,
            slot_start=s.start,
            slot_end=s.end,
            q=nodes[s.node].q,
        )
        for s, d, c in zip(chosen, ds, costs, strict=True)
    )
    return Window(job=job.id, start=t, placements=placements), value


def brute_force(
    instance: Instance,
    job: Job | str,
    criterion: str | None = None,
    *,
    slots: Sequence[Slot] | None = None,
    free_start: bool = False,
    max_slots: int = MAX_SLOTS,
) -> Window | None:
    """Return an optimal window of ``job`` for a docs/concepts.md criterion, or None if none exists.

    Parameters
    ----------
    instance
        The instance (its geometry gives the task durations, docs/concepts.md).
    job
        The job or its id.
    criterion
        A docs/concepts.md criterion name; default the job's own.
    slots
        The free slots to search (default: the instance's), sorted by
        (start, node order).
    free_start
        False: try only the starts of suitable slots (the "AEP space" of
        docs/concepts.md). True: try every integer start within the suitable slots'
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
    got = _solve(instance, job, criterion or job.criterion, slots, free_start, max_slots)
    return None if got is None else got[0]


def brute_force_value(
    instance: Instance,
    job: Job | str,
    criterion: str | None = None,
    *,
    slots: Sequence[Slot] | None = None,
    free_start: bool = False,
    max_slots: int = MAX_SLOTS,
) -> float | None:
    """Return the optimal docs/concepts.md criterion value (None when no window exists).

    The value is the brute force's own computation, not the returned
    window's metric properties.
    """
    job = instance.job(job) if isinstance(job, str) else job
    got = _solve(instance, job, criterion or job.criterion, slots, free_start, max_slots)
    return None if got is None else got[1]


def earliest_start(
    instance: Instance, job: Job | str, *, slots: Sequence[Slot] | None = None
) -> int | None:
    """Return the earliest start of any feasible window of ``job`` (None if none exists)."""
    window = brute_force(instance, job, "min_start", slots=slots)
    return None if window is None else window.start
