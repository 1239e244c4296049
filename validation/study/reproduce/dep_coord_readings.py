"""The readings of Toporkov & Yemelyanov 2018 §3.4, §4.1–4.3 that ``dep-coord`` measures.

The paper leaves open where the local load sits, whether the interval's
edges are neighbouring tasks, which window FirstFit returns, and (less so,
as §3.4 writes the formulas) how the distances are aggregated. Each reading
here is a transform of the instance, a variant of FirstFit, or a way of
measuring a window; ``dep-coord`` puts their numbers in its sensitivity
tables (``docs/reproductions.md``, section ``dep-coord``).
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np

from instances import Busy
from instances.generators.environment import TASK_LENGTH, local_tasks, placed, task_lengths


def widened(inst: Any, margin: int, seed: int, *, after: bool = True,
            load: LoadReading | None = None) -> Any:  # fmt: skip
    """Return ``inst`` whose local schedules run ``margin`` before (and, if ``after``, beyond) it.

    Each node keeps its load share (busy time / interval length) and its
    local tasks are redrawn by the same process over the longer span; the
    job's release and deadline keep its window inside the interval, while
    distances are measured to the slots' own edges, i.e. to local tasks
    outside the interval. ``after=False`` is the *history* reading: the
    nodes ran local tasks before the interval starts, and the schedule is
    known up to the interval's end, which stays an edge. ``load`` says how
    the redrawn load is cut into tasks (:class:`LoadReading`; the family's
    local tasks by default).
    """
    lo, hi = inst.horizon
    span = (lo - margin, hi + margin if after else hi)
    share = {n.id: 0 for n in inst.nodes}
    for b in inst.busy:
        share[b.node] += b.end - b.start
    rng = np.random.default_rng((seed, margin) if after else (seed, margin, 0))
    load = load or LoadReading()
    if load.levels is not None:
        draw = np.random.default_rng((seed, margin, 1)).uniform(*load.levels, size=len(inst.nodes))
        share = {n.id: float(v) * (hi - lo) for n, v in zip(inst.nodes, draw, strict=True)}
    if load.width > 1:
        busy = load.co_allocated(rng, [n.id for n in inst.nodes], span,
                                 [share[n.id] / (hi - lo) for n in inst.nodes])  # fmt: skip
    else:
        busy = [t for n in inst.nodes
                for t in load.tasks(rng, n.id, span, share[n.id] / (hi - lo))]  # fmt: skip
    jobs = tuple(dataclasses.replace(j, release=lo, deadline=hi) for j in inst.jobs)
    return type(inst)(nodes=inst.nodes, jobs=jobs, name=inst.name, horizon=span,
                      geometry=inst.geometry, busy=tuple(busy))  # fmt: skip


@dataclasses.dataclass(frozen=True)
class LoadReading:
    """How a node's initial load is cut into tasks (Toporkov & Yemelyanov 2018 §4.1: "the
    initial resource load with advanced reservations and local jobs").

    ``local`` is the local jobs' length range; a share ``reserved`` of each
    node's load is instead advance reservations of lengths in
    ``reservation`` (by default the job's own window range, 80–400). The
    two kinds are drawn separately and placed in a random order by the
    family's process. With ``width`` > 1 each reservation is a co-allocated
    window of a parallel job: the same span on ``width`` random nodes
    (:meth:`co_allocated`). ``levels`` (lo, hi), if given, replaces each
    node's hypergeometric load share by a uniform one in [lo, hi] (a wider
    spread of the levels, same mean).
    """

    local: tuple[int, int] = TASK_LENGTH
    reserved: float = 0.0
    reservation: tuple[int, int] = (80, 400)
    levels: tuple[float, float] | None = None
    width: int = 1

    def __post_init__(self) -> None:
        for name in ("local", "reservation"):
            lo, hi = getattr(self, name)
            if not 1 <= lo <= hi:
                raise ValueError(f"load reading: '{name}' must satisfy 1 <= min <= max")
        if not 0 <= self.reserved <= 1:
            raise ValueError("load reading: 'reserved' must be in [0, 1]")
        if self.width < 1 or (self.width > 1 and self.reserved == 0):
            raise ValueError("load reading: 'width' must be >= 1 (> 1 only with 'reserved' > 0)")
        if self.levels is not None and not 0 <= self.levels[0] <= self.levels[1] <= 1:
            raise ValueError("load reading: 'levels' must satisfy 0 <= lo <= hi <= 1")

    def tasks(self, rng: np.random.Generator, node: str, span: tuple[int, int],
              share: float) -> list[Any]:  # fmt: skip
        """Return the node's tasks on ``span`` for load ``share``."""
        if self.reserved == 0:
            return local_tasks(rng, node, span, share, self.local)
        length = span[1] - span[0]
        target = min(round(share * length), length)
        kept = round(self.reserved * target)
        lengths = task_lengths(rng, kept, self.reservation)
        lengths += task_lengths(rng, target - kept, self.local)
        order = rng.permutation(len(lengths))
        return placed(rng, node, span, [lengths[i] for i in order])

    def co_allocated(self, rng: np.random.Generator, nodes: list[str], span: tuple[int, int],
                     shares: list[float], tries: int = 200_000) -> list[Any]:  # fmt: skip
        """Return local jobs (a share 1 - ``reserved`` of each node's load) and reservations of
        ``width`` nodes each, until they hold a share ``reserved`` of the total load.

        A reservation draws its length in ``reservation``, a start in ``span``
        and ``width`` distinct nodes, and is kept when all of them are free
        then (so per-node loads hold on average only); ValueError if the
        load does not fit in ``tries`` draws.
        """
        busy = {n: local_tasks(rng, n, span, (1 - self.reserved) * sh, self.local)
                for n, sh in zip(nodes, shares, strict=True)}  # fmt: skip
        target = self.reserved * sum(shares) * (span[1] - span[0])
        held = 0
        for _ in range(tries):
            if held >= target:
                return sorted((b for own in busy.values() for b in own),
                              key=lambda b: (b.node, b.start))  # fmt: skip
            d = int(rng.integers(self.reservation[0], self.reservation[1] + 1))
            t = int(rng.integers(span[0], span[1] - d + 1))
            pick = [nodes[i] for i in rng.choice(len(nodes), size=self.width, replace=False)]
            if all(b.end <= t or b.start >= t + d for n in pick for b in busy[n]):
                for n in pick:
                    busy[n].append(Busy(n, t, t + d))
                held += self.width * d
        raise ValueError(f"load reading: reservations of {self.width} nodes do not fit the load")


