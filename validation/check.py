"""Independent feasibility checker for windows and sets of alternatives.

The checker recomputes everything from the instance: it uses only the data
classes and the two docs/concepts.md unit functions, never the search or window code
under test. Each violation is one string ``"<rule>: <detail>"``; the rules
are listed in :data:`RULES`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from instances import Instance, Job, Slot, cost, duration

RULES: tuple[str, ...] = (
    "job",  # the window belongs to the job checked
    "count",  # exactly n placements
    "node",  # every placement is on a node of the instance
    "distinct",  # placements on distinct nodes
    "suitability",  # node performance >= P and every requirement holds
    "start",  # every placement starts at the window start
    "release",  # start >= release
    "deadline",  # finish <= deadline
    "duration",  # task length per geometry (docs/concepts.md)
    "slot",  # placement inside one free slot of its node, recorded bounds are that slot's
    "cost",  # placement cost = cost(price, d) (docs/concepts.md)
    "budget",  # total cost <= S
    "metric",  # reported metrics equal the recomputed ones
    "overlap",  # (alternatives) no two placements share a node's time
)


def _suits(instance: Instance, job: Job, node_id: str) -> bool:
    node = instance.nodes[instance.node_index[node_id]]
    if node.performance < job.min_performance:
        return False
    for name, wanted in job.requirements.items():
        have = node.attributes.get(name)
        if have is None:
            return False
        if isinstance(wanted, str) != isinstance(have, str):
            return False
        if (have != wanted) if isinstance(wanted, str) else (have < wanted):
            return False
    return True


def _host_slot(
    slots: Sequence[Slot], node: str, start: int, end: int, job: Job
) -> tuple[int, int, Slot] | None:
    for s in slots:
        if s.node != node:
            continue
        lo = s.start if job.release is None else max(s.start, job.release)
        hi = s.end if job.deadline is None else min(s.end, job.deadline)
        if lo <= start and end <= hi:
            return lo, hi, s
    return None


def check_window(
    instance: Instance,
    job: Job | str,
    window: Any,
    *,
    slots: Sequence[Slot] | None = None,
    geometry: str | None = None,
    price_cap: bool = False,
) -> list[str]:
    """Return the rules ``window`` violates for ``job`` (empty when it is feasible).

    Parameters
    ----------
    instance
        The instance the window was found on.
    job
        The job or its id.
    window
        A :class:`planner.Window` (anything with ``job``, ``start``,
        ``placements`` and the docs/concepts.md metric attributes).
    slots
        The free slot list the window was searched on (default: the
        instance's); a placement's recorded slot bounds must be one of them.
    geometry
        ``rough`` or ``square`` (default: the instance's).
    price_cap
        Check ALP's constraint instead of the budget (Toporkov et al. 2011 §3, 2°c):
        every placement's price is at most C, the job's ``max_price``, else
        ``budget / (volume · nodes)``; the window total is not capped.
    """
    if window is None:
        return ["job: no window to check"]
    if isinstance(job, str):
        if job not in {j.id for j in instance.jobs}:
            return [f"job: no job '{job}' in the instance"]
        job = instance.job(job)
    slots = instance.slots if slots is None else slots
    geometry = geometry or instance.geometry
    if geometry not in ("rough", "square"):
        raise ValueError(f"geometry must be rough or square, not {geometry!r}")
    out: list[str] = []
    placements = list(window.placements)
    if window.job != job.id:
        out.append(f"job: window is for '{window.job}', not '{job.id}'")
    if len(placements) != job.nodes:
        out.append(f"count: {len(placements)} placements, the job needs {job.nodes}")
    known = [p for p in placements if p.node in instance.node_index]
    for p in placements:
        if p.node not in instance.node_index:
            out.append(f"node: unknown node '{p.node}'")
    if len({p.node for p in placements}) != len(placements):
        out.append("distinct: two placements share a node")
    if not known:
        return out
    perf = [instance.nodes[instance.node_index[p.node]].performance for p in known]
    if geometry == "square":
        expected = [duration(job.volume, min(perf))] * len(known)
    else:
        expected = [duration(job.volume, x) for x in perf]
    total = 0
    nears: list[int] = []
    fars: list[int] = []
    for i, (p, d) in enumerate(zip(known, expected, strict=True)):
        tag = f"placement {i} on node '{p.node}' [{p.start}, {p.end})"
        if not _suits(instance, job, p.node):
            out.append(f"suitability: {tag}: node does not suit the job")
        if p.start != window.start:
            out.append(f"start: {tag} does not start at the window start {window.start}")
        if p.end - p.start != d:
            out.append(f"duration: {tag} lasts {p.end - p.start}, {geometry} geometry needs {d}")
        host = _host_slot(slots, p.node, p.start, p.end, job)
        if host is None:
            out.append(f"slot: {tag} is not inside a free slot of its node")
            price = instance.nodes[instance.node_index[p.node]].price
            lo, hi = p.slot_start, p.slot_end
        else:
            lo, hi, s = host
            price = s.price if s.price is not None else instance.node(p.node).price
            if (p.slot_start, p.slot_end) != (s.start, s.end):
                out.append(
                    f"slot: {tag} records slot [{p.slot_start}, {p.slot_end}), "
                    f"its free slot is [{s.start}, {s.end})"
                )
            # distances to the slot's own edges, unclipped (docs/concepts.md)
            lo, hi = s.start, s.end
        cap = _price_cap(job) if price_cap else None
        if cap is not None and _dec(price) > cap:
            out.append(f"price: {tag} is priced {price}, over the job's cap C = {float(cap)}")
        want = cost(price, p.end - p.start)
        if p.cost != want:
            out.append(f"cost: {tag} costs {p.cost}, price {price} gives {want}")
        total += want
        nears.append(min(p.start - lo, hi - p.end))
        fars.append(max(p.start - lo, hi - p.end))
    if job.release is not None and window.start < job.release:
        out.append(f"release: window starts at {window.start}, before release {job.release}")
    lengths = [p.end - p.start for p in known]
    finish = window.start + max(lengths)
    if job.deadline is not None and finish > job.deadline:
        out.append(f"deadline: window finishes at {finish}, after deadline {job.deadline}")
    budget = job.budget
    if budget is None and job.max_price is not None:
        # S = floor(C · V · n) in exact decimals (docs/concepts.md), recomputed here
        budget = math.floor(_dec(job.max_price) * _dec(job.volume) * job.nodes)
    if budget is not None and total > budget and not price_cap:
        out.append(f"budget: window costs {total}, the budget is {budget}")
    nodes = instance.nodes
    recomputed = {
        "start": window.start,
        "runtime": max(lengths),
        "finish": finish,
        "cost": total,
        "proc_time": sum(lengths),
        "q": math.fsum(nodes[instance.node_index[p.node]].q for p in known),
        "near_distance": sum(nears) / len(nears),
        "far_distance": sum(fars) / len(fars),
    }
    for name, value in recomputed.items():
        reported = getattr(window, name)
        if name in _INTEGER_METRICS:
            wrong = reported != value  # integer quanta and money: no tolerance
        else:
            wrong = not math.isclose(reported, value, rel_tol=1e-9, abs_tol=1e-9)
        if wrong:
            out.append(f"metric: {name} is reported as {reported}, recomputed {value}")
    return out


_INTEGER_METRICS = frozenset({"start", "runtime", "finish", "cost", "proc_time"})


def _dec(value: float) -> Fraction:
    """The decimal a real is written as (docs/concepts.md units), exactly."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(float(value)))


def _price_cap(job: Job) -> Fraction | None:
    """ALP's cap C: ``max_price``, else S / (V · n), exactly (a slot priced C suits)."""
    if job.max_price is not None:
        return _dec(job.max_price)
    if job.budget is not None:
        return Fraction(job.budget) / (_dec(job.volume) * job.nodes)
    return None


def take_slot(slots: list[Slot], node: str, start: int, end: int) -> bool:
    """Subtract ``[start, end)`` on ``node`` from the slot holding it; False when none does."""
    for k, s in enumerate(slots):
        if s.node == node and s.start <= start and end <= s.end:
            rest = []
            if start > s.start:
                rest.append(Slot(node, s.start, start, s.price))
            if s.end > end:
                rest.append(Slot(node, end, s.end, s.price))
            slots[k : k + 1] = rest
            return True
    return False


def check_alternatives(
    instance: Instance, windows: Sequence[Any], *, sequential: bool = True, price_cap: bool = False
) -> list[str]:
    """Return the rules a set of windows violates (empty when all are feasible together).

    Parameters
    ----------
    instance
        The instance.
    windows
        Windows of the instance's jobs, in the order they were found.
    sequential
        True (the alternatives search of docs/concepts.md): window k is checked on the
        slots left after subtracting windows 0..k-1, so its recorded slot
        bounds must be those of the reduced list. False (joint models): each
        window is checked on the instance's slots.
    price_cap
        Check ALP's per-slot price cap instead of the budget (see :func:`check_window`).
    """
    out: list[str] = []
    slots = list(instance.slots)
    busy: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for k, w in enumerate(windows):
        current = slots if sequential else instance.slots
        found = check_window(instance, w.job, w, slots=current, price_cap=price_cap)
        out.extend(f"{v} (window {k})" for v in found)
        for p in w.placements:
            busy[p.node].append((p.start, p.end, k))
            if sequential:
                take_slot(slots, p.node, p.start, p.end)
    for node, spans in busy.items():
        spans.sort()
        reach, owner = spans[0][1], spans[0][2]
        for start, end, k in spans[1:]:
            if start < reach:
                out.append(f"overlap: windows {owner} and {k} share time on node '{node}'")
            if end > reach:
                reach, owner = end, k
    return out
