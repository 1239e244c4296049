"""Reliability of studies under hostile input (docs/study-reliability.md).

Damaged, foreign, read-only and shared databases, outputs over the database,
Ctrl-C, broken pipes, out-of-range options and bad output paths: each ends
with one line on stderr and the documented exit code, before any work and
without writing anything; a study never reports itself complete when rows
are missing.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_study_runner import FAKE, SPEC, fake_algorithms

from planner.cli import main
from tests.waiting import HANG_GUARD_S, wait_until
from validation.study import Store, StudyError, StudySpec, Toolkit, run_study
from validation.study.engine import storage as store_module
from validation.study.gap import toolkit


def stub_solve(instance: Any, job: Any, *args: Any) -> Any:
    """An exact solver that proves nothing, at once (keeps bulk rows cheap)."""
    from models import Result

    return Result("unknown", None, None, 0.0, "none")


def no_window(instance: Any, job: Any, name: str, seed: int) -> None:
    """A heuristic that finds nothing, at once."""
    return None


CHEAP = Toolkit(algorithms=fake_algorithms, search=no_window, solve=stub_solve)
"""Rows without any solve: for tests that need many rows quickly."""


@pytest.fixture(autouse=True)
def no_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports without figures (no test here looks at them; drawing is the slow part)."""
    from validation.study.gap import plots

    monkeypatch.setattr(plots, "available", lambda: False)


@pytest.fixture
def fake_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the CLI with the fake heuristics of ``test_study_runner``."""
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", FAKE)


@pytest.fixture
def cheap_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the CLI with the solve-free toolkit."""
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", CHEAP)


def _gap(out: Path, *extra: str, instances: int = 3) -> list[str]:
    return ["study", "gap", "--family", "tiny", "--jobs", "2", "--instances", str(instances),
            "--workers", "1", "--quiet", "--out", str(out), *extra]  # fmt: skip


