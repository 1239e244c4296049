"""A distributed study on real ``dask scheduler`` and ``dask worker`` processes (loopback).

A worker that cannot import planner, or no worker left, ends ``planner study gap
--executor dask --scheduler ADDRESS`` with one line naming the worker and the cause,
exit 1; the units written before are kept and the same command resumes
(docs/several-machines.md). The "bare" worker runs from this interpreter with ``-I -S``,
a ``sys.path`` of its site-packages only and a first import finder that refuses the
project's packages, in one process (``--no-nanny``), so ``import planner`` fails whether
planner is installed editable or into site-packages (as in CI), which the first test checks.
Every wait is for an observable event, bounded by a hang guard; every process a test
starts is stopped by it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import site
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.waiting import HANG_GUARD_S, wait_until

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

ENV = {**os.environ, "CI": "1", "MPLBACKEND": "Agg", "PLANNER_DASK_WAIT": "3"}


class Processes:
    """The processes a test starts, each in its own session; all are killed at the end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp, self.started = tmp, []

    def start(self, argv: list[str], log: str) -> subprocess.Popen[bytes]:
        out = open(self.tmp / log, "wb")  # noqa: SIM115 - closed in stop()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=self.tmp,
                                env=ENV, start_new_session=True)  # fmt: skip
        self.started.append((proc, out))
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill ``proc`` and its children (a worker's nanny and its process)."""
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HANG_GUARD_S)

    def stop(self) -> None:
        for proc, out in self.started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=HANG_GUARD_S)
            out.close()


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    """Start processes; stop every one of them after the test."""
    p = Processes(tmp_path)
    try:
        yield p
    finally:
        p.stop()


def _scheduler(procs: Processes) -> str:
    """Start ``dask scheduler`` on a free loopback port; return its address once it is up."""
    file = procs.tmp / "scheduler.json"
    file.unlink(missing_ok=True)
    procs.start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                 "--port", "0", "--no-dashboard", "--scheduler-file", str(file)],
                "scheduler.log")  # fmt: skip
    wait_until(lambda: file.is_file() and file.stat().st_size > 0, "the scheduler file")
    import json

    return str(json.loads(file.read_text())["address"])


PRELUDE = (
    "import sys\n"
    "sys.path[:] = [p for p in sys.path if 'site-packages' not in p] + {paths}\n"
    "class Refuse:\n"
    "    @staticmethod\n"
    "    def find_spec(name, path=None, target=None):\n"
    "        if name.partition('.')[0] in {{'planner', 'models', 'instances', 'validation'}}:\n"
    "            raise ModuleNotFoundError(f'No module named {{name!r}}', name=name)\n"
    "sys.meta_path.insert(0, Refuse)\n"
)
BARE = PRELUDE + ("sys.argv = ['dask-worker'] + sys.argv[1:]\n"
                  "from distributed.cli.dask_worker import main\nmain()\n")  # fmt: skip


def _bare_python() -> list[str]:
    """This interpreter without the site hooks and unable to import the project's packages."""
    return [sys.executable, "-I", "-S", "-c", BARE.format(paths=site.getsitepackages())]


def _worker(procs: Processes, address: str, name: str,
            bare: bool = False) -> subprocess.Popen[bytes]:  # fmt: skip
    """Start a one-process, one-thread ``dask worker`` named ``name``."""
    python = _bare_python() if bare else [sys.executable, "-m", "distributed.cli.dask_worker"]
    one = ["--no-nanny"] if bare else ["--nworkers", "1"]  # the finder lives in this process
    return procs.start([*python, address, *one, "--nthreads", "1", "--no-dashboard",
                        "--name", name], f"{name}.log")  # fmt: skip


def _joined(address: str, names: set[str]) -> bool:
    """True once the scheduler knows workers of every name in ``names``."""
    from distributed import Client

    with Client(address, timeout=HANG_GUARD_S) as client:
        info = client.scheduler_info(n_workers=-1)["workers"].values()
        return names <= {str(w["name"]) for w in info}


def _study(address: str, out: Path, instances: int) -> list[str]:
    return [sys.executable, "-m", "planner.cli", "study", "gap", "--family", "tiny",
            "--jobs", "2", "--algorithms", "amp", "--instances", str(instances), "--executor",
            "dask", "--scheduler", address, "--out", str(out), "--quiet"]  # fmt: skip