def busy_at_start(inst: Any, share: float = 1.0, seed: int = 0) -> Any:
    """Return ``inst`` with each node's first local task moved to the interval start.

    With ``share`` < 1 only a seeded random share of the nodes is moved.
    """
    first: dict[str, Any] = {}
    for b in inst.busy:
        if b.node not in first or b.start < first[b.node].start:
            first[b.node] = b
    if share < 1:
        pick = np.random.default_rng((seed, 7)).random(len(inst.nodes)) < share
        first = {n.id: first[n.id] for n, p in zip(inst.nodes, pick, strict=True)
                 if p and n.id in first}  # fmt: skip
    lo = inst.horizon[0]
    moved = [
        dataclasses.replace(b, start=lo, end=lo + b.end - b.start) if first.get(b.node) is b else b
        for b in inst.busy
    ]
    return type(inst)(nodes=inst.nodes, jobs=inst.jobs, name=inst.name, horizon=inst.horizon,
                      geometry=inst.geometry, busy=tuple(moved))  # fmt: skip


def layout_instance(inst: Any, layout: str, seed: int, load: LoadReading | None = None) -> Any:
    """Return ``inst`` under load layout ``layout``: ``gaps`` (as generated), ``busy-start``,
    ``wide-L`` or ``history-L`` (these two redraw the load as ``load`` says)."""
    if layout == "busy-start":
        return busy_at_start(inst)
    if layout.startswith(("wide-", "history-")):
        kind, margin = layout.split("-")
        return widened(inst, int(margin), seed, after=kind == "wide", load=load)
    if layout != "gaps":
        raise ValueError(f"unknown load layout '{layout}'")
    return inst


def reading_instance(family: str, params: dict[str, Any], seed: int,
                     reading: dict[str, Any] | None = None) -> Any:  # fmt: skip
    """Return the instance of ``seed`` under ``reading``.

    ``reading`` holds family parameters that override ``params`` (e.g.
    ``performance_values="real"``, ``price_deviation=0``,
    ``task_length_min=80``), optionally ``layout`` (a :func:`layout_instance`
    name; ``gaps``, the generated layout, by default), ``reserved`` (the
    share of each node's load drawn as advance reservations,
    :class:`LoadReading`), ``uniform_levels=True`` (each node's load share
    uniform in [load_min, load_max] instead of hypergeometric),
    ``reservation_width`` (nodes per reservation; all three only
    with a ``wide-``/``history-`` layout, which redraws the load) and
    ``budget`` (a number: the job's S; None: the job without S). Under such a layout
    the ``task_length_*`` parameters apply to the redrawn load only, so the
    nodes, q values and load shares stay those of the reference.
    """
    from instances import generate
    from instances.generators.registry import FAMILIES

    reading = dict(reading or {})
    layout = reading.pop("layout", "gaps")
    reserved = float(reading.pop("reserved", 0.0))
    uniform = reading.pop("uniform_levels", False)
    width = int(reading.pop("reservation_width", 1))
    if (reserved or uniform) and not layout.startswith(("wide-", "history-")):
        raise ValueError("readings 'reserved', 'uniform_levels' need a wide-L or history-L layout")
    no_budget = "budget" in reading and reading["budget"] is None
    if no_budget:
        del reading["budget"]
    merged = {**params, **reading}
    full = FAMILIES[family].check_params(merged)
    lengths = (int(full["task_length_min"]), int(full["task_length_max"]))
    if layout.startswith(("wide-", "history-")):
        # the layout redraws the tasks: keep the generated nodes, q and load shares the same
        merged = {k: v for k, v in merged.items() if not k.startswith("task_length_")}
    levels = (float(full["load_min"]), float(full["load_max"])) if uniform else None
    inst = layout_instance(generate(family, seed, **merged), layout, seed,
                           LoadReading(local=lengths, reserved=reserved, levels=levels,
                                       width=width))
    if no_budget:
        inst = dataclasses.replace(inst, jobs=tuple(dataclasses.replace(j, budget=None)
                                                    for j in inst.jobs))  # fmt: skip
    return inst


