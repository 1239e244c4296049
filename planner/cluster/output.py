"""``jobs.csv``: one row per job with Batsim's column names, so that evalys reads it.

Columns: ``job_id``, ``submission_time``, ``requested_number_of_resources``,
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

from planner.cluster.records import Replay

COLUMNS = (
    "job_id", "submission_time", "requested_number_of_resources", "requested_time",
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


def write_jobs_csv(replay: Replay, path: str | Path) -> None:
    """Write ``replay``'s per-job rows to ``path`` (in queue order).

    Built column by column; a job or machine name that CSV must quote sends
    the rows through :mod:`csv` instead (the same bytes either way).
    """
    c = replay.columns
    ids = [j.id for j in replay.workload.jobs]
    names = [m.id for m in replay.workload.machines]
    fixed = ["1", "0"], ["COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED"]
    real = "{:.6f}".format
    cols = [
        ids, map(str, c.submit), map(str, c.cpus), map(str, c.requested),
        [fixed[0][k] for k in c.killed], [fixed[1][k] for k in c.killed],
        map(str, replay.start), map(str, c.duration), map(str, replay.finish),
        map(str, c.wait), map(str, c.response), map(real, c.slowdown), map(span_text, replay.alloc),
        [names[m] for m in replay.machine], ["" if d is None else str(d) for d in c.deadline],
        ["1" if d else "0" for d in c.delayed], map(real, c.bounded_slowdown),
    ]  # fmt: skip
    rows = zip(*cols, strict=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        if _QUOTED.search("".join(ids)) or _QUOTED.search("".join(names)):
            out = csv.writer(fh, lineterminator="\n")
            out.writerow(COLUMNS)
            out.writerows(rows)
            return
        fh.write(",".join(COLUMNS) + "\n")
        fh.writelines(map("{}\n".format, map(",".join, rows)))
