"""Job-by-job verdicts and their explanations (validation/conformance/compare.py).

The bundled example instance (instances/data/example.json): AMP places j1 at
T = 5 on n1, n2 (cost 50 <= S = 60), j2 at 30 on n2, n3, n4 (150 <= 300), j3
at 15 on n4 (cost 15). The program's lines below are those of docs/verify.md.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

from instances import Instance, Job, Node, Slot, loads_instance
from planner import resolve
from validation.conformance.compare import judge, tally
from validation.conformance.reference import expected, expected_lines
from validation.results import parse_results

MINE = [
    {"job": "j1", "window": {"start": 10, "placements": [{"node": "n1", "start": 10, "end": 30},
                                                         {"node": "n3", "start": 10, "end": 20}]}},
    {"job": "j2", "status": "not_found"},
    {"job": "j3", "window": {"start": 15, "cost": 15,
                             "placements": [{"node": "n4", "start": 15, "end": 18}]}},
]  # fmt: skip


def _example() -> Instance:
    text = resources.files("instances").joinpath("data/example.json").read_text("utf-8")
    return loads_instance(text)


def _file(lines: list[dict[str, Any]], kind: str = "solve") -> Any:
    return parse_results("".join(json.dumps(x) + "\n" for x in lines), "mine.jsonl", kind)


def _judge(inst: Instance, mine: list[dict[str, Any]], algorithm: str,
           ref: list[dict[str, Any]] | None = None, mode: str = "solve") -> list[Any]:  # fmt: skip
    kind = "alternatives" if mode == "alternatives" else "solve"
    want = _file(ref, kind) if ref is not None else expected(inst, algorithm, mode)[1]
    outcomes, _ = judge(inst, _file(mine, kind), want, resolve(algorithm))
    return outcomes


def test_the_docs_example() -> None:
    """j1 starts later than AMP's first fitting step, j2 is missed, j3 is identical."""
    got = _judge(_example(), MINE, "amp")
    assert [(o.verdict, o.kind) for o in got] == [("differs", "worse"), ("differs", "none"),
                                                  ("identical", "")]  # fmt: skip
    assert got[0].explanation == ("at T = 5 the reference's window n1,n2 costs 50 <= S = 60; "
                                  "yours starts at 10")  # fmt: skip
    assert got[1].explanation == ("at T = 30 the reference's window n2,n3,n4 costs 150 <= "
                                  "S = 300; yours reports none")  # fmt: skip
    assert tally(got)["differs"] == 2


def test_planners_lines_are_identical_to_themselves() -> None:
    """Every algorithm, both modes: planner against itself is identical on every job."""
    inst = _example()
    for name in ("amp", "alp", "min_cost", "max_q", "dep", "csa"):
        for mode in ("solve", "alternatives"):
            got = _judge(inst, expected_lines(inst, name, mode), name, mode=mode)
            assert {o.verdict for o in got} == {"identical"}, (name, mode)


def test_a_tie_is_the_same_value_on_other_nodes() -> None:
    """Two equal nodes: AMP takes x (node order); y at the same start is a tie."""
    inst = Instance(nodes=(Node("x", 1.0, price=1.0), Node("y", 1.0, price=1.0)),
                    slots=(Slot("x", 0, 10), Slot("y", 0, 10)),
                    jobs=(Job("j1", 1, 4.0, budget=10),))  # fmt: skip
    mine = [{"job": "j1", "window": {"start": 0, "placements": [
        {"node": "y", "start": 0, "end": 4}]}}]  # fmt: skip
    (o,) = _judge(inst, mine, "amp")
    assert (o.verdict, o.signature) == ("tie", ("tie", ""))
    assert o.explanation == ("at T = 0 the reference takes the n cheapest alive slots: x "
                             "(cost 4); yours y (cost 4)")  # fmt: skip


def test_better_and_extra_windows_are_named() -> None:
    """Against a (hand-edited) reference that misses j3 and has a dearer j1, planner's own
    min_cost lines are a better window and an extra one."""
    inst = _example()
    mine = expected_lines(inst, "min_cost")
    ref = copy.deepcopy(mine)
    ref[2] = {"job": "j3", "status": "not_found"}
    worse = expected_lines(inst, "amp")[0]  # AMP's j1: cost 50
    assert worse["window"]["cost"] > mine[0]["window"]["cost"]
    ref[0] = {**worse, "algorithm": "min_cost"}
    got = _judge(inst, mine, "min_cost", ref)
    assert [(o.verdict, o.kind) for o in got] == [("differs", "better"), ("identical", ""),
                                                  ("differs", "extra")]  # fmt: skip
    assert "better than the reference's optimum over the AEP space" in got[0].explanation
    assert got[2].explanation.endswith("the reference finds no window")


def test_infeasible_and_missing() -> None:
    """A window whose end was edited is infeasible (its first rule names the kind); a job
    without a line is missing."""
    inst = _example()
    mine = expected_lines(inst, "amp")
    mine[0]["window"]["placements"][0]["end"] = 31
    got = _judge(inst, mine[:2], "amp")
    assert [(o.verdict, o.kind) for o in got] == [("infeasible", "duration"),
                                                  ("identical", ""), ("missing", "")]  # fmt: skip
    assert "end stated 31, expected 25" in got[0].explanation


def test_alternatives_name_the_first_divergence() -> None:
    """Dropping a job's second alternative: it differs at alternative 2."""
    inst = _example()
    mine = expected_lines(inst, "amp", "alternatives")
    second = next(k for k, x in enumerate(mine) if x["job"] == "j1" and x["alternative"] == 2)
    got = _judge(inst, mine[:second] + mine[second + 1:], "amp", mode="alternatives")
    j1 = next(o for o in got if o.job == "j1")
    assert (j1.verdict, j1.alternative) in {("differs", 2), ("infeasible", 2)}