def edge_free(window: Any, horizon: tuple[int, int]) -> tuple[float | None, float | None]:
    """Return (near, far) when the interval's edges are no neighbouring tasks (None: none left)."""
    near, far = [], []
    for p in window.placements:
        sides = ((p.start - p.slot_start, p.slot_start == horizon[0]),
                 (p.slot_end - p.end, p.slot_end == horizon[1]))  # fmt: skip
        gaps = [g for g, edge in sides if not edge]
        if gaps:
            near.append(min(gaps))
            far.append(max(gaps))
    return _mean(near), _mean(far)


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _sides(window: Any) -> tuple[list[int], list[int]]:
    """Return (t_prev, t_next) of every task: time since its slot starts, left to its slot end."""
    return ([p.start - p.slot_start for p in window.placements],
            [p.slot_end - p.end for p in window.placements])  # fmt: skip


DEFINITIONS: dict[str, Callable[[Any], tuple[float, float]]] = {
    "mean of per-task min / max (used, §3.4 formulas)": lambda w: (w.near_distance,
                                                                   w.far_distance),
    "nearest = time since the previous task only": lambda w: (
        statistics.fmean(_sides(w)[0]), w.far_distance),
    "min / max over the window's tasks": lambda w: (
        min(map(min, *_sides(w))), max(map(max, *_sides(w)))),
}
"""Readings of "distance to the nearest / farthest neighbouring task": window → (near, far)."""


def first_fit_pick(feed: Any, *, first_level: bool, by_start: bool) -> tuple[int, list[int]] | None:
    """Return FirstFit's ``(T, chosen read indices)`` under one reading, or None.

    ``first_level``: stop at the first performance group that has a window
    (the first window of §3.2's loop over the groups, fastest first) instead
    of taking the earliest start over all groups (the project's FirstFit).
    ``by_start``: at each step take the n alive slots read first (the first n
    of the list L_k, i.e. the earliest-starting) instead of the n cheapest,
    and go on to the next step when they exceed the budget.
    """
    from planner.heuristics.sweep import Sweep, performance_levels

    n, budget = feed.n, feed.budget
    best: tuple[int, list[int]] | None = None
    for perf, level in performance_levels(feed):
        sw = Sweep(feed, level, performance=perf)
        K = sw.K
        for t in sw.steps():
            if best is not None and t >= best[0]:
                break
            keys = sorted(sw.keys, key=lambda k: k % K)[:n] if by_start else sw.keys[:n]
            if budget is None or sum(k // K for k in keys) <= budget:
                best = (t, [k % K for k in keys])
                break
        if first_level and best is not None:
            break
    return best


def alternatives(inst: Any, job: Any, **reading: bool) -> list[Any]:
    """Return MultipleBest's disjoint alternatives found by FirstFit under ``reading``.

    Same loop as :func:`planner.heuristics.multiple_best.multiple_best`: find
    a window, subtract it, repeat; every alternative is rebuilt on the job's
    own (unclipped) slots so that its distances are to the local tasks. Each
    search after the first resumes at the previous window's start only under
    the project's FirstFit (earliest start, n cheapest), where subtracting a
    window cannot create an earlier one; under the other readings an earlier
    window may exist (a slower group's, or a new first n), so they restart
    from the list's start.
    """
    from planner.heuristics.feed import Feed
    from planner.heuristics.slotlist import SlotList
    from planner.window import make_window

    order = inst.node_index
    pairs = inst.suitable_pairs(job, None)
    hosts = SlotList([slot for _, slot in pairs], order)
    free = SlotList([clipped for clipped, _ in pairs], order)
    found: list[Any] = []
    t0: int | None = None
    resume = not any(reading.values())
    while True:
        feed = Feed(inst, job, free.slots_from(t0) if resume and t0 is not None else free.slots())
        got = first_fit_pick(feed, **reading)
        if got is None:
            return found
        t0, chosen = got
        slots = sorted((feed.slot[i] for i in chosen), key=lambda s: order[s.node])
        window = make_window(inst, job, t0, slots)
        for p in window.placements:
            free.subtract(p.node, p.start, p.end)
        placed = [hosts.host(p.node, p.start, p.end) for p in window.placements]
        found.append(make_window(inst, job, t0, [s for s in placed if s is not None]))
