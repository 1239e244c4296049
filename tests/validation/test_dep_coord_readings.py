"""The readings measured by the ``dep-coord`` and ``maxq`` sensitivity tables (Toporkov &
Yemelyanov 2018, seed 004 §3.4, §4.2–4.3), on hand-built instances with the numbers written out."""

from __future__ import annotations

import itertools

import pytest

from instances import Busy, Instance, Job, Node
from planner.heuristics.algorithms import build
from planner.heuristics.feed import Feed
from planner.window import Placement, Window
from validation import check_window
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce import dep_coord
from validation.study.reproduce import dep_coord_readings as readings
from validation.study.reproduce.common import reference


def _two_task_window() -> Window:
    """Start 20, length 10: on n1 (slot [10, 60]) t_prev 10, t_next 30; on n2 (slot [0, 35])
    t_prev 20, t_next 5 (its slot starts at the interval start 0)."""
    return Window("j", 20, (Placement("n1", 20, 30, 1, 10, 60), Placement("n2", 20, 30, 1, 0, 35)))


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        # the §3.4 formulas: near (min(10, 30) + min(20, 5)) / 2, far (max(10, 30) + max(20, 5)) / 2
        ("mean of per-task min / max (used, §3.4 formulas)", (7.5, 25.0)),
        # near: (10 + 20) / 2, the previous task only; far as in the formulas
        ("nearest = time since the previous task only", (15.0, 25.0)),
        # near: min(10, 30, 20, 5); far: max(10, 30, 20, 5)
        ("min / max over the window's tasks", (5.0, 30.0)),
    ],
)
def test_distance_definitions_on_a_hand_built_window(label: str, expected: tuple) -> None:
    """Each reading of "distance to the nearest / farthest neighbouring task" gives the numbers
    worked out by hand in the row's comment."""
    assert readings.DEFINITIONS[label](_two_task_window()) == pytest.approx(expected)


def test_edges_no_task_keeps_only_real_neighbours() -> None:
    """With the interval [0, 100], n2's slot starts at the interval edge: only its t_next (5)
    remains, so near = (min(10, 30) + 5) / 2 = 7.5 and far = (max(10, 30) + 5) / 2 = 17.5."""
    assert readings.edge_free(_two_task_window(), (0, 100)) == (7.5, 17.5)


def _levels_instance(budget: int) -> Instance:
    """a, b: performance 10, price 1 (task 2 quanta for V = 20), a busy until 10; c, d:
    performance 5, price 0.5 (task 4 quanta). Job: n = 2, V = 20, budget ``budget``."""
    nodes = (Node("a", 10.0, 1.0), Node("b", 10.0, 1.0), Node("c", 5.0, 0.5), Node("d", 5.0, 0.5))
    job = Job("j", nodes=2, volume=20.0, budget=budget)
    return Instance(nodes=nodes, busy=(Busy("a", 0, 10),), jobs=(job,), horizon=(0, 20),
                    geometry="square")  # fmt: skip


@pytest.mark.parametrize(
    ("first_level", "by_start", "start", "nodes"),
    [
        # level 10 has a window only at 10 (a frees then); level 5 has {c, d} (cost 2 + 2) at 0
        (False, False, 0, ["c", "d"]),
        # the first level with a window is the fastest one: a, b at 10 (cost 2 + 2)
        (True, False, 10, ["a", "b"]),
        # level 5's first two by start are b, c at 0: 4 + 2 = 6 > 5, and stay so; level 10 wins
        (False, True, 10, ["a", "b"]),
        (True, True, 10, ["a", "b"]),
    ],
)
def test_first_fit_readings_on_a_hand_built_instance(
    first_level: bool, by_start: bool, start: int, nodes: list[str]
) -> None:
    """FirstFit's readings (earliest start over the groups or the first group's window; the n
    cheapest or the first n by start) return the windows worked out in the rows' comments, and
    each is a valid window."""
    inst = _levels_instance(budget=5)
    job = inst.jobs[0]
    feed = Feed(inst, job)
    got = readings.first_fit_pick(feed, first_level=first_level, by_start=by_start)
    assert got is not None
    w = build(feed, *got)
    assert (w.start, [p.node for p in w.placements]) == (start, nodes)
    assert check_window(inst, job, w) == []


