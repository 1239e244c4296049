"""Shared reader and pass of the independent implementations (written from docs/ alone).

Nothing here imports planner, instances, models or validation: the instance
file is read with the standard library, every real as the exact decimal it
is written as (docs/concepts.md, "Units"), and the single pass is the
specification of docs/algorithms.md ("The single pass"), transcribed
naively (each step's alive set is recomputed from scratch).

Usage of every algorithm module::

    python benchmarks/independent/amp.py INSTANCE [INSTANCE ...]

prints one line per job of each instance, in the minimal result form of
docs/formats.md: ``{"job": ..., "window": {"start": ..., "placements":
[{"node": ..., "start": ..., "end": ...}]}}`` or ``{"job": ...,
"status": "not_found"}``, and nothing else: the lines of several instances
are told apart by their job alone (``planner verify`` gives every job of a
run its own id), as docs/verify.md's program contract says.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass
class Node:
    """A node: performance p, price (default 0), q (default 0), attributes."""

    id: str
    order: int
    perf: Fraction
    price: Fraction
    q: float
    attributes: dict[str, Any]


@dataclass
class Job:
    """A job with the defaults of docs/concepts.md."""

    id: str
    n: int
    volume: Fraction
    min_perf: Fraction = Fraction(0)
    budget: int | None = None
    max_price: Fraction | None = None
    requirements: dict[str, Any] = field(default_factory=dict)
    criterion: str = "min_start"
    release: int | None = None
    deadline: int | None = None


@dataclass
class Slot:
    """One of a job's suitable slots, clipped, with its node's data and rough duration d."""

    node: Node
    start: int
    end: int
    edge_start: int
    edge_end: int
    price: Fraction
    d: int


@dataclass
class Instance:
    """Nodes in file order, free slots sorted by (start, node order), jobs, geometry."""

    nodes: list[Node]
    slots: list[tuple[Node, int, int, Fraction | None]]
    jobs: list[Job]
    geometry: str


def _real(x: Any) -> Fraction:
    return Fraction(x) if isinstance(x, (int, Fraction)) else Fraction(str(x))


def load(path: str) -> Instance:
    """Read a planner.instance/1 file (docs/formats.md); reals as exact decimals."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f, parse_float=Fraction)
    nodes = []
    for k, nd in enumerate(data["nodes"]):
        nodes.append(Node(
            nd["id"], k, _real(nd["performance"]), _real(nd.get("price", 0)),
            float(nd.get("q", 0)), nd.get("attributes", {}),
        ))
    by_id = {nd.id: nd for nd in nodes}
    slots: list[tuple[Node, int, int, Fraction | None]] = []
    if "slots" in data:
        for s in data["slots"]:
            price = s.get("price")
            slots.append((by_id[s["node"]], s["start"], s["end"],
                          None if price is None else _real(price)))
    else:
        lo, hi = data["horizon"]
        busy: dict[str, list[tuple[int, int]]] = {}
        for b in data["busy"]:
            busy.setdefault(b["node"], []).append((b["start"], b["end"]))
        for nd in nodes:
            t = lo
            for a, b in sorted(busy.get(nd.id, [])):
                if a > t:
                    slots.append((nd, t, a, None))
                t = max(t, b)
            if t < hi:
                slots.append((nd, t, hi, None))
    slots.sort(key=lambda s: (s[1], s[0].order))
    jobs = []
    for j in data["jobs"]:
        jobs.append(Job(
            j["id"], j["nodes"], _real(j["volume"]), _real(j.get("min_performance", 0)),
            j.get("budget"), None if j.get("max_price") is None else _real(j["max_price"]),
            j.get("requirements", {}), j.get("criterion", "min_start"),
            j.get("release"), j.get("deadline"),
        ))
    return Instance(nodes, slots, jobs, data.get("geometry", "rough"))


def duration(volume: Fraction, perf: Fraction) -> int:
    """duration(V, p) = ceil(V / p), at least 1 (docs/concepts.md)."""
    return max(1, math.ceil(volume / perf))


def cost(price: Fraction, d: int) -> int:
    """cost(price, d) = ceil(price · d) (docs/concepts.md)."""
    return math.ceil(price * d)


def budget(job: Job) -> int | None:
    """S: the budget, else floor(C · V · n), else None (docs/concepts.md)."""
    if job.budget is not None:
        return job.budget
    if job.max_price is not None:
        return math.floor(job.max_price * job.volume * job.n)
    return None


def price_cap(job: Job) -> Fraction | None:
    """ALP's C: max_price, else S / (V · n), else None (docs/concepts.md)."""
    if job.max_price is not None:
        return job.max_price
    if job.budget is not None:
        return Fraction(job.budget) / (job.volume * job.n)
    return None


