"""Execution replay of VO flows: a hand-checked case, the independent replay checker, the CLI
(seed 003 §7.2)."""

from __future__ import annotations

import csv
import dataclasses
import json
import math

import numpy as np
import pytest

from instances import Instance, Job, Node, generate
from models.combination import VoPolicy
from planner.cli import main
from planner.vo import Backfill, family_environment, run_flow, schedule_cycle
from planner.vo.flow_replay import replay_flow
from planner.vo.replay import replay, task_factors
from validation.replay_check import check_replay

SMALL = ["--param", "jobs=6", "--param", "nodes=10"]


def _hand() -> tuple[Instance, tuple, dict[str, np.ndarray]]:
    """Two idle nodes of performance 1 over [0, 100).

    Backfilling reserves a (2 nodes, 10 quanta) at 0 on n1 and n2, then b
    (1 node, 20 quanta) at 10 on n1 (n1 before n2 on a tie). Real factors:
    a runs 0.5 x 10 = 5 on n1 and 0.3 x 10 = 3 on n2; b runs 0.5 x 20 = 10.
    """
    nodes = (Node("n1", 1.0, price=1.0), Node("n2", 1.0, price=1.0))
    jobs = (Job("a", 2, 10.0), Job("b", 1, 20.0))
    inst = Instance(nodes=nodes, jobs=jobs, horizon=(0, 100), busy=())
    res = schedule_cycle(Backfill(), VoPolicy(7), inst).reservations
    return inst, res, {"a": np.array([0.5, 0.3]), "b": np.array([0.5])}


def test_hand_replay_fixed_and_replanned() -> None:
    """Fixed: b starts at 10 as reserved, real finish 20. Re-planned: n2 is released at 3, so b
    moves there at 3 (window [3, 23) on n2) and really finishes at 13."""
    inst, res, f = _hand()
    assert [(w.job, w.start, w.nodes) for w in res] == [("a", 0, ("n1", "n2")), ("b", 10, ("n1",))]
    fixed = {r.job: r for r in replay(inst, res, f)}
    assert (fixed["a"].real_start, fixed["a"].real_time, fixed["a"].real_finish) == (0, 8.0, 5.0)
    b = fixed["b"]
    assert (b.scheduled_start, b.real_start, b.scheduled_time, b.real_time) == (10, 10, 20, 10.0)
    assert b.real_finish == 20.0
    moved = {r.job: r for r in replay(inst, res, f, reuse=True)}
    b = moved["b"]
    assert (b.scheduled_start, b.real_start, b.real_time, b.real_finish) == (10, 3, 10.0, 13.0)
    assert b.window.nodes == ("n2",) and [(t, w.start) for t, w in b.moves] == [(3, 3)]
    assert moved["a"].moves == () and moved["a"].window == res[0]
    assert check_replay(inst, res, f, list(moved.values()), replan=True) == []
    assert check_replay(inst, res, f, list(fixed.values()), replan=False) == []


def test_checker_flags_a_missed_and_a_wrong_move() -> None:
    """The checker reports b kept at 10 though n2 was free from 3, and a move to the wrong start."""
    inst, res, f = _hand()
    kept = replay(inst, res, f)
    assert any(v.startswith("compress: 'b'") for v in check_replay(inst, res, f, kept, replan=True))
    rows = replay(inst, res, f, reuse=True)
    b = rows[1]
    late = dataclasses.replace(
        b.window, start=4,
        placements=tuple(dataclasses.replace(p, start=4, end=24) for p in b.window.placements),
    )  # fmt: skip
    bad = [rows[0], dataclasses.replace(b, real_start=4, real_finish=14.0, window=late,
                                        moves=((3, late),))]  # fmt: skip
    assert any(v.startswith("move: 'b' at 3") for v in check_replay(inst, res, f, bad, replan=True))


@pytest.mark.parametrize("seed", [5, 6])
def test_replanned_cycles_pass_the_checker(seed) -> None:
    """Generated cycles (8 jobs, 12 nodes): some jobs move, every move and non-move checks."""
    inst = generate("css2015", seed, jobs=8, nodes=12)
    res = schedule_cycle(Backfill(), VoPolicy(7), inst).reservations
    f = task_factors(inst, seed)
    rows = replay(inst, res, f, reuse=True)
    assert any(r.moves for r in rows)
    assert check_replay(inst, res, f, rows, replan=True) == []


def test_replay_flow_means_and_determinism() -> None:
    """Per-cycle means match the rows; the same seed gives the same replay, another seed not."""
    env = family_environment("css2015", 2, jobs=6, nodes=10)
    flow = run_flow(Backfill(), VoPolicy(7), env, 3, seed=2, keep=True)
    a, b = replay_flow(flow, 7, replan=True), replay_flow(flow, 7, replan=True)
    assert a == b and a != replay_flow(flow, 8, replan=True)
    for c in a.cycles:
        rows = [r for (k, _), r in a.jobs.items() if k == c.cycle]
        assert c.placed == len(rows) == flow.cycles[c.cycle].placed
        if rows:
            assert math.isclose(c.real_exec, sum(r.real_time for r in rows) / len(rows))
            assert c.real_start <= c.start and c.real_exec <= c.exec


def test_cli_replay_text_json_and_csv(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """--replay adds the per-cycle replay table and means, a replay object per JSON cycle and
    the real columns in --jobs; the same seed prints the same output."""
    argv = ["flow", "css2015", "--policy", "backfill", "--cycles", "2", "--replay", "4",
            "--replan", *SMALL]  # fmt: skip
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert "execution replay (seed 4, re-planned schedule)" in first and "real_exec=" in first
    jobs = tmp_path / "jobs.csv"
    assert main([*argv, "--json", "--jobs", str(jobs)]) == 0
    rows = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert all(r["replay"]["placed"] == r["placed"] for r in rows)
    records = list(csv.DictReader(jobs.open()))
    placed = [r for r in records if r["status"] == "placed"]
    assert placed and all(r["real_start"] and r["real_exec"] and r["real_hosts"] for r in placed)
    assert all(r["real_start"] == "" for r in records if r["status"] != "placed")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--replay", "-1"], "--replay"),  # seeds are >= 0
        (["--replay", "x"], "--replay"),  # not an integer
        (["--replan"], "--replan needs --replay"),  # re-planning without a replay
        (["--replay", "1", "--replan", "--policy", "css"], "backfill"),  # CSS keeps its schedule
    ],
)
def test_cli_replay_usage_errors(argv, needle, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad replay options: exit 2 with one line on stderr naming the rule."""
    assert main(["flow", "css2015", "--cycles", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err


@pytest.mark.parametrize("seed", [3, 4])
def test_necessary_test_changes_nothing(seed, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-planning with the cheap necessary test equals searching every waiting job (full size)."""
    import planner.vo.replan as replan

    inst = generate("css2015", seed)
    res = schedule_cycle(Backfill(), VoPolicy(7), inst).reservations
    f = task_factors(inst, seed)
    fast = replay(inst, res, f, reuse=True)
    monkeypatch.setattr(replan, "may_start_before", lambda *args: True)
    assert replay(inst, res, f, reuse=True) == fast
    assert any(r.moves for r in fast)
