"""Tests of ``planner combine`` (FORMATS.md command line; SPEC §8, §9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from instances import generate, write_instance
from models import solve_combination, solve_joint
from planner import METRICS, find_alternatives
from planner.cli import main

SUMMARY_KEYS = {
    "problem", "solver", "status", "objective", "bound", "gap", "constraint", "limit", "time",
    "runtime",
}  # fmt: skip


@pytest.fixture
def tiny_file(tmp_path: Path) -> Path:
    """Write the 3-job tiny instance of seed 0 and return its path."""
    path = tmp_path / "tiny.json"
    write_instance(generate("tiny", 0, jobs=3), path)
    return path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict]:
    """Run the CLI with ``--json``; return the parsed lines (exit code 0 asserted)."""
    assert main([*argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("solver", ["dp", "cpsat", "milp"])
@pytest.mark.parametrize("problem", ["6", "7", "8", "9"])
def test_json_lines_match_the_api(
    tiny_file: Path, capsys: pytest.CaptureFixture[str], problem: str, solver: str
) -> None:
    """One line per job then a summary; the chosen windows are the API's (AMP alternatives)."""
    lines = run_json(capsys, "combine", str(tiny_file), "--problem", problem, "--solver", solver)
    *jobs, summary = lines
    inst = generate("tiny", 0, jobs=3)
    alts = find_alternatives(inst, "amp").by_job()
    api = solve_combination(alts, int(problem), solver)
    assert set(summary) == SUMMARY_KEYS
    assert (summary["status"], summary["objective"]) == (api.status, api.objective)
    assert summary["limit"] == api.info["limit"]
    assert [j["job"] for j in jobs] == [j.id for j in inst.jobs]
    for line in jobs:
        if line["status"] == "placed":
            window = alts[line["job"]][line["alternative"] - 1]  # 1-based, as `alternatives`
            assert line["window"] == window.to_dict()
        else:
            assert line["window"] is None and line["job"] in api.info["postponed"]


@pytest.mark.parametrize(
    ("flags", "solver"),
    [
        ([], "joint-cg"),  # auto: column generation for a linear objective
        (["--solver", "cpsat"], "joint-cpsat"),  # the compact model
        (["--solver", "cg"], "joint-cg"),  # the decomposition
    ],
)
def test_joint_flag_is_never_worse(
    tiny_file: Path, capsys: pytest.CaptureFixture[str], flags: list[str], solver: str
) -> None:
    """``--joint`` solves the joint model under the two-phase limit; (8) minimises Σ cost."""
    two = run_json(capsys, "combine", str(tiny_file), "--problem", "8")
    joint = run_json(capsys, "combine", str(tiny_file), "--problem", "8", "--joint", *flags)
    assert joint[-1]["solver"] == solver and joint[-1]["status"] == "optimal"
    assert joint[-1]["gap"] == 0.0
    assert joint[-1]["limit"] == two[-1]["limit"]
    placed = [sum(j.get("status") == "placed" for j in out[:-1]) for out in (two, joint)]
    assert placed[1] >= placed[0]
    if placed[1] == placed[0]:
        assert joint[-1]["objective"] <= two[-1]["objective"]


