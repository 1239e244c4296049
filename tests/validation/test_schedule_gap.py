"""``planner study schedule-gap``: checked snapshots, rows, resume, report, CLI (seed 001)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from planner.cli import main
from validation.study import Report, StudyError, StudyStopped
from validation.study.schedule_gap import (
    ScheduleGapSpec,
    ScheduleGapStore,
    render,
    run_schedule_gap_study,
    run_snapshot,
    summarise,
    write_report,
)
from validation.study.schedule_gap import task as task_module
from validation.study.schedule_gap.report import beats

SMALL = ScheduleGapSpec(snapshots=3, jobs=6, machines=2, interarrival=30.0, time_limit=60.0)
"""Three 6-job snapshots on 2 machines: CP-SAT proves each in well under a second (the
limit is far above that, so a loaded machine still proves them)."""


def test_snapshot_rows_are_proven_checked_and_never_beat_the_optimum() -> None:
    """One row per policy, the optimum proven and checked, no replay better than it."""
    result = run_snapshot(SMALL.tasks()[0])
    rows = result["rows"]
    assert [r["policy"] for r in rows] == list(SMALL.policies)
    assert {r["status"] for r in rows} == {"optimal"}
    for r in rows:
        assert r["violations"] == 0 and r["optimum_violations"] == 0, r["first_violation"]
        assert (r["delayed"], r["makespan"]) >= (r["opt_delayed"], r["opt_makespan"])
        assert not beats(r)
    assert not any("seconds" in k for r in rows for k in r)
    assert result["solve_seconds"] >= 0 and result["replay_seconds"] >= 0


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"snapshots": 0}, "snapshots must be an integer >= 1"),  # nothing to solve
        ({"jobs": 2.5}, "jobs must be an integer"),  # not a count
        ({"seed": -1}, "seed must be an integer >= 0"),  # seeds are non-negative
        ({"time_limit": 0}, "time_limit must be a finite number > 0"),  # no time to prove
        ({"interarrival": float("nan")}, "interarrival must be a finite"),  # not a mean
        ({"policies": ()}, "at least one policy"),  # nothing to compare
        ({"policies": ("edf",)}, "unknown policy 'edf'"),  # not a cluster policy
    ],
)
def test_bad_spec(kwargs: dict, fragment: str) -> None:
    """Bad study input is one StudyError line."""
    with pytest.raises(StudyError, match=fragment):
        ScheduleGapSpec(**kwargs)


def test_resume_solves_each_snapshot_once_and_matches_a_clean_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after 1 of 3 snapshots, the rerun solves the other 2 only; rows equal a clean
    run's, and so do the reports apart from the timing line."""
    solved: list[int] = []

    def counting(task):  # type: ignore[no-untyped-def]
        solved.append(task.seed)
        return run_snapshot(task)

    monkeypatch.setattr(task_module, "run_snapshot", counting)
    with ScheduleGapStore(tmp_path / "a.sqlite") as store, pytest.raises(StudyStopped):
        run_schedule_gap_study(SMALL, store, stop_after=1, progress=False)
    with ScheduleGapStore(tmp_path / "a.sqlite") as store:
        outcome = run_schedule_gap_study(SMALL, store, progress=False)
        resumed = store.rows(outcome.study)
        rep_a = write_report(store, outcome.study, tmp_path / "ra")
    assert sorted(solved) == [0, 1, 2] and (outcome.written, outcome.violations) == (2, 0)
    with ScheduleGapStore(tmp_path / "b.sqlite") as store:
        clean_outcome = run_schedule_gap_study(SMALL, store, progress=False)
        clean = store.rows(clean_outcome.study)
        rep_b = write_report(store, clean_outcome.study, tmp_path / "rb")
    assert resumed == clean and len(clean) == 3 * len(SMALL.policies)

    def text(rep: Report) -> list[str]:
        lines = rep.path.read_text().splitlines()
        return [ln for ln in lines if not ln.startswith("- timing:")]

    assert text(rep_a) == text(rep_b)
    for name in ("rows.csv", "summary.csv", "study.json"):
        assert (tmp_path / "ra" / name).read_bytes() == (tmp_path / "rb" / name).read_bytes()


def test_report_flags_a_replay_that_beats_a_proven_optimum(tmp_path: Path) -> None:
    """A row better than its proven optimum is counted and flagged loudly in report.md."""
    spec = ScheduleGapSpec(snapshots=1, jobs=6, machines=2, policies=("fcfs", "easy"))
    result = run_snapshot(spec.tasks()[0])
    rep = _stored_report(spec, result, tmp_path / "ok")
    text = rep.path.read_text()
    assert "| fcfs | 1 |" in text and "WARNING" not in text and not rep.problems
    assert "beats a proven optimum" in text
    forged = [dict(r) for r in result["rows"]]
    forged[1]["makespan"] = forged[1]["opt_makespan"] - 1  # easy "better than optimal"
    rep = _stored_report(spec, {**result, "rows": forged}, tmp_path / "bad")
    text = rep.path.read_text()
    assert rep.problems == ["1 replay beat a proven optimum or bound: the model or the "
                            "simulator is wrong"]  # fmt: skip
    assert "WARNING: 1 replay beat a proven optimum" in text
    assert [s["beats_optimum"] for s in summarise(forged)] == [0, 1]
    assert "| easy | 1 |" in render(summarise(forged)) and "1 **(!)**" in text


