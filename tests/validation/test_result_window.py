"""The result-line checker (validation/results/window.py) on hand-checkable windows.

On the ``tiny`` fixture (tests/conftest.py), job j1 (n = 2, V = 8, budget 20)
at T = 4 on a [0, 20) and b [4, 14): a runs [4, 12) (p = 1, 8 quanta, cost 8),
b runs [4, 8) (p = 2, 4 quanta, price 2, cost 8); cost 16, finish 12,
proc_time 12, q 1 + 3 = 4, near distance (min(4, 8) + min(0, 6)) / 2 = 2, far
distance (8 + 6) / 2 = 7. Every test edits one field of this window, as a file
would state it, and expects exactly the rule that the edit breaks.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from instances import Instance, Job, Node, Slot
from validation.results import check_window, parse_results
from validation.results.window import price_cap

FULL: dict[str, Any] = {
    "start": 4, "finish": 12, "runtime": 8, "cost": 16, "proc_time": 12, "q": 4.0,
    "near_distance": 2.0, "far_distance": 7.0,
    "placements": [{"node": "a", "start": 4, "end": 12, "cost": 8, "slot": [0, 20]},
                   {"node": "b", "start": 4, "end": 8, "cost": 8, "slot": [4, 14]}],
}  # fmt: skip


def _stated(window: dict[str, Any]) -> Any:
    import json

    text = json.dumps({"job": "j1", "window": window}) + "\n"
    return parse_results(text).lines[0].window


def _check(inst: Instance, window: dict[str, Any], job: str = "j1", **kw: Any) -> list[Any]:
    return check_window(inst, inst.job(job), _stated(window), **kw).violations


def _edited(path: str, value: Any) -> dict[str, Any]:
    """FULL with ``placements.0.end`` (say) set to ``value``."""
    out = copy.deepcopy(FULL)
    *head, last = path.split(".")
    at: Any = out
    for key in head:
        at = at[int(key)] if key.isdigit() else at[key]
    at[last] = value
    return out


def test_the_window_is_clean_and_its_metrics_recomputed(tiny: Instance) -> None:
    """The full window passes; the metrics are the docstring's."""
    got = check_window(tiny, tiny.job("j1"), _stated(FULL))
    assert got.violations == []
    assert got.metrics == {"start": 4, "finish": 12, "runtime": 8, "cost": 16, "proc_time": 12,
                           "q": 4.0, "near_distance": 2.0, "far_distance": 7.0}  # fmt: skip


def test_minimal_form_finds_the_slot_itself(tiny: Instance) -> None:
    """Without metrics, costs and slots the checker finds the free slot holding each task."""
    minimal = {"start": 4, "placements": [{"node": "a", "start": 4, "end": 12},
                                          {"node": "b", "start": 4, "end": 8}]}  # fmt: skip
    got = check_window(tiny, tiny.job("j1"), _stated(minimal))
    assert got.violations == [] and [(s.start, s.end) for s in got.hosts] == [(0, 20), (4, 14)]


@pytest.mark.parametrize(
    ("path", "value", "rules", "stated", "expected"),
    [
        ("placements.0.end", 14, ["duration"], 14, 12),  # the end edited, inside the slot
        ("placements.0.end", 21, ["duration", "slot"], 21, 12),  # ... and past the slot's end
        ("placements.1.start", 5, ["start"], 5, 4),  # one task starts late
        ("start", 5, ["start"], 5, 4),  # the window start edited: its tasks still start at 4
        ("placements.0.cost", 7, ["cost"], 7, 8),  # a task's cost
        ("placements.0.slot", [0, 21], ["slot"], (0, 21), (0, 20)),  # the stated slot
        ("cost", 15, ["metric"], 15, 16),  # a window metric
        ("far_distance", 6.5, ["metric"], 6.5, 7.0),  # a real metric
    ],
)
def test_each_edited_field_is_found(tiny: Instance, path: str, value: Any, rules: list[str],
                                    stated: Any, expected: Any) -> None:  # fmt: skip
    """One edit, the rule it breaks (first), with the stated and the expected value."""
    found = _check(tiny, _edited(path, value))
    assert [v.rule for v in found] == rules
    assert (found[0].stated, found[0].expected) == (stated, expected)


