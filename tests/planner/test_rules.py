"""One hand-checkable instance per rule of docs/algorithms.md "The single pass" and of the units.

Each test is named after the rule it pins down and spells out the window the
rule gives (and, where it helps, the window a different reading would give).
Unless said otherwise every node has performance 1 and every job volume
V = 1, so every task lasts one quantum and costs its price.
"""

from __future__ import annotations

import numpy as np

from instances import Instance, Job, Node, Slot
from planner import search
from planner.heuristics.feed import Feed
from planner.heuristics.selectors import swap
from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run
from validation import check_window


def _instance(nodes: list[Node], slots: list[Slot], job: Job, geometry: str = "rough") -> Instance:
    return Instance(nodes=tuple(nodes), slots=tuple(slots), jobs=(job,), geometry=geometry)


def _found(inst: Instance, algorithm: str) -> tuple[int, tuple[str, ...]]:
    w = search(inst, inst.jobs[0], algorithm)
    assert w is not None
    assert check_window(inst, inst.jobs[0], w, price_cap=algorithm == "alp") == []
    return w.start, w.nodes


# --- units and the job's data (docs/concepts.md) ---------------------------------------------


def test_default_budget_is_exact() -> None:
    """S = floor(C·V·n) in exact decimals: C = 0.29, V = 100, n = 1 gives 29, not 28.

    One node priced 0.29 (p = 1): the task costs ceil(0.29 · 100) = 29 ≤ S, so
    AMP takes it at T = 0 (a binary product, 28.999999999999996, would give S = 28
    and no window).
    """
    job = Job("j", nodes=1, volume=100.0, max_price=0.29)
    inst = _instance([Node("a", 1.0, price=0.29)], [Slot("a", 0, 200)], job)
    assert job.effective_budget == 29
    assert _found(inst, "amp") == (0, ("a",))


def test_alp_cap_from_a_budget_is_exact() -> None:
    """C = S / (V·n) compared exactly: S = 3, V = 0.8, n = 3 admits slots priced exactly 1.25.

    Nodes a, b, c priced 1.25, free on [0, 5): ALP takes all three at T = 0
    (each task lasts ceil(0.8) = 1 quantum and costs 2). A binary division
    gives C = 1.2499999999999998 and would refuse all three.
    """
    nodes = [Node(k, 1.0, price=1.25) for k in "abc"]
    job = Job("j", nodes=3, volume=0.8, budget=3)
    inst = _instance(nodes, [Slot(k, 0, 5) for k in "abc"], job)
    assert _found(inst, "alp") == (0, ("a", "b", "c"))


def test_alp_has_no_budget() -> None:
    """ALP keeps to C alone: C = 1.5, V = 3, n = 1 takes a slot priced 1.5 costing 5 > S = 4.

    u (price 1.5) is free on [0, 10), v (price 1) on [5, 10). ALP: u at T = 0
    (cost ⌈4.5⌉ = 5). AMP keeps to S = floor(4.5) = 4: v at T = 5 (cost 3).
    """
    nodes = [Node("u", 1.0, price=1.5), Node("v", 1.0, price=1.0)]
    job = Job("j", nodes=1, volume=3.0, max_price=1.5)
    inst = _instance(nodes, [Slot("u", 0, 10), Slot("v", 5, 10)], job)
    assert _found(inst, "alp") == (0, ("u",))
    assert _found(inst, "amp") == (5, ("v",))


def test_node_price_defaults_to_zero() -> None:
    """A node without a price is free: with budget 0 AMP takes it (a costs 0; b priced 1)."""
    nodes = [Node("b", 1.0, price=1.0), Node("a", 1.0)]
    job = Job("j", nodes=1, volume=1.0, budget=0)
    inst = _instance(nodes, [Slot("b", 0, 5), Slot("a", 3, 5)], job)
    assert _found(inst, "amp") == (3, ("a",))


def test_slot_price_overrides_the_node_price() -> None:
    """Slot a [0, 5) priced 3 on a node priced 1: budget 2 refuses it; a's [6, 9) (price 1) fits."""
    job = Job("j", nodes=1, volume=1.0, budget=2)
    inst = _instance([Node("a", 1.0, price=1.0)], [Slot("a", 0, 5, 3.0), Slot("a", 6, 9)], job)
    assert _found(inst, "amp") == (6, ("a",))


# --- the job's slot list ---------------------------------------------------------------------


def test_slots_are_read_by_clipped_start_then_node_order() -> None:
    """Release 4 clips y [0, 20) and x [3, 20) to the same start 4: x (first node) is read first.

    Equal prices, n = 1: AMP's n cheapest at T = 4 is the slot read first,
    x. Sorting by the original starts would read y first and return y.
    """
    nodes = [Node("x", 1.0, price=1.0), Node("y", 1.0, price=1.0)]
    job = Job("j", nodes=1, volume=1.0, release=4)
    inst = _instance(nodes, [Slot("y", 0, 20), Slot("x", 3, 20)], job)
    assert _found(inst, "amp") == (4, ("x",))


