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
import re
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


def span_text(spans: Iterable[tuple[int, int]]) -> str:
    """Return inclusive CPU ranges as text: ``((0, 3), (8, 8))`` → ``"0-3 8"``."""
    return " ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in spans)


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


_QUOTED = re.compile(r'[,"\r\n]')


_ROW = "%s,%s,%s,%d,%d,%d,%s,%s,%d,%d,%d,%d,%d,%.6f,%s,%s,%s,%d,%.6f\n"
"""One jobs.csv row, formatted in one step (``%.6f`` is ``format(x, ".6f")``)."""


def write_jobs_csv(replay: Replay, path: str | Path) -> None:
    """Write ``replay``'s per-job rows to ``path`` (in queue order).

    Built from the replay's columns, one format per row; a job or machine name
    that CSV must quote sends the rows through :mod:`csv` instead (the same
    bytes either way).
    """
    c = replay.columns
    ids = [j.id for j in replay.workload.jobs]
    names = [m.id for m in replay.workload.machines]
    workload = replay.workload.name or "workload"
    profiles = [profile_name(j.work) for j in replay.workload.jobs]
    fixed = ("1", "0"), ("COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED")
    rows = zip(
        ids, [workload] * len(ids), profiles, c.submit, c.cpus, c.requested,
        [fixed[0][k] for k in c.killed], [fixed[1][k] for k in c.killed], replay.start,
        c.duration, replay.finish, c.wait,
        c.response, c.slowdown, map(span_text, replay.alloc), [names[m] for m in replay.machine],
        ["" if d is None else d for d in c.deadline], c.delayed, c.bounded_slowdown, strict=True,
    )  # fmt: skip
    with open(path, "w", newline="", encoding="utf-8") as fh:
        if _QUOTED.search("".join([*ids, *names, workload])):
            out = csv.writer(fh, lineterminator="\n")
            out.writerow(COLUMNS)
            real = "{:.6f}".format
            out.writerows((*r[:13], real(r[13]), *r[14:17], int(r[17]), real(r[18])) for r in rows)
            return
        fh.write(",".join(COLUMNS) + "\n")
        fh.writelines(map(_ROW.__mod__, rows))
