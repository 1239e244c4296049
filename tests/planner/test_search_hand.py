"""Hand-worked answers for every algorithm on the shared ``tiny`` instance (tests/conftest.py).

For job j1 (n = 2, V = 8, budget 20) the rough durations are a 8, b 4, c 4,
d 2 and the costs a 8, b 8, c 4, d 6. The pass reads a[0,20), b[4,14),
c[6,30), d[10,16), b[20,50), a[24,50); a slot stays alive while e − T ≥ d
(a until T = 12, b until 10, c until 26, d until 14), so the alive sets are

    T = 4: a b     T = 6: a b c     T = 10: a b c d     T = 20: c b'    T = 24: c b' a'

Near / far distances (T − s, e − T − d) per alive slot:

    T = 4:  a (4, 8)  b (0, 6)
    T = 6:  a (6, 6)  b (2, 4)  c (0, 20)
    T = 10: a (10, 2) b (6, 0)  c (4, 16)  d (0, 4)
    T = 20: c (14, 6) b' (0, 26)
    T = 24: c (18, 2) b' (4, 22) a' (0, 18)
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from instances import Instance, Job, Node, Slot, duration
from planner import ALGORITHMS, resolve, search
from tests.conftest import with_job
from validation import check_window


def _found(inst: Instance, job: str, name: str):
    window = search(inst, job, name)
    assert window is not None
    assert check_window(inst, job, window, price_cap=name == "alp") == []
    return window


@pytest.mark.parametrize(
    ("name", "start", "nodes", "value"),
    [
        ("amp", 4, ("a", "b"), 4),  # T = 4: a + b cost 16 ≤ 20, the first fitting step
        ("first_fit", 4, ("a", "b"), 4),  # alias of amp
        ("alp", 6, ("a", "c"), 6),  # C = S/(V·n) = 20/16 = 1.25 admits a (1) and c (1) only
        ("csa", 4, ("a", "b"), 4),  # j1's criterion is min_start: the first alternative
        ("min_cost", 10, ("c", "d"), 10),  # n cheapest: 16, 12, 10 (T=10: c+d), 12, 12
        ("min_runtime", 6, ("b", "c"), 4),  # T=6: {c, a} then b (4 < 8) swaps a out
        ("min_runtime_exact", 6, ("b", "c"), 4),  # θ = 4 first feasible at T = 6
        ("min_finish", 6, ("b", "c"), 10),  # 6 + 4; T = 4 gives 12, T = 10 gives 14
        ("min_finish_exact", 6, ("b", "c"), 10),
        ("min_proc_time_exact", 10, ("c", "d"), 6),  # 4 + 2; {b, d} ties, c is cheaper
        ("max_q", 10, ("b", "d"), 8),  # q 3 + 5, cost 8 + 6 = 14
        ("max_q_lite", 10, ("c", "d"), 7),  # the n cheapest: 4, 3, 7, 5, 5
        ("dep", 6, ("a", "b"), 4.0),  # min(6,6) + min(2,4) = 8 → mean 4
        ("coord", 6, ("a", "b"), 5.0),  # 6 + 4 = 10 at T = 6; {b, d} ties at T = 10, later
    ],
)
def test_rough_answers(tiny: Instance, name: str, start: int, nodes: tuple, value: float) -> None:
    """Each algorithm's window for j1 is the one worked out in the module docstring."""
    window = _found(tiny, "j1", name)
    algo = resolve(name)
    crit = algo.criterion or "min_start"
    assert (window.start, window.nodes) == (start, nodes)
    assert window.value(crit) == pytest.approx(value)


def test_lite_forms_value_the_n_cheapest(tiny: Instance) -> None:
    """DEP Lite and COORD Lite value the n cheapest alive slots at each step.

    n cheapest per step: T=4 {a, b}, T=6 {c, a}, T=10 {c, d}, T=20 {c, b'},
    T=24 {c, b'}. Near sums: 4, 6, 4, 6, 6 → best 6 first at T = 6 (mean 3).
    Far sums: 14, 26, 20, 40, 40 → best 14 at T = 4 (mean 7).
    """
    dep = _found(tiny, "j1", "dep_lite")
    assert (dep.start, dep.nodes, dep.near_distance) == (6, ("a", "c"), 3.0)
    coord = _found(tiny, "j1", "coord_lite")
    assert (coord.start, coord.nodes, coord.far_distance) == (4, ("a", "b"), 7.0)


