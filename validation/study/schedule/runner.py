"""Run a schedule-gap study: skip the snapshots already stored, solve the rest, store each.

The loop every study kind shares (:func:`validation.study.runner.run_units`); the
study itself is described in ``docs/schedule-based.md``, "Gap to the optimum"
(Klusáček & Rudová 2008's policies against the CP-SAT optimum).
"""

from __future__ import annotations

from dataclasses import dataclass

from validation.study.executors import Executor
from validation.study.runner import Units, run_units
from validation.study.schedule.spec import ScheduleGapSpec
from validation.study.schedule.store import ScheduleGapStore
from validation.study.schedule.task import run_snapshot


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
        from planner import __version__

        version = __version__
    tasks = spec.tasks()
    units = Units(range(spec.seed, spec.seed + spec.snapshots), lambda: tasks,
                  lambda t: t.seed, run_snapshot, store.rows, "snapshot",
                  "schedule-gap: snapshots")  # fmt: skip
    study, written, rows = run_units(store, spec, version, units, executor=executor,
                                     progress=progress, stop_after=stop_after)  # fmt: skip
    bad = sum(r["violations"] for r in rows) + sum(
        r["optimum_violations"] for r in rows[:: len(spec.policies)])  # fmt: skip
    return ScheduleGapOutcome(study, len(tasks), written, bad)
