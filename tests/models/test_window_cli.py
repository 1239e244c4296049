"""``planner exact`` (FORMATS.md command line and exact-result JSON)."""

from __future__ import annotations

import json

import pytest

from instances import read_instance
from models import solve_window
from planner.cli import main

EXAMPLE = "instances/data/example.json"
KEYS = {"job", "solver", "criterion", "status", "objective", "bound", "runtime", "window", "reason"}


def test_json_lines_one_per_job(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one FORMATS.md object per job; each job uses its own criterion by default."""
    assert main(["exact", EXAMPLE, "--json", "--solver", "dp"]) == 0
    lines = capsys.readouterr().out.splitlines()
    inst = read_instance(EXAMPLE)
    assert len(lines) == len(inst.jobs)
    for line, job in zip(lines, inst.jobs, strict=True):
        rec = json.loads(line)
        assert set(rec) == KEYS
        assert (rec["job"], rec["criterion"], rec["solver"]) == (job.id, job.criterion, "dp")
        res = solve_window(inst, job, job.criterion, "dp")
        assert rec["status"] == res.status and rec["objective"] == res.objective
        assert rec["window"] == res.window.to_dict()


def test_options_reach_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    """--criterion, --job, --free-start and --time-limit are passed on (j3: DEP 23 free)."""
    argv = ["exact", EXAMPLE, "--json", "--criterion", "dep", "--job", "j3", "--free-start",
            "--time-limit", "30"]  # fmt: skip
    assert main(argv) == 0
    (line,) = capsys.readouterr().out.splitlines()
    rec = json.loads(line)
    assert (rec["status"], rec["objective"], rec["window"]["start"]) == ("optimal", 23.0, 73)


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json a table with one row per job is printed."""
    assert main(["exact", EXAMPLE, "--criterion", "min_cost"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["job", "criterion", "status"]
    assert len(out) == 2 + 3 and all("optimal" in row for row in out[2:])


@pytest.mark.parametrize(
    "extra",
    [
        ["--solver", "gurobi"],  # unknown solver
        ["--criterion", "fastest"],  # unknown criterion
        ["--job", "j9"],  # unknown job
        ["--time-limit", "0"],  # a limit must be positive
        ["--time-limit", "soon"],  # not a number
    ],
)
def test_bad_usage_exits_2(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad usage is one line on stderr and exit code 2."""
    assert main(["exact", EXAMPLE, *extra]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("planner")


def test_missing_file_exits_2(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that does not exist is bad input (exit 2)."""
    assert main(["exact", str(tmp_path / "none.json")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_non_integer_threads_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """--threads takes an integer; the one-line message says so."""
    assert main(["exact", EXAMPLE, "--threads", "1.5"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "--threads must be an integer" in line
