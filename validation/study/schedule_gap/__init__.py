"""Schedule-gap studies: cluster policies against the CP-SAT optimum of small snapshots.

Klusáček & Rudová 2008's policies (FCFS, EASY, Flexible backfilling, EG-EDF,
Tabu search) replay ``klusacek2008`` snapshots; CP-SAT solves each offline
(``docs/schedule-based.md``, "Gap to the optimum"). Layers, as for the other
studies: :mod:`spec` (the snapshots), :mod:`task` (one snapshot: checked
replays and the solve), :mod:`store` (SQLite, resumable), :mod:`findings`,
:mod:`report` (:mod:`markdown`, :mod:`figure`), :mod:`kind` (the ``planner study
schedule-gap`` kind) and :mod:`runner` (:func:`run_schedule_gap_study`).
"""

from validation.study.schedule_gap.kind import SCHEDULE_GAP, ScheduleGapKind
from validation.study.schedule_gap.markdown import render
from validation.study.schedule_gap.report import statuses, summarise
from validation.study.schedule_gap.runner import ScheduleGapOutcome, run_schedule_gap_study
from validation.study.schedule_gap.spec import POLICIES, ScheduleGapSpec, Snapshot
from validation.study.schedule_gap.store import ScheduleGapStore
from validation.study.schedule_gap.task import run_snapshot

write_report = SCHEDULE_GAP.write_report
"""Write a schedule-gap study's report: ``write_report(store, study, out, formats=("png",))``."""

__all__ = [
    "POLICIES",
    "SCHEDULE_GAP",
    "ScheduleGapKind",
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
