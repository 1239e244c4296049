"""``planner flow``: output, files, and one-line usage errors (exit 2)."""

from __future__ import annotations

import csv
import json

import pytest

from planner.cli import main

SMALL = ["--param", "jobs=6", "--param", "nodes=10"]


def test_flow_prints_cycles_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """Two cycles of the slicer: a table row per cycle and the means line."""
    assert main(["flow", "css2015", "--policy", "slicer", "--k", "2", "--cycles", "2", *SMALL]) == 0
    out = capsys.readouterr().out
    assert "policy=slicer(k=2)" in out and "Y_cycles=" in out and "T_CPU=" in out
    assert len([ln for ln in out.splitlines() if ln.strip().startswith(("0 ", "1 "))]) == 2


def test_flow_json_and_jobs_csv(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object per cycle; --jobs writes one row per job and cycle."""
    jobs = tmp_path / "jobs.csv"
    argv = ["flow", "css2015", "--policy", "css", "--cycles", "3", "--json", "--jobs", str(jobs)]
    assert main([*argv, *SMALL]) == 0
    rows = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [r["cycle"] for r in rows] == [0, 1, 2]
    assert all(len(r["nodes"]) == 10 and r["placed"] + r["postponed"] == r["batch"] for r in rows)
    records = list(csv.DictReader(jobs.open()))
    assert len(records) == sum(r["batch"] for r in rows)
    assert {r["status"] for r in records} <= {"placed", "postponed", "dropped"}


def test_flow_plots(tmp_path) -> None:
    """--plot writes the per-cycle metrics and the timeline of one cycle."""
    pytest.importorskip("matplotlib")
    argv = ["flow", "css2015", "--cycles", "2", "--plot", str(tmp_path), "--timeline-cycle", "1"]
    assert main([*argv, *SMALL]) == 0
    assert (tmp_path / "cycles.png").stat().st_size > 0
    assert (tmp_path / "timeline.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["flow", "nofamily"], "unknown family"),  # family not registered
        (["flow", "css2015", "--policy", "bogus"], "unknown policy"),  # policy not registered
        (["flow", "css2015", "--policy", "css", "--k", "3"], "--k"),  # k is for the slicer
        (["flow", "css2015", "--k", "0"], "--k"),  # k below 1
        (["flow", "css2015", "--param", "jobs"], "NAME=VALUE"),  # parameter without value
        (["flow", "css2015", "--param", "bogus=1"], "bogus"),  # unknown family parameter
        (["flow", "css2015", "--problem", "5"], "--problem"),  # not a combination problem
        (["flow", "css2015", "--search", "bogus"], "bogus"),  # unknown search
        (["flow", "css2015", "--param", f"jobs={10**30}"], "within ±10^6"),  # endless batch
        (["flow", "css2015", "--param", f"nodes={10**30}"], "within ±10^6"),  # numpy's own error
        (["flow", "css2015", "--param", "unit_price=1e308"], "within ±10^15"),  # numpy overflow
        (["flow", "css2015", "--param", "interval=1e400"], "must be an integer"),  # infinity
        (["flow", "css2015", "--param", "interval=100000", "--param", "nodes=1000"],
         "local tasks"),  # 5 * 10^6 local tasks to draw
        (["flow", "css2015", "--param", "interval=100001"], "'interval' must be <="),  # horizon
        (["flow", "css2015", "--param", "nodes=1001"], "'nodes' must be <= 1000"),  # flow size
        (["flow", "css2015", "--param", "jobs=1001"], "'jobs' must be <= 1000"),  # batch size
        (["flow", "css2015", "--cycles", "10001"], "--cycles must be an integer in"),  # too many
        (["flow", "css2015", "--seed", "\uff11"], "--seed must be an integer"),  # full-width 1
        (["flow", "css2015", "--seed", "1_0"], "--seed must be an integer"),  # Python grouping
        # timeline cycle past the flow
        (
            ["flow", "css2015", "--cycles", "2", "--plot", "x", "--timeline-cycle", "2"],
            "--timeline",
        ),
    ],
)
def test_flow_usage_errors(argv, needle, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input: exit 2 with one line on stderr naming the rule."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err
