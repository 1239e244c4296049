"""``planner check INSTANCE RESULTS`` (planner/cli/check.py, docs/verify.md).

Every field of a real result file (``planner solve --json`` on a generated
batch) is tampered with in turn; the command must name the rule it breaks
and exit 3. Bad files are one stderr line and exit 2.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from instances import Instance, Job, Node, Slot, generate, write_instance
from planner.cli import main

FIELDS = [
    ("end", lambda p: p.update(end=p["end"] + 1), "duration"),  # one quantum longer
    ("start", lambda p: p.update(start=p["start"] + 1), "start"),  # one task starts late
    ("cost", lambda p: p.update(cost=p["cost"] + 1), "cost"),  # a dearer task
    ("node", lambda p: p.update(node="n-none"), "node"),  # an unknown node
    ("slot", lambda p: p.update(slot=[p["slot"][0], p["slot"][1] + 1]), "slot"),  # its slot
]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[dict]]:
    """A css2015 batch and planner's min_cost lines for it (all jobs found)."""
    path = tmp_path / "batch.json"
    write_instance(generate("css2015", 0, jobs=6), path)
    code, out, _ = _run(capsys, "solve", str(path), "--algorithm", "min_cost", "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and sum(x["window"] is not None for x in lines) >= 4
    return path, lines


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_planners_own_file_is_clean(batch: Any, tmp_path: Path, capsys: Any) -> None:
    """The untouched file: no violation, identical to planner's min_cost, exit 0."""
    inst, lines = batch
    res = _write(tmp_path / "res.jsonl", lines)
    code, out, err = _run(capsys, "check", str(inst), str(res), "--algorithm", "min_cost")
    assert code == 0 and err == ""
    assert out.endswith("no violations; against planner's min_cost: 6 identical\n")


@pytest.mark.parametrize(("field", "edit", "rule"), FIELDS, ids=[f[0] for f in FIELDS])
def test_every_tampered_field_is_found(batch: Any, tmp_path: Path, capsys: Any, field: str,
                                       edit: Any, rule: str) -> None:  # fmt: skip
    """Each window's placement 0, tampered in ``field``, is reported with its rule (exit 3)."""
    inst, lines = batch
    for k, line in enumerate(lines):
        if line["window"] is None:
            continue
        tampered = json.loads(json.dumps(lines))
        edit(tampered[k]["window"]["placements"][0])
        res = _write(tmp_path / "res.jsonl", tampered)
        code, out, err = _run(capsys, "check", str(inst), str(res), "--json")
        found = json.loads(out)["violations"]
        assert code == 3 and err == ""
        assert any(v["rule"] == rule and v["line"] == k + 1 and v["placement"] == 0
                   for v in found), (field, k, found)  # fmt: skip


def test_text_output_and_stderr(batch: Any, tmp_path: Path, capsys: Any) -> None:
    """Text: one line per violation, the summary, one stderr line; exit 3."""
    inst, lines = batch
    k = next(i for i, x in enumerate(lines) if x["window"])
    lines[k]["window"]["placements"][0]["end"] += 6
    res = _write(tmp_path / "res.jsonl", lines)
    code, out, err = _run(capsys, "check", str(inst), str(res))
    rows = out.splitlines()
    assert code == 3 and rows[0].startswith(f"line {k + 1}, job '{lines[k]['job']}', placement 0")
    assert ": duration: end stated " in rows[0]
    assert re.search(r"\b(1 violation|\d+ violations)$", rows[-1])
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"job": "j1", "window": {"start": 4, "placements": [{"node": "a", "start": 4, '
         '"end": 12.0}]}}\n', "line 1: window.placements[0].end: must be an integer"),
        ("not json\n", "line 1: invalid JSON at column 1"),  # not JSON at all
        ('{"job": "j1", "stauts": "not_found"}\n', "line 1: unknown key 'stauts'"),  # a typo
    ],
)
def test_bad_files_are_one_line_and_exit_2(batch: Any, tmp_path: Path, capsys: Any, text: str,
                                           needle: str) -> None:  # fmt: skip
    """A malformed result file: exit 2, one stderr line naming file, line, path and rule."""
    inst, _ = batch
    res = tmp_path / "bad.jsonl"
    res.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, "check", str(inst), str(res))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(str(res)) and needle in err


def test_algorithm_comparison_explains(tmp_path: Path, capsys: Any) -> None:
    """The docs/verify.md example: two jobs differ, with AMP's explanation, exit 3."""
    from importlib import resources

    inst = tmp_path / "example.json"
    inst.write_text(resources.files("instances").joinpath("data/example.json").read_text())
    mine = _write(tmp_path / "mine.jsonl", [
        {"job": "j1", "window": {"start": 10, "placements": [
            {"node": "n1", "start": 10, "end": 30}, {"node": "n3", "start": 10, "end": 20}]}},
        {"job": "j2", "status": "not_found"},
        {"job": "j3", "window": {"start": 15, "cost": 15, "placements": [
            {"node": "n4", "start": 15, "end": 18}]}}])  # fmt: skip
    code, out, _ = _run(capsys, "check", str(inst), str(mine), "--algorithm", "amp")
    assert code == 3
    assert out.splitlines() == [
        "job 'j1': differs: at T = 5 the reference's window n1,n2 costs 50 <= S = 60; yours "
        "starts at 10",
        "job 'j2': differs: at T = 30 the reference's window n2,n3,n4 costs 150 <= S = 300; "
        "yours reports none",
        f"{mine}: 3 jobs, 2 windows checked (solve lines): no violations; against planner's "
        "amp: 1 identical, 2 differs",
    ]  # fmt: skip