def _units(db: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=HANG_GUARD_S)
        try:
            return int(con.execute("SELECT COUNT(*) FROM done").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _one_line(err: str, *needles: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], err


def test_the_bare_interpreter_cannot_import_planner(tmp_path: Path) -> None:
    """The premise of the tests below: the bare worker's Python has distributed, not planner."""
    code = PRELUDE + "import distributed\nimport planner\n"
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code.format(
        paths=site.getsitepackages())], capture_output=True, text=True, cwd=tmp_path,
        timeout=HANG_GUARD_S)  # fmt: skip
    assert done.returncode == 1 and "No module named 'planner'" in done.stderr, done.stderr


def test_a_worker_without_planner_ends_the_study_with_one_line(
    procs: Processes, tmp_path: Path
) -> None:
    """A good worker and one without planner at the start: exit 1 before any unit, one line
    naming the bare worker and the missing module; with the bare worker gone the same
    command runs the study."""
    address = _scheduler(procs)
    _worker(procs, address, "good")
    bare = _worker(procs, address, "bare", bare=True)
    wait_until(lambda: _joined(address, {"good", "bare"}), "both workers")
    out = tmp_path / "o"
    done = subprocess.run(_study(address, out, 3), capture_output=True, text=True, env=ENV,
                          timeout=HANG_GUARD_S)  # fmt: skip
    assert done.returncode == 1, done.stderr
    _one_line(done.stderr, "Dask worker", "(bare)", "No module named", "rerun the same command")
    procs.kill(bare)
    again = subprocess.run(_study(address, out, 3), capture_output=True, text=True, env=ENV,
                           timeout=HANG_GUARD_S)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "3 instances (3 computed now)" in again.stdout


def test_a_bare_worker_joining_mid_study_ends_it_and_the_rows_are_kept(
    procs: Processes, tmp_path: Path
) -> None:
    """The study runs on a good worker; once a unit is stored the good worker is paused and
    a worker without planner joins: exit 1, one line naming it; the stored units are kept
    and the rerun (on a good worker) computes only the others."""
    address = _scheduler(procs)
    good = _worker(procs, address, "good")
    wait_until(lambda: _joined(address, {"good"}), "the good worker")
    out = tmp_path / "o"
    study = subprocess.Popen(_study(address, out, 400), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=ENV)  # fmt: skip
    try:
        wait_until(lambda: study.poll() is not None or _units(out / "study.sqlite") >= 1,
                   "a stored unit")  # fmt: skip
        os.killpg(good.pid, signal.SIGSTOP)  # no unit completes from now on
        _worker(procs, address, "bare", bare=True)
        _, err = study.communicate(timeout=HANG_GUARD_S)
    finally:
        if study.poll() is None:
            study.kill()
            study.wait()
    assert study.returncode == 1, err
    _one_line(err, "Dask worker", "(bare)", "No module named", "rerun the same command")
    kept = _units(out / "study.sqlite")
    assert 1 <= kept < 400
    procs.stop()  # the paused worker and the bare one
    procs.started.clear()
    address = _scheduler(procs)
    _worker(procs, address, "fresh")
    again = subprocess.run(_study(address, out, 400), capture_output=True, text=True, env=ENV,
                           timeout=HANG_GUARD_S)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert f"400 instances ({400 - kept} computed now)" in again.stdout


def test_no_worker_left_ends_the_study_with_one_line(procs: Processes, tmp_path: Path) -> None:
    """The only worker is killed (with its nanny) once a unit is stored: the study ends with
    exit 1 and one line saying no worker is left, naming the one that left."""
    address = _scheduler(procs)
    good = _worker(procs, address, "only")
    wait_until(lambda: _joined(address, {"only"}), "the worker")
    out = tmp_path / "o"
    study = subprocess.Popen(_study(address, out, 400), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=ENV)  # fmt: skip
    try:
        wait_until(lambda: study.poll() is not None or _units(out / "study.sqlite") >= 1,
                   "a stored unit")  # fmt: skip
        procs.kill(good)
        _, err = study.communicate(timeout=HANG_GUARD_S)
    finally:
        if study.poll() is None:
            study.kill()
            study.wait()
    assert study.returncode == 1, err
    _one_line(err, "no Dask worker is left", "(only)", "rerun the same command")
    assert _units(out / "study.sqlite") >= 1