def test_alp_keeps_to_the_price_cap(tiny: Instance) -> None:
    """With C = 1.5 only a and c are admitted (S = ⌊1.5·8·2⌋ = 24): ALP starts at 6, AMP at 4.

    ALP: T = 6 alive a [0,20), c [6,30) → window {a, c}, cost 12.
    AMP: T = 4, {a, b} costs 16 ≤ 24.
    """
    job = Job("j", nodes=2, volume=8.0, max_price=1.5)
    inst = with_job(tiny, job)
    alp, amp = _found(inst, "j", "alp"), _found(inst, "j", "amp")
    assert (alp.start, alp.nodes, alp.cost) == (6, ("a", "c"), 12)
    assert (amp.start, amp.nodes) == (4, ("a", "b"))


def test_alp_ignores_the_budget_that_rounding_breaks() -> None:
    """C = 1.5, V = 3, n = 1: S = ⌊4.5⌋ = 4, but a 1.5-priced task costs ⌈4.5⌉ = 5.

    Nodes u (p 1, price 1.5) free [0,10) and v (p 1, price 1) free [5,10).
    ALP follows seed 000 §3 (condition 2°c alone): u respects C, so the
    window is u at T = 0 for 5. AMP keeps to S and takes v at T = 5 for 3.
    """
    nodes = (Node("u", 1.0, price=1.5), Node("v", 1.0, price=1.0))
    slots = (Slot("u", 0, 10), Slot("v", 5, 10))
    inst = Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=1, volume=3.0, max_price=1.5),))
    alp, amp = _found(inst, "j", "alp"), _found(inst, "j", "amp")
    assert (alp.start, alp.nodes, alp.cost) == (0, ("u",), 5)
    assert (amp.start, amp.nodes, amp.cost) == (5, ("v",), 3)
    assert check_window(inst, "j", alp, price_cap=True) == []
    assert check_window(inst, "j", alp)[0].startswith("budget:")


@pytest.mark.parametrize(
    ("prices", "start"),
    [
        ((1.0, 1.0, 1.0), 0),  # all three ≤ C = 30/(10·3) = 1: ALP takes them at T = 0
        ((1.0, 1.2, 1.0), 5),  # b over C (seed 000 §4: cpu6 at 12 > 10 is skipped): d joins at 5
        ((0.9, 1.0, 1.0), 0),  # total 29 ≤ 30; still the first three
    ],
)
def test_alp_cap_from_a_budget(prices: tuple[float, ...], start: int) -> None:
    """A job with only a budget S gets C = S / (V · n) per slot (seed 000 §4's 30 on 3 nodes)."""
    nodes = tuple(Node(k, 1.0, price=p) for k, p in zip("abc", prices, strict=True))
    nodes += (Node("d", 1.0, price=0.5),)
    slots = (*(Slot(k, 0, 40) for k in "abc"), Slot("d", 5, 40))
    job = Job("j", nodes=3, volume=10.0, budget=30)
    inst = Instance(nodes=nodes, slots=slots, jobs=(job,))
    assert job.price_cap == pytest.approx(1.0)
    w = _found(inst, "j", "alp")
    assert w.start == start
    assert all(inst.node(n).price <= 1.0 for n in w.nodes)


def test_alp_finds_n_capped_slots_whatever_their_total() -> None:
    """ALP finds a window whenever n slots priced ≤ C are alive together, whatever their total.

    Random small lists: whenever some slot start T has n alive slots priced
    at most C, ALP returns a window starting no later than the first such T,
    and every placement respects C (checked by the independent checker).
    """
    rng = np.random.default_rng(7)
    for trial in range(200):
        m, n = int(rng.integers(2, 8)), int(rng.integers(1, 4))
        nodes = tuple(
            Node(f"x{i}", float(rng.choice([1.0, 2.0])), price=float(rng.choice([0.9, 1.0, 1.3])))
            for i in range(m)
        )
        starts = sorted(int(v) for v in rng.integers(0, 20, size=m))
        slots = tuple(
            Slot(f"x{i}", s, s + int(rng.integers(3, 25))) for i, s in enumerate(starts)
        )
        job = Job("j", nodes=n, volume=float(rng.integers(2, 10)), max_price=1.0)
        inst = Instance(nodes=nodes, slots=slots, jobs=(job,))
        first = None
        for t in sorted({s.start for s in slots}):
            alive = [
                s for s in slots
                if s.start <= t and t + duration(job.volume, inst.node(s.node).performance) <= s.end
                and inst.node(s.node).price <= 1.0
            ]  # fmt: skip
            if len(alive) >= n:
                first = t
                break
        w = search(inst, job, "alp")
        assert (w is None) == (first is None), trial
        if w is not None:
            assert w.start == first, trial
            assert check_window(inst, job, w, price_cap=True) == [], trial


