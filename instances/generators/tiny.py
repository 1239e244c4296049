"""Family ``tiny``: small random instances for brute-force cross-checks.

Not a paper experiment: a project family whose instances are small enough
(at most 10 slots) that every n-subset of slots can be enumerated, so the
heuristics (docs/algorithms.md) and exact models (docs/algorithms.md) can be checked against brute
force. It mixes every feature of docs/concepts.md: real prices, slot price overrides,
q values, minimum performance, budgets that are tight, loose, derived from a
price cap or absent, release/deadline bounds and every criterion of docs/concepts.md.
"""

from __future__ import annotations

import numpy as np

from instances.criteria import CRITERIA
from instances.generators.base import Family, param_error
from instances.instance import Instance
from instances.job import Job
from instances.node import Node
from instances.slot import Slot
from instances.units import cost, duration

MAX_SLOTS = 10


def build(
    rng: np.random.Generator,
    name: str,
    *,
    nodes: int,
    slots: int,
    jobs: int,
    horizon: int,
    geometry: str,
    bounds: float,
) -> Instance:
    """Draw a tiny instance (see :data:`FAMILY` for the parameters)."""
    _check(nodes, slots, jobs, horizon, geometry, bounds)
    node_list = [
        Node(
            id=f"n{i + 1}",
            performance=float(rng.integers(1, 5)),
            price=round(float(rng.uniform(0.5, 3.0)), 2),
            q=round(float(rng.uniform(0.0, 10.0)), 1),
        )
        for i in range(nodes)
    ]
    owner = rng.integers(0, nodes, size=slots)
    slot_list: list[Slot] = []
    for i, node in enumerate(node_list):
        k = int(np.sum(owner == i))
        if k == 0:
            continue
        # 2k distinct sorted points of [0, horizon] pair up into k disjoint slots.
        points = np.sort(rng.choice(horizon + 1, size=2 * k, replace=False))
        for a, b in zip(points[0::2], points[1::2], strict=True):
            price = round(float(rng.uniform(0.5, 3.0)), 2) if rng.random() < 0.2 else None
            slot_list.append(Slot(node.id, int(a), int(b), price))
    job_list = [_job(rng, j, node_list, bounds) for j in range(jobs)]
    return Instance(
        nodes=tuple(node_list),
        slots=tuple(slot_list),
        jobs=tuple(job_list),
        name=name,
        horizon=(0, horizon),
        geometry=geometry,
    )


def _job(rng: np.random.Generator, j: int, nodes: list[Node], bounds: float) -> Job:
    n = int(rng.integers(1, min(3, len(nodes)) + 1))
    volume = round(float(rng.uniform(2.0, 10.0)), 1)
    min_perf = float(rng.integers(1, 3)) if rng.random() < 0.25 else 0.0
    criterion = str(rng.choice(list(CRITERIA)))
    # Reference: the n cheapest suitable nodes at their own prices (slots ignored).
    costs = sorted(
        cost(node.price, duration(volume, node.performance))
        for node in nodes
        if node.performance >= min_perf
    )
    reference = sum(costs[:n]) if len(costs) >= n else sum(costs) + 1
    budget: int | None = None
    max_price: float | None = None
    mode = rng.random()
    if mode < 0.55:
        budget = int(np.floor(reference * rng.uniform(0.95, 2.0)))
    elif mode < 0.7:
        max_price = round(float(rng.uniform(1.0, 3.0)), 2)
    release = deadline = None
    if rng.random() < bounds:
        release = int(rng.integers(0, 15))
        deadline = release + int(rng.integers(10, 31))
    return Job(
        id=f"j{j + 1}",
        nodes=n,
        volume=volume,
        min_performance=min_perf,
        budget=budget,
        max_price=max_price,
        criterion=criterion,
        release=release,
        deadline=deadline,
    )


def _check(nodes: int, slots: int, jobs: int, horizon: int, geometry: str, bounds: float) -> None:
    if nodes < 1:
        raise param_error("tiny", "nodes", "must be >= 1")
    if not 1 <= slots <= MAX_SLOTS:
        raise param_error("tiny", "slots", f"must be between 1 and {MAX_SLOTS}")
    if jobs < 0:
        raise param_error("tiny", "jobs", "must be >= 0")
    if horizon < 2 * slots:
        raise param_error("tiny", "horizon", "must be at least twice the number of slots")
    if geometry not in ("rough", "square"):
        raise param_error("tiny", "geometry", "must be 'rough' or 'square'")
    if not 0.0 <= bounds <= 1.0:
        raise param_error("tiny", "bounds", "must be a probability in [0, 1]")


FAMILY = Family(
    name="tiny",
    source="project family (no paper): brute-force-sized instances, <= 10 slots",
    defaults={
        "nodes": 4,
        "slots": 8,
        "jobs": 2,
        "horizon": 40,
        "geometry": "rough",
        "bounds": 0.2,
    },
    build=build,
)
