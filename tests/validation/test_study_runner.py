"""Tests of the gap-study runner: rows, resume after an interruption, error rows.

The heuristics here are fakes injected through a :class:`Toolkit` (the
runner's injection point), so these tests exercise the study machinery
whatever the state of the real heuristics: ``opt`` returns the exact optimum
of the job's criterion, ``early`` serves ``min_cost`` with the earliest
window (a real, positive gap), ``broken`` returns the optimum with every task
cost zeroed (an infeasible window that also beats the optimum).
"""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from instances import read_instance
from planner.window import Window
from validation.study import (
    TIMING_COLUMNS,
    LocalExecutor,
    SerialExecutor,
    Store,
    StudySpec,
    StudyStopped,
    Toolkit,
    WorkerLost,
    instance_seed,
    run_study,
)
from validation.study.gap import write_report
from validation.study.gap.task import FREE_START

SPEC = StudySpec("tiny", {"jobs": 2}, instances=8, seed=5)


def fake_algorithms() -> dict[str, str | None]:
    """Two fake heuristics: ``opt`` (job's criterion) and ``early`` (serves min_cost)."""
    return {"opt": None, "early": "min_cost"}


def fake_search(instance: Any, job: Any, name: str, seed: int) -> Window | None:
    """``opt``: the study's exact optimum; ``early``: the min_start one; ``broken``: zero costs."""
    from models import solve_window

    crit = {"opt": job.criterion, "early": "min_start", "broken": "min_cost"}[name]
    window = solve_window(instance, job, crit, free_start=crit in FREE_START).window
    if name == "broken" and window is not None:
        placements = [dataclasses.replace(p, cost=0) for p in window.placements]
        window = dataclasses.replace(window, placements=tuple(placements))
    return window


def broken_algorithms() -> dict[str, str | None]:
    """The fakes plus the deliberately broken heuristic."""
    return {**fake_algorithms(), "broken": "min_cost"}


KILL_SEED = instance_seed(SPEC.seed, 3)


def killing_search(instance: Any, job: Any, name: str, seed: int) -> Window | None:
    """``fake_search``, but the worker process kills itself (SIGKILL) on instance 3."""
    if instance.name.split()[1] == f"seed={KILL_SEED}":
        os.kill(os.getpid(), signal.SIGKILL)
    return fake_search(instance, job, name, seed)


def malformed_algorithms() -> dict[str, str | None]:
    """The fakes plus a heuristic that returns something that is not a window."""
    return {**fake_algorithms(), "malformed": "min_cost"}


def malformed_search(instance: Any, job: Any, name: str, seed: int) -> Any:
    """``fake_search``; ``malformed`` returns a list instead of a window."""
    if name == "malformed":
        return ["not a window"]
    return fake_search(instance, job, name, seed)


def raising_check(instance: Any, job: Any, window: Any) -> list[str]:
    """A checker that fails on every window."""
    raise RuntimeError("checker bug")


FAKE = Toolkit(algorithms=fake_algorithms, search=fake_search)
BROKEN = Toolkit(algorithms=broken_algorithms, search=fake_search)
KILLER = Toolkit(algorithms=fake_algorithms, search=killing_search)


