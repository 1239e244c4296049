"""Windows and their SPEC §3 metrics (planner/window.py), on the ``tiny`` fixture.

A 3-node job of volume 8 at T = 10 on b [4,14), c [6,30), d [10,16):

- rough: b and c (p=2) run 4 quanta, d (p=4) runs 2; costs 2·4=8, 1·4=4,
  3·2=6. near: b min(6, 0)=0, c min(4, 16)=4, d min(0, 4)=0; far: b 6,
  c 16, d 4.
- square: all run duration(8, 2) = 4; costs 8, 4, 12. near: 0, 4, 0; far:
  6, 16, max(0, 2)=2.
"""

from __future__ import annotations

import json

import pytest

from instances import Instance, Job, Slot
from planner import METRICS, Placement, Window, make_window, task_durations
from validation import check_window

JOB = Job("w", nodes=3, volume=8.0)
SLOTS = [Slot("b", 4, 14), Slot("c", 6, 30), Slot("d", 10, 16)]

ROUGH = {
    "start": 10, "runtime": 4, "finish": 14, "cost": 18, "proc_time": 10, "q": 10.0,
    "near_distance": 4 / 3, "far_distance": 26 / 3,
}  # fmt: skip
SQUARE = {
    "start": 10, "runtime": 4, "finish": 14, "cost": 24, "proc_time": 12, "q": 10.0,
    "near_distance": 4 / 3, "far_distance": 8.0,
}  # fmt: skip


@pytest.mark.parametrize(("geometry", "expected"), [("rough", ROUGH), ("square", SQUARE)])
def test_metrics(tiny: Instance, geometry: str, expected: dict[str, float]) -> None:
    """Every SPEC §3 metric of the hand-computed window (module docstring)."""
    inst = Instance(
        nodes=tiny.nodes, slots=tiny.slots, jobs=(JOB,), horizon=tiny.horizon, geometry=geometry
    )
    w = make_window(inst, JOB, 10, SLOTS)
    assert set(expected) == set(METRICS)
    for name, value in expected.items():
        assert w.metric(name) == pytest.approx(value), name
        assert getattr(w, name) == pytest.approx(value), name
    assert check_window(inst, JOB, w) == []


def test_geometry_argument_overrides_instance(tiny: Instance) -> None:
    """make_window(geometry="square") on a rough instance builds the square window."""
    w = make_window(tiny, JOB, 10, SLOTS, geometry="square")
    assert [p.duration for p in w.placements] == [4, 4, 4] and w.cost == 24


def test_placement_fields(tiny: Instance) -> None:
    """Placements record node, interval, cost, slot bounds and q, in slot order."""
    w = make_window(tiny, JOB, 10, SLOTS)
    assert w.placements[2] == Placement("d", 10, 12, 6, 10, 16, q=5.0)
    assert w.nodes == ("b", "c", "d")
    assert [(p.near_distance, p.far_distance) for p in w.placements] == [(0, 6), (4, 16), (0, 4)]


def test_slot_price_overrides_node_price(tiny: Instance) -> None:
    """A slot's own price is used for the cost (seed 000 prices slots): 0.1 · 4 -> 1."""
    w = make_window(tiny, Job("x", 1, 8.0), 6, [Slot("c", 6, 30, price=0.1)])
    assert w.cost == 1


@pytest.mark.parametrize(
    ("criterion", "value"),
    [
        ("min_start", 10),
        ("min_finish", 14),
        ("min_cost", 18),
        ("min_runtime", 4),
        ("min_proc_time", 10),
        ("max_q", 10.0),
        ("dep", 4 / 3),
        ("coord", 26 / 3),
    ],
)
def test_value_per_criterion(tiny: Instance, criterion: str, value: float) -> None:
    """Window.value(criterion) is the metric the SPEC §4 criterion optimises."""
    assert make_window(tiny, JOB, 10, SLOTS).value(criterion) == pytest.approx(value)


def test_unknown_metric(tiny: Instance) -> None:
    """An unknown metric name is a KeyError naming it."""
    with pytest.raises(KeyError, match="speed"):
        make_window(tiny, JOB, 10, SLOTS).metric("speed")


def test_json_form(tiny: Instance) -> None:
    """to_dict is the FORMATS.md window object, keys in its order, JSON-serialisable."""
    d = make_window(tiny, JOB, 10, SLOTS).to_dict()
    assert list(d) == [
        "start", "finish", "runtime", "cost", "proc_time", "q",
        "near_distance", "far_distance", "placements",
    ]  # fmt: skip
    assert d["placements"][0] == {"node": "b", "start": 10, "end": 14, "cost": 8, "slot": [4, 14]}
    assert json.loads(json.dumps(d)) == d
    assert (d["start"], d["finish"], d["cost"], d["proc_time"]) == (10, 14, 18, 10)


def test_task_durations() -> None:
    """rough: ceil(V/p_i) each; square: ceil(V / min p) for all (SPEC §3)."""
    job = Job("x", 2, 10.0)
    assert task_durations(job, [1.0, 3.0], "rough") == [10, 4]
    assert task_durations(job, [1.0, 3.0], "square") == [10, 10]


def test_unknown_geometry_is_an_error(tiny: Instance) -> None:
    """A misspelt geometry is a ValueError, not silently the rough one."""
    with pytest.raises(ValueError, match="geometry must be one of rough, square"):
        task_durations(JOB, [1.0, 2.0], "sqaure")
    with pytest.raises(ValueError, match="geometry"):
        make_window(tiny, JOB, 10, SLOTS, geometry="sqaure")
    with pytest.raises(ValueError, match="geometry"):
        check_window(tiny, JOB, make_window(tiny, JOB, 10, SLOTS), geometry="sqaure")


def test_task_must_fit_its_slot(tiny: Instance) -> None:
    """make_window raises when a task runs past its slot: b [4,14) cannot host [12, 16)."""
    with pytest.raises(ValueError, match="inside its slot"):
        make_window(tiny, JOB, 12, [Slot("b", 4, 14)])


@pytest.mark.parametrize(
    ("placements", "message"),
    [
        ((), "at least one placement"),  # empty window
        (
            (Placement("a", 0, 4, 4, 0, 10), Placement("b", 1, 5, 4, 0, 10)),
            "starts at the window start",
        ),  # a placement starting elsewhere
        (
            (Placement("a", 0, 4, 4, 0, 10), Placement("a", 0, 4, 4, 0, 10)),
            "distinct nodes",
        ),  # two placements on one node
    ],
)
def test_invalid_window(placements: tuple[Placement, ...], message: str) -> None:
    """A Window rejects an empty, misaligned or node-sharing set of placements."""
    with pytest.raises(ValueError, match=message):
        Window("j", 0, placements)


def test_placement_outside_its_slot() -> None:
    """A placement must lie inside the slot bounds it records."""
    with pytest.raises(ValueError, match="inside its slot"):
        Placement("a", 0, 12, 12, 0, 10)
