"""Tests of the brute-force reference solver (validation/brute.py).

The expected answers are worked out by hand from the ``tiny`` fixture
(tests/conftest.py): rough durations for V = 8 are a 8, b 4, c 4, d 2 and
costs a 8, b 8, c 4, d 6; j1 needs n = 2 within budget 20.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from instances import CRITERIA, Instance, Job, Node, Slot
from validation import brute_force, brute_force_value, check_window, earliest_start


def _only(inst: Instance, job: Job) -> Instance:
    return dataclasses.replace(inst, jobs=(job,))


@pytest.mark.parametrize(
    ("criterion", "start", "nodes", "value"),
    [
        # T=4: a [4,12) in [0,20), b [4,8) in [4,14); cost 8+8=16; nothing at T=0.
        ("min_start", 4, ("a", "b"), 4),
        # T=6 {b,c}: both last 4, finish 10; every pair with a lasts 8, finishes >= 12.
        ("min_finish", 6, ("b", "c"), 10),
        # {c,d} at T=10 costs 4+6=10, the cheapest pair (d only lives in [10,16)).
        ("min_cost", 10, ("c", "d"), 10),
        # Pairs without a last 4; the earliest such pair is {b,c} at T=6.
        ("min_runtime", 6, ("b", "c"), 4),
        # {b,d} and {c,d} at T=10 both take 4+2=6; node order breaks the tie: b < c.
        ("min_proc_time", 10, ("b", "d"), 6),
        # q: a1 b3 c2 d5; {b,d} (cost 14) gives 8.
        ("max_q", 10, ("b", "d"), 8.0),
        # T=6 {a,b}: a min(6-0, 20-14)=6, b min(6-4, 14-10)=2 -> mean 4.
        ("dep", 6, ("a", "b"), 4.0),
        # T=6 {a,b}: a max(6,6)=6, b max(2,4)=4 -> 5; {b,d} at T=10 ties later.
        ("coord", 6, ("a", "b"), 5.0),
    ],
)
def test_every_criterion_rough(tiny: Instance, criterion: str, start: int, nodes, value) -> None:
    """Each SPEC §4 criterion's optimum on the tiny fixture, rough geometry (worked per row)."""
    w = brute_force(tiny, "j1", criterion)
    assert w is not None
    assert (w.start, w.nodes, w.value(criterion)) == (start, nodes, value)
    assert brute_force_value(tiny, "j1", criterion) == value
    assert check_window(tiny, "j1", w) == []


@pytest.mark.parametrize(
    ("criterion", "start", "nodes", "value"),
    [
        # Square: any pair with a lasts 8 (p=1); {a,b} at 4 or 6 costs 8+16 > 20;
        # {a,c} at T=6 costs 8+8=16 and a < b breaks the tie with {b,c}.
        ("min_start", 6, ("a", "c"), 6),
        # {b,c} at T=6: both last 4, cost 8+4=12, the cheapest pair.
        ("min_cost", 6, ("b", "c"), 12),
        # Pairs without a take 4+4=8 in square geometry; {b,c} is the earliest.
        ("min_proc_time", 6, ("b", "c"), 8),
        # {b,d} at T=10: both last 4, cost 8+12=20 = budget, q = 8.
        ("max_q", 10, ("b", "d"), 8.0),
        # {b,d} at T=10: b max(6, 0)=6, d max(0, 16-14)=2 -> 4.
        ("coord", 10, ("b", "d"), 4.0),
    ],
)
def test_square_geometry(tiny_square: Instance, criterion: str, start: int, nodes, value) -> None:
    """Square windows (SPEC §3): every task lasts duration(V, min p of the subset)."""
    w = brute_force(tiny_square, "j1", criterion)
    assert w is not None
    assert (w.start, w.nodes, w.value(criterion)) == (start, nodes, value)
    assert {p.duration for p in w.placements} == {8 if "a" in nodes else 4}
    assert check_window(tiny_square, "j1", w) == []


def test_default_criterion_is_the_jobs(tiny: Instance) -> None:
    """criterion=None uses the job's own (j1: min_start -> T=4)."""
    assert brute_force(tiny, "j1").start == 4
    assert earliest_start(tiny, "j1") == 4