def stable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the rows without the timing columns (measurements differ between runs)."""
    return [{k: v for k, v in r.items() if k not in TIMING_COLUMNS} for r in rows]


def clean_rows(tmp_path: Path, spec: StudySpec = SPEC, kit: Toolkit = FAKE) -> list[dict]:
    """Rows of an uninterrupted in-process run."""
    with Store(tmp_path / "clean.sqlite") as store:
        out = run_study(spec, store, toolkit=kit, version="test")
        return stable(store.rows(out.study))


def test_rows_cover_every_instance_job_and_algorithm(tmp_path: Path) -> None:
    """One row per instance × job × algorithm; ``opt`` always matches, ``early`` never beats it."""
    rows = clean_rows(tmp_path)
    assert len(rows) == SPEC.instances * 2 * 2
    keys = {(r["instance"], r["job"], r["algorithm"]) for r in rows}
    assert len(keys) == len(rows)
    for r in rows:
        assert r["error"] is None and r["verdict"] == ""
        if r["algorithm"] == "opt" and r["exact_status"] == "optimal":
            assert r["match"] is True and r["gap"] == 0.0
        if r["gap"] is not None:
            assert r["gap"] >= 0
    assert any(r["gap"] and r["gap"] > 0 for r in rows if r["algorithm"] == "early")


def test_resume_after_stop_gives_the_clean_rows(tmp_path: Path) -> None:
    """Stopping after 3 instances and rerunning the same study ends with exactly the clean rows."""
    db = tmp_path / "resumed.sqlite"
    with Store(db) as store, pytest.raises(StudyStopped):
        run_study(SPEC, store, toolkit=FAKE, version="test", stop_after=3)
    with Store(db) as store:
        assert len(store.done(1)) == 3
        out = run_study(SPEC, store, toolkit=FAKE, version="test")
        assert out.written == SPEC.instances - 3
        assert stable(store.rows(out.study)) == clean_rows(tmp_path)


@pytest.mark.slow
def test_resume_after_a_killed_worker_gives_the_clean_rows(tmp_path: Path) -> None:
    """A worker killed by SIGKILL stops the study; the rerun ends with exactly the clean rows."""
    db = tmp_path / "killed.sqlite"
    with Store(db) as store, pytest.raises(WorkerLost):
        run_study(SPEC, store, toolkit=KILLER, version="test", executor=LocalExecutor(2))
    with Store(db) as store:
        assert 3 not in store.done(1)
        out = run_study(SPEC, store, toolkit=FAKE, version="test", executor=SerialExecutor())
        assert stable(store.rows(out.study)) == clean_rows(tmp_path)


def test_rerun_of_a_finished_study_computes_nothing(tmp_path: Path) -> None:
    """Running a finished study again writes no row; other parameters open a new study."""
    with Store(tmp_path / "db.sqlite") as store:
        first = run_study(SPEC, store, toolkit=FAKE, version="test")
        again = run_study(SPEC, store, toolkit=FAKE, version="test")
        assert (again.study, again.written, again.rows) == (first.study, 0, first.rows)
        other = run_study(dataclasses.replace(SPEC, seed=6), store, toolkit=FAKE, version="test")
        assert other.study != first.study and other.written == SPEC.instances


@pytest.mark.slow
def test_broken_heuristic_gives_error_rows_and_saved_instances(tmp_path: Path) -> None:
    """The zero-cost heuristic is flagged on every found window and its instances are saved."""
    with Store(tmp_path / "db.sqlite") as store:
        out = run_study(SPEC, store, toolkit=BROKEN, version="test")
        rows = store.rows(out.study)
        rep = write_report(store, out.study, tmp_path / "out")
    broken = [r for r in rows if r["algorithm"] == "broken" and r["found"]]
    assert broken and out.errors == len(broken)
    assert all(r["error"].startswith("infeasible window: cost") for r in broken)
    assert not [r for r in rows if r["algorithm"] != "broken" and r["error"]]
    error_files = [p for p in rep.files if p.parent.name == "errors"]
    saved = sorted(p.name for p in error_files)
    assert saved == sorted(f"instance-{i}.json" for i in {r["instance"] for r in broken})
    inst = read_instance(error_files[0])
    assert inst.name.startswith("tiny seed=")
    assert "## Errors" in rep.path.read_text()
    assert rep.problems and "error row" in rep.problems[0]


def test_malformed_heuristic_result_is_an_error_row(tmp_path: Path) -> None:
    """A heuristic returning a non-window gives error rows; the study still finishes."""
    kit = Toolkit(algorithms=malformed_algorithms, search=malformed_search)
    with Store(tmp_path / "db.sqlite") as store:
        out = run_study(SPEC, store, toolkit=kit, version="test")
        rows = store.rows(out.study)
        assert len(store.error_instances(out.study)) == SPEC.instances
    bad = [r for r in rows if r["algorithm"] == "malformed"]
    assert len(bad) == SPEC.instances * 2 and out.errors == len(bad)
    assert all(r["error"].startswith("unusable heuristic result") for r in bad)
    assert all(not r["found"] and r["gap"] is None for r in bad)
    assert not [r for r in rows if r["algorithm"] != "malformed" and r["error"]]


def test_checker_exception_is_an_error_row(tmp_path: Path) -> None:
    """A checker raising on the exact or heuristic windows: error rows, not a crashed study."""
    kit = Toolkit(algorithms=fake_algorithms, search=fake_search, check=raising_check)
    with Store(tmp_path / "db.sqlite") as store:
        out = run_study(SPEC, store, toolkit=kit, version="test")
        rows = store.rows(out.study)
    assert out.written == SPEC.instances and len(rows) == SPEC.instances * 2 * 2
    found = [r for r in rows if r["found"] or r["exact_found"]]
    assert found and all("RuntimeError: checker bug" in r["error"] for r in found)


def test_interrupted_exact_solve_is_not_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CP-SAT catches Ctrl-C and returns an unproven result: the study stops (a
    KeyboardInterrupt) without writing that instance, and the rerun gives the clean rows."""
    import models

    real = models.solve_window

    def interrupted_on_3(instance: Any, job: Any, criterion: str, *args: Any, **kw: Any) -> Any:
        res = real(instance, job, criterion, *args, **kw)
        if instance.name.split()[1] == f"seed={KILL_SEED}" and res.status == "optimal":
            return dataclasses.replace(res, status="feasible")  # as after a caught SIGINT
        return res

    db = tmp_path / "interrupted.sqlite"
    monkeypatch.setattr(models, "solve_window", interrupted_on_3)
    with Store(db) as store, pytest.raises(KeyboardInterrupt, match="interrupted"):
        run_study(SPEC, store, toolkit=FAKE, version="test")
    monkeypatch.setattr(models, "solve_window", real)
    with Store(db) as store:
        assert store.done(1) == {0, 1, 2}
        out = run_study(SPEC, store, toolkit=FAKE, version="test")
        assert stable(store.rows(out.study)) == clean_rows(tmp_path)