def _one_line(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    return err


# --- silent row loss (issue 15, item 2) ----------------------------------------------------


def _corrupt_the_rows_index(db: Path, expected: int) -> None:
    """Overwrite 8 bytes of an interior page of the rows index so that SQLite's
    ``quick_check`` still passes but an index scan loses rows (found by search: the
    index layout depends on the key columns only, so this is deterministic)."""
    con = sqlite3.connect(db)
    (size,) = con.execute("PRAGMA page_size").fetchone()
    pages = con.execute(
        "SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_rows_1' "
        "AND pagetype = 'internal'"
    ).fetchall()
    con.close()
    assert pages, "the rows index must have an interior page"
    original = db.read_bytes()
    trial = db.with_suffix(".trial")
    for (pageno,) in pages:
        page = (pageno - 1) * size
        content = int.from_bytes(original[page + 5 : page + 7], "big")  # cell content area
        for offset in range(content, size - 8):
            data = bytearray(original)
            at = page + offset
            data[at : at + 8] = bytes(8)
            if data == original:
                continue
            trial.write_bytes(bytes(data))
            con = sqlite3.connect(trial)
            try:
                ok = con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
                n = len(con.execute("SELECT * FROM rows WHERE study = 1 ORDER BY study, "
                                    "instance, geometry, job, algorithm").fetchall())  # fmt: skip
            except sqlite3.DatabaseError:
                ok, n = False, expected
            finally:
                con.close()
            if ok and n < expected:
                trial.replace(db)
                return
    pytest.skip("no 8-byte overwrite of the index passes quick_check here")


def test_a_damaged_rows_index_is_refused_not_reported_as_complete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cheap_kit: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A finished study whose rows index lost entries (``quick_check`` passes): the rerun,
    ``export`` and ``report`` exit 2 with one line; nothing reports a short study."""
    out = tmp_path / "out"
    argv = _gap(out, instances=150)
    spec = StudySpec("tiny", {"jobs": 2}, instances=150, seed=0)
    out.mkdir()
    db = out / "study.sqlite"

    def unsynced(path: str) -> sqlite3.Connection:  # no fsync per commit: a fast build
        con = sqlite3.connect(path, isolation_level=None)
        con.execute("PRAGMA synchronous = OFF")
        return con

    with monkeypatch.context() as patch:
        patch.setattr(store_module, "_connect", unsynced)
        with Store(db) as store:
            from planner import __version__

            expected = run_study(spec, store, toolkit=CHEAP, version=__version__).rows
    _corrupt_the_rows_index(db, expected)
    before = db.read_bytes()
    assert main(argv) == 2
    _one_line(capsys, "the database is damaged")
    assert main(["study", "export", "--db", str(db), "-o", str(tmp_path / "rows.csv")]) == 2
    _one_line(capsys, "the database is damaged")
    assert not (tmp_path / "rows.csv").exists() and db.read_bytes() == before


def test_deleted_rows_are_detected_against_the_done_table(tmp_path: Path) -> None:
    """Rows removed behind the study's back (the file stays a valid database): reading the
    study raises a one-line StudyError naming the shortfall, and a rerun refuses to start."""
    db = _finished(tmp_path)
    con = sqlite3.connect(db)
    con.execute("DELETE FROM rows WHERE instance = 3 AND algorithm = 'early'")
    con.commit()
    con.close()
    with Store(db) as store:
        with pytest.raises(StudyError, match="instance 3: 2 of 4") as err:
            store.rows(1)
        assert "\n" not in str(err.value)
        with pytest.raises(StudyError, match="damaged"):
            run_study(SPEC, store, toolkit=FAKE, version="test")


@pytest.mark.parametrize(
    "statement",
    [
        # one job's row relabelled: the count is right, the grid is not
        "UPDATE rows SET algorithm = 'opt2' WHERE instance = 2 AND algorithm = 'opt' "
        "AND job = (SELECT MIN(job) FROM rows WHERE instance = 2)",
        # every row of an instance relabelled to an algorithm outside the study
        "UPDATE rows SET algorithm = 'zz' || algorithm WHERE instance = 4",
        # a second geometry appearing in a study of the instances' own geometry
        "UPDATE rows SET geometry = 'square' WHERE instance = 1 AND algorithm = 'opt'",
    ],
)
def test_rows_off_the_grid_are_detected(statement: str, tmp_path: Path) -> None:
    """Rows whose count matches but which are not one per geometry × job × algorithm of
    the study: damage, refused on resume."""
    db = _finished(tmp_path)
    _sql(db, statement)
    with Store(db) as store, pytest.raises(StudyError, match="one row per geometry"):
        run_study(SPEC, store, toolkit=FAKE, version="test")


def test_rows_of_an_unfinished_instance_are_detected(tmp_path: Path) -> None:
    """Rows without their ``done`` marker (a lost marker) are damage, not a resumable state:
    resuming would crash on the UNIQUE key."""
    db = _finished(tmp_path)
    con = sqlite3.connect(db)
    con.execute("DELETE FROM done WHERE instance = 5")
    con.commit()
    con.close()
    with Store(db) as store, pytest.raises(StudyError, match="unfinished instance"):
        run_study(SPEC, store, toolkit=FAKE, version="test")


# --- outputs over the database (item 3) ----------------------------------------------------


def test_report_over_the_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_kit: None
) -> None:
    """``--out o --db o/summary.csv``: the report would overwrite the database; exit 2."""
    out = tmp_path / "o"
    assert main(_gap(out, "--db", str(out / "summary.csv"))) == 2
    _one_line(capsys, "would be overwritten by the report")
    assert not out.exists()


@pytest.mark.parametrize(
    "target",
    [
        "db.csv",  # the same path
        "./db.csv",  # the same file by another spelling
        "link.csv",  # a symbolic link to it
        "hard.csv",  # a hard link to it
    ],
)
def test_export_over_the_database_is_refused(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``study export --db db.csv -o db.csv`` (in any spelling): exit 2, the database intact."""
    monkeypatch.chdir(tmp_path)
    with Store("db.csv") as store:
        run_study(SPEC, store, toolkit=FAKE, version="test")
    os.symlink("db.csv", "link.csv")
    os.link("db.csv", "hard.csv")
    before = Path("db.csv").read_bytes()
    assert main(["study", "export", "--db", "db.csv", "-o", target]) == 2
    _one_line(capsys, "is the database itself")
    assert Path("db.csv").read_bytes() == before


# --- damaged, foreign, read-only databases (item 5) ----------------------------------------


_FINISHED: list[bytes] = []


def _finished(tmp_path: Path) -> Path:
    """A copy of one finished ``SPEC`` study database (built once per test session)."""
    db = tmp_path / "db.sqlite"
    if not _FINISHED:
        with Store(db) as store:
            run_study(SPEC, store, toolkit=FAKE, version="test")
        _FINISHED.append(db.read_bytes())
    db.write_bytes(_FINISHED[0])
    return db


def _sql(db: Path, statement: str) -> None:
    con = sqlite3.connect(db)
    con.execute(statement)
    con.commit()
    con.close()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda db: _sql(db, "ALTER TABLE rows DROP COLUMN gap"), "differ from the"),  # column
        (lambda db: _sql(db, "DROP TABLE error_instance"), "differ from the"),  # table
        (lambda db: _sql(db, "UPDATE study SET params = '{oops'"), "unreadable parameters"),
        (lambda db: _sql(db, "UPDATE study SET params = '{\"threads\": \"x\"}'"),
         "unreadable parameters"),  # JSON, but not a study spec
        (lambda db: db.write_bytes(db.read_bytes()[:100] + bytes(100)), "not a planner"),
    ],
)
@pytest.mark.parametrize("command", ["gap", "list", "export", "report"])
def test_damaged_databases_exit_2_before_any_work(
    damage: Any, message: str, command: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], fake_kit: None,
) -> None:  # fmt: skip
    """A dropped column or table, unparsable parameters or a truncated file: every command
    exits 2 with one line, writes nothing and leaves the file as it was."""
    db = _finished(tmp_path)
    damage(db)
    before = db.read_bytes()
    out = tmp_path / "out"
    argv = {
        "gap": _gap(out, "--db", str(db), "--instances", "8", "--seed", "5"),
        "list": ["study", "list", "--db", str(db)],
        "export": ["study", "export", "--db", str(db), "-o", str(tmp_path / "rows.csv")],
        "report": ["study", "report", "--db", str(db), "--out", str(out)],
    }[command]
    assert main(argv) == 2
    _one_line(capsys, message)
    assert db.read_bytes() == before
    assert not out.exists() and not (tmp_path / "rows.csv").exists()


