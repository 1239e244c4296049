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
from itertools import chain, pairwise
from pathlib import Path

from planner.cluster.records import Replay

COLUMNS = (
    "job_id", "submission_time", "requested_number_of_resources", "requested_time",
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


def allocations(alloc: list[list[int]]) -> list[str]:
    """Return :func:`cpu_ranges` of every job's CPU list, computed for all jobs at once.

    The ranges are found on the concatenated lists with numpy; a list that is
    not ascending or repeats a CPU is left to :func:`cpu_ranges`.
    """
    import numpy as np

    sizes = np.fromiter(map(len, alloc), dtype=np.int64, count=len(alloc))
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    flat = np.fromiter(chain.from_iterable(alloc), dtype=np.int64, count=int(offsets[-1]))
    if not len(flat):
        return [cpu_ranges(a) for a in alloc]
    first = np.zeros(len(flat), dtype=bool)
    first[offsets[:-1][sizes > 0]] = True
    step = np.diff(flat, prepend=0)
    odd = np.flatnonzero(~first & (step <= 0))  # not ascending within a job
    head = first | (step != 1)
    starts = np.flatnonzero(head)
    ends = np.append(starts[1:], len(flat)) - 1
    lo, hi = flat[starts].tolist(), flat[ends].tolist()
    text = [str(a) if a == b else f"{a}-{b}" for a, b in zip(lo, hi, strict=True)]
    bounds = np.searchsorted(starts, offsets).tolist()
    out = [text[a] if b == a + 1 else " ".join(text[a:b]) for a, b in pairwise(bounds)]
    for k in set((np.searchsorted(offsets, odd, side="right") - 1).tolist()):
        out[k] = cpu_ranges(alloc[k])
    return out


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
        map(str, c.wait), map(str, c.response), map(real, c.slowdown), allocations(replay.alloc),
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