def test_default_reading_alternatives_are_multiple_best_s() -> None:
    """With the project's FirstFit reading, the readings' alternatives loop finds MultipleBest's
    alternatives (same count and starts as ``find_alternatives(..., "amp")``) and picks the
    windows ``search(..., "csa")`` returns for dep and coord."""
    import dataclasses

    from instances import generate
    from planner import find_alternatives, search

    ref = reference("dep-coord")
    inst = generate(ref["family"], instance_seed(0, 0), **ref["params"])
    job = inst.jobs[0]
    found = readings.alternatives(inst, job, first_level=False, by_start=False)
    amp = find_alternatives(inst, "amp").windows
    assert [w.start for w in found] == [w.start for w in amp] and len(found) > 10
    for crit, metric in (("dep", "near_distance"), ("coord", "far_distance")):
        csa = search(inst, dataclasses.replace(job, criterion=crit), "csa")
        assert getattr(dep_coord.best_alternative(found, metric), metric) == getattr(csa, metric)


def test_first_group_reading_restarts_each_search_at_the_list_start() -> None:
    """Under FF1 (first group's first window) a later search may find an earlier window in a
    slower group, so the loop restarts from the list's start and ends only when no FF1 window
    is left on the slots it has not used (the loop once resumed at the previous start: on seed 0
    it stopped at 27 alternatives with windows from t = 0 left; now 40); the alternatives are
    valid and pairwise disjoint."""
    from instances import generate
    from planner.heuristics.slotlist import SlotList

    ref = reference("dep-coord")
    inst = generate(ref["family"], instance_seed(0, 0), **ref["params"])
    job = inst.jobs[0]
    found = readings.alternatives(inst, job, first_level=True, by_start=False)
    assert all(check_window(inst, job, w) == [] for w in found)
    used = [(p.node, p.start, p.end) for w in found for p in w.placements]
    for (n1, s1, e1), (n2, s2, e2) in itertools.combinations(used, 2):
        assert n1 != n2 or e1 <= s2 or e2 <= s1
    free = SlotList([clipped for clipped, _ in inst.suitable_pairs(job, None)], inst.node_index)
    for node, start, end in used:
        free.subtract(node, start, end)
    left = Feed(inst, job, free.slots())
    assert readings.first_fit_pick(left, first_level=True, by_start=False) is None
    assert min(w.start for w in found[3:]) < found[2].start  # found after a later one


def test_history_layout_keeps_the_interval_end_as_an_edge() -> None:
    """``history-L``: local tasks start L = 300 before the interval, none after its end; each node
    keeps its load share; FirstFit's window lies in [0, 1200] and some of its slots begin
    before 0 (a real previous task), so its near distance is no longer 0."""
    from instances import generate
    from planner import search

    ref = reference("dep-coord")
    inst = generate(ref["family"], instance_seed(0, 0), **ref["params"])
    hist = readings.layout_instance(inst, "history-300", instance_seed(0, 0))
    assert hist.horizon == (-300, 1200) and all(b.end <= 1200 for b in hist.busy)
    for node in inst.nodes:
        before = sum(b.end - b.start for b in inst.busy if b.node == node.id) / 1200
        after = sum(b.end - b.start for b in hist.busy if b.node == node.id) / 1500
        assert after == pytest.approx(before, abs=1 / 1500)
    job = hist.jobs[0]
    w = search(hist, job, "first_fit")
    assert check_window(hist, job, w) == []
    assert w.start >= 0 and all(p.end <= 1200 for p in w.placements)
    assert any(p.slot_start < 0 for p in w.placements) and w.near_distance > 0


