"""Family ``edge``: small instances aimed at the boundaries that decide the slot-search algorithms.

Not a paper experiment: a project family for differential testing
(docs/verify.md). Every job is built around a *planted* step: the first start
T at which n suitable slots on distinct nodes can hold the job's tasks, and
the n cheapest of them (costs by the docs/concepts.md unit functions).
Around it the generator draws

- tasks exactly as long as their slots, or one quantum longer or shorter
  (the volume is a multiple of a slot's length times the node's performance,
  or just off it);
- budgets met exactly by the planted window, and one below and above;
- derived limits: a price cap C equal to the n-th cheapest price at T (the
  budget is then floor(C·V·n)), or a budget alone whose C = S/(V·n) equals
  a slot's price exactly (prices and volumes such as 1.25 and 0.8);
- equal prices, performances and q on all nodes (ties decided by node
  order and read order), and equal slot starts;
- release and deadline on the planted start and finish, or one off;
- minimum performances and requirements met with equality;
- square geometry (tasks as long as on the slowest node);
- large budgets under which the knapsack of MaxQ, DEP and COORD keeps a
  wide Pareto front.

Each job draws its criterion uniformly from docs/concepts.md's list, so CSA's
own-criterion path is exercised too.
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

PERFORMANCES = (1.0, 2.0, 4.0, 0.5, 1.5, 2.5)
PRICES = (0.1, 0.25, 0.5, 1.0, 1.25, 1.5, 2.0, 3.0)
VOLUMES = (0.8, 1.5, 2.0, 2.1, 3.0, 4.0, 6.0, 8.0)


def build(
    rng: np.random.Generator, name: str, *, nodes: int, jobs: int, horizon: int, geometry: str
) -> Instance:
    """Draw an edge-case instance (see :data:`FAMILY` for the parameters)."""
    _check(nodes, jobs, horizon, geometry)
    shape = rng.choice(["rough", "square"]) if geometry == "any" else geometry
    equal = rng.random() < 0.3  # one performance, price and q for every node
    node_list = _nodes(rng, nodes, equal)
    slot_list = _slots(rng, node_list, horizon, aligned=rng.random() < 0.5)
    inst = Instance(nodes=tuple(node_list), slots=tuple(slot_list), horizon=(0, horizon),
                    geometry=str(shape))  # fmt: skip
    job_list = [_job(rng, inst, k) for k in range(jobs)]
    return Instance(
        nodes=inst.nodes,
        slots=inst.slots,
        jobs=tuple(job_list),
        name=name,
        horizon=(0, horizon),
        geometry=str(shape),
    )


def _pick(rng: np.random.Generator, values: tuple[float, ...]) -> float:
    return float(values[int(rng.integers(len(values)))])


def _nodes(rng: np.random.Generator, count: int, equal: bool) -> list[Node]:
    shared = (_pick(rng, PERFORMANCES), _pick(rng, PRICES), float(rng.integers(0, 4)))
    out = []
    for i in range(count):
        perf, price, q = shared if equal else (
            _pick(rng, PERFORMANCES), _pick(rng, PRICES), float(rng.integers(0, 4)))  # fmt: skip
        attributes: dict[str, float | int | str] = {}
        if rng.random() < 0.4:
            attributes = {"ram": int(rng.choice([8, 16])), "os": str(rng.choice(["linux", "bsd"]))}
        out.append(Node(f"n{i + 1}", perf, price=price, q=q, attributes=attributes))
    return out


def _slots(rng: np.random.Generator, nodes: list[Node], horizon: int, aligned: bool) -> list[Slot]:
    """1-3 slots per node; with ``aligned`` the first slots of all nodes start together."""
    out = []
    common = int(rng.integers(0, 4))
    for node in nodes:
        at = common if aligned else int(rng.integers(0, 6))
        for _ in range(int(rng.integers(1, 4))):
            length = int(rng.integers(2, 13))
            end = min(at + length, horizon)
            if end <= at:
                break
            price = _pick(rng, PRICES) if rng.random() < 0.15 else None
            out.append(Slot(node.id, at, end, price))
            at = end + int(rng.integers(1, 6))
            if at >= horizon:
                break
    return out


def _alive(inst: Instance, job: Job) -> tuple[int, list[tuple[int, Slot, int]]] | None:
    """Return the planted step: the first slot start T with n suitable slots on distinct nodes
    holding their tasks from T, and those slots as (cost, slot, duration), cheapest first."""
    suits = [s for s in inst.slots if job.suits(inst.node(s.node))]
    perf = {n.id: n.performance for n in inst.nodes}
    for t in sorted({s.start for s in suits}):
        alive = [s for s in suits if s.start <= t < s.end]
        if len({s.node for s in alive}) < job.nodes:
            continue
        slowest = min(perf[s.node] for s in alive)
        picks: dict[str, tuple[int, Slot, int]] = {}
        for s in alive:
            d = duration(job.volume, slowest if inst.geometry == "square" else perf[s.node])
            if s.end - t >= d:
                c = cost(inst.slot_price(s), d)
                if s.node not in picks or c < picks[s.node][0]:
                    picks[s.node] = (c, s, d)
        if len(picks) >= job.nodes:
            return t, sorted(picks.values(), key=lambda x: (x[0], inst.node_index[x[1].node]))
    return None


def _job(rng: np.random.Generator, inst: Instance, k: int) -> Job:
    n = int(rng.integers(1, min(3, len(inst.nodes)) + 1))
    # a volume that makes some slot exactly as long as its task, or one quantum off
    s = inst.slots[int(rng.integers(len(inst.slots)))]
    p = inst.node(s.node).performance
    fit = (s.length + float(rng.choice([0.0, -1.0, -0.5, 0.5]))) * p
    volume = fit if fit > 0 and rng.random() < 0.6 else _pick(rng, VOLUMES)
    volume = round(volume, 2)
    criterion = str(rng.choice(list(CRITERIA)))
    base = Job(f"j{k + 1}", n, volume, criterion=criterion)
    if rng.random() < 0.2:  # a minimum performance met with equality by some node
        base = Job(base.id, n, volume, min_performance=p, criterion=criterion)
    if rng.random() < 0.2:
        base = Job(base.id, n, volume, min_performance=base.min_performance,
                   requirements={"ram": 16}, criterion=criterion)  # fmt: skip
    planted = _alive(inst, base)
    if planted is None:
        return Job(base.id, n, volume, min_performance=base.min_performance,
                   requirements=base.requirements, criterion=criterion,
                   budget=int(rng.integers(0, 40)))  # fmt: skip
    t, picks = planted
    cheapest = picks[:n]
    total = sum(c for c, _, _ in cheapest)
    budget: int | None = None
    max_price: float | None = None
    mode = rng.random()
    if mode < 0.45:  # met exactly, or one off
        budget = max(0, total + int(rng.choice([-1, 0, 1])))
    elif mode < 0.6:  # the cap C at the n-th cheapest price
        max_price = inst.slot_price(cheapest[-1][1])
    elif mode < 0.75:  # a budget whose cap S/(V·n) is exactly a price
        budget = max(0, round(inst.slot_price(cheapest[-1][1]) * volume * n))
    elif mode < 0.9:  # large: the knapsack's Pareto front stays wide
        budget = sum(c for c, _, _ in picks) + int(rng.integers(0, 10))
    release = deadline = None
    if rng.random() < 0.3:
        release = t + int(rng.choice([-1, 0, 1]))
    if rng.random() < 0.3:
        finish = t + max(d for _, _, d in cheapest)
        deadline = finish + int(rng.choice([-1, 0, 1]))
        if release is not None and deadline <= release:
            deadline = release + 1
    return Job(
        id=base.id,
        nodes=n,
        volume=volume,
        min_performance=base.min_performance,
        budget=budget,
        max_price=max_price,
        requirements=base.requirements,
        criterion=criterion,
        release=release,
        deadline=deadline,
    )


def _check(nodes: int, jobs: int, horizon: int, geometry: str) -> None:
    if not 1 <= nodes <= 50:
        raise param_error("edge", "nodes", "must be between 1 and 50")
    if jobs < 0:
        raise param_error("edge", "jobs", "must be >= 0")
    if horizon < 10:
        raise param_error("edge", "horizon", "must be >= 10")
    if geometry not in ("rough", "square", "any"):
        raise param_error("edge", "geometry", "must be 'rough', 'square' or 'any'")


FAMILY = Family(
    name="edge",
    source="project family (no paper): boundary cases for differential testing (docs/verify.md)",
    defaults={"nodes": 4, "jobs": 12, "horizon": 40, "geometry": "any"},
    build=build,
)
