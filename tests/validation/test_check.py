"""The independent feasibility checker (validation/check.py), on the ``tiny`` fixture.

Valid windows: j1 (n=2, V=8, budget 20) at T=4 on a [0,20) and b [4,14) —
rough: a runs [4,12) for 8, b runs [4,8) for 8, cost 16. Square (both last
duration(8, 1) = 8): j1 at T=6 on a and c, cost 8 + 8 = 16. Every other
test corrupts one of these and expects the rule it breaks.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from instances import Instance, Slot
from planner import METRICS, Window, make_window
from validation import RULES, check_alternatives, check_window


def _slot(inst: Instance, node: str, start: int) -> Slot:
    return next(s for s in inst.slots if s.node == node and s.start <= start < s.end)


def _valid(inst: Instance) -> Window:
    return make_window(inst, inst.job("j1"), 4, [_slot(inst, "a", 4), _slot(inst, "b", 4)])


def _fake(window: Window, *, placements: list[dict[str, Any]] | None = None, **metrics: Any):
    """A window-like object: the given placements (or the window's), reported metrics copied."""
    plist = placements if placements is not None else [vars(p).copy() for p in window.placements]
    fields = {m: getattr(window, m) for m in METRICS} | metrics
    return SimpleNamespace(
        job=window.job, placements=[SimpleNamespace(**p) for p in plist], **fields
    )


def _rules(violations: list[str]) -> set[str]:
    return {v.split(":")[0] for v in violations}


def test_valid_rough(tiny: Instance) -> None:
    """The rough window of the module docstring passes every rule."""
    w = _valid(tiny)
    assert (w.cost, [p.end for p in w.placements]) == (16, [12, 8])
    assert check_window(tiny, "j1", w) == []
    assert check_window(tiny, tiny.job("j1"), w, slots=tiny.slots) == []


def test_valid_square(tiny: Instance, tiny_square: Instance) -> None:
    """The square window of the module docstring passes; the rough one fails duration.

    (Its b task lasts 4, square geometry needs 8.)
    """
    inst = tiny_square
    w = make_window(inst, inst.job("j1"), 6, [_slot(inst, "a", 6), _slot(inst, "c", 6)])
    assert [p.duration for p in w.placements] == [8, 8] and w.cost == 16
    assert check_window(inst, "j1", w) == []
    assert _rules(check_window(inst, "j1", _valid(tiny))) == {"duration"}


def test_geometry_argument(tiny: Instance) -> None:
    """check_window(geometry=...) overrides the instance's: the rough window is not square."""
    assert "duration" in _rules(check_window(tiny, "j1", _valid(tiny), geometry="square"))


def test_rules_are_registered() -> None:
    """Every rule name the checker can report is listed once in RULES."""
    assert len(set(RULES)) == len(RULES)
    assert {"count", "slot", "budget", "overlap"} <= set(RULES)


def test_none_window(tiny: Instance) -> None:
    """No window is itself a violation, not a crash."""
    assert check_window(tiny, "j1", None) == ["job: no window to check"]


def test_job_rule(tiny: Instance) -> None:
    """A window of another job is flagged (j1's window checked as j2's)."""
    assert "job" in _rules(check_window(tiny, "j2", _valid(tiny)))


def test_count_rule(tiny: Instance) -> None:
    """j1 needs 2 placements; one is flagged."""
    w = _valid(tiny)
    one = make_window(tiny, tiny.job("j1"), 4, [_slot(tiny, "a", 4)])
    assert _rules(check_window(tiny, "j1", one)) == {"count"}
    assert "count" in _rules(check_window(tiny, "j1", _fake(w, placements=[])))


def test_node_rule(tiny: Instance) -> None:
    """A placement on an unknown node."""
    w = _valid(tiny)
    plist = [vars(p).copy() for p in w.placements]
    plist[1]["node"] = "zz"
    assert "node" in _rules(check_window(tiny, "j1", _fake(w, placements=plist)))


def test_distinct_rule(tiny: Instance) -> None:
    """Both placements on node a."""
    w = _valid(tiny)
    a = vars(w.placements[0]).copy()
    assert "distinct" in _rules(check_window(tiny, "j1", _fake(w, placements=[a, dict(a)])))


def test_suitability_rule(tiny: Instance) -> None:
    """j2 requires os=linux; node a has no os attribute."""
    w = make_window(tiny, tiny.job("j2"), 0, [_slot(tiny, "a", 0)])
    assert _rules(check_window(tiny, "j2", w)) == {"suitability"}


def test_suitability_min_performance(tiny: Instance) -> None:
    """P = 2 rules out a (p = 1)."""
    job = dataclasses.replace(tiny.job("j1"), min_performance=2.0)
    inst = dataclasses.replace(tiny, jobs=(job,))
    assert _rules(check_window(inst, job, _valid(tiny))) == {"suitability"}


def test_start_rule(tiny: Instance) -> None:
    """b's placement starts at 5 while the window starts at 4 (b [5,9), cost 8)."""
    w = _valid(tiny)
    plist = [vars(p).copy() for p in w.placements]
    plist[1].update(start=5, end=9)
    assert "start" in _rules(check_window(tiny, "j1", _fake(w, placements=plist)))


def test_release_rule(tiny: Instance) -> None:
    """Release 5: the window at 4 starts too early (its clipped slots start at 5 too)."""
    job = dataclasses.replace(tiny.job("j1"), release=5)
    rules = _rules(check_window(tiny, job, _valid(tiny)))
    assert "release" in rules and rules <= {"release", "slot", "metric"}


def test_deadline_rule(tiny: Instance) -> None:
    """Deadline 10: a's task [4,12) ends after it."""
    job = dataclasses.replace(tiny.job("j1"), deadline=10)
    rules = _rules(check_window(tiny, job, _valid(tiny)))
    assert "deadline" in rules and rules <= {"deadline", "slot", "metric"}


def test_duration_rule(tiny: Instance) -> None:
    """a's task lasts 7 instead of ceil(8/1) = 8 (cost adjusted to 7, metrics as reported)."""
    w = _valid(tiny)
    plist = [vars(p).copy() for p in w.placements]
    plist[0].update(end=11, cost=7)
    fake = _fake(w, placements=plist, cost=15, proc_time=11)
    assert _rules(check_window(tiny, "j1", fake)) >= {"duration"}


def test_slot_rule_outside_free_time(tiny: Instance) -> None:
    """a is busy in [20, 24): a task at 20 on a is outside its free slots."""
    job = tiny.job("j1")
    w = make_window(tiny, job, 20, [Slot("a", 20, 28), _slot(tiny, "b", 20)])
    violations = check_window(tiny, job, w)
    assert _rules(violations) == {"slot"}
    assert "not inside a free slot" in violations[0]


def test_slot_rule_wrong_recorded_bounds(tiny: Instance) -> None:
    """The placement claims slot [0, 30) on a; the free slot is [0, 20)."""
    job = tiny.job("j1")
    w = make_window(tiny, job, 4, [Slot("a", 0, 30), _slot(tiny, "b", 4)])
    violations = check_window(tiny, job, w)
    assert _rules(violations) == {"slot", "metric"}  # far distance follows the slot bounds
    assert any("records slot [0, 30)" in v for v in violations)


def test_cost_rule(tiny: Instance) -> None:
    """a's 8 quanta at price 1 cost 8, not 7."""
    w = _valid(tiny)
    plist = [vars(p).copy() for p in w.placements]
    plist[0]["cost"] = 7
    assert _rules(check_window(tiny, "j1", _fake(w, placements=plist))) == {"cost"}


def test_budget_rule(tiny: Instance) -> None:
    """Budget 15 < 16."""
    job = dataclasses.replace(tiny.job("j1"), budget=15)
    assert _rules(check_window(tiny, job, _valid(tiny))) == {"budget"}


def test_budget_from_max_price(tiny: Instance) -> None:
    """Without budget, S = floor(0.9 · 8 · 2) = 14 < 16."""
    job = dataclasses.replace(tiny.job("j1"), budget=None, max_price=0.9)
    assert _rules(check_window(tiny, job, _valid(tiny))) == {"budget"}


@pytest.mark.parametrize(
    ("metric", "value"),
    [
        ("start", 3),
        ("runtime", 4),
        ("finish", 11),
        ("cost", 99),
        ("proc_time", 13),
        ("q", 0.0),
        ("near_distance", 0.0),
        ("far_distance", 1.0),
    ],
)
def test_metric_rule(tiny: Instance, metric: str, value: float) -> None:
    """A wrongly reported metric is flagged (the window start also misaligns placements)."""
    rules = _rules(check_window(tiny, "j1", _fake(_valid(tiny), **{metric: value})))
    assert "metric" in rules and rules <= {"metric", "start"}


def _second(inst: Instance) -> Window:
    """j1 again at T=12 after subtracting the first window: a [12,20), c [6,30)."""
    return make_window(inst, inst.job("j1"), 12, [Slot("a", 12, 20), _slot(inst, "c", 12)])


def test_sequential_alternatives(tiny: Instance) -> None:
    """Replay: window 1 is checked on the slots left after window 0 (a's slot is now [12,20))."""
    assert check_alternatives(tiny, [_valid(tiny), _second(tiny)]) == []
    # Checked on the instance's slots instead, a's recorded slot [12,20) is wrong.
    unseq = check_alternatives(tiny, [_valid(tiny), _second(tiny)], sequential=False)
    assert _rules(unseq) == {"slot", "metric"}


def test_sequential_alternatives_need_reduced_bounds(tiny: Instance) -> None:
    """A second window that records the original slot bounds fails the sequential replay."""
    inst = tiny
    stale = make_window(inst, inst.job("j1"), 12, [_slot(inst, "a", 12), _slot(inst, "c", 12)])
    assert "slot" in _rules(check_alternatives(inst, [_valid(inst), stale]))
    assert check_alternatives(inst, [_valid(inst), stale], sequential=False) == []


def test_overlap_rule(tiny: Instance) -> None:
    """Two windows on node a at [4,12) and [6,14) share time."""
    first = _valid(tiny)
    second = make_window(tiny, tiny.job("j1"), 6, [_slot(tiny, "a", 6), _slot(tiny, "c", 6)])
    violations = check_alternatives(tiny, [first, second], sequential=False)
    assert violations == ["overlap: windows 0 and 1 share time on node 'a'"]
    assert "overlap" in _rules(check_alternatives(tiny, [first, second]))


def test_alternatives_tag_the_window(tiny: Instance) -> None:
    """Violations of one alternative name its position."""
    job = dataclasses.replace(tiny.job("j1"), budget=15)
    inst = dataclasses.replace(tiny, jobs=(job, tiny.job("j2")))
    assert check_alternatives(inst, [_valid(inst)]) == [
        "budget: window costs 16, the budget is 15 (window 0)"
    ]


def test_unknown_job_is_a_violation(tiny: Instance) -> None:
    """A window for a job id the instance lacks is reported, not a KeyError."""
    w = _valid(tiny)
    assert check_window(tiny, "zz", w) == ["job: no job 'zz' in the instance"]
    stray = dataclasses.replace(w, job="zz")
    assert _rules(check_alternatives(tiny, [stray])) == {"job"}


def test_checker_imports_only_data_and_unit_functions() -> None:
    """The checker is independent of the code under test (issue 2, item 5).

    From the lower layers it may import only the data classes and the two
    SPEC §1 unit functions; budgets, suitability and metrics it recomputes.
    """
    import ast
    import inspect

    import validation.check

    tree = ast.parse(inspect.getsource(validation.check))
    imported: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.setdefault(node.module.split(".")[0], set()).update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                imported.setdefault(a.name.split(".")[0], set())
    assert not {"planner", "models"} & set(imported)
    assert imported.get("instances", set()) <= {"Instance", "Job", "Slot", "cost", "duration"}
