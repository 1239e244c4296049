"""Schedule-gap studies: cluster policies against the CP-SAT optimum of small snapshots.

Klusáček & Rudová 2008's policies (FCFS, EASY, Flexible backfilling, EG-EDF,
Tabu search) replay ``klusacek2008`` snapshots; CP-SAT solves each offline
(``docs/schedule-based.md``, "Gap to the optimum"). Layers, as for the other
studies: :mod:`spec` (the snapshots), :mod:`task` (one snapshot: checked
replays and the solve), :mod:`store` (SQLite, resumable), :mod:`runner` (the
executors of :mod:`validation.study.executors`), :mod:`report`
(:mod:`markdown`, :mod:`figure`).
"""

from validation.study.schedule.report import render, statuses, summarise, write_report
from validation.study.schedule.runner import ScheduleGapOutcome, run_schedule_gap_study
from validation.study.schedule.spec import POLICIES, ScheduleGapSpec, Snapshot
from validation.study.schedule.store import ScheduleGapStore
from validation.study.schedule.task import run_snapshot

__all__ = [
    "POLICIES",
    "ScheduleGapOutcome",
    "ScheduleGapSpec",
    "ScheduleGapStore",
    "Snapshot",
    "render",
    "run_schedule_gap_study",
    "run_snapshot",
    "statuses",
    "summarise",
    "write_report",
]