def test_equal_starts_are_read_in_node_order() -> None:
    """Slots of b and a both start at 0; node order (b, a): b is read first and AMP takes it."""
    nodes = [Node("b", 1.0, price=1.0), Node("a", 1.0, price=1.0)]
    job = Job("j", nodes=1, volume=1.0)
    inst = _instance(nodes, [Slot("a", 0, 5), Slot("b", 0, 5)], job)
    assert _found(inst, "amp") == (0, ("b",))


def test_deadline_clips_the_slot_end() -> None:
    """Deadline 5 clips a [0, 20) to [0, 5): a 6-quantum task does not fit; b [6, 30) holds it."""
    nodes = [Node("a", 1.0), Node("b", 1.0)]
    job = Job("j", nodes=1, volume=6.0, deadline=12)
    inst = _instance(nodes, [Slot("a", 0, 5), Slot("b", 6, 30)], job)
    assert _found(inst, "amp") == (6, ("b",))
    short = _instance(nodes, [Slot("a", 0, 20), Slot("b", 6, 30)],
                      Job("j", nodes=1, volume=6.0, deadline=5))  # fmt: skip
    assert search(short, "j", "amp") is None


# --- the pass: alive set and evaluation points -------------------------------------------------


def test_a_slot_exactly_as_long_as_the_task_is_alive() -> None:
    """e − T ≥ d: a [0, 4) holds a 4-quantum task at T = 0 (b [1, 9) would start later)."""
    nodes = [Node("a", 1.0), Node("b", 1.0)]
    job = Job("j", nodes=1, volume=4.0)
    inst = _instance(nodes, [Slot("a", 0, 4), Slot("b", 1, 9)], job)
    assert _found(inst, "amp") == (0, ("a",))


def test_a_slot_dies_when_its_remaining_length_is_short() -> None:
    """n = 2, d = 4: a [0, 5) is alive at T = 0, dead at T = 2 (5 − 2 < 4): a and b never meet.

    b [2, 10) and c [3, 10) form the window at T = 3.
    """
    nodes = [Node(k, 1.0) for k in "abc"]
    job = Job("j", nodes=2, volume=4.0)
    inst = _instance(nodes, [Slot("a", 0, 5), Slot("b", 2, 10), Slot("c", 3, 10)], job)
    assert _found(inst, "amp") == (3, ("b", "c"))


def test_amp_evaluates_every_step_and_takes_the_first_at_a_start() -> None:
    """a (price 2) and b (price 1) both start at 0; a is read first.

    AMP evaluates the step of a alone (n = 1, a fits the budget 5) and stops:
    window a. min_cost evaluates once at T = 0, after b is read: window b.
    """
    nodes = [Node("a", 1.0, price=2.0), Node("b", 1.0, price=1.0)]
    job = Job("j", nodes=1, volume=1.0, budget=5)
    inst = _instance(nodes, [Slot("a", 0, 5), Slot("b", 0, 5)], job)
    assert _found(inst, "amp") == (0, ("a",))
    assert _found(inst, "min_cost") == (0, ("b",))


def test_max_q_evaluates_once_per_distinct_start() -> None:
    """a and b both start at 0 with q = 5; b is cheaper. MaxQ evaluates after reading b: window b.

    Evaluating every step would keep a (met first, and b does not beat it).
    """
    nodes = [Node("a", 1.0, price=2.0, q=5.0), Node("b", 1.0, price=1.0, q=5.0)]
    job = Job("j", nodes=1, volume=1.0)
    inst = _instance(nodes, [Slot("a", 0, 5), Slot("b", 0, 5)], job)
    assert _found(inst, "max_q") == (0, ("b",))


def test_the_earliest_start_wins_among_equal_values() -> None:
    """min_cost: a [0, 5) and b [3, 8) both cost 1: the window at T = 0 (a) is kept."""
    nodes = [Node("b", 1.0, price=1.0), Node("a", 1.0, price=1.0)]
    job = Job("j", nodes=1, volume=1.0)
    inst = _instance(nodes, [Slot("a", 0, 5), Slot("b", 3, 8)], job)
    assert _found(inst, "min_cost") == (0, ("a",))


# --- square geometry levels --------------------------------------------------------------------


def _square_pair(first: str, f_price: float) -> Instance:
    """V = 3: f (p = 2) and s (p = 1.5, price 1) both take 2 quanta; both free on [0, 5)."""
    nodes = {"f": Node("f", 2.0, price=f_price), "s": Node("s", 1.5, price=1.0)}
    order = [nodes[first], *(nd for k, nd in nodes.items() if k != first)]
    job = Job("j", nodes=1, volume=3.0)
    return _instance(order, [Slot("f", 0, 5), Slot("s", 0, 5)], job, geometry="square")


def test_square_amp_runs_performance_levels_fastest_first() -> None:
    """f priced 2: level p = 2 admits only f and finds it at T = 0; level p = 1.5 cannot do better.

    One level per duration (both take 2 quanta) would admit both and take the
    cheaper s.
    """
    assert _found(_square_pair("f", 2.0), "amp") == (0, ("f",))


