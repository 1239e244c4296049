"""Shared helpers: replay a workload and pass the result through the independent checker."""

from __future__ import annotations

from pathlib import Path

from instances.workload import Workload
from planner.cluster import Replay, ReservationLog, simulate
from planner.cluster.output import write_jobs_csv
from validation.cluster_check import check_schedule_files


def run_checked(workload: Workload, policy: str, tmp: Path, **kw: object) -> Replay:
    """Replay ``workload``; assert that validation.cluster_check finds no violation."""
    log = ReservationLog()
    replay = simulate(workload, policy, log=log, **kw)
    jobs, res = tmp / f"{policy}.csv", tmp / f"{policy}.res.csv"
    write_jobs_csv(replay, jobs)
    log.write(res)
    problems = check_schedule_files(replay.workload, jobs, policy=policy, reservations=res)
    assert problems == [], problems[:5]
    return replay


def table(replay: Replay) -> dict[str, tuple[int, int, str, tuple[int, ...]]]:
    """Return job id → (start, finish, machine, CPUs)."""
    return {r.id: (r.start, r.finish, r.machine, r.cpu_ids) for r in replay.records}