@pytest.mark.parametrize("seed", range(12))
def test_random_corruption_never_gives_a_short_study(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Random 8-byte overwrites: ``export`` either refuses (exit 2, one line) or writes every
    row; it never exits 1 and never writes a short file."""
    import random

    db = _finished(tmp_path)
    rng = random.Random(seed)
    data = bytearray(db.read_bytes())
    for _ in range(rng.choice([1, 4])):
        at = rng.randrange(len(data) - 8)
        data[at : at + 8] = rng.randbytes(8)
    db.write_bytes(bytes(data))
    csv = tmp_path / "rows.csv"
    code = main(["study", "export", "--db", str(db), "-o", str(csv)])
    captured = capsys.readouterr()
    assert code in (0, 2) and captured.err.count("\n") == (code == 2)
    if code == 0:
        assert len(csv.read_text().splitlines()) == 1 + SPEC.instances * 2 * 2


def test_list_on_an_empty_file_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``study list`` on an empty file: exit 2, one line, and the file stays empty."""
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert main(["study", "list", "--db", str(empty)]) == 2
    _one_line(capsys, "not a planner study database")
    assert empty.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["empty.sqlite"]


def test_read_only_database_of_an_unfinished_study_fails_before_computing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    fake_kit: None,
) -> None:  # fmt: skip
    """A database that cannot be written and whose study is unfinished: exit 2 at once
    (nothing computed); a finished study in it still re-renders its report.

    As root every file is writable, so the test opens the connection read-only (what
    SQLite does itself for a file it cannot write); otherwise the file is made read-only.
    """
    out = tmp_path / "out"
    db = tmp_path / "ro" / "study.sqlite"
    db.parent.mkdir()
    assert main(_gap(out, "--db", str(db), instances=2)) == 0
    capsys.readouterr()
    if os.geteuid() == 0:
        def read_only(path: str) -> sqlite3.Connection:
            uri = Path(path).absolute().as_uri() + "?mode=ro"
            return sqlite3.connect(uri, uri=True, isolation_level=None)

        monkeypatch.setattr(store_module, "_connect", read_only)
    else:
        db.chmod(0o444)
        db.parent.chmod(0o555)
    solved: list[int] = []
    real = toolkit.DEFAULT_TOOLKIT.solve
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", Toolkit(
        algorithms=fake_algorithms, search=FAKE.search,
        solve=lambda *a, **k: solved.append(1) or real(*a, **k),
    ))  # fmt: skip
    before = db.read_bytes()
    try:
        assert main(_gap(tmp_path / "out4", "--db", str(db), instances=4)) == 2
        _one_line(capsys, "read-only", "study is unfinished")
        assert not solved  # nothing computed, not even the warm-up
        assert main(_gap(out, "--db", str(db), instances=2)) == 0  # finished: only read
    finally:
        db.parent.chmod(0o755)
    assert db.read_bytes() == before