def test_exact_flags_a_window_better_than_the_proven_optimum(tmp_path: Path,
                                                             capsys: Any) -> None:  # fmt: skip
    """DEP: on a slot [0, 20) a task of 4 has near distance 0 at the AEP start 0 (the proven
    optimum there); started at 8 it has 8 — feasible, better, and off the AEP space."""
    inst = Instance(nodes=(Node("a", 1.0, price=1.0),), slots=(Slot("a", 0, 20),),
                    jobs=(Job("j1", 1, 4.0, criterion="dep"),))  # fmt: skip
    path = tmp_path / "i.json"
    write_instance(inst, path)
    res = _write(tmp_path / "r.jsonl", [{"job": "j1", "window": {"start": 8, "placements": [
        {"node": "a", "start": 8, "end": 12}]}}])  # fmt: skip
    code, out, _ = _run(capsys, "check", str(path), str(res), "--exact")
    assert code == 3
    assert "dep: yours 8, proven optimum 0: better than the proven optimum (its start is not " \
           "a suitable slot's start (a free start))" in out  # fmt: skip


def test_alternatives_and_combination(tmp_path: Path, capsys: Any) -> None:
    """planner's alternatives and combination lines check clean against planner's AMP
    (the combination: against planner's alternatives and proven combination)."""
    path = tmp_path / "b.json"
    write_instance(generate("css2015", 2, nodes=8, jobs=4, job_nodes_max=2), path)
    for argv, kind in ((["alternatives", "--algorithm", "amp"], "alternatives"),
                       (["combine", "--problem", "8"], "combine")):  # fmt: skip
        code, out, _ = _run(capsys, argv[0], str(path), *argv[1:], "--json")
        res = tmp_path / f"{kind}.jsonl"
        res.write_text(out, encoding="utf-8")
        code, out, _ = _run(capsys, "check", str(path), str(res), "--algorithm", "amp")
        assert code == 0, out
        assert f"({kind} lines): no violations" in out
    assert out.rstrip().endswith("against planner's amp alternatives and combination: identical")


def test_a_joint_solution_is_checked_not_compared(tiny: Instance, tmp_path: Path,
                                                  capsys: Any) -> None:  # fmt: skip
    """combine --joint: its windows pass the checker; they are no alternatives, so the
    comparison with planner's two-phase combination is skipped, not a difference."""
    path = tmp_path / "t.json"
    write_instance(tiny, path)
    _, out, _ = _run(capsys, "combine", str(path), "--problem", "8", "--joint", "--json")
    res = tmp_path / "joint.jsonl"
    res.write_text(out, encoding="utf-8")
    code, out, _ = _run(capsys, "check", str(path), str(res), "--algorithm", "amp")
    assert code == 0 and out.rstrip().endswith("not compared (a joint solution chooses no "
                                               "alternatives)")  # fmt: skip


def test_minimal_alternatives_need_their_kind(tmp_path: Path, capsys: Any) -> None:
    """Unnumbered alternatives read as single-job lines repeat jobs; --kind alternatives
    reads them in the order found."""
    path = tmp_path / "b.json"
    write_instance(generate("tiny", 3), path)
    _, out, _ = _run(capsys, "alternatives", str(path), "--algorithm", "amp", "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    minimal = [{"job": x["job"], "window": x["window"]} if x["window"] else
               {"job": x["job"], "status": "not_found"} for x in lines]  # fmt: skip
    res = _write(tmp_path / "m.jsonl", minimal)
    assert _run(capsys, "check", str(path), str(res))[0] == 3  # read as solve lines
    assert _run(capsys, "check", str(path), str(res), "--kind", "alternatives",
                "--algorithm", "amp")[0] == 0  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--kind", "sovle"], "unknown kind 'sovle' (did you mean 'solve'?)"),  # a typo
        (["--algorithm", "ampp"], "unknown algorithm 'ampp'"),  # a typo
        (["--alternatives", "x.jsonl"], "apply to combine lines"),  # not a combination
        (["--limit", "-1"], "--limit must be >= 0"),  # a negative limit
    ],
)
def test_usage_errors(batch: Any, tmp_path: Path, capsys: Any, extra: list[str],
                      needle: str) -> None:  # fmt: skip
    """Bad options: one stderr line, exit 2."""
    inst, lines = batch
    res = _write(tmp_path / "res.jsonl", lines)
    code, _, err = _run(capsys, "check", str(inst), str(res), *extra)
    assert code == 2 and err.count("\n") == 1 and needle in err
