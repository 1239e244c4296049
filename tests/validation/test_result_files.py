"""Whole result files (validation/results/files.py): planner's own lines pass; alternatives
replayed in the order found; combinations' sums, limit, bound and gap; independence.

On the ``tiny`` fixture (tests/conftest.py) AMP's alternatives are, in the order
found: j1 #1 at 4 on a, b; j2 #1 at 6 on c; j1 #2 at 10 on b [10, 14) (slot
[8, 14), what is left of b's [4, 14) after j1 #1) and c; j2 #2 at 10 on d; ...
Problem 8 (min Σ cost, Σ proc_time <= t* = 15) places j1 #2 and j2 #1: cost 16,
Σ proc_time 12.
"""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from instances import Instance, write_instance
from planner import ALGORITHMS
from planner.cli import main
from tests.planner.families import small
from validation.conformance.reference import constraint_of, expected_lines
from validation.results import check_file, parse_results


def _file(lines: list[dict[str, Any]], kind: str | None = None) -> Any:
    return parse_results("".join(json.dumps(x) + "\n" for x in lines), "res.jsonl", kind)


def _rules(inst: Instance, lines: list[dict[str, Any]], **kw: Any) -> list[str]:
    return [v.rule for v in check_file(inst, _file(lines), **kw).violations]


@pytest.mark.parametrize("family", ["tiny", "css2015", "toporkov2018", "edge"])
def test_planners_own_lines_pass(family: str) -> None:
    """Every algorithm's single-job and alternatives lines pass on generated instances."""
    for seed in range(3):
        inst = small(family, seed)
        for name in ALGORITHMS:
            for mode in ("solve", "alternatives"):
                lines = expected_lines(inst, name, mode)
                if lines:
                    got = check_file(inst, _file(lines), constraint=constraint_of(name))
                    assert got.violations == [], (family, seed, name, mode)


def test_alternatives_replay_on_the_shrunk_slot_list(tiny: Instance) -> None:
    """j1 #2 uses b's slot as left by j1 #1, [8, 14); stating b's original [4, 14) fails."""
    lines = expected_lines(tiny, "amp", "alternatives")
    assert lines[2]["window"]["placements"][0]["slot"] == [8, 14]
    assert _rules(tiny, lines) == []
    lines[2]["window"]["placements"][0]["slot"] = [4, 14]
    assert _rules(tiny, lines) == ["slot"]


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (lambda ls: ls.insert(1, ls.pop(2)), "order"),  # j1 #2 listed before j2 #1
        (lambda ls: ls.insert(3, copy.deepcopy(ls[2])), "overlap"),  # j1 #2 twice
        (lambda ls: ls[2].update(alternative=3), "job"),  # numbered 3 instead of 2
        (lambda ls: ls.append({"job": "j2", "status": "not_found"}), "status"),  # j2 has some
        (lambda ls: ls.append({"job": "j9", "status": "not_found"}), "job"),  # unknown job
    ],
)
def test_alternatives_rules(tiny: Instance, edit: Any, rule: str) -> None:
    """Each edit of AMP's alternatives breaks its rule."""
    lines = expected_lines(tiny, "amp", "alternatives")
    edit(lines)
    assert rule in _rules(tiny, lines)


def test_missing_and_duplicate_solve_lines(tiny: Instance) -> None:
    """A job without a line, and a second line for a job."""
    lines = expected_lines(tiny, "amp")
    assert _rules(tiny, lines[:1]) == ["missing"]
    assert _rules(tiny, [*lines, lines[0]]) == ["job"]


def _combine(tmp_path: Path, inst: Instance, capsys: pytest.CaptureFixture[str],
             *argv: str) -> list[dict[str, Any]]:  # fmt: skip
    path = tmp_path / "inst.json"
    write_instance(inst, path)
    assert main([*argv[:1], str(path), *argv[1:], "--json"]) == 0
    return [json.loads(x) for x in capsys.readouterr().out.splitlines()]


def test_combination_rules(tiny: Instance, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """planner combine's lines pass; an edited objective, Σ g, bound or gap, or two windows
    sharing time, break their rules."""
    lines = _combine(tmp_path, tiny, capsys, "combine", "--problem", "8")
    summary = lines[-1]
    assert (summary["objective"], summary["constraint"], summary["limit"]) == (16, 12, 15)
    assert _rules(tiny, lines) == []
    for key, value, rule in (("objective", 15, "objective"), ("constraint", 11, "constraint"),
                             ("bound", 17, "bound"), ("gap", 0.5, "gap"),
                             ("limit", 11, "limit")):  # fmt: skip
        edited = copy.deepcopy(lines)
        edited[-1][key] = value
        assert rule in _rules(tiny, edited), key
    shared = copy.deepcopy(lines)
    shared[1]["window"] = copy.deepcopy(shared[0]["window"])  # j2 placed on j1's time
    assert "overlap" in _rules(tiny, shared)


def test_combination_against_its_alternatives(
    tiny: Instance, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the alternatives, a placed window must be its numbered alternative, and g* the
    default t* = Σ ceil(mean proc_time) = 15 (unless given)."""
    lines = _combine(tmp_path, tiny, capsys, "combine", "--problem", "8")
    alts = _file(expected_lines(tiny, "amp", "alternatives"))
    assert check_file(tiny, _file(lines), alternatives=alts).violations == []
    renumbered = copy.deepcopy(lines)
    renumbered[0]["alternative"] = 1
    assert [v.rule for v in check_file(tiny, _file(renumbered), alternatives=alts).violations] \
        == ["job"]  # fmt: skip
    got = check_file(tiny, _file(lines), alternatives=alts, limits={"t_star": 14})
    assert [(v.rule, v.stated, v.expected) for v in got.violations] == [("limit", 15, 14)]


def test_exact_lines_objective(tiny: Instance, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """planner exact's lines pass; an objective that is not the window's value fails."""
    lines = _combine(tmp_path, tiny, capsys, "exact", "--criterion", "min_cost")
    assert _rules(tiny, lines) == []
    lines[0]["objective"] += 1
    assert _rules(tiny, lines) == ["objective"]


def test_the_checker_imports_no_code_it_checks() -> None:
    """validation.results imports the standard library, instances and itself only."""
    folder = Path(__file__).parents[2] / "validation" / "results"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                top = node.module.split(".")[0]
                assert top in ("__future__", "instances", "validation", "collections",
                               "dataclasses", "fractions", "math", "typing"), (path, top)
                if top == "validation":
                    assert node.module.startswith("validation.results"), (path, node.module)
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in ("math", "json") for a in node.names), path
