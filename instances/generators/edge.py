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
  budgets met exactly by the n shortest tasks at the planted start (the
  runtime swap heuristic's budget test at equality);
- derived limits: a price cap C equal to the n-th cheapest price at T (the
  budget is then floor(C·V·n)), or a budget alone whose C = S/(V·n) equals
  a slot's price exactly (prices and volumes such as 1.25 and 0.8); and
  derived limits that binary floating point gets wrong, met exactly by the
  planted window: S = 3, V = 0.8, n = 3 (S/(V·n) computes to
  1.2499999999999998 against a slot priced 1.25), or, on a node priced for
  it, C = 2.32, V = 12.5 (C·V computes to 28.999999999999996: floor 28
  instead of 29);
- equal prices, performances and q on all nodes (ties decided by node
  order and read order), and equal slot starts;
- release and deadline on the planted start and finish, or one off;
- minimum performances and requirements met with equality;
- square geometry (tasks as long as on the slowest node);
- large budgets under which the knapsack of MaxQ, DEP and COORD keeps a
  wide Pareto front, and budgets between the n cheapest and the n of
  greatest q, which the knapsack must trade off;
- prices scaled up (400 to 1,000 per quantum, in a quarter of the instances):
  budgets past the knapsack's dense budget axis (4,096 money units), so
  the Pareto-state form runs (docs/algorithms.md, "Knapsack").

Each job draws its criterion uniformly from docs/concepts.md's list, so CSA's
own-criterion path is exercised too.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from instances.criteria import CRITERIA
from instances.generators.base import Family, param_error
from instances.instance import Instance
from instances.job import Job
from instances.node import Node
from instances.slot import Slot
from instances.units import cost, duration

PERFORMANCES = (1.0, 2.0, 4.0, 0.5, 1.5, 2.5)
PRICES = (0.1, 0.25, 0.5, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)
SCALED = 0.25
"""Share of instances whose prices are multiplied by :data:`SCALED_UNIT`."""
SCALED_UNIT = 400
SCALED_PRICES = (1.0, 1.25, 1.5, 2.0, 2.5)
"""Prices of those instances, times the unit (400 to 1,000): tasks then cost thousands, so budgets
pass the dense knapsack's axis of 4,096 money units."""
VOLUMES = (0.8, 1.5, 2.0, 2.1, 3.0, 4.0, 6.0, 8.0)
TRIES = 3
NOISY_CAPS: tuple[tuple[float, tuple[float, ...]], ...] = (
    (1.25, (0.8, 1.6, 3.2, 6.4)),
    (2.5, (0.8, 1.6, 3.2, 5.2, 6.4, 8.4, 10.4)),
)
"""(price P, volumes V): with n = 3, S = P·V·n is an integer whose S/(V·n) computes below P in
binary floating point (3/(0.8·3) gives 1.2499999999999998): a derived cap compared inexactly
refuses the slots priced exactly C."""
FLOAT_NODES: tuple[tuple[float, float, float, float], ...] = (
    (4.0, 7.25, 12.5, 2.32),
    (2.5, 5.8, 12.5, 2.32),
    (4.0, 14.25, 12.5, 4.56),
    (2.5, 11.4, 12.5, 4.56),
)
"""(performance, price, V, C): on such a node a task of volume V costs exactly C·V, an integer
that C·V computes just below in binary floating point (2.32·12.5 gives 28.999999999999996):
floor(C·V·n) taken inexactly is one unit short of the window's cost. A quarter of the instances
have one such node (attribute ``pool``), and some of their jobs ask for it."""
FLOATING = 0.25
POOL = "float"
"""Draws of a job's volume and requirements until some start holds its n tasks."""


def build(
    rng: np.random.Generator, name: str, *, nodes: int, jobs: int, horizon: int, geometry: str
) -> Instance:
    """Draw an edge-case instance (see :data:`FAMILY` for the parameters)."""
    _check(nodes, jobs, horizon, geometry)
    shape = rng.choice(["rough", "square"]) if geometry == "any" else geometry
    equal = rng.random() < 0.3  # one performance, price and q for every node
    unit = SCALED_UNIT if rng.random() < SCALED else 1
    equal = equal and unit == 1  # scaled: q differ, so the knapsack trades q against cost
    node_list = _nodes(rng, nodes, equal, unit)
    if unit == 1 and rng.random() < FLOATING:
        k = int(rng.integers(nodes))
        perf, price, _, _ = FLOAT_NODES[int(rng.integers(len(FLOAT_NODES)))]
        node_list[k] = Node(node_list[k].id, perf, price=price, q=node_list[k].q,
                            attributes={"pool": POOL})  # fmt: skip
    slot_list = _slots(rng, node_list, horizon, rng.random() < 0.5, unit)
    inst = Instance(nodes=tuple(node_list), slots=tuple(slot_list), horizon=(0, horizon),
                    geometry=str(shape))  # fmt: skip
    job_list = [_job(rng, inst, k, unit > 1) for k in range(jobs)]
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


def _price(rng: np.random.Generator, unit: int) -> float:
    if unit == 1:
        return _pick(rng, PRICES)
    return round(_pick(rng, SCALED_PRICES) * unit, 6)


def _nodes(rng: np.random.Generator, count: int, equal: bool, unit: int) -> list[Node]:
    shared = (_pick(rng, PERFORMANCES), _price(rng, unit), float(rng.integers(0, 4)))
    out = []
    for i in range(count):
        perf, price, q = shared if equal else (
            _pick(rng, PERFORMANCES), _price(rng, unit), float(rng.integers(0, 4)))  # fmt: skip
        attributes: dict[str, float | int | str] = {}
        if rng.random() < 0.4:
            attributes = {"ram": int(rng.choice([8, 16])), "os": str(rng.choice(["linux", "bsd"]))}
        out.append(Node(f"n{i + 1}", perf, price=price, q=q, attributes=attributes))
    return out


def _slots(rng: np.random.Generator, nodes: list[Node], horizon: int, aligned: bool,
           unit: int) -> list[Slot]:  # fmt: skip
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
            price = _price(rng, unit) if rng.random() < 0.15 else None
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


def _job(rng: np.random.Generator, inst: Instance, k: int, scaled: bool) -> Job:
    most = min(3, len(inst.nodes))
    n = int(rng.integers(min(2, most) if scaled else 1, most + 1))
    criterion = str(rng.choice(list(CRITERIA)))
    if rng.random() < 0.2 and (floating := _floating(inst, k, criterion)) is not None:
        return floating
    for _ in range(TRIES):  # most jobs get a planted step: a window exists
        base = _base(rng, inst, k, n, criterion)
        planted = _alive(inst, base)
        if planted is not None:
            break
    if planted is None:
        return Job(base.id, n, base.volume, min_performance=base.min_performance,
                   requirements=base.requirements, criterion=criterion,
                   budget=int(rng.integers(0, 40)))  # fmt: skip
    mode = rng.random()
    if scaled and mode < 0.5:  # mostly budgets the knapsack must trade off
        mode = 0.85
    noisy = _noisy(rng, inst, base) if 0.45 <= mode < 0.55 else None
    if noisy is not None:  # a derived cap that binary floating point gets wrong
        base, planted, budget = noisy
        max_price: float | None = None
        n = base.nodes
    else:
        budget, max_price = _limits(rng, inst, base, mode, planted[1])
    t, picks = planted
    cheapest = picks[:n]
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
        volume=base.volume,
        min_performance=base.min_performance,
        budget=budget,
        max_price=max_price,
        requirements=base.requirements,
        criterion=criterion,
        release=release,
        deadline=deadline,
    )


