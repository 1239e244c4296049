"""Test-only helpers for the job-flow checker: a hand-checked schedule and a tiny FCFS replay.

``HAND`` is the workload of ``tests/validation/test_cluster_check.py``; its
FCFS schedule, worked out by hand, is ``HAND_ROWS``. :func:`fcfs_rows` is a
deliberately naive FCFS replay (SPEC §10 rules, lowest-numbered free CPUs of
the first machine that fits) used to feed the checker larger correct
schedules; it is not the project's simulator and shares no code with it.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from instances import ClusterJob, Machine, Workload
from validation.cluster_csv import JOB_COLUMNS

HAND = Workload(
    (Machine("a", 4, 1.0), Machine("b", 2, 2.0)),
    (
        ClusterJob("j1", 0, 2, 10, estimate=12, deadline=30),
        ClusterJob("j2", 5, 4, 7),
        ClusterJob("j3", 6, 2, 20, estimate=8),
        ClusterJob("j4", 6, 1, 0),
    ),
)

# t=0 j1 on a (CPUs 0-1, 10 s). t=5 j2 needs 4 CPUs: none free anywhere; FCFS stops.
# t=10 j1 ends: j2 on a (0-3, 7 s); j3 on b (4-5): min(20, 8) / 2 = 4 s, killed at its
# estimate; j4 (1 CPU) finds nothing free. t=14 j3 ends: j4 on b (CPU 4), 0 s.
HAND_ROWS: list[dict[str, Any]] = [
    dict(job_id="j1", submission_time=0, requested_number_of_resources=2, requested_time=12,
         success=1, final_state="COMPLETED_SUCCESSFULLY", starting_time=0, execution_time=10,
         finish_time=10, waiting_time=0, turnaround_time=10, stretch=1.0,
         allocated_resources="0-1", machine="a", deadline=30, delayed=0, bounded_slowdown=1.0),
    dict(job_id="j2", submission_time=5, requested_number_of_resources=4, requested_time=7,
         success=1, final_state="COMPLETED_SUCCESSFULLY", starting_time=10, execution_time=7,
         finish_time=17, waiting_time=5, turnaround_time=12, stretch=12 / 7,
         allocated_resources="0-3", machine="a", deadline="", delayed=0, bounded_slowdown=1.2),
    dict(job_id="j3", submission_time=6, requested_number_of_resources=2, requested_time=8,
         success=0, final_state="COMPLETED_WALLTIME_REACHED", starting_time=10, execution_time=4,
         finish_time=14, waiting_time=4, turnaround_time=8, stretch=2.0,
         allocated_resources="4-5", machine="b", deadline="", delayed=0, bounded_slowdown=1.0),
    dict(job_id="j4", submission_time=6, requested_number_of_resources=1, requested_time=0,
         success=1, final_state="COMPLETED_SUCCESSFULLY", starting_time=14, execution_time=0,
         finish_time=14, waiting_time=8, turnaround_time=8, stretch=8.0,
         allocated_resources="4", machine="b", deadline="", delayed=0, bounded_slowdown=1.0),
]  # fmt: skip


def write_rows(path: Path, rows: list[dict[str, Any]], columns: tuple[str, ...] = JOB_COLUMNS):
    """Write ``rows`` as a CSV with ``columns`` (default: the jobs.csv columns)."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _ranges(cpus: list[int]) -> str:
    parts, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return " ".join(parts)


def row_for(job: ClusterJob, machine: Machine, cpus: list[int], start: int) -> dict[str, Any]:
    """Return the correct jobs.csv row of ``job`` run on ``cpus`` of ``machine`` from ``start``."""
    estimate = job.requested
    duration = math.ceil(round(min(job.work, estimate) / machine.speed, 9))
    finish = start + duration
    response = finish - job.submit
    killed = job.work > estimate
    return dict(
        job_id=job.id, submission_time=job.submit, requested_number_of_resources=job.cpus,
        requested_time=estimate, success=0 if killed else 1,
        final_state="COMPLETED_WALLTIME_REACHED" if killed else "COMPLETED_SUCCESSFULLY",
        starting_time=start, execution_time=duration, finish_time=finish,
        waiting_time=start - job.submit, turnaround_time=response,
        stretch=response / max(duration, 1), allocated_resources=_ranges(sorted(cpus)),
        machine=machine.id, deadline="" if job.deadline is None else job.deadline,
        delayed=int(job.deadline is not None and finish > job.deadline),
        bounded_slowdown=max(1.0, response / max(duration, 10)),
    )  # fmt: skip


def fcfs_rows(workload: Workload) -> list[dict[str, Any]]:
    """Replay ``workload`` under FCFS: completions, then submissions, then one pass per instant."""
    offsets = workload.cpu_offsets()
    free = [set(range(o, o + m.cpus)) for o, m in zip(offsets, workload.machines, strict=True)]
    pending, queue, running, rows = list(workload.jobs), [], [], []
    while pending or queue or running:
        times = [r[0] for r in running] + ([pending[0].submit] if pending else [])
        now = min(times)
        for r in [r for r in running if r[0] <= now]:
            running.remove(r)
            free[r[1]].update(r[2])
        while pending and pending[0].submit <= now:
            queue.append(pending.pop(0))
        while queue:
            job = queue[0]
            k = next((k for k, f in enumerate(free) if len(f) >= job.cpus), None)
            if k is None:
                break
            cpus = sorted(free[k])[: job.cpus]
            row = row_for(queue.pop(0), workload.machines[k], cpus, now)
            rows.append(row)
            if row["finish_time"] > now:
                free[k].difference_update(cpus)
                running.append((row["finish_time"], k, cpus))
    return rows