def test_seeds_do_not_depend_on_the_instance_count(tmp_path: Path) -> None:
    """Instance i is the same in a 4-instance and an 8-instance study."""
    small = clean_rows(tmp_path, dataclasses.replace(SPEC, instances=4))
    (tmp_path / "clean.sqlite").unlink()
    large = clean_rows(tmp_path)
    assert small == [r for r in large if r["instance"] < 4]


def test_aliases_name_the_same_study() -> None:
    """``first_fit``/``multiple_best`` are stored as ``amp``/``csa``: one study key, no repeats."""
    aliased = StudySpec("tiny", algorithms=("first_fit", "amp", "multiple_best"))
    assert aliased.algorithms == ("amp", "csa")
    assert aliased.key("v") == StudySpec("tiny", algorithms=("amp", "csa")).key("v")


_BLOCK_THIRD = """
import dataclasses, sys, time
from validation.study.gap import toolkit
from planner.cli import main

calls = []
real = toolkit.DEFAULT_TOOLKIT.generate


def generate(*args, **kwargs):
    calls.append(args)
    if len(calls) == 4:  # a few instances are done: hold here
        print("holding", flush=True)
        time.sleep(600)
    return real(*args, **kwargs)


toolkit.DEFAULT_TOOLKIT = dataclasses.replace(toolkit.DEFAULT_TOOLKIT, generate=generate)
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_kill_9_of_the_study_process_then_rerun(tmp_path: Path) -> None:
    """``kill -9`` of a running ``planner study gap`` (real heuristics) loses nothing on rerun.

    The killed run holds at its fourth instance generated (and says so), so the kill lands
    mid-run however loaded the machine is.
    """
    import sqlite3
    import subprocess
    import sys

    from tests.waiting import HANG_GUARD_S, read_until

    args = ["study", "gap", "--family", "tiny", "--instances", "12", "--workers", "1", "--quiet"]
    argv = [sys.executable, "-m", "planner.cli", *args]
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", _BLOCK_THIRD, *args, "--out", str(killed)],
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        read_until(proc.stdout, "holding")
    finally:
        proc.kill()
        proc.wait(timeout=HANG_GUARD_S)
        if proc.stdout is not None:
            proc.stdout.close()
    db = sqlite3.connect(f"file:{killed / 'study.sqlite'}?mode=ro", uri=True)
    done = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    db.close()
    assert 0 < done < 12, "the study must be killed mid-run"
    assert subprocess.run([*argv, "--out", str(killed)], capture_output=True).returncode == 0
    clean = tmp_path / "clean"
    assert subprocess.run([*argv, "--out", str(clean)], capture_output=True).returncode == 0
    with Store(killed / "study.sqlite") as a, Store(clean / "study.sqlite") as b:
        assert stable(a.rows(1)) == stable(b.rows(1))
        assert len(a.rows(1)) == len(b.rows(1)) > 0


def test_alp_row_is_checked_by_its_price_cap() -> None:
    """A gap-study row of ALP uses ALP's rule (per-slot cap C, no budget S).

    Nodes u (price 1.5) free [0, 10) and v (price 1) free [5, 10); n = 1,
    V = 3, C = 1.5, so S = ⌊4.5⌋ = 4. ALP takes u at T = 0 for ⌈4.5⌉ = 5 > S:
    a valid ALP window, not an infeasible one, and outside the budgeted
    optimum's space, so no gap is reported against it.
    """
    from instances import Instance, Job, Node, Slot
    from validation.study.gap.spec import StudySpec
    from validation.study.gap.task import _row
    from validation.study.gap.toolkit import Toolkit

    job = Job("j", nodes=1, volume=3.0, max_price=1.5)
    inst = Instance(nodes=(Node("u", 1.0, price=1.5), Node("v", 1.0, price=1.0)),
                    slots=(Slot("u", 0, 10), Slot("v", 5, 10)), jobs=(job,))  # fmt: skip
    exact = {"status": "optimal", "objective": 5, "bound": 5, "window": None, "error": None,
             "verdict": "", "seconds": 0.0}
    row = _row(Toolkit(), inst, job, "alp", "min_start", exact, StudySpec("tiny"), 0)
    assert row["found"] and row["start"] == 0 and row["cost"] == 5
    assert row["error"] is None and row["gap"] is None