# --- two runs on one database (item 6) -----------------------------------------------------


def test_a_second_run_on_a_busy_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_kit: None
) -> None:
    """While a run holds the database, another exits 2 with one line naming the holder;
    once the first ends, the second runs."""
    out = tmp_path / "out"
    out.mkdir()
    with Store(out / "study.sqlite"):
        assert main(_gap(out)) == 2
        _one_line(capsys, "another planner study is running", f"pid {os.getpid()}")
    assert main(_gap(out)) == 0
    assert not (out / "study.sqlite.lock").exists()


@pytest.mark.slow
def test_two_concurrent_processes_never_corrupt_the_database(tmp_path: Path) -> None:
    """Two ``planner study gap`` processes on one ``--db`` at once: one finishes, the other
    finishes too or is refused with exit 2 and one line; the rows are a clean run's."""
    argv = [sys.executable, "-m", "planner.cli",
            *_gap(tmp_path / "out", "--algorithms", "amp", instances=4)]  # fmt: skip
    env = {**os.environ, "CI": "1"}
    procs = [subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]  # fmt: skip
    results = [(p.wait(timeout=HANG_GUARD_S), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    for p in procs:
        p.stderr.close()  # type: ignore[union-attr]
    codes = sorted(code for code, _ in results)
    assert codes in ([0, 0], [0, 2]), results
    for code, err in results:
        if code == 2:
            assert err.count("\n") == 1 and "another planner study is running" in err
    with Store(tmp_path / "out" / "study.sqlite", readonly=True) as store:
        assert store.done(1) == {0, 1, 2, 3} and len(store.rows(1, ("amp",))) == 4 * 2


# --- Ctrl-C (item 7) -----------------------------------------------------------------------


def test_ctrl_c_during_a_write_commits_the_instance_then_stops(tmp_path: Path) -> None:
    """SIGINT arriving inside the write transaction (here: as the second instance's ``done``
    marker is inserted) is held back until the commit: that instance is whole, and
    KeyboardInterrupt follows (no "cannot rollback - no transaction is active")."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    seen = {"done": 0}

    def interrupt_on_second_marker(statement: str) -> None:
        if statement.startswith("INSERT INTO done"):
            seen["done"] += 1
            if seen["done"] == 2:
                signal.raise_signal(signal.SIGINT)

    try:
        with Store(tmp_path / "db.sqlite") as store:
            store.db.set_trace_callback(interrupt_on_second_marker)
            with pytest.raises(KeyboardInterrupt):
                run_study(SPEC, store, toolkit=FAKE, version="test")
            store.db.set_trace_callback(None)
            assert store.done(1) == {0, 1}
            assert len(store.rows(1)) == 2 * 2 * 2
    finally:
        signal.signal(signal.SIGINT, previous)


MARKS = "PLANNER_TEST_MARKS"
"""Environment variable: the folder where :func:`sleepy_solve` marks each finished solve."""


def sleepy_solve(instance: Any, job: Any, *args: Any) -> Any:
    """Instant on instance 0 of ``SPEC``; on every other instance a 60-second solve that
    leaves a file in ``$PLANNER_TEST_MARKS`` when it ends."""
    from validation.study import instance_seed

    if instance.name.startswith("tiny") and f"seed={instance_seed(SPEC.seed, 0)}" not in \
            instance.name:  # fmt: skip
        time.sleep(60)
        (Path(os.environ[MARKS]) / f"{os.getpid()}-{time.monotonic_ns()}").touch()
    return stub_solve(instance, job, *args)


SLEEPY = Toolkit(algorithms=fake_algorithms, search=no_window, solve=sleepy_solve)


@pytest.mark.slow
def test_ctrl_c_between_results_does_not_wait_for_running_solves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C landing while the parent writes a result (not while it waits on the pool):
    the workers are killed at once instead of finishing their 60-second solves (a
    finished solve would leave a mark)."""
    from validation.study import LocalExecutor

    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setenv(MARKS, str(marks))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def interrupt_on_marker(statement: str) -> None:
        if statement.startswith("INSERT INTO done"):
            signal.raise_signal(signal.SIGINT)

    try:
        with Store(tmp_path / "db.sqlite") as store:
            store.db.set_trace_callback(interrupt_on_marker)
            with pytest.raises(KeyboardInterrupt):
                run_study(SPEC, store, toolkit=SLEEPY, version="test",
                          executor=LocalExecutor(2))  # fmt: skip
            store.db.set_trace_callback(None)
            assert store.done(1) == {0}
    finally:
        signal.signal(signal.SIGINT, previous)
    assert not list(marks.iterdir()), "a worker finished its solve after Ctrl-C"


def _sigint_default() -> None:
    """Child set-up: SIGINT at its default (a shell's background job starts with it ignored,
    and then Python installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
@pytest.mark.parametrize("wait_for_rows", [False, True])
def test_ctrl_c_ends_promptly_with_130_and_one_line(tmp_path: Path, wait_for_rows: bool) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) on a huge study
    with two workers, while the workers start or mid-run: exit 130, one line, no worker
    traceback, a consistent database holding whole instances only.

    (Before ``main`` runs, while Python imports the package, Ctrl-C gives Python's own
    traceback: docs/study-reliability.md.)"""
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "planner.cli", "study", "gap", "--family", "tiny",
            "--instances", "100000", "--workers", "2", "--quiet", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_sigint_default)  # fmt: skip
    def ready() -> bool:
        if proc.poll() is not None or not wait_for_rows:
            return proc.poll() is not None or (out / "study.sqlite").exists()  # workers start
        try:
            con = sqlite3.connect(f"file:{out / 'study.sqlite'}?mode=ro", uri=True)
            done = con.execute("SELECT COUNT(*) FROM done").fetchone()[0]
            con.close()
        except sqlite3.Error:
            return False
        return done >= 2

    try:
        wait_until(ready, "the study database" + (" with two instances" * wait_for_rows))
        assert proc.poll() is None
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "Traceback" not in err and "interrupted" in err, err
    if (out / "study.sqlite").exists():
        con = sqlite3.connect(out / "study.sqlite")
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        with Store(out / "study.sqlite", readonly=True) as store:
            studies = store.studies()
            if studies:
                store.rows(studies[0]["id"])  # whole instances only


# --- broken pipes, stdout errors, ranges, usage (items 8, 9) --------------------------------


def test_a_broken_pipe_of_the_workers_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    fake_kit: None,
) -> None:  # fmt: skip
    """A BrokenPipeError from the worker machinery (not stdout): exit 1, one line; only a
    closed standard output ends quietly."""
    from validation.study.engine import executors

    def broken(self: Any, fn: Any, items: Any) -> Any:
        raise BrokenPipeError(32, "Broken pipe")
        yield  # a generator, like the real one

    monkeypatch.setattr(executors.LocalExecutor, "map_unordered", broken)
    assert main(_gap(tmp_path / "out", "--workers", "2")) == 1
    _one_line(capsys, "BrokenPipeError")