def suits(node: Node, job: Job) -> bool:
    """Performance at least P and every requirement met (docs/concepts.md)."""
    if node.perf < job.min_perf:
        return False
    for name, wanted in job.requirements.items():
        if name not in node.attributes:
            return False
        have = node.attributes[name]
        if isinstance(wanted, str):
            if have != wanted:
                return False
        elif isinstance(have, str) or _real(have) < _real(wanted):
            return False
    return True


def job_slots(inst: Instance, job: Job, cap: Fraction | None = None) -> list[Slot]:
    """The job's slot list of docs/algorithms.md: suitable, capped, clipped, sorted."""
    out = []
    for node, s, e, own in inst.slots:
        if not suits(node, job):
            continue
        price = node.price if own is None else own
        if cap is not None and price > cap:
            continue
        lo = s if job.release is None else max(s, job.release)
        hi = e if job.deadline is None else min(e, job.deadline)
        if lo >= hi:
            continue
        out.append(Slot(node, lo, hi, s, e, price, duration(job.volume, node.perf)))
    out.sort(key=lambda x: (x.start, x.node.order))
    return out


@dataclass
class Level:
    """A pass: rough (kind None), or a square performance or duration level."""

    kind: str | None
    D: int = 0
    perf: Fraction = Fraction(0)

    def admits(self, s: Slot) -> bool:
        if self.kind is None:
            return True
        return s.node.perf >= self.perf if self.kind == "performance" else s.d <= self.D

    def exactly(self, s: Slot) -> bool:
        return s.node.perf == self.perf if self.kind == "performance" else s.d == self.D

    def length(self, s: Slot) -> int:
        return s.d if self.kind is None else self.D


def levels(inst: Instance, job: Job, slots: list[Slot], kind: str) -> list[Level]:
    """[rough pass] or the square levels of docs/algorithms.md, in their order."""
    if inst.geometry != "square":
        return [Level(None)]
    if kind == "performance":
        perfs = sorted({s.node.perf for s in slots}, reverse=True)
        return [Level("performance", duration(job.volume, p), p) for p in perfs]
    return [Level("duration", d) for d in sorted({s.d for s in slots})]


@dataclass
class Step:
    """A formed step: T, the read index of its slot, whether it is the last at T, the alive set.

    ``alive`` lists (cost, read index) pairs in that order.
    """

    T: int
    i: int
    last_at_T: bool
    alive: list[tuple[int, int]]


def steps(slots: list[Slot], n: int, level: Level) -> Iterator[Step]:
    """Yield every formed step of one pass (docs/algorithms.md)."""
    for i, s in enumerate(slots):
        T = s.start
        alive = []
        exact = False
        for j in range(i + 1):
            x = slots[j]
            if level.admits(x) and x.end - T >= level.length(x):
                alive.append((cost(x.price, level.length(x)), j))
                exact = exact or level.kind is None or level.exactly(x)
        if len(alive) >= n and exact:
            alive.sort()
            last = i + 1 == len(slots) or slots[i + 1].start != T
            yield Step(T, i, last, alive)


def true_lengths(inst: Instance, slots: list[Slot], chosen: list[int]) -> list[int]:
    """Task lengths of a window on the chosen read indices: own d, or the chosen maximum."""
    d = [slots[i].d for i in chosen]
    return [max(d)] * len(d) if inst.geometry == "square" else d


def window(inst: Instance, job: Job, slots: list[Slot], T: int, chosen: list[int]) -> dict:
    """The minimal result window: placements in node order."""
    lengths = dict(zip(chosen, true_lengths(inst, slots, chosen), strict=True))
    order = sorted(chosen, key=lambda i: slots[i].node.order)
    return {"start": T, "placements": [
        {"node": slots[i].node.id, "start": T, "end": T + lengths[i]} for i in order
    ]}


Solver = Callable[[Instance, Job], "dict | None"]


def main(solve: Solver, argv: list[str] | None = None) -> int:
    """Run ``solve`` on every job of every instance named in ``argv``; print result lines."""
    paths = sys.argv[1:] if argv is None else argv
    if not paths or any(p.startswith("-") for p in paths):
        print("usage: ALGORITHM.py INSTANCE [INSTANCE ...]", file=sys.stderr)
        return 2
    for path in paths:
        inst = load(path)
        for job in inst.jobs:
            w = solve(inst, job)
            line: dict[str, Any] = {"job": job.id}
            if w is None:
                line["status"] = "not_found"
            else:
                line["window"] = w
            print(json.dumps(line))
    return 0
