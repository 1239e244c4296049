"""Tests of ``planner study``: usage errors, a gap run, error exit, report and resume."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from test_study_runner import BROKEN, FAKE

from planner.cli import main
from validation.study.gap import toolkit


@pytest.fixture
def fake_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the CLI with the fake heuristics of ``test_study_runner``."""
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", FAKE)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--family", "nope"], "unknown family 'nope'"),  # not a family
        (["--family", "tiny", "--nodez", "3"], "no parameter 'nodez'"),  # typo in a parameter
        (["--family", "tiny", "--nodes", "0"], "nodes"),  # a value out of range
        (["--nodes", "3"], "need --family"),  # parameters of the quick default
        (["--instances", "0"], "--instances"),  # not >= 1
        (["--time-limit", "0"], "--time-limit must be > 0"),  # a limit of no time
        (["--algorithms", "nope"], "unknown algorithm 'nope'"),  # not a heuristic
        (["--solver", "nope"], "unknown solver 'nope'"),  # not an exact solver
        (["--geometry", "round"], "invalid choice"),  # not a geometry
        (["--family", "tiny", "--nodes"], "needs a value"),  # a parameter without value
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture, fake_kit: None
) -> None:
    """Bad family, parameter, algorithm, solver or option: exit 2, one line, nothing written."""
    code = main(["study", "gap", "--out", str(tmp_path / "out"), *argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_gap_run_prints_the_table_and_report(
    tmp_path: Path, capsys: pytest.CaptureFixture, fake_kit: None
) -> None:
    """A small study prints the summary, the report path and every file it wrote (PNG; SVG
    with ``--svg``); a rerun computes nothing new."""
    argv = ["study", "gap", "--family", "tiny", "--jobs", "2", "--instances", "4",
            "--out", str(tmp_path / "out"), "--workers", "1", "--quiet"]  # fmt: skip
    assert main([*argv, "--svg"]) == 0
    out, err = capsys.readouterr()
    assert f"wrote {tmp_path / 'out'}{os.sep}: study.sqlite, report.md, study.json, summary.csv, " \
        "rows.csv, gap_distribution.png, gap_distribution.svg, time_vs_gap.png" in err
    assert "4 instances (4 computed now), 16 rows" in out and "early" in out and "min_cost" in out
    report = tmp_path / "out" / "report.md"
    assert f"report: {report}" in out
    text = report.read_text()
    assert "## Summary" in text and "| early | min_cost |" in text
    assert text.index("## Findings") < text.index("## Columns") < text.index("## Summary")
    assert "Findings:" in out and "--wide prints every column" in out
    table = out[out.index("algorithm"): out.index("Findings:")]
    assert max(len(line) for line in table.splitlines()) <= 100
    for fig in ("gap_distribution", "time_vs_gap", "exact_match"):
        assert (tmp_path / "out" / f"{fig}.png").stat().st_size > 0
        assert (tmp_path / "out" / f"{fig}.svg").stat().st_size > 0
        assert f"({fig}.png)" in text
    assert main([*argv, "--wide"]) == 0
    out = capsys.readouterr().out
    assert "4 instances (0 computed now), 16 rows" in out and "exact/heur" in out
    assert not list((tmp_path / "out").glob("*.svg"))  # PNG only: the stale SVGs are gone


def test_repeated_algorithm_names_count_once(
    tmp_path: Path, capsys: pytest.CaptureFixture, fake_kit: None
) -> None:
    """``--algorithms opt opt`` is one algorithm, not a UNIQUE-key crash."""
    argv = ["study", "gap", "--family", "tiny", "--jobs", "2", "--instances", "2",
            "--algorithms", "opt", "opt", "--out", str(tmp_path / "out"),
            "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    assert "2 instances (2 computed now), 4 rows" in capsys.readouterr().out


@pytest.mark.slow
def test_error_rows_exit_nonzero(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the broken heuristic the study finishes, saves the instances and exits 1."""
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", BROKEN)
    out = tmp_path / "out"
    code = main(["study", "gap", "--family", "tiny", "--instances", "3", "--out", str(out),
                 "--workers", "1"])  # fmt: skip
    assert code == 1
    assert re.search(r"\b(1 error row|\d+ error rows) \(see", capsys.readouterr().err)
    assert sorted(os.listdir(out / "errors"))
    assert main(["study", "report", "--db", str(out / "study.sqlite"), "--out", str(out)]) == 0


def test_report_and_export_of_a_missing_database_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A database path that does not exist: exit 2 with one line."""
    for sub in (["report"], ["export", "-o", str(tmp_path / "x.csv")], ["list"]):
        assert main(["study", *sub, "--db", str(tmp_path / "none.sqlite")]) == 2
        assert "no such file" in capsys.readouterr().err


def test_export_to_an_unknown_format_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture, fake_kit: None
) -> None:
    """``-o rows.xlsx`` is not silently written as CSV: exit 2, one line, no file."""
    out = tmp_path / "out"
    assert main(["study", "gap", "--family", "tiny", "--instances", "1", "--out", str(out),
                 "--workers", "1", "--quiet"]) == 0  # fmt: skip
    capsys.readouterr()
    target = tmp_path / "rows.xlsx"
    assert main(["study", "export", "--db", str(out / "study.sqlite"), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".csv or .parquet" in err and not target.exists()


@pytest.mark.slow
def test_quick_default_runs_without_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``planner study gap`` alone runs the quick default with the real heuristics and solver."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CI", "1")
    code = main(["study", "gap"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("tiny: 40 instances (40 computed now)")
    from planner import __version__
    from validation.study import StudySpec
    from validation.study.gap import GAP

    quick = StudySpec("tiny", instances=40, seed=0, geometries=("rough", "square"))
    report = GAP.default_dir("study-out", quick, __version__) / "report.md"
    assert f"report: {report}" in out and report.parent.name.startswith("tiny-")
    for name in ("amp", "max_q", "csa", "square"):
        assert name in out
    assert (tmp_path / report).is_file()