def test_error_and_orderings_against_the_paper_s_own_table() -> None:
    """The paper's Table 1 has mean relative error 0 and both orderings; raising COORD's far
    distance from 52 to 160 adds |160 - 52| / 52 / 12 = 0.173 and breaks the far ordering
    (COORD above MultipleBest's 159) but not the near one."""
    ref = reference("dep-coord")
    table = {f"{a} {q}": ref["paper"][a][f"{q}_distance"]["value"]
             for a in dep_coord.ALGORITHMS for q in ("near", "far")}  # fmt: skip
    assert dep_coord.rel_error(table, ref) == 0 and dep_coord.orderings(table) == "yes/yes"
    table["coord far"] = 160
    assert dep_coord.rel_error(table, ref) == pytest.approx(108 / 52 / 12)
    assert dep_coord.orderings(table) == "yes/no"
    table["coord far"] = None
    assert dep_coord.rel_error(table, ref) is None and dep_coord.orderings(table) == "-"


def test_unknown_layout_is_rejected() -> None:
    """A layout name outside gaps / busy-start / wide-L / history-L is an error, not a no-op."""
    with pytest.raises(ValueError, match="unknown load layout 'edges'"):
        readings.layout_instance(None, "edges", 0)


def test_maxq_no_budget_reading_drops_only_the_budget() -> None:
    """``maxq``'s "no budget" reading counts the alternatives of the same instance with S
    removed; with S every alternative costs at most S = 644."""
    import dataclasses

    from instances import generate
    from planner import find_alternatives
    from validation.study.reproduce import maxq

    ref = reference("maxq")
    inst = generate(ref["family"], instance_seed(0, 0), **ref["params"])
    free = dataclasses.replace(inst, jobs=(dataclasses.replace(inst.jobs[0], budget=None),))
    used = maxq.measure(0, 1)
    assert used["alternative cost"] <= 644
    assert 1 <= used["alternative nodes at its level"] <= 7
    assert maxq.measure(0, 1, {"budget": None})["alternatives"] == len(
        find_alternatives(free, "amp").windows
    )


def test_busy_at_start_share_moves_the_first_task_of_that_share_only() -> None:
    """Four nodes whose only local task is [5, 15): share 1 moves all four to [0, 10); share 0.5
    moves some (a seeded subset) and leaves the others where they were; the load is kept."""
    nodes = tuple(Node(f"n{k}", 1.0, 1.0) for k in range(4))
    job = Job("j", nodes=1, volume=1.0)
    inst = Instance(nodes=nodes, jobs=(job,), horizon=(0, 40),
                    busy=tuple(Busy(n.id, 5, 15) for n in nodes))  # fmt: skip
    every = readings.busy_at_start(inst)
    assert sorted((b.start, b.end) for b in every.busy) == [(0, 10)] * 4
    half = readings.busy_at_start(inst, 0.5, seed=3)
    spans = [(b.start, b.end) for b in half.busy]
    assert set(spans) == {(0, 10), (5, 15)} and sum(e - s for s, e in spans) == 40
    assert half == readings.busy_at_start(inst, 0.5, seed=3)
    assert readings.busy_at_start(inst, 0.0).busy == inst.busy


def test_reading_instance_applies_family_parameters_layout_and_budget() -> None:
    """The default reading is the generated instance itself; a reading of real performance, the
    history-300 layout and no budget gives nodes of non-integer performance in [2, 10], local
    tasks from -300 on and a job without S, the rest of the job unchanged."""
    from instances import generate

    ref = reference("dep-coord")
    seed = instance_seed(0, 0)
    plain = readings.reading_instance(ref["family"], ref["params"], seed)
    assert plain == generate(ref["family"], seed, **ref["params"])
    got = readings.reading_instance(ref["family"], ref["params"], seed,
                                    {"performance_values": "real", "layout": "history-300",
                                     "budget": None})  # fmt: skip
    perf = [n.performance for n in got.nodes]
    assert all(2 <= p <= 10 for p in perf) and any(p != int(p) for p in perf)
    assert got.horizon == (-300, 1200) and got.jobs[0].budget is None
    assert got.jobs[0].nodes == 7 and got.jobs[0].volume == 800
    assert plain.jobs[0].budget == 644