def test_an_edited_node_breaks_what_the_node_decides(tiny: Instance) -> None:
    """a → c (p = 2, price 1, free [6, 30)): the task's length, its slot and its cost."""
    found = _check(tiny, _edited("placements.0.node", "c"))
    rules = [v.rule for v in found]
    assert rules[:3] == ["duration", "slot", "cost"] and set(rules[3:]) == {"metric"}
    assert (found[0].placement, found[0].node, found[0].expected) == (0, "c", 8)


@pytest.mark.parametrize(
    ("window", "rule"),
    [
        ({"start": 4, "placements": [{"node": "a", "start": 4, "end": 12}]}, "count"),  # n = 1
        ({"start": 4, "placements": [{"node": "z", "start": 4, "end": 12},
                                     {"node": "b", "start": 4, "end": 8}]}, "node"),  # unknown
        ({"start": 24, "placements": [{"node": "a", "start": 24, "end": 32},
                                      {"node": "a", "start": 24, "end": 32}]}, "distinct"),
    ],
)
def test_structure_rules(tiny: Instance, window: dict[str, Any], rule: str) -> None:
    """Count, unknown node and a node used twice each break their rule."""
    assert rule in [v.rule for v in _check(tiny, window)]


def test_suitability_release_deadline_and_budget(tiny: Instance) -> None:
    """The job's own limits: requirements, release, deadline, budget S."""
    on_a = {"start": 0, "placements": [{"node": "a", "start": 0, "end": 8}]}
    assert [v.rule for v in _check(tiny, on_a, "j2")] == ["suitability"]  # j2 needs os=linux
    limited = dataclasses.replace(tiny.job("j1"), release=5, deadline=11, budget=15)
    inst = dataclasses.replace(tiny, jobs=(limited,))
    found = _check(inst, FULL)
    assert [v.rule for v in found] == ["release", "deadline", "budget"]
    assert [v.stated for v in found] == [4, 12, 16]


def test_square_durations(tiny_square: Instance) -> None:
    """Square geometry: every task lasts as on the slowest node (a, p = 1): b's 4 must be 8."""
    found = _check(tiny_square, FULL)
    assert [(v.rule, v.node, v.stated, v.expected) for v in found][:2] == [
        ("duration", "b", 8, 12), ("cost", "b", 8, 16)]  # fmt: skip


def test_price_cap_compares_the_decimals_the_file_gives() -> None:
    """ALP's C = S/(V·n) = 3/(0.8·3) = 1.25 exactly: a slot priced 1.25 is within it (in binary
    floating point the cap computes to 1.2499999999999998); 1.26 is not."""
    nodes = (Node("x", 1.0, price=1.25), Node("y", 1.0, price=1.25), Node("z", 1.0, price=1.26))
    slots = (Slot("x", 0, 5), Slot("y", 0, 5), Slot("z", 0, 5))
    job = Job("j1", nodes=3, volume=0.8, budget=3)
    inst = Instance(nodes=nodes, slots=slots, jobs=(job,))
    assert float(price_cap(job)[0]) == 1.25 and 3 / (0.8 * 3) != 1.25
    window = {"start": 0, "placements": [{"node": n, "start": 0, "end": 1} for n in "xyz"]}
    found = _check(inst, window, constraint="price_cap")
    assert [(v.rule, v.node) for v in found] == [("price", "z")]
    assert "budget" not in [v.rule for v in found]  # ALP: the cap replaces the budget


def test_messages_are_one_line_with_field_and_values(tiny: Instance) -> None:
    """The text names line, job, placement, rule, field, stated and expected values."""
    (v,) = check_window(tiny, tiny.job("j1"), _stated(_edited("placements.0.end", 14)),
                        line=3).violations  # fmt: skip
    assert v.text() == ("line 3, job 'j1', placement 0 on 'a': duration: end stated 14, "
                        "expected 12 (V = 8 on p = 1 lasts 8 quanta, rough)")  # fmt: skip
    assert v.to_dict()["field"] == "end" and v.to_dict()["expected"] == 12
