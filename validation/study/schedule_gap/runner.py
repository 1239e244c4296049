"""Run a schedule-gap study: skip the snapshots already stored, solve the rest, store each.

The loop every study kind shares (:meth:`StudyKind.run
<validation.study.engine.kind.StudyKind.run>`); this is its Python entry point. The
study is described in ``docs/schedule-based.md``, "Gap to the optimum" (Klusáček &
Rudová 2008's policies against the exact optimum).
"""

from __future__ import annotations

from dataclasses import dataclass

from validation.study.engine.executors import Executor
from validation.study.schedule_gap.kind import SCHEDULE_GAP
from validation.study.schedule_gap.spec import ScheduleGapSpec
from validation.study.schedule_gap.store import ScheduleGapStore


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
        One of :mod:`validation.study.engine.executors` (default: in this process).
    version
        Recorded with the study (default: ``planner.__version__``).
    progress
        Show a progress line (default: on a TTY without ``CI``).
    stop_after
        Raise :class:`~validation.study.engine.runner.StudyStopped` after writing this
        many snapshots (tests simulate an interruption with it).

    Returns
    -------
    ScheduleGapOutcome
        ``violations`` counts the checker's violations over every row (replays
        and optimum schedules); it must be 0.
    """
    out = SCHEDULE_GAP.run(spec, store, executor=executor, version=version,
                           progress=progress, stop_after=stop_after)  # fmt: skip
    rows = out.rows
    bad = sum(r["violations"] for r in rows) + sum(
        r["optimum_violations"] for r in rows[:: len(spec.policies)])  # fmt: skip
    return ScheduleGapOutcome(out.study, out.units, out.written, bad)
