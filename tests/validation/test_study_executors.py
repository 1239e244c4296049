"""Tests that the local process pool and Dask give the rows of an in-process run.

"Identical" means equal on every column except the timing columns
(``TIMING_COLUMNS``), which are measurements.
"""

from __future__ import annotations

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


def test_local_pool_gives_the_serial_rows(tmp_path: Path) -> None:
    """Two spawned workers give the rows of the in-process run."""
    with Store(tmp_path / "pool.sqlite") as store:
        out = run_study(SPEC, store, toolkit=FAKE, version="test", executor=LocalExecutor(2))
        assert stable(store.rows(out.study)) == clean_rows(tmp_path)


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
    from validation.study.executors import cores

    n = default_workers(threads)
    assert n >= 1 and (n * threads <= cores() or n == 1)
    if expected_max is not None:
        assert n <= expected_max


def test_one_local_worker_runs_in_process() -> None:
    """``--workers 1`` needs no pool."""
    assert make_executor("local", workers=1).name == "serial"
    assert make_executor("local", workers=2).name == "local"
