"""Every study kind under interruption and damage (docs/study-reliability.md).

The attacks of ``test_study_reliability.py`` (written against the gap study),
parametrized over the three kinds that share one store and runner: a second
run on a busy database, two runs started at once, a read-only database, a
truncated or altered file, rows deleted behind a finished unit's back, and
``kill -9`` then a rerun. Each ends in exit 0 with the rows of a clean run, or
exit 2 with one stderr line; never exit 1, never a short study. Processes are
killed once the database shows written rows (an observable state), never
after a fixed delay.
"""

from __future__ import annotations

import csv
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from planner.cli import main
from tests.waiting import HANG_GUARD_S, wait_until
from validation.study.engine import storage
from validation.study.registry import KIND_NAMES, kind, open_readonly

TIMING = {"heuristic_seconds", "exact_seconds", "scheduler_seconds", "replay_seconds"}


def _argv(name: str, out: Path, units: int, db: Path | None = None) -> list[str]:
    """A small study of kind ``name`` with ``units`` units (instances, seeds, snapshots),
    its report in ``out``, its database ``db`` (default: ``out`` + ``.sqlite``)."""
    common = ["--out", str(out), "--db", str(db or _db(out)), "--quiet",
              "--workers", "1"]  # fmt: skip
    if name == "gap":
        return ["study", "gap", "--family", "tiny", "--jobs", "2", "--algorithms", "amp",
                "--instances", str(units), *common]  # fmt: skip
    if name == "cluster":
        return ["study", "cluster", "--workload", "klusacek2008", "--param", "jobs=12",
                "--param", "machines=3", "--policies", "fcfs", "easy",
                "--seeds", *map(str, range(units)), *common]  # fmt: skip
    return ["study", "schedule-gap", "--snapshots", str(units), "--jobs", "5", "--machines", "2",
            "--interarrival", "30", "--time-limit", "30", "--policies", "fcfs", "easy",
            *common]  # fmt: skip


def _rows_per_unit(name: str) -> int:
    return {"gap": 2, "cluster": 2, "schedule-gap": 2}[name]  # tiny: 2 jobs; 2 policies


def _db(out: Path) -> Path:
    return out.parent / f"{out.name}.sqlite"


def _stable(name: str, db: Path) -> list[dict[str, Any]]:
    """The verified rows of the database's study, without run times."""
    k, store = open_readonly(db)
    with store:
        (info,) = store.studies()
        rows = k.rows(store, info)
    return [{c: v for c, v in r.items() if c not in TIMING} for r in rows]