def test_one_run_per_database(tmp_path: Path) -> None:
    """While a store is open for a run, a second one on the same file is refused; once
    closed, the file opens again."""
    path = tmp_path / "gap.sqlite"
    with ScheduleGapStore(path), pytest.raises(StudyError, match="another planner study"):
        ScheduleGapStore(path)
    ScheduleGapStore(path).close()


def _stored_report(spec: ScheduleGapSpec, result: dict, out: Path) -> Report:
    """The report of a one-snapshot study whose stored result is ``result`` (forged or not)."""
    with ScheduleGapStore(out.with_suffix(".sqlite")) as store:
        study = store.study(spec, "test")
        store.write(study, result)
        return write_report(store, study, out)


def test_not_a_schedule_gap_database(tmp_path: Path) -> None:
    """Another SQLite file is refused with one line naming the format."""
    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StudyError, match=r"planner\.schedule-gap-study/1"):
        ScheduleGapStore(path)


def test_cli_writes_report_and_csv_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command writes study-out/schedule-gap-HASH/report.md and the same CSV bytes twice;
    the rerun solves nothing."""
    monkeypatch.chdir(tmp_path)
    argv = ["study", "schedule-gap", "--snapshots", "2", "--jobs", "6", "--machines", "2",
            "--policies", "easy", "tabu", "--csv", "rows.csv", "--workers", "1",
            "--quiet"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "(2 solved now)" in out and "2 optimal, 0 feasible, 0 unknown" in out
    assert re.search(r"^tabu +2 ", out, flags=re.M)  # the narrow table: policy, proven
    assert "Findings:" in out and max(len(line) for line in out.splitlines()[1:]) <= 100
    (report,) = (tmp_path / "study-out").glob("schedule-gap-*/report.md")
    assert "## Solver status" in report.read_text()
    first = (tmp_path / "rows.csv").read_bytes()
    assert first.count(b"\n") == 1 + 2 * 2
    assert main(argv) == 0
    assert "(0 solved now)" in capsys.readouterr().out
    assert (tmp_path / "rows.csv").read_bytes() == first


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--policies", "nope"], "unknown policy 'nope'"),  # not a cluster policy
        (["--snapshots", "0"], "--snapshots must be >= 1"),  # nothing to solve
        (["--time-limit", "-1"], "--time-limit must be > 0"),  # no time to prove
        (["--interarrival", "x"], "--interarrival must be a number"),  # not a number
        (["--scheduler", "x:1"], "--scheduler needs --executor dask"),  # Dask option alone
        (["--executor", "mpi"], "invalid choice: 'mpi'"),  # unknown executor
        (["--csv", "no/such/dir/rows.csv"], "cannot write no/such/dir/rows.csv"),  # no folder
        # the MILP's cell cap: 2 jobs on 1 machine already need 144,769 cells
        (["--solver", "milp", "--jobs", "2", "--machines", "1"],
         "snapshot 0, solver milp: the time-indexed snapshot MILP needs one binary per job"),
        # the refused snapshot is named by its seed
        (["--solver", "milp", "--jobs", "2", "--machines", "1", "--seed", "5"],
         "snapshot 5, solver milp: the time-indexed snapshot MILP needs"),
        # the generator's range for its mean interarrival
        (["--interarrival", "1e17"],
         "snapshot 0: family 'klusacek2008': parameter 'interarrival' must be a finite number"),
        # releases past the clock's 10^12 s
        (["--interarrival", "1e12", "--jobs", "3"], "snapshot 0: submit: must be an integer"),
    ],
)
def test_cli_bad_options_exit_2_with_one_line(
    extra: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Bad options, and snapshots their generator or solver refuses: exit 2, one stderr line
    naming the option or the snapshot and the rule, nothing written."""
    monkeypatch.chdir(tmp_path)
    assert main(["study", "schedule-gap", *extra]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1
    assert not (tmp_path / "study-out").exists()


def test_cli_refuses_another_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--db naming a foreign SQLite file: exit 2, one line, before any snapshot is solved."""
    db = tmp_path / "other.sqlite"
    sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.close()
    argv = ["study", "schedule-gap", "--db", str(db), "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "not a planner.schedule-gap-study/1 database" in err and err.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["local", "dask"])
def test_executors_store_the_same_rows(kind: str, tmp_path: Path) -> None:
    """Two local worker processes, or a Dask local cluster, store the rows of a serial run."""
    if kind == "dask":
        pytest.importorskip("dask.distributed")
    from validation.study import make_executor

    spec = ScheduleGapSpec(snapshots=2, jobs=6, machines=2, policies=("easy", "egedf"))
    rows = {}
    for name, executor in (("serial", None), (kind, make_executor(kind, workers=2))):
        with ScheduleGapStore(tmp_path / f"{name}.sqlite") as store:
            out = run_schedule_gap_study(spec, store, executor=executor, progress=False)
            rows[name] = store.rows(out.study)
    assert rows[kind] == rows["serial"] and len(rows["serial"]) == 4