def test_single_node_job(tiny: Instance) -> None:
    """n = 1 (j2 needs os=linux: c [6,30) cost 4, d [10,16) cost 6; no budget).

    AMP takes c at T = 6; min_cost keeps c (4 < 6); max_q takes d (q 5 > 2);
    min_runtime takes c first (runtime 4) and d (2) at T = 10.
    """
    assert _found(tiny, "j2", "amp").nodes == ("c",)
    assert _found(tiny, "j2", "min_cost").cost == 4
    assert _found(tiny, "j2", "max_q").nodes == ("d",)
    rt = _found(tiny, "j2", "min_runtime")
    assert (rt.start, rt.nodes, rt.runtime) == (10, ("d",), 2)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_a_job_that_fits_nowhere(tiny: Instance, name: str) -> None:
    """Five nodes are asked of a four-node instance: no algorithm finds a window."""
    inst = with_job(tiny, Job("big", nodes=5, volume=8.0))
    assert search(inst, "big", name) is None


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_over_budget_everywhere(tiny: Instance, name: str) -> None:
    """Budget 9: the cheapest pair per step costs 16, 12, 10, 12, 12, so nothing fits."""
    inst = with_job(tiny, Job("poor", nodes=2, volume=8.0, budget=9))
    assert search(inst, "poor", name) is None


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_empty_slot_list(tiny: Instance, name: str) -> None:
    """With ``slots=[]`` there is nothing to search."""
    assert search(tiny, "j1", name, slots=[]) is None


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_zero_prices_budget_zero_and_exact_fit(name: str) -> None:
    """Budget 0 leaves only free nodes; a slot exactly as long as its task is usable.

    Nodes x, y (p = 1, price 0) and z (p = 2, price 1); slots x [0,10),
    z [0,10), y [2,6); n = 2, V = 4: x and y tasks last 4 (cost 0), z's 2
    (cost 2). Starts 0 and 2: at T = 0 only {x, z} (cost 2 > 0); at T = 2
    y's slot holds its task exactly (6 − 2 = 4), and {x, y} costs 0. Every
    algorithm must return {x, y} at T = 2, the only window within budget.
    """
    nodes = (Node("x", 1.0, price=0.0), Node("y", 1.0, price=0.0), Node("z", 2.0, price=1.0))
    slots = (Slot("x", 0, 10), Slot("z", 0, 10), Slot("y", 2, 6))
    inst = Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=2, volume=4.0, budget=0),))
    w = _found(inst, "j", name)
    assert (w.start, w.nodes, w.cost) == (2, ("x", "y"), 0)


@pytest.mark.parametrize("name", ["amp", "min_cost", "min_finish", "dep", "max_q_lite"])
def test_release_and_deadline_clip_the_slots(tiny: Instance, name: str) -> None:
    """Release 8 and, separately, deadline 11 on j1 (see the module docstring).

    Release 8: the starts become 8 (a [8,20), b [8,14), c [8,30)), 10, 20,
    24; at T = 8 the pass reads a then b: {a, b} costs 16 ≤ 20, AMP's window,
    recorded on a's own slot [0, 20) (the release is no neighbouring task).
    Deadline 11: slots end by 11, so a (8 quanta) dies at T = 4 and d [10,11)
    is too short; only {b, c} at T = 6 remains (b [4,11), c [6,11)): every algorithm returns it.
    """
    job = dataclasses.replace(tiny.job("j1"), release=8)
    if name == "amp":
        w = _found(with_job(tiny, job), "j1", name)
        assert (w.start, w.nodes) == (8, ("a", "b"))
        assert (w.placements[0].slot_start, w.placements[0].slot_end) == (0, 20)
    job = dataclasses.replace(tiny.job("j1"), deadline=11)
    w = _found(with_job(tiny, job), "j1", name)
    assert (w.start, w.nodes, w.finish) == (6, ("b", "c"), 10)


def test_cost_ties_go_to_the_slot_read_first() -> None:
    """Three equal nodes, all free from 0: AMP and min_cost take the first two in node order."""
    nodes = tuple(Node(x, 1.0, price=1.0) for x in ("x", "y", "z"))
    slots = tuple(Slot(x, 0, 10) for x in ("z", "y", "x"))
    inst = Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=2, volume=3.0),))
    for name in ("amp", "min_cost", "max_q", "dep", "coord", "min_runtime"):
        assert _found(inst, "j", name).nodes == ("x", "y"), name