def test_reading_instance_keeps_a_numeric_budget() -> None:
    """A reading that sets the budget to a number (not None) reaches the job: it was once
    dropped silently, leaving S = 644."""
    ref = reference("dep-coord")
    got = readings.reading_instance(ref["family"], ref["params"], instance_seed(0, 0),
                                    {"budget": 700, "layout": "history-300"})  # fmt: skip
    assert got.jobs[0].budget == 700


def test_real_performance_windows_sit_at_their_slowest_node_s_level() -> None:
    """Under real-valued performance nearly every node is its own performance level; the
    square windows of FirstFit, MaxQ Lite and DEP Lite then last ceil(V / p) for the slowest
    node p of the window (§3.2 step 3a, the level P_k that must be in L_k by step 3c(5)i) and
    pass the checker."""
    from instances.units import duration
    from planner import search

    ref = reference("dep-coord")
    inst = readings.reading_instance(ref["family"], ref["params"], instance_seed(0, 1),
                                     {"performance_values": "real"})  # fmt: skip
    perf = {n.id: n.performance for n in inst.nodes}
    assert len(set(perf.values())) > 90
    job = inst.jobs[0]
    for name in ("first_fit", "max_q_lite", "dep_lite"):
        w = search(inst, job, name)
        assert w is not None and check_window(inst, job, w) == []
        slowest = min(perf[p.node] for p in w.placements)
        assert {p.duration for p in w.placements} == {duration(job.volume, slowest)}


@pytest.mark.parametrize(
    ("second", "found"),
    [
        # both nodes at performance 4: tasks of V / 4 = 10 quanta, cost 4 + 4 = 8 = S
        (4.0, True),
        # the second node at 5 (price 0.5): level 5 has one node; level 4 costs 4 + 5 = 9 > S = 8
        (5.0, False),
    ],
)
def test_distinct_performance_levels_price_a_square_window_above_the_market_budget(
    second: float, found: bool
) -> None:
    """With price c · p and S = c · V · n (c = 0.1, V = 40, n = 2: S = 8), a square window on one
    performance level costs exactly S, while one joining a faster node pays that node's higher
    price for the slower node's task length: the cause of the fewer affordable windows (and
    MultipleBest alternatives) under real-valued performance."""
    from planner import search

    nodes = (Node("a", 4.0, 0.4), Node("b", second, 0.1 * second))
    job = Job("j", nodes=2, volume=40.0, budget=8)
    inst = Instance(nodes=nodes, busy=(), jobs=(job,), horizon=(0, 20), geometry="square")
    w = search(inst, job, "first_fit")
    assert (w is not None) == found
    if w is not None:
        assert (w.start, w.cost) == (0, 8) and check_window(inst, job, w) == []


def test_load_readings_keep_the_reference_instance_and_load_shares() -> None:
    """The load readings (seed 004 §4.1: "advanced reservations and local jobs") redraw only the
    tasks: explicit default lengths give the byte-identical history instance; 80–400-long local
    jobs keep the nodes, q values, job and each node's load share; half reservations put about
    half of each node's load into tasks of 80–400 (79 more at most: a merged remainder)."""
    ref = reference("dep-coord")
    seed = instance_seed(0, 0)
    hist = readings.reading_instance(ref["family"], ref["params"], seed,
                                     {"layout": "history-600"})  # fmt: skip
    same = readings.reading_instance(ref["family"], ref["params"], seed,
                                     {"layout": "history-600", "task_length_min": 10,
                                      "task_length_max": 103, "reserved": 0.0})  # fmt: skip
    assert repr(same) == repr(hist)
    long = readings.reading_instance(ref["family"], ref["params"], seed,
                                     {"layout": "history-600", "task_length_min": 80,
                                      "task_length_max": 400})  # fmt: skip
    mixed = readings.reading_instance(ref["family"], ref["params"], seed,
                                      {"layout": "history-600", "reserved": 0.5})  # fmt: skip
    for other in (long, mixed):
        assert other.nodes == hist.nodes and other.jobs == hist.jobs
        assert other.horizon == hist.horizon == (-600, 1200)
        for node in hist.nodes:
            assert sum(b.end - b.start for b in other.busy if b.node == node.id) == sum(
                b.end - b.start for b in hist.busy if b.node == node.id)
    assert min(b.end - b.start for b in long.busy) >= 80
    assert len(long.busy) < len(hist.busy) / 3
    reserved = sum(b.end - b.start for b in mixed.busy if b.end - b.start >= 80)
    total = sum(b.end - b.start for b in mixed.busy)
    assert 0.45 < reserved / total < 0.75  # half, plus local jobs that happen to reach 80+


