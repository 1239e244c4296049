"""``jobs.csv``: one row per job with Batsim's column names, so that evalys reads it.

Columns: ``job_id``, ``workload_name`` (the workload's name, else ``workload``),
``profile`` (``delay_<work>``, the job's delay profile in a Batsim workload written
by :mod:`instances.batsim`), ``submission_time``, ``requested_number_of_resources``,
``requested_time`` (e_j, seconds at speed 1), ``success`` (0 when killed at the
estimate), ``final_state`` (``COMPLETED_SUCCESSFULLY`` or
``COMPLETED_WALLTIME_REACHED``), ``starting_time``, ``execution_time``,
``finish_time``, ``waiting_time``, ``turnaround_time``, ``stretch`` (the
slowdown, response / max(duration, 1)), ``allocated_resources`` (CPU ranges
such as ``0-3 8``), then ``machine``, ``deadline`` (empty when none),
``delayed`` and ``bounded_slowdown``. Same replay, same bytes.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from instances.batsim import profile_name
from planner.cluster.records import Replay

COLUMNS = (
    "job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources",
    "requested_time",
    "success", "final_state", "starting_time", "execution_time", "finish_time",
    "waiting_time", "turnaround_time", "stretch", "allocated_resources", "machine",
    "deadline", "delayed", "bounded_slowdown",
)  # fmt: skip


def cpu_ranges(cpus: Iterable[int]) -> str:
    """Return sorted CPU numbers as ranges: ``[0, 1, 2, 3, 8]`` → ``"0-3 8"``."""
    parts: list[str] = []
    run: list[int] = []
    for c in sorted(cpus):
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [c]
    if run:
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return " ".join(parts)


def _real(x: float) -> str:
    return format(x, ".6f")


def write_jobs_csv(replay: Replay, path: str | Path) -> None:
    """Write ``replay``'s per-job rows to ``path`` (in queue order)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(COLUMNS)
        name = replay.workload.name or "workload"
        for job, r in zip(replay.workload.jobs, replay.records, strict=True):
            out.writerow((
                r.id, name, profile_name(job.work), r.submit, r.cpus, r.requested,
                0 if r.killed else 1,
                "COMPLETED_WALLTIME_REACHED" if r.killed else "COMPLETED_SUCCESSFULLY",
                r.start, r.duration, r.finish, r.wait, r.response, _real(r.slowdown),
                cpu_ranges(r.cpu_ids), r.machine, "" if r.deadline is None else r.deadline,
                int(r.delayed), _real(r.bounded_slowdown),
            ))  # fmt: skip
