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

import re
from collections.abc import Iterable
from itertools import chain, repeat
from operator import mod
from pathlib import Path

from planner.cluster.records import Replay

try:  # optional C speedups; this module's Python code is the reference and the fallback
    from planner.cluster import _speedups
except ImportError:  # pragma: no cover - a build without a C compiler
    _speedups = None

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
_PROFILE = "delay_%d"
"""A job's profile name, as :func:`instances.batsim.profile_name` writes it (tested)."""
_STATES = ("1,COMPLETED_SUCCESSFULLY", "0,COMPLETED_WALLTIME_REACHED")
"""``success`` and ``final_state`` of a job that completed, of one killed at its estimate."""


def _spans_texts(alloc: list[tuple[tuple[int, int], ...]]) -> list[str]:
    """Return :func:`span_text` of every job's CPUs.

    Each distinct range is formatted once and each distinct allocation joined
    once from those texts, by C-level ``map`` (no Python call per allocation).
    With the C speedups built, they write the same texts.
    """
    if _speedups is not None:
        texts = _speedups.spans_texts(alloc)
        if texts is not None:
            return texts
    distinct = dict.fromkeys(alloc)
    ranges = {r: str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"
              for r in set(chain.from_iterable(distinct))}  # fmt: skip
    joined = map(" ".join, map(map, repeat(ranges.__getitem__), distinct))
    texts = dict(zip(distinct, joined, strict=True))
    return list(map(texts.__getitem__, alloc))


def write_jobs_csv(replay: Replay, path: str | Path) -> None:
    """Write ``replay``'s per-job rows to ``path`` (in queue order).

    Built from the replay's columns, one format per row; what is the same on
    every row (the workload's name, the machine of a one-machine workload, an
    empty deadline and ``delayed`` 0 when no job has one) is part of the format,
    and the rows are written at once. A job or machine name that CSV must
    quote sends the rows through :mod:`csv` instead (the same bytes either way).
    """
    c = replay.columns
    machines = replay.workload.machines
    ids, work = replay.workload.columns.id, replay.workload.columns.work
    names = [m.id for m in machines]
    workload = replay.workload.name or "workload"
    spans = _spans_texts(replay.alloc)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        if _QUOTED.search("".join([*ids, *names, workload])):
            import csv  # only for names that CSV must quote: not imported by every replay

            out = csv.writer(fh, lineterminator="\n")
            out.writerow(COLUMNS)
            out.writerows(
                (i, workload, _PROFILE % w, *r[:3], *_STATES[k].split(","), *r[3:8],
                 f"{r[8]:.6f}", t, names[m], "" if d is None else d, int(dl), f"{b:.6f}")
                for i, w, r, k, t, m, d, dl, b in zip(
                    ids, work, zip(c.submit, c.cpus, c.requested, replay.start, c.duration,
                                   replay.finish, c.wait, c.response, c.slowdown, strict=True),
                    c.killed, spans, replay.machine, c.deadline, c.delayed, c.bounded_slowdown,
                    strict=True))  # fmt: skip
            return
        fh.write(",".join(COLUMNS) + "\n")
        one_machine = len(machines) == 1
        no_deadline = all(d is None for d in c.deadline)
        row = (f"%s,{_literal(workload)},{_PROFILE},%d,%d,%d,%s,"
               f"%d,%d,%d,%d,%d,%.6f,%s,{_literal(names[0]) if one_machine else '%s'},"
               f"{'' if no_deadline else '%s'},{'0' if no_deadline else '%d'},%.6f\n")  # fmt: skip
        columns = [ids, work, c.submit, c.cpus, c.requested, [_STATES[k] for k in c.killed],
                   replay.start, c.duration, replay.finish, c.wait, c.response, c.slowdown,
                   spans]  # fmt: skip
        if not one_machine:
            columns.append([names[m] for m in replay.machine])
        if not no_deadline:
            columns.append(["" if d is None else d for d in c.deadline])
            columns.append(c.delayed)
        columns.append(c.bounded_slowdown)
        if _speedups is None:
            fh.write("".join(map(mod, repeat(row), zip(*columns, strict=True))))
        else:  # the same rows, formatted in C and written as their UTF-8 bytes
            fh.flush()
            fh.buffer.write(_speedups.format_rows(row, columns))


def _literal(text: str) -> str:
    """Return ``text`` as a piece of a %-format (``%`` doubled)."""
    return text.replace("%", "%%")
