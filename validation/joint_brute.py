"""Brute-force reference for joint co-allocation of a tiny batch (docs/exact-models.md).

:func:`all_windows` enumerates every window of one job (every integer start or every
slot start, every subset of alive slots on distinct nodes, durations by the instance's
geometry, the job's budget) from the data classes and the docs/concepts.md unit
functions only; :func:`brute_joint` searches every set of at most one window per job
with no two sharing a node's time, for the lexicographic optimum (most placed jobs,
then the best Σ value) under side limits. Neither shares code with the models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from instances import Instance, Job, cost, duration
from planner import Placement, Window
from validation.brute import _budget, _suitable

MAX_WINDOWS = 400
"""Largest number of windows per job :func:`brute_joint` accepts (it is exponential)."""


def all_windows(instance: Instance, job: Job, *, free_start: bool = True) -> list[Window]:
    """Return every window of ``job`` within its budget (tasks inside the clipped slots)."""
    suitable = _suitable(instance, job, None)
    if len(suitable) < job.nodes:
        return []
    nodes = {node.id: node for node in instance.nodes}
    budget = _budget(job)
    if free_start:  # a task fits its slot only from its start to its end less its own
        spans = sorted((c.start, c.end - duration(job.volume, nodes[c.node].performance))
                       for c, _ in suitable)  # duration (square: at least that)
        starts: Sequence[int] | Iterator[int] = _union(spans)
    else:
        starts = sorted({c.start for c, _ in suitable})
    out = []
    for t in starts:
        alive = [pair for pair in suitable if pair[0].start <= t < pair[0].end]
        for pairs in combinations(alive, job.nodes):
            if len({c.node for c, _ in pairs}) < job.nodes:
                continue
            perf = [nodes[c.node].performance for c, _ in pairs]
            if instance.geometry == "square":
                ds = [duration(job.volume, min(perf))] * job.nodes
            else:
                ds = [duration(job.volume, p) for p in perf]
            if any(t + d > c.end for (c, _), d in zip(pairs, ds, strict=True)):
                continue
            prices = [nodes[s.node].price if s.price is None else s.price for _, s in pairs]
            costs = [cost(p, d) for p, d in zip(prices, ds, strict=True)]
            if budget is not None and sum(costs) > budget:
                continue
            out.append(Window(job.id, t, tuple(
                Placement(s.node, t, t + d, c, s.start, s.end, nodes[s.node].q)
                for (_, s), d, c in zip(pairs, ds, costs, strict=True))))
    return out


def _union(spans: Sequence[tuple[int, int]]) -> Iterator[int]:
    """Yield every integer of the union of the sorted closed intervals ``spans``, once."""
    reach = None
    for lo, hi in spans:
        lo = lo if reach is None else max(lo, reach + 1)
        if lo <= hi:
            yield from range(lo, hi + 1)
            reach = hi


def value(window: Window, metric: str) -> int:
    """Return a window's integer ``metric`` recomputed from its placements."""
    lengths = [p.end - p.start for p in window.placements]
    return {
        "proc_time": sum(lengths),
        "cost": sum(p.cost for p in window.placements),
        "runtime": max(lengths),
        "start": window.start,
        "finish": window.start + max(lengths),
    }[metric]


def _clash(a: Window, b: Window) -> bool:
    return any(p.node == q.node and p.start < q.end and q.start < p.end
               for p in a.placements for q in b.placements)


def brute_joint(
    windows: Sequence[Sequence[Window]],
    f: Callable[[Window], int],
    sense: str = "min",
    sides: Sequence[tuple[Callable[[Window], int], int]] = (),
) -> tuple[int, int]:
    """Return the lexicographic optimum ``(placed, Σ f)`` over the jobs' window lists.

    ``sides`` are ``(g, limit)`` with Σ g over the placed windows ≤ limit (a VO budget,
    a combination limit g*). ValueError above :data:`MAX_WINDOWS` windows for a job.
    """
    if any(len(ws) > MAX_WINDOWS for ws in windows):
        raise ValueError(f"brute_joint is for tiny batches (<= {MAX_WINDOWS} windows a job)")
    sign = 1 if sense == "min" else -1
    best = [0, 0]
    if any(limit < 0 for _, limit in sides):
        raise ValueError("no placement meets a negative side limit")

    def visit(j: int, chosen: list[Window], total: int, used: list[int]) -> None:
        if j == len(windows):
            if len(chosen) > best[0] or (len(chosen) == best[0] and sign * total < sign * best[1]):
                best[:] = [len(chosen), total]
            return
        if len(chosen) + len(windows) - j < best[0]:
            return
        for w in windows[j]:
            spent = [u + g(w) for u, (g, _) in zip(used, sides, strict=True)]
            if any(s > lim for s, (_, lim) in zip(spent, sides, strict=True)):
                continue
            if not any(_clash(w, c) for c in chosen):
                visit(j + 1, [*chosen, w], total + f(w), spent)
        visit(j + 1, chosen, total, used)

    visit(0, [], 0, [0] * len(sides))
    return best[0], best[1]