def test_single_node_job(tiny: Instance) -> None:
    """n = 1: j2 needs os=linux (c or d); c costs 4 for 4 quanta, d 6 -> c at T=6."""
    w = brute_force(tiny, "j2")
    assert (w.start, w.nodes, w.cost) == (6, ("c",), 4)
    assert check_window(tiny, "j2", w) == []


@pytest.mark.parametrize(
    "job",
    [
        # Only d has p >= 3, but n = 2.
        Job("x", nodes=2, volume=8.0, min_performance=3.0),
        # More nodes than the instance has.
        Job("x", nodes=5, volume=1.0),
        # The cheapest pair {c,d} costs 10.
        Job("x", nodes=2, volume=8.0, budget=9),
        # P=2, V=40: b and c need 20 quanta, d 10 (its slot has 6); c's [6,30) needs
        # T <= 10 but b's only long slot [20,50) needs T >= 20.
        Job("x", nodes=2, volume=40.0, min_performance=2.0),
    ],
)
def test_infeasible(tiny: Instance, job: Job) -> None:
    """No feasible window -> None (and value None)."""
    inst = _only(tiny, job)
    assert brute_force(inst, job, "min_start") is None
    assert brute_force_value(inst, job, "min_cost") is None
    assert earliest_start(inst, job) is None


def test_empty_slot_list(tiny: Instance) -> None:
    """An empty slot list (given or the instance's) has no window."""
    assert brute_force(tiny, "j1", slots=[]) is None
    empty = tiny.with_slots([])
    assert brute_force(empty, "j1") is None


def test_budget_binds(tiny: Instance) -> None:
    """Budget 10 leaves only {c,d} (cost 4+6): min_start moves from 4 to 10."""
    job = dataclasses.replace(tiny.job("j1"), budget=10)
    inst = _only(tiny, job)
    w = brute_force(inst, job, "min_start")
    assert (w.start, w.nodes, w.cost) == (10, ("c", "d"), 10)
    assert check_window(inst, job, w) == []


def test_max_price_gives_the_budget(tiny: Instance) -> None:
    """Without budget, S = floor(C·V·n) = floor(0.6·8·2) = 9 < 10: infeasible."""
    job = Job("x", nodes=2, volume=8.0, max_price=0.6)
    assert brute_force(_only(tiny, job), job) is None


def test_release_clips_slots(tiny: Instance) -> None:
    """Release 8: windows start no earlier than 8; {a,b} at T=8, a's own slot [0, 20) recorded.

    The release restricts the window, not the neighbouring tasks (SPEC §3).
    """
    job = dataclasses.replace(tiny.job("j1"), release=8)
    inst = _only(tiny, job)
    w = brute_force(inst, job)
    assert (w.start, w.nodes) == (8, ("a", "b"))
    assert (w.placements[0].slot_start, w.placements[0].slot_end) == (0, 20)
    assert check_window(inst, job, w) == []


def test_deadline_clips_slots(tiny: Instance) -> None:
    """Deadline 11: a (8 quanta) at T=4 would end at 12; {b,c} at T=6 ends at 10."""
    job = dataclasses.replace(tiny.job("j1"), deadline=11)
    inst = _only(tiny, job)
    w = brute_force(inst, job)
    assert (w.start, w.nodes, w.finish) == (6, ("b", "c"), 10)
    assert check_window(inst, job, w) == []


def test_custom_slot_list(tiny: Instance) -> None:
    """Searching a reduced list: without b's first slot, {a,c} at T=6 is earliest."""
    slots = [s for s in tiny.slots if (s.node, s.start) != ("b", 4)]
    w = brute_force(tiny, "j1", slots=slots)
    assert (w.start, w.nodes) == (6, ("a", "c"))
    assert check_window(tiny, "j1", w, slots=slots) == []


def test_free_start_finds_better_dep(tiny: Instance) -> None:
    """dep loses in the AEP space (SPEC §4): {a,b} at T=33 gives min(9,9)=9, min(13,13)=13 -> 11."""
    w = brute_force(tiny, "j1", "dep", free_start=True)
    assert (w.start, w.nodes, w.near_distance) == (33, ("a", "b"), 11.0)
    assert brute_force_value(tiny, "j1", "dep") == 4.0
    assert check_window(tiny, "j1", w) == []


