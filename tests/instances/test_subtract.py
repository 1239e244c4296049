"""Slot subtraction, SPEC §7 (seed 000 Fig. 6)."""

from __future__ import annotations

import pytest

from instances import Slot, subtract, subtract_interval


@pytest.mark.parametrize(
    ("start", "end", "left"),
    [
        (10, 14, [(14, 20)]),  # at the slot start: only the right part stays
        (16, 20, [(10, 16)]),  # at the slot end: only the left part stays
        (10, 20, []),  # the whole slot: nothing stays
        (12, 15, [(10, 12), (15, 20)]),  # in the middle: both parts stay, in order
    ],
)
def test_subtract_interval(start: int, end: int, left: list[tuple[int, int]]) -> None:
    """Taking [a, b) out of [s, e) leaves [s, a) if a > s and [b, e) if e > b."""
    slot = Slot("n", 10, 20, price=1.5)
    rest = subtract_interval(slot, start, end)
    assert [(s.start, s.end) for s in rest] == left
    assert all(s.node == "n" and s.price == 1.5 for s in rest)  # node and price carry over


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (8, 12),  # starts before the slot
        (18, 22),  # ends after the slot
        (0, 5),  # entirely outside
        (12, 12),  # empty interval
    ],
)
def test_subtract_interval_outside(start: int, end: int) -> None:
    """An interval not inside the slot is a ValueError naming both."""
    with pytest.raises(ValueError, match="not inside slot"):
        subtract_interval(Slot("n", 10, 20), start, end)


def test_subtract_keeps_the_list_sorted() -> None:
    """Several placements: remnants are re-sorted by (start, node order)."""
    order = {"x": 0, "y": 1}
    slots = [Slot("x", 0, 10), Slot("y", 0, 10), Slot("x", 20, 30)]
    rest = subtract(slots, [("x", 0, 4), ("y", 2, 6), ("x", 25, 30)], order)
    assert [(s.node, s.start, s.end) for s in rest] == [
        ("y", 0, 2),
        ("x", 4, 10),
        ("y", 6, 10),
        ("x", 20, 25),
    ]


def test_subtract_twice_from_one_slot() -> None:
    """A second interval in a remnant of the same slot is found in the remnant."""
    rest = subtract([Slot("x", 0, 10)], [("x", 2, 4), ("x", 6, 8)], {"x": 0})
    assert [(s.start, s.end) for s in rest] == [(0, 2), (4, 6), (8, 10)]


@pytest.mark.parametrize(
    "taken",
    [
        [("x", 8, 12)],  # crosses the slot end
        [("y", 0, 2)],  # no slot on that node
        [("x", 2, 4), ("x", 3, 5)],  # overlaps an interval already taken
    ],
)
def test_subtract_outside_free_time(taken: list[tuple[str, int, int]]) -> None:
    """An interval outside the free slots is a ValueError."""
    with pytest.raises(ValueError, match="not inside a free slot"):
        subtract([Slot("x", 0, 10)], taken, {"x": 0, "y": 1})