def _one_line(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    return err


_CLEAN: dict[tuple[str, int], list[dict[str, Any]]] = {}


def _clean(name: str, units: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """The rows of an uninterrupted run (computed once per kind and size)."""
    if (name, units) not in _CLEAN:
        out = tmp_path / "clean"
        assert main(_argv(name, out, units)) == 0
        capsys.readouterr()
        _CLEAN[name, units] = _stable(name, _db(out))
    return _CLEAN[name, units]


@pytest.fixture(autouse=True)
def no_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports without figures (drawing is the slow part; no test here looks at them)."""
    from validation.study.cluster import report as cluster_report
    from validation.study.gap import plots
    from validation.study.schedule_gap import report as schedule_report

    monkeypatch.setattr(plots, "available", lambda: False)
    monkeypatch.setattr(cluster_report, "available", lambda: False)
    monkeypatch.setattr(schedule_report, "draw", lambda summary, out, formats=(): [])


def test_every_kind_is_registered_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Three kinds, three distinct formats, each the name of a ``planner study`` subcommand."""
    assert KIND_NAMES == ("gap", "cluster", "schedule-gap")
    formats = [kind(n).store.FORMAT for n in KIND_NAMES]
    assert len(set(formats)) == 3 and all(f.startswith("planner.") for f in formats)
    for name in KIND_NAMES:
        with pytest.raises(SystemExit) as done:
            main(["study", name, "--help"])
        assert done.value.code == 0 and f"usage: planner study {name}" in capsys.readouterr().out


@pytest.mark.parametrize("name", KIND_NAMES)
def test_list_report_export_serve_every_kind(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``study list``, ``report`` and ``export`` read a database of each kind: the export
    holds every row in the kind's columns, the report re-renders into its own folder."""
    out = tmp_path / "o"
    assert main(_argv(name, out, 2)) == 0
    capsys.readouterr()
    db = str(_db(out))
    assert main(["study", "list", "--db", db]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split()[0] == "id" and listed[2].split()[0] == "1" and len(listed) == 3
    assert main(["study", "export", "--db", db, "-o", str(tmp_path / "rows.csv")]) == 0
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as fh:
        data = list(csv.DictReader(fh))
    assert list(data[0]) == list(kind(name).store.COLUMNS)
    assert len(data) == 2 * _rows_per_unit(name)
    assert main(["study", "report", "--db", db, "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "report.md").is_file()
    assert (tmp_path / "again" / "study.json").is_file()
    assert "report: " in capsys.readouterr().out


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_second_run_on_a_busy_database_is_refused(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """While a run holds the database, another exits 2 with one line naming the holder."""
    out = tmp_path / "o"
    with kind(name).store(_db(out)):
        assert main(_argv(name, out, 2)) == 2
        _one_line(capsys, "another planner study is running", f"pid {os.getpid()}")
    assert main(_argv(name, out, 2)) == 0
    assert not Path(f"{_db(out)}.lock").exists()


@pytest.mark.parametrize("name", KIND_NAMES)
def test_two_runs_started_at_once_never_corrupt_the_database(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two processes on one ``--db`` at the same moment: each finishes or is refused with
    exit 2 and one line (never ``IntegrityError``, exit 1); the rows are a clean run's."""
    out = tmp_path / "o"
    argv = [sys.executable, "-m", "planner.cli", *_argv(name, out, 3)]
    env = {**os.environ, "CI": "1", "MPLBACKEND": "Agg"}
    procs = [subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]  # fmt: skip
    results = [(p.wait(timeout=HANG_GUARD_S), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    for p in procs:
        p.stderr.close()  # type: ignore[union-attr]
    assert sorted(code for code, _ in results) in ([0, 0], [0, 2]), results
    for code, err in results:
        if code == 2:
            assert err.count("\n") == 1 and "another planner study is running" in err, err
    assert _stable(name, _db(out)) == _clean(name, 3, tmp_path, capsys)


def _read_only(path: str) -> sqlite3.Connection:
    """What SQLite does itself for a file or folder it cannot write (as root every file is
    writable, so the test opens the connection read-only)."""
    uri = Path(path).absolute().as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True, isolation_level=None)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_read_only_database_of_an_unfinished_study_exits_2_before_any_work(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A database that cannot be written: an unfinished study exits 2 with one line and
    the file unchanged; the finished one still re-renders its report (reads only)."""
    out = tmp_path / "o"
    assert main(_argv(name, out, 2)) == 0
    capsys.readouterr()
    before = _db(out).read_bytes()
    monkeypatch.setattr(storage, "_connect", _read_only)
    assert main(_argv(name, tmp_path / "bigger", 3, db=_db(out))) == 2
    _one_line(capsys, "read-only", "study is unfinished")
    assert main(_argv(name, out, 2)) == 0
    assert _db(out).read_bytes() == before


def _restricted(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a process that file permissions bind: as root, without the capability
    to override them (``setpriv``); otherwise as this user."""
    cmd = [sys.executable, "-m", "planner.cli", *argv]
    if os.geteuid() == 0:
        import shutil

        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: permissions cannot be enforced")
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S,
                          env={**os.environ, "CI": "1", "MPLBACKEND": "Agg"})  # fmt: skip


@pytest.mark.parametrize("where", ["file", "folder"])
@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_read_only_file_or_folder_is_refused_for_an_unfinished_study(
    name: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real permissions: the database file, or only its folder, not writable. An unfinished
    study exits 2 with one line before any work, the file unchanged (that the finished one
    still re-renders is checked in-process above)."""
    db = tmp_path / "ro" / "study.sqlite"
    db.parent.mkdir()
    assert main(_argv(name, tmp_path / "o", 2, db=db)) == 0
    capsys.readouterr()
    before = db.read_bytes()
    target, mode = (db, 0o444) if where == "file" else (db.parent, 0o555)
    target.chmod(mode)
    try:
        done = _restricted(_argv(name, tmp_path / "bigger", 3, db=db))
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "read-only" in done.stderr, done.stderr
        assert "study is unfinished" in done.stderr
    finally:
        target.chmod(0o755)
    assert db.read_bytes() == before


_FINISHED: dict[str, bytes] = {}


def _finished(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A copy of a finished four-unit study database of kind ``name`` (built once)."""
    db = tmp_path / "o.sqlite"
    if name not in _FINISHED:
        assert main(_argv(name, tmp_path / "first", 4, db=db)) == 0
        capsys.readouterr()
        _FINISHED[name] = db.read_bytes()
    db.write_bytes(_FINISHED[name])
    return db


def _truncate(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) * 9 // 10])


def _drop_column(db: Path) -> None:
    con = sqlite3.connect(db)
    table = kind_of_file(db).store.TABLE
    con.execute(f"ALTER TABLE {table} DROP COLUMN {kind_of_file(db).store.COLUMNS[-1]}")
    con.commit()
    con.close()


def kind_of_file(db: Path) -> Any:
    from validation.study.registry import kind_of

    return kind_of(db)


@pytest.mark.parametrize("damage", [_truncate, _drop_column], ids=["truncated-90", "schema"])
@pytest.mark.parametrize("command", ["run", "list", "report", "export"])
@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_damaged_database_exits_2_with_one_line(
    name: str, command: str, damage: Callable[[Path], None], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A file truncated to 90 % or with an altered schema: every command exits 2 with one
    line before any work, and leaves the file as it was."""
    db = _finished(name, tmp_path, capsys)
    damage(db)
    before = db.read_bytes()
    argv = {
        "run": _argv(name, tmp_path / "r", 5, db=db),
        "list": ["study", "list", "--db", str(db)],
        "report": ["study", "report", "--db", str(db), "--out", str(tmp_path / "r")],
        "export": ["study", "export", "--db", str(db), "-o", str(tmp_path / "rows.csv")],
    }[command]
    assert main(argv) == 2
    err = _one_line(capsys)
    assert "damaged" in err or "not a planner" in err, err
    assert err.count("(") == err.count(")") and "***" not in err, err  # a whole reason
    assert db.read_bytes() == before
    assert not (tmp_path / "r").exists() and not (tmp_path / "rows.csv").exists()


@pytest.mark.parametrize("name", KIND_NAMES)
def test_deleted_rows_of_a_finished_unit_are_never_a_complete_study(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One finished unit's rows deleted (its done record kept): the rerun redoes that unit
    (a cluster replay: its row is its record) or refuses with one line (exit 2); it never
    reports the study complete over the remaining rows."""
    out = tmp_path / "o"
    assert main(_argv(name, out, 3)) == 0
    capsys.readouterr()
    k = kind(name)
    unit = {"gap": "instance = 1", "cluster": "seed = 1",
            "schedule-gap": "snapshot = 1"}[name]  # fmt: skip
    con = sqlite3.connect(_db(out))
    con.execute(f"DELETE FROM {k.store.TABLE} WHERE {unit}")
    con.commit()
    con.close()
    code = main(_argv(name, out, 3))
    captured = capsys.readouterr()
    if name == "cluster":
        assert code == 0 and "(2 computed now)" in captured.out
        assert _stable(name, _db(out)) == _clean(name, 3, tmp_path, capsys)
    else:
        assert code == 2 and captured.err.count("\n") == 1, captured.err
        assert "damaged" in captured.err and "1: 0 of 2" in captured.err
    db = str(_db(out))
    for argv in (["study", "export", "--db", db, "-o", str(tmp_path / "x.csv")],
                 ["study", "report", "--db", db, "--out", str(tmp_path / "r")]):  # fmt: skip
        assert main(argv) == (0 if name == "cluster" else 2)
        capsys.readouterr()


def _count_units(db: Path) -> int:
    """Units written so far, read without disturbing the run (0 while none is readable)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=HANG_GUARD_S)
        try:
            table = "runs" if "runs" in {r[0] for r in con.execute(
                "SELECT name FROM sqlite_master")} else "done"  # fmt: skip
            return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


@pytest.mark.parametrize("name", KIND_NAMES)
def test_kill_9_then_a_rerun_gives_the_rows_of_a_clean_run(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kill -9`` once the database holds written units (polled, read-only), then the same
    command again: exit 0 and exactly the rows of an uninterrupted run."""
    units = 12
    out = tmp_path / "o"
    argv = _argv(name, out, units)
    proc = subprocess.Popen([sys.executable, "-m", "planner.cli", *argv],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "CI": "1", "MPLBACKEND": "Agg"})  # fmt: skip
    try:
        wait_until(lambda: proc.poll() is not None or _count_units(_db(out)) >= 1,
                   "a written unit")  # fmt: skip
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=HANG_GUARD_S)
    con = sqlite3.connect(_db(out))
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    assert main(argv) == 0
    capsys.readouterr()
    assert _stable(name, _db(out)) == _clean(name, units, tmp_path, capsys)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_report_folder_under_a_file_exits_2_with_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out FILE/sub`` (the folder cannot be created): exit 2 and one line, not an
    internal error; ``study report`` alike."""
    (tmp_path / "blocker").write_text("x")
    bad = tmp_path / "blocker" / "sub"
    assert main(_argv(name, bad, 1, db=tmp_path / "db.sqlite")) == 2
    _one_line(capsys, "blocker")
    assert main(_argv(name, tmp_path / "o", 1, db=tmp_path / "db.sqlite")) == 0
    capsys.readouterr()
    assert main(["study", "report", "--db", str(tmp_path / "db.sqlite"), "--out", str(bad)]) == 2
    _one_line(capsys, "blocker")


@pytest.mark.parametrize("name", KIND_NAMES)
def test_every_report_renders_its_findings_in_one_place(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``document.findings_section`` is the one place a kind's Findings are rendered: each
    kind's report.md carries its text after the head (title, setting) and before its first
    section, and the report is otherwise the one without Findings."""
    from validation.study.engine import document

    out = tmp_path / "o"
    assert main(_argv(name, out, 1)) == 0
    capsys.readouterr()
    db = str(_db(out))
    seen: list[tuple[str, int]] = []

    def fake(found: str) -> Any:
        def render(kind: Any, rows: Any, spec: Any) -> tuple[str, str]:
            seen.append((kind.name, len(rows)))
            return found, found

        return render

    monkeypatch.setattr(document, "findings_section", fake(""))
    assert main(["study", "report", "--db", db, "--out", str(out)]) == 0
    plain = (out / "report.md").read_text(encoding="utf-8")
    monkeypatch.setattr(document, "findings_section", fake("## Findings\n\n- FOUND"))
    assert main(["study", "report", "--db", db, "--out", str(out)]) == 0
    text = (out / "report.md").read_text(encoding="utf-8")
    assert seen == [(name, _rows_per_unit(name))] * 2
    head, _, rest = text.partition("## Findings\n\n- FOUND\n\n")
    assert head.startswith("# ") and "\n## " not in head and rest.lstrip().startswith(
        ("## ", "Metrics", "Gap ="))  # fmt: skip
    assert head + rest == plain


LEGACY = Path(__file__).parent / "legacy"
"""SQL dumps of one small study of each kind, written by planner before the kinds shared a
store (``planner study gap|cluster|schedule-gap`` at the previous release's layout)."""


@pytest.mark.parametrize("name", KIND_NAMES)
def test_databases_written_before_the_shared_store_still_open_and_resume(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The on-disk formats are unchanged: an older database passes the schema and integrity
    checks, its rows verify, ``list``/``export`` read it, and resuming computes nothing."""
    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db)
    con.executescript((LEGACY / f"{name}.sql").read_text(encoding="utf-8"))
    con.close()
    k = kind(name)
    with k.store(db) as store:
        (info,) = store.studies()
        rows = k.rows(store, info)
        assert store.writable and len(rows) == 2 * _rows_per_unit(name)
        outcome = k.run(info["spec"], store, version=info["version"], progress=False)
        assert outcome.written == 0
    assert main(["study", "list", "--db", str(db)]) == 0
    assert main(["study", "export", "--db", str(db), "-o", str(tmp_path / "rows.csv")]) == 0
    assert f"{len(rows)} rows written" in capsys.readouterr().out


def test_schedule_gap_runs_on_a_seed_whose_machines_are_all_narrow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 195 draws five machines all narrower than ``cpus_max`` (8): the snapshot is
    generated (job widths capped at the widest machine) and solved, exit 0 (was exit 1)."""
    from instances.generators.registry import generate_workload

    wl = generate_workload("klusacek2008", 195, machines=5, jobs=6, interarrival=40.0)
    assert max(m.cpus for m in wl.machines) < 8
    argv = ["study", "schedule-gap", "--snapshots", "1", "--seed", "195", "--jobs", "6",
            "--policies", "fcfs", "easy", "--time-limit", "30", "--workers", "1", "--quiet",
            "--out", str(tmp_path / "o")]  # fmt: skip
    assert main(argv) == 0
    assert "1 snapshot of 6 jobs on 5 machines (1 solved now)" in capsys.readouterr().out


def _api_run(name: str, store: Any) -> Any:
    """Run a three-unit study of kind ``name`` through the library (no CLI)."""
    if name == "gap":
        from test_study_runner import FAKE, SPEC

        from validation.study import run_study

        return run_study(SPEC, store, toolkit=FAKE, version="test")
    if name == "cluster":
        from validation.study.cluster import ClusterStudySpec, run_cluster_study

        spec = ClusterStudySpec(workloads=("klusacek2008",), policies=("fcfs", "easy"),
                                seeds=(0, 1, 2), params={"jobs": 12, "machines": 3})  # fmt: skip
        return run_cluster_study(spec, store, version="test", progress=False)
    from validation.study.schedule_gap import ScheduleGapSpec, run_schedule_gap_study

    spec = ScheduleGapSpec(snapshots=3, jobs=5, machines=2, interarrival=30.0,
                           time_limit=30.0, policies=("fcfs", "easy"))  # fmt: skip
    return run_schedule_gap_study(spec, store, version="test", progress=False)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_ctrl_c_inside_a_write_commits_the_unit_then_stops(name: str, tmp_path: Path) -> None:
    """SIGINT raised while the second unit's record is inserted is held back until the
    commit: two whole units are stored, their rows verify, and KeyboardInterrupt follows."""
    record = "INSERT INTO runs" if name == "cluster" else "INSERT INTO done"
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    seen = {"n": 0}

    def interrupt_on_second(statement: str) -> None:
        if statement.startswith(record):
            seen["n"] += 1
            if seen["n"] == 2:
                signal.raise_signal(signal.SIGINT)

    try:
        with kind(name).store(tmp_path / "db.sqlite") as store:
            store.db.set_trace_callback(interrupt_on_second)
            with pytest.raises(KeyboardInterrupt):
                _api_run(name, store)
            store.db.set_trace_callback(None)
            (info,) = store.studies()
            assert len(store.done(info["id"])) == 2
            per_unit = {"gap": 4, "cluster": 1, "schedule-gap": 2}[name]  # 2 jobs × 2 algs
            assert len(kind(name).rows(store, info)) == 2 * per_unit
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_ctrl_c_mid_run_is_130_one_line_and_a_consistent_database(
    name: str, tmp_path: Path
) -> None:
    """Ctrl-C to the process group once the database holds a written unit (polled): exit 130,
    one line saying how many units are saved, no traceback; the stored rows verify."""
    out = tmp_path / "o"
    argv = [sys.executable, "-m", "planner.cli", *_argv(name, out, 2000)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, "CI": "1"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_until(lambda: proc.poll() is not None or _count_units(_db(out)) >= 1,
                   "a written unit")  # fmt: skip
        assert proc.poll() is None, "the study ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "Traceback" not in err and "interrupted" in err, err
    assert "saved, rerun the same command to resume" in err, err
    assert _stable(name, _db(out))  # whole units only: verified against their records
