"""Run a schedule-gap study: skip the snapshots already stored, solve the rest, store each.

As the runners of the slot and cluster studies (``docs/studies.md``); the
study itself is described in ``docs/schedule-based.md``, "Gap to the optimum"
(Klusáček & Rudová 2008's policies against the CP-SAT optimum).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from planner.progress import Progress
from validation.study.executors import Executor, SerialExecutor
from validation.study.runner import drain
from validation.study.schedule.spec import ScheduleGapSpec
from validation.study.schedule.store import ScheduleGapStore
from validation.study.schedule.task import run_snapshot
from validation.study.spec import StudyError


@dataclass(frozen=True)
class ScheduleGapOutcome:
    """A finished (or resumed-and-finished) schedule-gap study."""

    study: int
    snapshots: int
    written: int
    violations: int


def run_schedule_gap_study(
    spec: ScheduleGapSpec,
    store: ScheduleGapStore,
    *,
    executor: Executor | None = None,
    version: str | None = None,
    progress: bool | None = None,
    stop_after: int | None = None,
) -> ScheduleGapOutcome:
    """Solve every snapshot of ``spec`` not yet in ``store``; write each as it completes.

    Parameters
    ----------
    spec
        The study (``docs/schedule-based.md``, "Gap to the optimum").
    store
        The database; finished snapshots of the same study are skipped (resume).
    executor
        One of :mod:`validation.study.executors` (default: in this process).
    version
        Recorded with the study (default: ``planner.__version__``).
    progress
        Show a progress line (default: on a TTY without ``CI``).
    stop_after
        Raise :class:`StudyStopped` after writing this many snapshots (tests
        simulate an interruption with it).

    Returns
    -------
    ScheduleGapOutcome
        ``violations`` counts the checker's violations over every row (replays
        and optimum schedules); it must be 0.
    """
    if version is None:
        from planner import __version__ as version
    study = store.study(spec, version)
    done = store.done(study)
    tasks = spec.tasks()
    todo = [t for t in tasks if t.seed not in done]
    executor = executor or SerialExecutor()
    bar = Progress(len(tasks), len(tasks) - len(todo), label="schedule-gap: snapshots",
                   enabled=progress)
    written = drain(executor, run_snapshot, todo, functools.partial(store.write, study), bar,
                    stop_after=stop_after, unit="snapshot")  # fmt: skip
    if len(store.done(study)) != len(tasks):
        raise StudyError(f"{store.path}: study {study} is incomplete after the run")
    rows = store.rows(study)
    bad = sum(r["violations"] for r in rows) + sum(
        r["optimum_violations"] for r in rows[:: len(spec.policies)])  # fmt: skip
    return ScheduleGapOutcome(study, len(tasks), written, bad)
