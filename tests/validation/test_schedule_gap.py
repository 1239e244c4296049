"""The schedule-gap study: small snapshots, proven optima, no policy beating them, CLI table."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import main
from validation.study.schedule_gap import GapSpec, render, run_gap_study, summarise


def test_gap_study_rows_and_summary() -> None:
    """Three 8-job snapshots on 3 machines: all proven, no policy better than the optimum."""
    spec = GapSpec(snapshots=3, jobs=8, machines=3, interarrival=30.0, time_limit=10.0)
    rows, _ = run_gap_study(spec)
    assert len(rows) == 3 * len(spec.policies)
    assert {r["status"] for r in rows} == {"optimal"}
    for r in rows:
        assert (r["delayed"], r["makespan"]) >= (r["opt_delayed"], r["opt_makespan"])
    summary = summarise(rows)
    assert [s["policy"] for s in summary] == list(spec.policies)
    assert all(s["proven"] == 3 and s["beats_optimum"] == 0 for s in summary)
    assert all(s["extra_delayed"] >= 0 and s["makespan_gap"] >= 0 for s in summary)
    assert render(summary).count("\n") == 2 + len(spec.policies) - 1


def test_cli_schedule_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command prints the table and writes the same CSV bytes twice."""
    out = tmp_path / "rows.csv"
    argv = ["study", "schedule-gap", "--snapshots", "2", "--jobs", "6", "--machines", "2",
            "--policies", "easy", "tabu", "--csv", str(out)]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2 proven optimal" in text and "| tabu | 2 |" in text
    first = out.read_bytes()
    assert first.count(b"\n") == 1 + 2 * 2
    assert main(argv) == 0
    assert out.read_bytes() == first
    assert main([*argv[:-2], "--policies", "nope"]) == 2
