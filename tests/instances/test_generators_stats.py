"""Statistics of the paper families against the ranges their seeds state.

Each test draws a handful of seeded instances and compares measured
statistics with the paper's numbers (seed file and section in each
docstring); the measured values are listed in the README's "Instance families" section.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict

import numpy as np
import pytest

from instances import Instance, cost, duration, generate
from instances.generators.css2015 import TABLE1_CRITERIA

# Seed 002 Table 2: mean number of slots for 100 nodes by scheduling interval length.
TABLE2_SLOTS = {600: 472.6, 1200: 779.4, 1800: 1092.0, 2400: 1405.1, 3000: 1718.8, 3600: 2030.6}


def _loads(inst: Instance) -> np.ndarray:
    """Return each node's busy share of the horizon."""
    assert inst.horizon is not None and inst.busy is not None
    length = inst.horizon[1] - inst.horizon[0]
    busy: dict[str, int] = defaultdict(int)
    for b in inst.busy:
        busy[b.node] += b.end - b.start
    return np.array([busy[n.id] / length for n in inst.nodes])


def test_toporkov2012_load_per_node() -> None:
    """Seed 002 §3.1: initial load 10–50% per node; the hypergeometric level has mean 30%."""
    loads = np.concatenate([_loads(generate("toporkov2012", s)) for s in range(5)])
    assert loads.min() >= 0.1 - 1e-9 and loads.max() <= 0.5 + 1e-9
    assert 0.27 < loads.mean() < 0.33
    assert loads.std() > 0.02


@pytest.mark.parametrize("interval", sorted(TABLE2_SLOTS))
def test_toporkov2012_slot_counts_match_table2(interval: int) -> None:
    """Seed 002 Table 2: mean slot count for 100 nodes within 6% of the paper's, per interval."""
    counts = [len(generate("toporkov2012", s, interval=interval).slots) for s in range(6)]
    assert abs(np.mean(counts) / TABLE2_SLOTS[interval] - 1) < 0.06


def test_toporkov2012_local_tasks_and_job() -> None:
    """Local tasks last at least 10 (seed 002 §3.2); performances are integers 2–10; one job."""
    inst = generate("toporkov2012", 3)
    # Touching tasks merge into one busy interval only in the slots, so each Busy is one task.
    assert min(b.end - b.start for b in inst.busy) >= 10
    assert {n.performance for n in inst.nodes} <= {float(p) for p in range(2, 11)}
    job = inst.jobs[0]
    assert (job.nodes, job.volume, job.budget) == (5, 150.0, 1500)


def test_task_length_parameters() -> None:
    """``task_length_min/max`` (default 10–103, seed 002 §3.2's minimum 10) bound every local
    task; the defaults given explicitly draw the byte-identical instance, and 80–400 (seed 004
    §4.1's window range) gives fewer, longer tasks at the same load."""
    for family in ("toporkov2012", "toporkov2018"):
        plain = generate(family, 4)
        assert generate(family, 4, task_length_min=10, task_length_max=103) == plain
        assert repr(generate(family, 4, task_length_min=10)) == repr(plain)
    inst = generate("toporkov2018", 4)
    long = generate("toporkov2018", 4, task_length_min=80, task_length_max=400)
    assert all(10 <= b.end - b.start <= 103 + 9 for b in inst.busy)
    # the last task of a node may absorb a remainder shorter than the minimum; a node whose
    # whole load is below the minimum has that load as its one task
    per_node = defaultdict(list)
    for b in long.busy:
        per_node[b.node].append(b.end - b.start)
    assert all(max(d) <= 400 + 79 for d in per_node.values())
    assert all(min(d) >= 80 for d in per_node.values() if len(d) > 1 or sum(d) >= 80)
    assert len(long.busy) < len(inst.busy) / 3
    assert long.name == "toporkov2018 seed=4 task_length_max=400 task_length_min=80"


def test_toporkov2012_prices_calibrated() -> None:
    """Prices ∝ performance with a normal deviation; the 5 cheapest tasks cost about 1027.

    Seed 002 §3.2 reports minCost 1027.3 and AMP 1445.2 against S = 1500; the
    five cheapest task costs (slots ignored) bound minCost from below, and a
    random 5-window should cost about AMP's.
    """
    cheapest, typical = [], []
    for s in range(20):
        inst = generate("toporkov2012", s)
        costs = sorted(cost(n.price, duration(150, n.performance)) for n in inst.nodes)
        cheapest.append(sum(costs[:5]))
        typical.append(5 * np.mean(costs))
        ratios = [n.price / (1.9 * n.performance) for n in inst.nodes]
        assert min(ratios) > 0.5 and max(ratios) < 1.5
    assert 900 < np.mean(cheapest) < 1100
    assert 1300 < np.mean(typical) < 1600


