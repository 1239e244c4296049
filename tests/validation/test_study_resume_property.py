"""Property: however a study is interrupted, rerunning it ends with a clean run's rows.

Hypothesis draws a sequence of interruptions of one small study: a stop between
commits, a process killed in the middle of a write transaction (a forked child
that ``os._exit``\\ s before COMMIT, leaving SQLite's hot journal behind, as
``kill -9`` does), and Ctrl-C arriving inside a write. After them a plain rerun
must end with exactly the rows of an uninterrupted run (timing columns aside),
each instance once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_study_runner import fake_algorithms, stable

from validation.study import Store, StudySpec, StudyStopped, Toolkit, run_study


def stub_solve(instance: Any, job: Any, *args: Any) -> Any:
    """A deterministic exact solver that proves nothing (keeps every run cheap)."""
    from models import Result

    return Result("unknown", None, None, 0.0, "none")


def no_window(instance: Any, job: Any, name: str, seed: int) -> None:
    """A heuristic that finds nothing."""
    return None


KIT = Toolkit(algorithms=fake_algorithms, search=no_window, solve=stub_solve)
SPEC = StudySpec("tiny", {"jobs": 2}, instances=7, seed=11)


class _Connection:
    """An SQLite connection that calls ``hook(statement)`` before each execute."""

    def __init__(self, db: sqlite3.Connection, hook: Any) -> None:
        self._db, self._hook = db, hook

    def execute(self, sql: str, *args: Any) -> Any:
        self._hook(sql)
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def _unsynced(path: str) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA synchronous = OFF")  # a process kill loses nothing without fsync
    return con


def _stop(db: Path, k: int) -> None:
    """Stop cleanly after ``k`` written instances (between commits)."""
    with Store(db) as store, contextlib.suppress(StudyStopped):
        run_study(SPEC, store, toolkit=KIT, version="test", stop_after=max(k, 1))


def _kill_mid_write(db: Path, k: int) -> None:
    """A child process writes ``k`` instances, then dies inside the next write's
    transaction (rows inserted, COMMIT never reached)."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            commits = {"n": 0}

            def die_before_commit(sql: str) -> None:
                if sql == "COMMIT":
                    if commits["n"] == k:
                        os._exit(9)
                    commits["n"] += 1

            with Store(db) as store:
                store.db = _Connection(store.db, die_before_commit)  # type: ignore[assignment]
                run_study(SPEC, store, toolkit=KIT, version="test")
        except BaseException:
            code = 1
        os._exit(code)
    os.waitpid(pid, 0)


def _ctrl_c_mid_write(db: Path, k: int) -> None:
    """SIGINT raised inside the ``k``-th write transaction (held back until it commits)."""
    seen = {"n": 0}

    def interrupt(sql: str) -> None:
        if sql.startswith("INSERT INTO done"):
            if seen["n"] == k:
                signal.raise_signal(signal.SIGINT)
            seen["n"] += 1

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with Store(db) as store:
            store.db = _Connection(store.db, interrupt)  # type: ignore[assignment]
            with contextlib.suppress(KeyboardInterrupt):
                run_study(SPEC, store, toolkit=KIT, version="test")
    finally:
        signal.signal(signal.SIGINT, previous)


INTERRUPTIONS = {"stop": _stop, "kill": _kill_mid_write, "ctrl_c": _ctrl_c_mid_write}

_CLEAN: list[list[dict[str, Any]]] = []


def _clean() -> list[dict[str, Any]]:
    if not _CLEAN:
        with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "clean.sqlite") as store:
            out = run_study(SPEC, store, toolkit=KIT, version="test")
            _CLEAN.append(stable(store.rows(out.study)))
    return _CLEAN[0]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="simulates kill -9 with a forked child")
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(sorted(INTERRUPTIONS)), st.integers(0, SPEC.instances)),
        min_size=1, max_size=3,
    )
)
def test_any_interruptions_then_a_rerun_give_the_clean_rows(
    interruptions: list[tuple[str, int]],
) -> None:
    """Stops, mid-transaction kills and Ctrl-C in any order: the database stays a valid
    planner database of whole instances, and the rerun ends with exactly the clean rows."""
    from validation.study.engine import storage as store_module

    real_connect = store_module._connect
    store_module._connect = _unsynced
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "study.sqlite"
            for kind, k in interruptions:
                INTERRUPTIONS[kind](db, k)
                with Store(db) as store:  # every intermediate state opens and verifies
                    studies = store.studies()
                    if studies:
                        store.rows(studies[0]["id"])
            with Store(db) as store:
                out = run_study(SPEC, store, toolkit=KIT, version="test")
                rows = stable(store.rows(out.study))
                assert out.instances == SPEC.instances
    finally:
        store_module._connect = real_connect
    assert rows == _clean()