def _limits(rng: np.random.Generator, inst: Instance, job: Job, mode: float,
            picks: list[tuple[int, Slot, int]]) -> tuple[int | None, float | None]:  # fmt: skip
    """Return (budget, max_price) drawn around the planted window ``picks[:n]`` by ``mode``."""
    n = job.nodes
    cheapest = picks[:n]
    total = sum(c for c, _, _ in cheapest)
    if mode < 0.55:  # met exactly, or one off
        return max(0, total + int(rng.choice([-1, 0, 1]))), None
    if mode < 0.6:  # the cap C at the n-th cheapest price
        return None, inst.slot_price(cheapest[-1][1])
    if mode < 0.68:  # a budget whose cap S/(V·n) is exactly a price
        return max(0, round(inst.slot_price(cheapest[-1][1]) * job.volume * n)), None
    if mode < 0.75:  # met exactly by the n shortest tasks: the swap heuristic's test at equality
        fastest = sorted(picks, key=lambda x: (x[2], x[0]))[:n]
        return sum(c for c, _, _ in fastest) + int(rng.choice([0, 0, -1])), None
    if mode < 0.8:  # large: the knapsack's Pareto front stays wide
        return sum(c for c, _, _ in picks) + int(rng.integers(0, 10)), None
    if mode < 0.92:  # between the n cheapest and the n of greatest q: the knapsack trades
        by_q = sorted(picks, key=lambda x: (-inst.node(x[1].node).q, x[0]))[:n]
        return int(rng.integers(total, max(total, sum(c for c, _, _ in by_q) - 1) + 1)), None
    return None, None