def test_uniform_levels_reading_draws_shares_in_the_family_range() -> None:
    """``uniform_levels``: each node's load share uniform in [load_min, load_max] = [0, 0.3]
    (seed 004 §4.1's "up to 30%"), spread wider than the hypergeometric levels."""
    import numpy as np

    ref = reference("dep-coord")
    seed = instance_seed(0, 0)
    shares = {}
    for reading in ({}, {"uniform_levels": True}):
        inst = readings.reading_instance(ref["family"], ref["params"], seed,
                                         {"layout": "history-1200", **reading})  # fmt: skip
        shares[bool(reading)] = np.array([sum(b.end - b.start for b in inst.busy
                                              if b.node == n.id) / 2400 for n in inst.nodes])
    assert shares[True].min() >= 0 and shares[True].max() <= 0.3 + 1e-3
    assert shares[True].std() > 1.5 * shares[False].std()


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"local": (0, 10)}, "'local' must satisfy"),  # zero-length local jobs
        ({"reservation": (400, 80)}, "'reservation' must satisfy"),  # reversed range
        ({"reserved": 1.5}, "'reserved' must be in"),  # more than the whole load
        ({"levels": (0.2, 0.1)}, "'levels' must satisfy"),  # reversed level range
        ({"width": 0}, "'width' must be >= 1"),  # a reservation on no node
        ({"width": 7}, "'width' must be >= 1"),  # co-allocated reservations without any reserved
    ],
)
def test_load_reading_rejects_bad_values(kwargs: dict, needle: str) -> None:
    """A bad :class:`LoadReading` raises a one-line ValueError naming the field."""
    with pytest.raises(ValueError, match=needle) as err:
        readings.LoadReading(**kwargs)
    assert "\n" not in str(err.value)


def test_redrawing_readings_need_a_redrawing_layout() -> None:
    """``reserved`` and ``uniform_levels`` redraw the load, which only wide-L / history-L do;
    on the generated layout they are an error, not a silent no-op."""
    ref = reference("dep-coord")
    for reading in ({"reserved": 0.5}, {"uniform_levels": True}):
        with pytest.raises(ValueError, match="need a wide-L or history-L layout"):
            readings.reading_instance(ref["family"], ref["params"], 0, reading)


def test_co_allocated_reservations_share_one_span_on_width_nodes() -> None:
    """``width`` = 3 on six nodes, each 20% loaded over [0, 1000]: half the total load (600)
    is reservations, each the same span on 3 distinct nodes (so at least 600 / 3 in spans of
    80–400 each); no node's tasks overlap; the same seed gives the same load. A load that
    random placement cannot fit (90% of every node in 6-node blocks, 50 draws) is an error."""
    import itertools

    import numpy as np

    load = readings.LoadReading(reserved=0.5, width=3)
    nodes = [f"n{k}" for k in range(6)]

    def draw() -> list:
        return load.co_allocated(np.random.default_rng(5), nodes, (0, 1000), [0.2] * 6)

    busy = draw()
    assert busy == draw()
    spans: dict[tuple[int, int], set[str]] = {}
    for b in busy:
        if b.end - b.start >= 80:
            spans.setdefault((b.start, b.end), set()).add(b.node)
    shared = {span: on for span, on in spans.items() if len(on) == 3}
    assert sum(3 * (e - s) for s, e in shared) >= 600
    for node in nodes:
        own = sorted((b.start, b.end) for b in busy if b.node == node)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(own))
    with pytest.raises(ValueError, match="do not fit the load"):
        readings.LoadReading(reserved=1.0, width=6).co_allocated(
            np.random.default_rng(0), nodes, (0, 1000), [0.9] * 6, tries=50)