def test_a_closed_stdout_ends_quietly(tmp_path: Path) -> None:
    """``planner study list | head -0``: exit 0 and nothing on stderr."""
    db = _finished(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "planner.cli", "study", "list", "--db",
                             str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    proc.stdout.close()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    assert proc.wait(timeout=HANG_GUARD_S) == 0 and err == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["--help"], ["study", "list", "--db", "DB"]])
def test_a_full_stdout_is_one_line_and_exit_2(argv: list[str], tmp_path: Path) -> None:
    """Standard output on a full device: one line on stderr, exit 2 (a bad output path)."""
    db = _finished(tmp_path)
    argv = [str(db) if a == "DB" else a for a in argv]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "planner.cli", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD_S)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "cannot write to standard output" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--instances", str(10**9)], "--instances must be <= 1,000,000"),  # no huge grid
        (["--threads", "20000"], "--threads must be <= 256"),  # solver threads
        (["--workers", "100000"], "--workers must be <= 256"),  # worker processes
        (["--time-limit", "inf"], "--time-limit must be <="),  # not a limit
        (["--executor", "dask", "--scheduler", "not an address"], "is not an address"),
        (["--executor", "dask", "--scheduler", "tcp://host"], "is not an address"),  # no port
        (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --executor dask"),
    ],
)
def test_out_of_range_options_exit_2_at_once(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Ranges and the scheduler address are checked before anything is opened, searched
    or solved."""
    calls: list[str] = []

    def solve(*args: Any) -> Any:
        calls.append("solve")
        return FAKE.solve(*args)

    def search(*args: Any) -> Any:
        calls.append("search")
        return FAKE.search(*args)

    kit = dataclasses.replace(FAKE, solve=solve, search=search)
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", kit)
    assert main(_gap(tmp_path / "out", *argv)) == 2
    _one_line(capsys, message)
    assert not calls and not (tmp_path / "out").exists()


def test_spec_bounds_hold_for_library_callers() -> None:
    """``StudySpec`` itself refuses a huge grid and absurd thread counts (one line)."""
    for kwargs in ({"instances": 10**9}, {"threads": 20000}, {"time_limit": float("inf")}):
        with pytest.raises(StudyError):
            StudySpec("tiny", **kwargs)  # type: ignore[arg-type]


# --- issue 14: accurate errors, --algorithm, one report folder per study --------------------


@pytest.mark.parametrize(
    "out",
    [
        "blocker",  # an existing file
        "blocker/sub",  # a directory under a file
    ],
)
def test_bad_output_paths_exit_2_before_computing(
    out: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_kit: None
) -> None:
    """``--out`` that is a file (or lies under one): exit 2 with one line, nothing computed
    or written (it used to fail with an internal error after the study)."""
    (tmp_path / "blocker").write_text("x")
    assert main(_gap(tmp_path / out)) == 2
    _one_line(capsys, "is not a directory")
    assert sorted(os.listdir(tmp_path)) == ["blocker"]


def test_a_script_without_the_main_guard_is_told_so(tmp_path: Path) -> None:
    """A study with workers started at a script's top level: one clear error naming the
    ``__main__`` guard before any worker starts, not "a worker process died"."""
    script = tmp_path / "study.py"
    script.write_text(
        "from validation.study import LocalExecutor, Store, StudySpec, run_study\n"
        f"with Store({str(tmp_path / 'db.sqlite')!r}) as store:\n"
        "    run_study(StudySpec('tiny', instances=4), store, executor=LocalExecutor(2),\n"
        "              progress=False)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=HANG_GUARD_S)  # fmt: skip
    assert done.returncode != 0
    assert "if __name__ == \"__main__\":" in done.stderr
    assert "worker process died" not in done.stderr


def test_algorithm_is_an_alias_of_algorithms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_kit: None
) -> None:
    """``--algorithm opt`` selects the heuristic (it used to be read as a family parameter)."""
    assert main(_gap(tmp_path / "out", "--algorithm", "opt")) == 0
    assert "3 instances (3 computed now), 6 rows" in capsys.readouterr().out


def test_each_study_keeps_its_own_report_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    fake_kit: None,
) -> None:  # fmt: skip
    """Without ``--out`` two studies write two report folders (one database); with an
    explicit ``--out`` that holds another study's report, the second study is refused."""
    monkeypatch.chdir(tmp_path)
    base = ["study", "gap", "--family", "tiny", "--jobs", "2", "--workers", "1", "--quiet"]
    assert main([*base, "--instances", "2"]) == 0
    assert main([*base, "--instances", "3"]) == 0
    reports = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
               if line.startswith("report: ")]  # fmt: skip
    assert len(set(reports)) == 2 and all(Path(r).is_file() for r in reports)
    assert all(Path(r).parent.parent == Path("study-out") for r in reports)
    assert main(["study", "list", "--db", "study-out/study.sqlite"]) == 0
    capsys.readouterr()
    assert main([*base, "--instances", "2", "--out", "mine"]) == 0
    capsys.readouterr()
    before = Path("mine/report.md").read_bytes()
    assert main([*base, "--instances", "3", "--out", "mine"]) == 2
    _one_line(capsys, "holds the report of another study")
    assert Path("mine/report.md").read_bytes() == before