def test_swap_heuristic_walkthrough() -> None:
    """Seed 003 Algorithm 2 on one start (V = 90, n = 2, budget 7, all slots [0, 100)).

    Node (p, price): x (9, 0.1), y (9, 0.2), m (10, 1/3), s (45, 2) give
    (cost, duration) x (1, 10), y (2, 10), m (3, 9), s (4, 2). At the last
    step: result {x, y} (cost 3); m is shorter than the longest (y, the
    dearer of two 10s): 3 − 2 + 3 = 4 ≤ 7, swap → {x, m}; s is shorter than
    x: 4 − 1 + 4 = 7 ≤ 7, swap → {m, s}, runtime 9. Exact: θ = 2 has one
    slot; θ = 9 gives {m, s} at cost 7. Both find runtime 9.
    """
    nodes = (Node("x", 9.0, 0.1), Node("y", 9.0, 0.2), Node("m", 10.0, 1 / 3), Node("s", 45.0, 2))
    slots = tuple(Slot(nd.id, 0, 100) for nd in nodes)
    inst = Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=2, volume=90.0, budget=7),))
    for name in ("min_runtime", "min_runtime_exact"):
        w = _found(inst, "j", name)
        assert (w.nodes, w.runtime, w.cost) == (("m", "s"), 9, 7)


class TestSquare:
    """The same instance in square geometry: all tasks last ``duration(V, min p)``.

    Levels (distinct durations, fastest first): 2 (only d), 4 (b, c, d: costs
    b 8, c 4, d 12), 8 (all: a 8, b 16, c 8, d 24). Level 2 never has two
    alive slots. Level 4 reads b at 4 and c at 6 (alive {b, c}, cost 12);
    at 10 adds d (alive b, c, d); at 20 only c, b'. Level 8 at T = 4 has
    {a, b} for 24 > 20 and at T = 6 {a, c} for 16.
    """

    def test_first_fit_is_earliest_over_levels(self, tiny_square: Instance) -> None:
        """AMP: level 4 fits at T = 6 ({b, c}, 12); level 8 cannot start earlier (T = 4: 24)."""
        w = _found(tiny_square, "j1", "amp")
        assert (w.start, w.nodes, w.cost, w.runtime) == (6, ("b", "c"), 12, 4)

    def test_max_q(self, tiny_square: Instance) -> None:
        """MaxQ: level 4 at T = 10 takes {b, d}: q 8 for cost 8 + 12 = 20."""
        w = _found(tiny_square, "j1", "max_q")
        assert (w.start, w.nodes, w.q, w.cost) == (10, ("b", "d"), 8.0, 20)

    def test_min_cost(self, tiny_square: Instance) -> None:
        """minCost: 12 at T = 6 ({b, c}); later ties do not replace it."""
        w = _found(tiny_square, "j1", "min_cost")
        assert (w.start, w.nodes, w.cost) == (6, ("b", "c"), 12)


def test_square_levels_are_performance_levels() -> None:
    """Two performances with one duration are two levels (SPEC §5), not one.

    V = 3, n = 1, square: node b (p = 1.5, price 1, q 0) and node a (p = 2,
    price 5, q 10), in that node order, both free on [0, 10); both tasks last
    ceil(3/1.5) = ceil(3/2) = 2, costs b 2, a 10. Level p = 2 admits only a:
    T = 0 → {a}, q 10, cost 10. Level p = 1.5 admits both: the cheapest is b,
    q 0. MaxQ Lite keeps q 10 → a; FirstFit takes the faster level's window
    on the start tie → a. (One merged level per duration would see only
    {b} then {a, b} and take b both times.) minCost still takes b (cost 2).
    """
    nodes = (Node("b", 1.5, price=1.0, q=0.0), Node("a", 2.0, price=5.0, q=10.0))
    slots = (Slot("b", 0, 10), Slot("a", 0, 10))
    inst = Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=1, volume=3.0),),
                    geometry="square")  # fmt: skip
    lite = _found(inst, "j", "max_q_lite")
    assert (lite.start, lite.nodes, lite.q) == (0, ("a",), 10.0)
    assert _found(inst, "j", "amp").nodes == ("a",)
    assert _found(inst, "j", "max_q").nodes == ("a",)
    assert _found(inst, "j", "min_cost").nodes == ("b",)


def test_geometry_is_the_instances(tiny: Instance) -> None:
    """Switching geometry by dataclasses.replace changes AMP's answer (4 rough, 6 square)."""
    square = dataclasses.replace(tiny, geometry="square")
    assert search(tiny, "j1", "amp").start == 4
    assert search(square, "j1", "amp").start == 6
