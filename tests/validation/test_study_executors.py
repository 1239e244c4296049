"""Tests that the local process pool and Dask give the rows of an in-process run.

"Identical" means equal on every column except the timing columns
(``TIMING_COLUMNS``), which are measurements.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from test_study_runner import FAKE, SPEC, clean_rows, stable

from validation.study import (
    LocalExecutor,
    Store,
    default_workers,
    make_executor,
    run_study,
)


@pytest.mark.slow
def test_local_pool_gives_the_serial_rows(tmp_path: Path) -> None:
    """Two spawned workers give the rows of the in-process run."""
    with Store(tmp_path / "pool.sqlite") as store:
        out = run_study(SPEC, store, toolkit=FAKE, version="test", executor=LocalExecutor(2))
        assert stable(store.rows(out.study)) == clean_rows(tmp_path)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_serial_rows(tmp_path: Path) -> None:
    """A 2-worker Dask LocalCluster on loopback gives the rows of the in-process run."""
    pytest.importorskip("distributed")
    executor = make_executor("dask", workers=2)
    with Store(tmp_path / "dask.sqlite") as store:
        out = run_study(SPEC, store, toolkit=FAKE, version="test", executor=executor)
        assert stable(store.rows(out.study)) == clean_rows(tmp_path)


@pytest.mark.parametrize(
    ("threads", "expected_max"),
    [
        (1, None),  # one worker per core
        (64, 1),  # more solver threads than cores: still one worker
    ],
)
def test_default_workers_respects_solver_threads(threads: int, expected_max: int | None) -> None:
    """workers × threads never exceeds the cores (and there is always a worker)."""
    from validation.study.engine.executors import cores

    n = default_workers(threads)
    assert n >= 1 and (n * threads <= cores() or n == 1)
    if expected_max is not None:
        assert n <= expected_max


def test_one_local_worker_runs_in_process() -> None:
    """``--workers 1`` needs no pool."""
    assert make_executor("local", workers=1).name == "serial"
    assert make_executor("local", workers=2).name == "local"


_ORPHAN_SCRIPT = """
import os, sys, time
from pathlib import Path

from models import Result
from validation.study import LocalExecutor, Store, StudySpec, Toolkit, run_study


def unknown(*args):
    return Result("unknown", None, None, 0.0, "none")


def amp_only():
    return {"amp": None}


def hang(instance, job, name, seed):
    (Path(os.environ["PLANNER_TEST_PIDS"]) / str(os.getpid())).touch()
    time.sleep(300)


if __name__ == "__main__":
    kit = Toolkit(algorithms=amp_only, search=hang, solve=unknown)
    with Store(sys.argv[1]) as store:
        run_study(StudySpec("tiny", instances=4), store, toolkit=kit, version="test",
                  executor=LocalExecutor(2), progress=False)
"""


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")
def test_pool_workers_exit_when_the_study_process_is_killed(tmp_path: Path) -> None:
    """``kill -9`` of the study process leaves no worker behind (they would block for ever)."""
    import os
    import signal
    import subprocess
    import sys

    from tests.waiting import wait_until

    pids_dir = tmp_path / "pids"
    pids_dir.mkdir()
    script = tmp_path / "study.py"
    script.write_text(_ORPHAN_SCRIPT)
    env = {**os.environ, "PLANNER_TEST_PIDS": str(pids_dir)}
    log = (tmp_path / "stderr.txt").open("w")  # the killed study's tracker warns there
    argv = [sys.executable, str(script), str(tmp_path / "db.sqlite")]
    proc = subprocess.Popen(argv, env=env, stderr=log)
    workers: list[int] = []
    try:
        wait_until(lambda: len(list(pids_dir.iterdir())) >= 2 or proc.poll() is not None,
                   "both workers to start a task")  # fmt: skip
        workers = [int(p.name) for p in pids_dir.iterdir()]
        assert len(workers) == 2, "both workers must be running a task"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with contextlib.suppress(AssertionError):  # the assertion below names the failure
            wait_until(lambda: not any(map(_alive, workers)), "the workers to exit")
        assert not [p for p in workers if _alive(p)], "orphaned pool workers"
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        log.close()