def test_square_min_cost_runs_duration_levels() -> None:
    """Node order (s, f), both priced 1: the duration level D = 2 admits both, s read first: s.

    Performance levels would meet f alone at level p = 2 first and keep it
    (the same cost at the same start).
    """
    assert _found(_square_pair("s", 1.0), "min_cost") == (0, ("s",))


# --- the runtime swap heuristic ----------------------------------------------------------------


def _swap_instance(budget: int) -> Instance:
    """V = 8, n = 2, all free on [0, 20), read in the order v, x, z, y.

    v: p 1, d 8, cost 1; x: p 2, d 4, cost 4; z: p 4, d 2, cost 7;
    y: p 2, d 4, cost 2.
    """
    nodes = [
        Node("v", 1.0, price=0.125), Node("x", 2.0, price=1.0),
        Node("z", 4.0, price=3.5), Node("y", 2.0, price=0.5),
    ]  # fmt: skip
    job = Job("j", nodes=2, volume=8.0, budget=budget, criterion="min_runtime")
    return _instance(nodes, [Slot(nd.id, 0, 20) for nd in nodes], job)


def test_swap_replaces_the_dearest_of_equally_long_slots() -> None:
    """S = 10. Step v,x: {v, x} runtime 8. Step v,x,z: z cannot replace v (5 − 1 + 7 = 11 > 10).

    Step v,x,z,y: the n cheapest {v, y} (3); spare x replaces v (d 4 < 8,
    total 6); spare z (d 2) replaces the dearer of the equally long y (2)
    and x (4), x: total 9 ≤ 10. Window {y, z}, runtime 4. Swapping out the
    cheaper y would cost 11 > 10 and leave {x, y}.
    """
    inst = _swap_instance(10)
    assert _found(inst, "min_runtime") == (0, ("z", "y"))
    assert _found(inst, "min_finish") == (0, ("z", "y"))


def test_swap_budget_test_is_not_strict() -> None:
    """S = 9: z replaces x at a total of exactly 9 (≤ S, not < S): window {y, z}."""
    assert _found(_swap_instance(9), "min_runtime") == (0, ("z", "y"))


def test_swap_starts_from_the_n_cheapest_and_skips_a_step_over_budget() -> None:
    """S = 2: even the n cheapest {v, y} (3) exceed it at every step: no window."""
    assert search(_swap_instance(2), "j", "min_runtime") is None


def test_swap_of_equally_long_and_equally_dear_slots_takes_the_later_read() -> None:
    """x and y (d 4, cost 3 each, x read first) are the result; spare z (d 2, cost 7) replaces y.

    V = 8, S = 10: 6 − 3 + 7 = 10 ≤ S. The selector at the last step of T = 0
    returns {x, z} (read indices 0 and 2).
    """
    nodes = [Node("x", 2.0, price=0.75), Node("y", 2.0, price=0.75), Node("z", 4.0, price=3.5)]
    job = Job("j", nodes=2, volume=8.0, budget=10)
    inst = _instance(nodes, [Slot(nd.id, 0, 20) for nd in nodes], job)
    feed = Feed(inst, job)
    sweep = Sweep(feed)
    for _ in sweep.steps():
        pass
    run = Run(feed, "runtime", False, np.random.default_rng(0))
    assert sorted(swap(run, sweep)) == [0, 2]


# --- the knapsack of MaxQ ----------------------------------------------------------------------


def _maxq(prices: list[float], q: list[float], budget: int) -> Instance:
    nodes = [Node(k, 1.0, price=p, q=v) for k, p, v in zip("abcd", prices, q, strict=True)]
    job = Job("j", nodes=2, volume=1.0, budget=budget)
    return _instance(nodes, [Slot(nd.id, 0, 5) for nd in nodes], job)


def test_max_q_budget_free_best_n_breaks_q_ties_by_cost_then_read_order() -> None:
    """q = (5, 5, 5, 1), prices (2, 1, 1, 1), S = 10: the best two by q are b and c (a is dearer).

    b and c tie on q and cost; both are taken (n = 2), a is left out.
    """
    assert _found(_maxq([2.0, 1.0, 1.0, 1.0], [5.0, 5.0, 5.0, 1.0], 10), "max_q") == (0, ("b", "c"))


def test_max_q_knapsack_traces_back_the_subset_whose_last_item_comes_first() -> None:
    """Items in (cost, read) order a 1, b 2, c 2, d 3 with q 1, 2, 3, 4; n = 2, S = 4.

    The best two by q, {d, c}, cost 5 > 4. Optimal q = 5: {a, d} (cost 4) and
    {b, c} (cost 4). The trace-back takes the subset whose last item comes
    first: c (3rd) before d (4th), so {b, c}.
    """
    assert _found(_maxq([1.0, 2.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0], 4), "max_q") == (0, ("b", "c"))
