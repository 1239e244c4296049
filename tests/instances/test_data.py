"""Validation and derived data of Node, Slot, Busy, Job and Instance (SPEC §2)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest

from instances import Busy, DataError, Instance, Job, Node, Slot

NODES = (Node("a", 1.0), Node("b", 2.0))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"id": "", "performance": 1.0}, "id: must be a non-empty string"),  # empty id
        ({"id": 3, "performance": 1.0}, "id: must be a non-empty string"),  # id not a string
        ({"id": "a", "performance": 0}, "performance: must be a finite number >="),  # p = 0
        ({"id": "a", "performance": -1.0}, "performance: must be a finite number >="),  # p < 0
        ({"id": "a", "performance": math.inf}, "performance: must be a finite number >="),  # inf
        ({"id": "a", "performance": math.nan}, "performance: must be a finite number >="),  # NaN
        ({"id": "a", "performance": True}, "performance: must be a finite number >="),  # bool
        ({"id": "a", "performance": "1"}, "performance: must be a finite number >="),  # text
        ({"id": "a", "performance": 1, "price": -0.5}, "price: must be a finite number >= 0"),
        ({"id": "a", "performance": 1, "q": math.nan}, "q: must be a finite number"),  # NaN q
        ({"id": "a", "performance": 1, "attributes": []}, "attributes: must be an object"),
        # attribute values are numbers or strings, not booleans
        ({"id": "a", "performance": 1, "attributes": {"gpu": True}}, "attributes.gpu: must be"),
        # an int too large for a float is not a finite performance (no OverflowError)
        ({"id": "a", "performance": 10**400}, "performance: must be a finite number >="),
        # attribute names are strings (the file format's object keys)
        ({"id": "a", "performance": 1, "attributes": {1: 2}}, "attributes: names must be"),
    ],
)
def test_invalid_node(kwargs: dict[str, Any], message: str) -> None:
    """Each Node rule raises a one-line DataError naming the field and the rule."""
    with pytest.raises(DataError, match=f"^{message}"):
        Node(**kwargs)


def test_node_coerces_numbers() -> None:
    """Integer performance and price are stored as floats; defaults are price 0, q 0."""
    n = Node("a", 2)
    assert (n.performance, n.price, n.q, n.attributes) == (2.0, 0.0, 0.0, {})
    assert isinstance(n.performance, float)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a", 5, 5), "end: must be greater than start"),  # empty interval
        (("a", 6, 5), "end: must be greater than start"),  # reversed
        (("a", 0.0, 5), "start: must be an integer"),  # float start
        (("a", 0, 5.5), "end: must be an integer"),  # float end
        (("a", True, 5), "start: must be an integer"),  # bool is not an integer
        (("", 0, 5), "node: must be a non-empty string"),  # empty node id
        (("a", 0, 5, -1.0), "price: must be a finite number >= 0"),  # negative slot price
    ],
)
def test_invalid_slot(args: tuple[Any, ...], message: str) -> None:
    """Each Slot rule raises a DataError naming the field."""
    with pytest.raises(DataError, match=f"^{message}"):
        Slot(*args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a", 5, 5), "end: must be greater than start"),  # empty interval
        (("a", 0.5, 5), "start: must be an integer"),  # float start
    ],
)
def test_invalid_busy(args: tuple[Any, ...], message: str) -> None:
    """Busy intervals follow the Slot interval rules."""
    with pytest.raises(DataError, match=f"^{message}"):
        Busy(*args)


def test_slot_length() -> None:
    """length = end - start."""
    assert Slot("a", 3, 10).length == 7


JOB = {"id": "j", "nodes": 2, "volume": 10.0}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"id": ""}, "id: must be a non-empty string"),  # empty id
        ({"nodes": 0}, "nodes: must be an integer >= 1"),  # no node
        ({"nodes": 2.0}, "nodes: must be an integer >= 1"),  # float count
        ({"volume": 0}, "volume: must be a finite number > 0"),  # zero volume
        ({"volume": math.inf}, "volume: must be a finite number > 0"),  # infinite volume
        ({"min_performance": -1}, "min_performance: must be a finite number >= 0"),
        ({"budget": -1}, "budget: must be an integer >= 0"),  # negative budget
        ({"budget": 10.5}, "budget: must be an integer >= 0"),  # fractional budget
        ({"max_price": -1}, "max_price: must be a finite number >= 0"),  # negative cap
        ({"requirements": [1]}, "requirements: must be an object"),  # not a mapping
        ({"requirements": {"ram": math.nan}}, "requirements.ram: must be a finite number"),
        ({"criterion": "fastest"}, "criterion: must be one of min_start"),  # unknown criterion
        ({"deadline": 5.5}, "deadline: must be an integer"),  # fractional deadline
        ({"release": "0"}, "release: must be an integer"),  # text release
        ({"release": 5, "deadline": 5}, "deadline: must be greater than release"),  # empty span
        ({"priority": math.nan}, "priority: must be a finite number"),  # NaN priority
        ({"criterion": ["min_cost"]}, "criterion: must be one of"),  # not a string (unhashable)
        ({"criterion": None}, "criterion: must be one of"),  # None is not a criterion
        ({"requirements": {1: 2}}, "requirements: names must be strings"),  # non-string name
        ({"volume": 10**400}, "volume: must be a finite number > 0"),  # overflows a float
    ],
)
def test_invalid_job(extra: dict[str, Any], message: str) -> None:
    """Each Job rule raises a one-line DataError naming the field and the rule."""
    with pytest.raises(DataError, match=f"^{message}"):
        Job(**{**JOB, **extra})


@pytest.mark.parametrize(
    ("extra", "budget"),
    [
        ({}, None),  # neither: unbounded
        ({"budget": 50}, 50),  # explicit budget
        ({"budget": 50, "max_price": 9.0}, 50),  # budget wins over the price cap
        ({"max_price": 1.5}, 30),  # floor(1.5 · 10 · 2) = 30 (seed 000, S = CtN)
        ({"max_price": 0.33}, 6),  # floor(6.6) = 6
    ],
)
def test_effective_budget(extra: dict[str, Any], budget: int | None) -> None:
    """S = budget, else floor(C·V·n), else unbounded (SPEC §2)."""
    assert Job(**{**JOB, **extra}).effective_budget == budget


@pytest.mark.parametrize(
    ("requirements", "min_performance", "suits"),
    [
        ({}, 0.0, [True, True, True]),  # no requirement
        ({}, 2.0, [False, True, True]),  # p >= 2
        ({"ram": 8}, 0.0, [False, True, True]),  # numeric minimum; a has no ram
        ({"ram": 16}, 0.0, [False, False, True]),  # b has only 8
        ({"os": "linux"}, 0.0, [False, True, False]),  # exact string
        ({"os": "lin"}, 0.0, [False, False, False]),  # strings match exactly, not by prefix
        ({"ram": "8"}, 0.0, [False, False, False]),  # a string never matches a number
        ({"os": 1}, 0.0, [False, False, False]),  # a number never matches a string
        ({"ram": 8, "os": "linux"}, 2.0, [False, True, False]),  # all must hold
    ],
)
def test_suitability(requirements: dict[str, Any], min_performance: float, suits) -> None:
    """A node suits a job when p >= P and every requirement holds (SPEC §2)."""
    nodes = [
        Node("a", 1.0),
        Node("b", 2.0, attributes={"ram": 8, "os": "linux"}),
        Node("c", 4.0, attributes={"ram": 32, "os": "windows"}),
    ]
    job = Job("j", 1, 1.0, min_performance=min_performance, requirements=requirements)
    assert [job.suits(n) for n in nodes] == suits


def _instance(**kwargs: Any) -> Instance:
    base: dict[str, Any] = {"nodes": NODES, "slots": (Slot("a", 0, 10),)}
    return Instance(**{**base, **kwargs})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        # duplicate node id
        ({"nodes": (Node("a", 1.0), Node("a", 2.0))}, r"^nodes\[1\]\.id: duplicate id 'a'"),
        # duplicate job id
        ({"jobs": (Job("j", 1, 1.0), Job("j", 1, 2.0))}, r"^jobs\[1\]\.id: duplicate id 'j'"),
        # slot on an unknown node
        ({"slots": (Slot("zz", 0, 5),)}, r"^slots\[0\]\.node: unknown node 'zz'"),
        # overlapping slots on one node
        ({"slots": (Slot("a", 0, 5), Slot("a", 4, 8))}, r"^slots\[1\]: overlaps slots\[0\]"),
        # slot outside the horizon
        ({"horizon": (0, 5)}, r"^slots\[0\]: must lie inside the horizon"),
        # horizon with start >= end
        ({"horizon": (5, 5)}, r"^horizon: start must be less than end"),
        # horizon of non-integers
        ({"horizon": (0, 5.0)}, r"^horizon: must be two integers"),
        # neither slots nor busy
        ({"slots": None}, r"one of slots and busy must be given"),
        # busy without a horizon
        ({"slots": None, "busy": (Busy("a", 0, 2),)}, r"^horizon: is required when busy"),
        # busy on an unknown node
        (
            {"slots": None, "busy": (Busy("zz", 0, 2),), "horizon": (0, 10)},
            r"^busy\[0\]\.node: unknown node 'zz'",
        ),
        # unknown geometry
        ({"geometry": "round"}, r"^geometry: must be one of rough, square"),
        # name not a string
        ({"name": 3}, r"^name: must be a string"),
    ],
)
def test_invalid_instance(kwargs: dict[str, Any], message: str) -> None:
    """Cross-object rules are checked once, in Instance, with the offending path."""
    with pytest.raises(DataError, match=message):
        _instance(**kwargs)


def test_adjacent_slots_do_not_overlap() -> None:
    """[0, 5) and [5, 8) on one node touch but do not overlap."""
    inst = _instance(slots=(Slot("a", 5, 8), Slot("a", 0, 5)))
    assert [(s.start, s.end) for s in inst.slots] == [(0, 5), (5, 8)]


def test_busy_gives_slots() -> None:
    """Slots = horizon minus busy per node; overlapping busy intervals merge; order is kept."""
    inst = Instance(
        nodes=NODES,
        busy=(Busy("a", 2, 4), Busy("a", 3, 6), Busy("a", 8, 10), Busy("b", 0, 3)),
        horizon=(0, 10),
    )
    assert [(s.node, s.start, s.end) for s in inst.slots] == [
        ("a", 0, 2),
        ("b", 3, 10),
        ("a", 6, 8),
    ]
    # A node without busy time is free over the whole horizon.
    free = Instance(nodes=NODES, busy=(), horizon=(0, 10))
    assert [(s.node, s.start, s.end) for s in free.slots] == [("a", 0, 10), ("b", 0, 10)]


def test_busy_instance_survives_replace() -> None:
    """dataclasses.replace on a busy instance keeps its derived slots."""
    inst = Instance(nodes=NODES, busy=(Busy("a", 2, 4),), horizon=(0, 10))
    square = dataclasses.replace(inst, geometry="square")
    assert square.slots == inst.slots and square.geometry == "square"


def test_slots_sorted_by_start_then_node_order() -> None:
    """Slots are stored sorted by (start, node order), not by node id."""
    nodes = (Node("z", 1.0), Node("a", 1.0))
    inst = Instance(nodes=nodes, slots=(Slot("a", 0, 5), Slot("z", 3, 9), Slot("z", 0, 2)))
    assert [(s.node, s.start) for s in inst.slots] == [("z", 0), ("a", 0), ("z", 3)]


def test_lookups(tiny: Instance) -> None:
    """node(), job(), node_index and slot_price (own price, else the node's)."""
    assert tiny.node("c").price == 1.0
    assert tiny.node_index == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert tiny.job("j2").nodes == 1
    with pytest.raises(KeyError, match="zz"):
        tiny.job("zz")
    assert tiny.slot_price(Slot("d", 10, 16)) == 3.0
    assert tiny.slot_price(Slot("d", 10, 16, price=7.5)) == 7.5


def test_suitable_slots(tiny: Instance) -> None:
    """j2 needs os=linux: only c and d's slots, in (start, node order)."""
    got = tiny.suitable_slots(tiny.job("j2"))
    assert [(s.node, s.start, s.end) for s in got] == [("c", 6, 30), ("d", 10, 16)]


def test_suitable_slots_clip_to_release_and_deadline(tiny: Instance) -> None:
    """Release 8, deadline 26: slots are cut to [8, 26), emptied ones dropped, re-sorted.

    a [0,20) -> [8,20); b [4,14) -> [8,14); c [6,30) -> [8,26); d [10,16) stays;
    b [20,50) -> [20,26); a [24,50) -> [24,26). The clipped a, b, c now all
    start at 8 and sort by node order.
    """
    job = Job("x", 1, 1.0, release=8, deadline=26)
    got = tiny.suitable_slots(job)
    assert [(s.node, s.start, s.end) for s in got] == [
        ("a", 8, 20),
        ("b", 8, 14),
        ("c", 8, 26),
        ("d", 10, 16),
        ("b", 20, 26),
        ("a", 24, 26),
    ]
    late = Job("y", 1, 1.0, release=30, deadline=40)
    assert [(s.node, s.start, s.end) for s in tiny.suitable_slots(late)] == [
        ("a", 30, 40),
        ("b", 30, 40),
    ]


def test_suitable_slots_keep_prices(tiny: Instance) -> None:
    """A clipped slot keeps its own price; a given slot list is filtered, not the instance's."""
    slots = [Slot("a", 0, 10, price=4.0), Slot("b", 2, 10)]
    got = tiny.suitable_slots(Job("x", 1, 1.0, release=5), slots)
    assert got == [Slot("a", 5, 10, 4.0), Slot("b", 5, 10)]


def test_with_slots(tiny: Instance) -> None:
    """with_slots keeps nodes, jobs, name, horizon and geometry."""
    other = tiny.with_slots([Slot("a", 0, 5)])
    assert other.slots == (Slot("a", 0, 5),)
    assert (other.nodes, other.jobs, other.name, other.horizon) == (
        tiny.nodes,
        tiny.jobs,
        tiny.name,
        tiny.horizon,
    )