def test_infeasible_limit_postpones_everything(
    tiny_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--t-star 0`` admits no combination: status infeasible, every job postponed."""
    *jobs, summary = run_json(capsys, "combine", str(tiny_file), "--problem", "6", "--t-star", "0")
    assert summary["status"] == "infeasible" and summary["objective"] is None
    assert all(j["status"] == "postponed" and j["window"] is None for j in jobs)


def test_table_output(tiny_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--json`` a table with one row per job and a summary line is printed."""
    assert main(["combine", str(tiny_file), "--problem", "9", "--time", "runtime"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == [
        "job", "status", "alt", "start", "finish", "cost", "runtime", "nodes",
    ]  # fmt: skip
    assert "problem=9" in out and "solver=dp" in out
    assert out.splitlines()[-1] == "proof: optimal"


def test_joint_solver_names_are_checked(
    tiny_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``--joint``, ``--solver`` takes a joint method; dp is a combination method only."""
    assert main(["combine", str(tiny_file), "--problem", "8", "--joint", "--solver", "dp"]) == 2
    assert "unknown solver 'dp'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--problem", "5"], "unknown problem '5'"),  # not one of (6)–(9)
        (["--problem", "6", "--solver", "greedy"], "unknown solver 'greedy'"),  # no such method
        (["--problem", "6", "--algorithm", "best"], "unknown algorithm 'best'"),  # no such search
        (["--problem", "6", "--time", "finish"], "unknown time 'finish'"),  # not a time metric
        (["--problem", "6", "--t-star", "-1"], "--t-star must be an integer >= 0"),  # negative
        (["--problem", "7", "--b-star", "x"], "invalid int value"),  # not an integer
        (["--problem", "6", "--time-limit", "0"], "--time-limit must be a positive"),  # zero
        ([], "--problem"),  # the problem is required
        (["--objective", "finish"], "--objective needs --joint"),  # no combination of sums
        (["--joint", "--objective", "finsh"], "did you mean 'finish'"),  # a misspelt metric
        (["--joint", "--objective", "q", "--problem", "8"], "not both"),  # two objectives
        (["--joint", "--objective", "cost", "--t-star", "9"], "--t-star belongs to"),  # no g*
        (["--joint", "--objective", "cost", "--time", "runtime"], "--time belongs to"),
    ],
)
def test_bad_usage_is_one_line_exit_2(
    tiny_file: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Bad usage prints one line naming the problem on stderr and exits 2."""
    assert main(["combine", str(tiny_file), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_bad_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing instance file is one line on stderr naming the file, exit 2."""
    missing = tmp_path / "missing.json"
    assert main(["combine", str(missing), "--problem", "6"]) == 2
    assert str(missing) in capsys.readouterr().err


@pytest.mark.parametrize("objective", METRICS)
def test_every_joint_objective_on_the_command_line(
    tiny_file: Path, capsys: pytest.CaptureFixture[str], objective: str
) -> None:
    """``--joint --objective NAME`` solves Σ NAME like ``solve_joint`` (the same status,
    value and bound, with the default solver), no two-phase run: ``problem`` null, the
    summary names the metric, and its windows are the API's."""
    *jobs, summary = run_json(capsys, "combine", str(tiny_file), "--joint", "--objective",
                              objective)
    api = solve_joint(generate("tiny", 0, jobs=3), objective, "auto")
    assert set(summary) == SUMMARY_KEYS | {"metric"}
    assert (summary["problem"], summary["metric"], summary["time"]) == (None, objective, None)
    assert summary["solver"] == f"joint-{api.solver}"
    assert (summary["status"], summary["objective"], summary["bound"]) == (
        api.status, api.objective, api.bound)
    placed = {line["job"]: line["window"] for line in jobs if line["status"] == "placed"}
    assert placed == {w.job: w.to_dict() for w in api.windows}


def test_objective_table_ends_with_the_proof(
    tiny_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table output of ``--objective`` ends with the proof line, as with ``--problem``."""
    assert main(["combine", str(tiny_file), "--joint", "--objective", "finish"]) == 0
    out = capsys.readouterr().out
    assert "metric=finish" in out and "problem=None" in out
    assert out.splitlines()[-1] == "proof: optimal"


@pytest.mark.parametrize("joint", [[], ["--joint"]])
def test_a_limit_spent_in_the_alternatives_search_is_unknown(
    tiny_file: Path, capsys: pytest.CaptureFixture[str], joint: list[str]
) -> None:
    """The limit covers the whole command from its start: one that has passed before the
    alternatives search (a millionth of a second) stops it; nothing is combined or solved —
    status unknown, every job postponed, and stderr says why."""
    argv = ["combine", str(tiny_file), "--problem", "8", "--time-limit", "1e-6", *joint]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    *jobs, summary = [json.loads(line) for line in captured.out.splitlines()]
    assert (summary["status"], summary["objective"], summary["limit"]) == ("unknown", None, None)
    assert all(j["status"] == "postponed" for j in jobs)
    assert "time limit passed during the alternatives search" in captured.err