def test_toporkov2012_value_readings() -> None:
    """``price_values=integer`` gives whole prices per time unit; ``performance_values=real``
    gives real performances in [2, 10].

    Seed 000 §3 prints the simulator's ``public int cash; // usage cost per time
    unit``; seed 002 §3.1 draws "a random integer variable in the interval
    [2; 10]", seeds 003 §5 and 004 §4.1 say only "uniformly distributed".
    """
    whole = generate("toporkov2012", 3, unit_price=1.0, price_values="integer")
    assert all(n.price == int(n.price) and n.price >= 1 for n in whole.nodes)
    assert all(n.performance == int(n.performance) for n in whole.nodes)
    assert len({n.price for n in whole.nodes}) > 5
    real = generate("toporkov2012", 3, performance_values="real")
    perf = [n.performance for n in real.nodes]
    assert all(2 <= p <= 10 for p in perf) and sum(p != int(p) for p in perf) > 90
    cents = generate("toporkov2012", 3, unit_price=1.0)
    assert sum(n.price != int(n.price) for n in cents.nodes) > 90


def test_toporkov2012_nodes_parameter() -> None:
    """``nodes`` scales the domain as in seed 002 Table 1 (50–400 nodes)."""
    assert len(generate("toporkov2012", 1, nodes=50).nodes) == 50
    assert len(generate("toporkov2012", 1, nodes=400).nodes) == 400


def test_toporkov2011_slot_list() -> None:
    """Seed 000 §5 SlotGenerator: counts, lengths, shared starts, gaps and prices in range."""
    same = pairs = 0
    for s in range(20):
        inst = generate("toporkov2011", s)
        slots = sorted(inst.slots, key=lambda x: (x.start, int(x.node[1:])))
        assert 120 <= len(slots) <= 150
        assert all(50 <= x.length <= 300 for x in slots)
        gaps = [b.start - a.start for a, b in itertools.pairwise(slots)]
        assert all(0 <= g <= 10 for g in gaps)
        same += sum(g == 0 for g in gaps)
        pairs += len(gaps)
        for x in slots:
            node = inst.node(x.node)
            assert 1 <= node.performance <= 3
            base = 100 * 1.7**node.performance
            assert 0.75 * base - 0.01 <= x.price <= 1.25 * base + 0.01
    assert 0.35 < same / pairs < 0.45


def test_toporkov2011_jobs_and_money_unit() -> None:
    """Seed 000 §5 JobGenerator ranges; with money in 1/100 units cost() rounds off < 0.1%."""
    for s in range(20):
        inst = generate("toporkov2011", s)
        assert 3 <= len(inst.jobs) <= 7
        for job in inst.jobs:
            assert 1 <= job.nodes <= 6 and 50 <= job.volume <= 150
            assert 1 <= job.min_performance <= 2
            assert job.effective_budget is not None and job.max_price is not None
            for x in inst.slots[:10]:
                d = duration(job.volume, inst.node(x.node).performance)
                exact = x.price * d
                assert cost(x.price, d) - exact < 1e-3 * exact


@pytest.mark.parametrize(
    ("values", "below", "above"),
    [
        ("integer", 0.5, 0.5),  # int cash of the Slot class (seed 000 §3), nearest
        ("truncated", 0.0, 1.0),  # the same by Java's (int) cast: rounded down
    ],
)
def test_toporkov2011_integer_prices(values: str, below: float, above: float) -> None:
    """Integer readings give whole paper prices from the real reading's draws.

    With money in 1/100 units a whole paper price is a multiple of 100; the
    nodes, slot times and jobs are those of the real reading, and each price
    is the real one (2 decimals) moved by at most ``below`` up / ``above`` down.
    """
    for s in range(5):
        real, inst = generate("toporkov2011", s), generate("toporkov2011", s, price_values=values)
        assert real.nodes == inst.nodes and real.jobs == inst.jobs
        for a, b in zip(real.slots, inst.slots, strict=True):
            assert (a.node, a.start, a.end) == (b.node, b.start, b.end)
            assert b.price % 100 == 0
            assert -below - 1e-4 <= (a.price - b.price) / 100 <= above + 1e-4


def test_toporkov2011_integer_caps_and_performances() -> None:
    """cap_values rounds C = 1.7^P to a whole price; performance_values draws whole numbers."""
    for s in range(5):
        real = generate("toporkov2011", s, price_cap="min_performance")
        for cap, whole in (("integer", round), ("truncated", np.floor)):
            inst = generate("toporkov2011", s, price_cap="min_performance", cap_values=cap)
            for a, b in zip(real.jobs, inst.jobs, strict=True):
                assert b.max_price == 100 * whole(100 * 1.7**a.min_performance / 100)
        inst = generate("toporkov2011", s, performance_values="integer")
        assert {n.performance for n in inst.nodes} <= {1.0, 2.0, 3.0}
        assert {j.min_performance for j in inst.jobs} <= {1.0, 2.0}