def _noisy(
    rng: np.random.Generator, inst: Instance, base: Job
) -> tuple[Job, tuple[int, list[tuple[int, Slot, int]]], int] | None:
    """Return (job, planted step, budget S) with n = 3 and C = S/(V·n) the planted n-th cheapest
    price, a quotient binary floating point computes below it (:data:`NOISY_CAPS`), or None."""
    options = [(p, v) for p, vs in NOISY_CAPS for v in vs]
    if len(inst.nodes) < 3:
        return None
    for k in rng.permutation(len(options)):
        price, volume = options[int(k)]
        job = dataclasses.replace(base, nodes=3, volume=volume)
        planted = _alive(inst, job)
        if planted is None or inst.slot_price(planted[1][2][1]) != price:
            continue
        s = Fraction(str(price)) * Fraction(str(volume)) * 3
        if float(s) / (volume * 3) < price:
            return job, planted, int(s)
    return None


def _floating(inst: Instance, k: int, criterion: str) -> Job | None:
    """Return the job of the instance's FLOAT_NODES node (n = 1, its volume and max_price), or
    None when the instance has no such node or none of its slots holds the task."""
    node = next((x for x in inst.nodes if x.attributes.get("pool") == POOL), None)
    if node is None:
        return None
    perf, _, volume, cap = next(f for f in FLOAT_NODES if f[0] == node.performance
                                and f[1] == node.price)  # fmt: skip
    d = duration(volume, perf)
    if not any(s.node == node.id and s.length >= d for s in inst.slots):
        return None
    return Job(f"j{k + 1}", 1, volume, max_price=cap, requirements={"pool": POOL},
               criterion=criterion)  # fmt: skip


def _base(rng: np.random.Generator, inst: Instance, k: int, n: int,
          criterion: str) -> Job:  # fmt: skip
    """Return a job without limits: its volume fits some slot exactly, or one quantum off, or
    is drawn from VOLUMES; a minimum performance met with equality; requirements."""
    s = inst.slots[int(rng.integers(len(inst.slots)))]
    p = inst.node(s.node).performance
    fit = (s.length + float(rng.choice([0.0, -1.0, -0.5, 0.5]))) * p
    volume = fit if fit > 0 and rng.random() < 0.6 else _pick(rng, VOLUMES)
    volume = round(volume, 2)
    base = Job(f"j{k + 1}", n, volume, criterion=criterion)
    if rng.random() < 0.2:
        base = Job(base.id, n, volume, min_performance=p, criterion=criterion)
    if rng.random() < 0.2:
        base = Job(base.id, n, volume, min_performance=base.min_performance,
                   requirements={"ram": 16}, criterion=criterion)  # fmt: skip
    return base


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