def test_guard_refuses_large_instances(tiny: Instance) -> None:
    """More suitable slots than max_slots -> ValueError naming the job."""
    with pytest.raises(ValueError, match="j1"):
        brute_force(tiny, "j1", max_slots=5)


def test_unknown_criterion(tiny: Instance) -> None:
    """An unknown criterion name is a ValueError listing the choices."""
    with pytest.raises(ValueError, match="min_cost"):
        brute_force(tiny, "j1", "fastest")


def _random_instance(rng: np.random.Generator, geometry: str) -> Instance:
    nodes = tuple(
        Node(
            f"n{i}",
            float(rng.choice([1.0, 1.5, 2.0, 4.0])),
            price=float(rng.choice([0.5, 1.0, 2.0, 3.0])),
            q=float(rng.integers(0, 5)),
        )
        for i in range(4)
    )
    slots = []
    for node in nodes:
        cuts = np.sort(rng.choice(np.arange(1, 40), size=4, replace=False))
        for a, b in ((0, cuts[0]), (cuts[1], cuts[2]), (cuts[3], 40)):
            if rng.random() < 0.7:
                slots.append(Slot(node.id, int(a), int(b)))
    release = int(rng.integers(0, 10)) if rng.random() < 0.3 else None
    deadline = int(rng.integers(25, 40)) if rng.random() < 0.3 else None
    budget = int(rng.integers(10, 60)) if rng.random() < 0.5 else None
    job = Job(
        "j", nodes=int(rng.integers(1, 4)), volume=float(rng.integers(3, 13)),
        budget=budget, release=release, deadline=deadline,
    )  # fmt: skip
    return Instance(nodes=nodes, slots=tuple(slots), jobs=(job,), geometry=geometry)


@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_aep_space_loses_nothing(geometry: str) -> None:
    """SPEC §4: except for dep/coord, trying only slot starts finds the free-start optimum.

    40 seeded random 4-node instances per geometry (with release, deadline
    and budget sometimes set); every optimum also passes the checker.
    """
    rng = np.random.default_rng(20261122)
    criteria = [c for c in CRITERIA if c not in ("dep", "coord")]
    found = 0
    for _ in range(40):
        inst = _random_instance(rng, geometry)
        job = inst.jobs[0]
        for c in criteria:
            aep = brute_force(inst, job, c)
            free = brute_force(inst, job, c, free_start=True)
            assert (aep is None) == (free is None)
            if aep is not None:
                found += 1
                assert aep.value(c) == pytest.approx(free.value(c))
                assert check_window(inst, job, aep) == []
                assert check_window(inst, job, free) == []
    assert found > 40  # the comparison is not vacuous


def test_independent_of_the_code_it_checks(tiny: Instance, monkeypatch) -> None:
    """The brute force values windows and filters slots itself (no shared code with the search).

    With Window's metric methods, Instance.suitable_slots, Job.suits and
    planner.make_window all broken, it still finds j2's min_cost window
    (c at T = 6, cost 4: see test_single_node_job) and j1's dep optimum 4.
    """
    from planner import window as window_module

    def broken(*args, **kwargs):
        raise AssertionError("the brute force must not call this")

    monkeypatch.setattr(window_module.Window, "metric", broken)
    monkeypatch.setattr(window_module.Window, "value", broken)
    monkeypatch.setattr(window_module, "make_window", broken)
    monkeypatch.setattr(Instance, "suitable_slots", broken)
    monkeypatch.setattr(Job, "suits", broken)
    assert brute_force_value(tiny, "j2", "min_cost") == 4
    assert brute_force_value(tiny, "j1", "dep") == 4.0
    w = brute_force(tiny, "j2", "min_cost")
    assert (w.start, w.nodes) == (6, ("c",))


@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_own_value_matches_the_window(geometry: str) -> None:
    """The brute force's own value equals its window's metric and passes the checker."""
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(30):
        inst = _random_instance(rng, geometry)
        job = inst.jobs[0]
        for c in CRITERIA:
            w = brute_force(inst, job, c)
            v = brute_force_value(inst, job, c)
            assert (w is None) == (v is None)
            if w is not None:
                checked += 1
                assert w.value(c) == pytest.approx(v, abs=1e-9)
                assert check_window(inst, job, w) == []
    assert checked > 30