def test_toporkov2011_cap_factor() -> None:
    """cap_factor scales C (and with it the budget S = C·t·N) and changes nothing else."""
    for s in range(5):
        base = generate("toporkov2011", s, price_cap="min_performance", time_span="min_performance")
        scaled = generate("toporkov2011", s, price_cap="min_performance",
                          time_span="min_performance", cap_factor=1.06)  # fmt: skip
        assert scaled.slots == base.slots
        for a, b in zip(base.jobs, scaled.jobs, strict=True):
            assert b.max_price == pytest.approx(1.06 * a.max_price, abs=0.01)  # C in cents
            t = duration(a.volume, a.min_performance)
            assert b.budget == int(np.floor(round(b.max_price * t * a.nodes, 6)))
            assert (b.volume, b.nodes, b.min_performance) == (a.volume, a.nodes, a.min_performance)


def test_toporkov2011_time_span() -> None:
    """S = C·t·N, t = V (derived), ceil(V / P) (explicit budget) or the length at P (V = t·P)."""
    for s in range(5):
        base = generate("toporkov2011", s, price_cap="min_performance")
        at_p = generate("toporkov2011", s, price_cap="min_performance", time_span="min_performance")
        length = generate("toporkov2011", s, price_cap="min_performance", time_span="length")
        for a, b, c in zip(base.jobs, at_p.jobs, length.jobs, strict=True):
            assert a.budget is None and a.effective_budget is not None
            assert b.volume == a.volume and b.max_price == a.max_price
            t = duration(a.volume, a.min_performance)
            assert b.budget == int(np.floor(round(a.max_price * t * a.nodes, 6)))
            assert b.budget <= a.effective_budget
            assert c.volume == pytest.approx(a.volume * a.min_performance)
            assert c.budget == int(np.floor(round(a.max_price * a.volume * a.nodes, 6)))


def test_css2015_batch() -> None:
    """Seed 003 §5: 24 nodes on [0, 600], 20 jobs, budgets market ±60%, Table 1 criteria."""
    criteria = []
    for s in range(10):
        inst = generate("css2015", s)
        assert len(inst.nodes) == 24 and len(inst.jobs) == 20 and inst.horizon == (0, 600)
        loads = _loads(inst)
        assert loads.min() >= 0.1 - 1e-9 and loads.max() <= 0.5 + 1e-9
        for job in inst.jobs:
            market = job.volume * job.nodes
            assert job.budget is not None and 0.4 * market - 1 <= job.budget <= 1.6 * market
            criteria.append(job.criterion)
    assert set(criteria) == set(TABLE1_CRITERIA)
    counts = [criteria.count(c) for c in TABLE1_CRITERIA]
    assert min(counts) > 30


def test_toporkov2018_domain() -> None:
    """Seed 004 §4.1: 100 nodes, interval 1200, load <= 30%, q in [0, 10], the job, square."""
    loads, qs = [], []
    for s in range(5):
        inst = generate("toporkov2018", s)
        assert len(inst.nodes) == 100 and inst.horizon == (0, 1200)
        assert inst.geometry == "square"
        loads.append(_loads(inst))
        qs.extend(n.q for n in inst.nodes)
        job = inst.jobs[0]
        assert (job.nodes, job.volume, job.min_performance, job.budget) == (7, 800.0, 1.0, 644)
        lengths = {duration(job.volume, n.performance) for n in inst.nodes}
        assert min(lengths) >= 80 and max(lengths) <= 400
    all_loads = np.concatenate(loads)
    assert all_loads.max() <= 0.3 + 1e-9 and 0.12 < all_loads.mean() < 0.18
    assert min(qs) >= 0 and max(qs) <= 10 and 4.5 < np.mean(qs) < 5.5


def test_toporkov2018_integer_q_coarsens_the_real_draw() -> None:
    """q_values=integer gives whole q 0..10, uniform (each value about 1/11 of the nodes), each
    node's q the real q cut into 11 equal parts; everything else is the real-q instance."""
    counts = np.zeros(11)
    for s in range(20):
        real = generate("toporkov2018", s)
        whole = generate("toporkov2018", s, q_values="integer")
        assert whole.busy == real.busy and whole.jobs == real.jobs
        for a, b in zip(real.nodes, whole.nodes, strict=True):
            assert dataclasses.replace(b, q=a.q) == a
            assert b.q == int(b.q) and 0 <= b.q <= 10
            assert abs(b.q - a.q * 1.1) < 1.01  # a.q is the draw rounded to 2 decimals
            counts[int(b.q)] += 1
    assert counts.min() > 0.5 * counts.mean() and counts.max() < 1.5 * counts.mean()