def test_timings_exclude_solver_start_up(tmp_path: Path) -> None:
    """The first solve in a process pays a start-up cost (here a simulated 1,000 s on
    the solver's own clock): the untimed warm-up absorbs it, so no recorded exact time
    includes it, and the warm-up runs before every timed solve, once per process."""
    from validation.study.gap import task

    task._WARMED.clear()
    SOLVED.clear()
    with Store(tmp_path / "db.sqlite") as store:
        run_study(SPEC, store, toolkit=SLOW_START, version="test")
        rows = store.rows(1)
    warm = SOLVED.count("warm-up")  # one per criterion, all before the first timed solve
    assert warm >= 1 and SOLVED[:warm] == ["warm-up"] * warm and len(SOLVED) > warm
    assert rows and {r["exact_seconds"] for r in rows} == {SOLVE_SECONDS}


SOLVED: list[str] = []
"""The instance of each solve, in order."""

SOLVE_SECONDS = 0.25
"""The runtime :func:`slow_start_solve` reports after the first call."""


def slow_start_solve(instance: Any, job: Any, *args: Any) -> Any:
    """The real solve, reporting 1,000 s on the first call in the process (the start-up)
    and :data:`SOLVE_SECONDS` afterwards."""
    SOLVED.append(instance.name)
    res = toolkit.default_solve(instance, job, *args)
    return dataclasses.replace(res, runtime=1000.0 if len(SOLVED) == 1 else SOLVE_SECONDS)


SLOW_START = Toolkit(algorithms=fake_algorithms, search=FAKE.search, solve=slow_start_solve)
