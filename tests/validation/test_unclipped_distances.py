"""DEP/COORD distances are measured to the slot's own edges, not to a release or deadline (SPEC §3).

Nodes a and b (p = 1, price 0), free a [0, 30) and b [8, 22); one job of
n = 1, V = 4 with release 10 and deadline 20. Both slots clip to the same
range [10, 20), so distances to the clipped edges cannot tell them apart
(a would win every tie, being first in node order). To the slots' own edges:

- AEP space (the only slot start is the release, T = 10): a (10, 16),
  b (2, 8): DEP (max near) takes a with 10, COORD (min far) takes b with 8;
- any integer start, T in [10, 16]: a's near min(T, 26 − T) peaks at 13
  (13), b's far max(T − 8, 18 − T) bottoms at 13 (5).

The heuristics, the brute force, the exact models and the checker must
all agree on these values.
"""

from __future__ import annotations

import dataclasses

import pytest

from instances import Instance, Job, Node, Slot
from models import solve_window
from planner import search
from validation import brute_force, brute_force_value, check_window

JOB = Job("j", nodes=1, volume=4.0, release=10, deadline=20)
INST = Instance(
    nodes=(Node("a", 1.0, price=0.0), Node("b", 1.0, price=0.0)),
    slots=(Slot("a", 0, 30), Slot("b", 8, 22)),
    jobs=(JOB,),
)


@pytest.mark.parametrize(
    ("criterion", "free_start", "node", "start", "value"),
    [
        ("dep", False, "a", 10, 10.0),  # a: min(10, 16); b: min(2, 8)
        ("coord", False, "b", 10, 8.0),  # a: max(10, 16); b: max(2, 8)
        ("dep", True, "a", 13, 13.0),  # clipped edges would give min(3, 3) = 3
        ("coord", True, "b", 13, 5.0),  # clipped edges would give max(3, 3) = 3, on a
    ],
)
def test_brute_force_and_models_measure_to_the_slot_edges(
    criterion: str, free_start: bool, node: str, start: int, value: float
) -> None:
    """The brute force and every exact solver find the unclipped optimum; the checker agrees."""
    w = brute_force(INST, JOB, criterion, free_start=free_start)
    assert (w.nodes, w.start) == ((node,), start)
    assert brute_force_value(INST, JOB, criterion, free_start=free_start) == value
    assert check_window(INST, JOB, w) == []
    for solver in ("cpsat", "dp"):
        res = solve_window(INST, JOB, criterion, solver, free_start=free_start)
        assert res.status == "optimal", solver
        assert res.objective == pytest.approx(value), solver
        assert res.window.nodes == (node,), solver
        assert check_window(INST, JOB, res.window) == [], solver


@pytest.mark.parametrize(
    ("name", "node", "value"),
    [
        ("dep", "a", 10.0),
        ("coord", "b", 8.0),
        ("dep_lite", "a", 10.0),  # Lite takes the n cheapest: a (tie, node order)
        ("coord_lite", "a", 16.0),  # clipped edges would give max(0, 6) = 6
    ],
)
def test_heuristics_measure_to_the_slot_edges(name: str, node: str, value: float) -> None:
    """The AEP heuristics (T = 10, the release) value windows by the slots' own edges."""
    w = search(INST, JOB, name)
    assert w is not None and w.nodes == (node,)
    assert w.value(name.removesuffix("_lite")) == value
    assert (w.placements[0].slot_start, w.placements[0].slot_end) == (
        (0, 30) if node == "a" else (8, 22)
    )
    assert check_window(INST, JOB, w) == []


def test_checker_rejects_a_clipped_record() -> None:
    """A placement recording the clipped range [10, 20) instead of its slot [0, 30) is flagged."""
    w = brute_force(INST, JOB, "dep")
    p = dataclasses.replace(w.placements[0], slot_start=10, slot_end=20)
    fake = dataclasses.replace(w, placements=(p,))
    rules = {v.split(":")[0] for v in check_window(INST, JOB, fake)}
    assert "slot" in rules and "metric" in rules
