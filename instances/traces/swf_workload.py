"""Turn an SWF log into a cluster job flow (a :class:`~instances.workload.Workload`).

The mapping (``docs/workloads.md``, "From SWF to jobs"): job id = field 1,
submit = field 2, work = field 4 (run time), CPUs = field 5 (allocated
processors), or field 8 (requested processors) when field 5 is <= 0,
estimate = field 9 (requested time) when > 0, else the work. SWF numbers may
be fractional; times are rounded **up** to whole seconds,
``ceil(round(x, 9))``, so no job is submitted earlier, runs shorter or asks
for less time than its log record says (and work <= estimate survives the
rounding). Records that cannot be a job are dropped and counted by reason:

``submit_unknown``             field 2 < 0
``run_time_unknown``           field 4 < 0
``processors_unknown``         fields 5 and 8 both <= 0
``wider_than_every_machine``   more CPUs than the widest machine has
``duplicate_job_number``       field 1 repeats an earlier kept record

Queue order is (submit, file order), as :class:`Workload` keeps it.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from instances.errors import DataError, InstanceFileError
from instances.limits import TEXT_MAX
from instances.traces.swf import SwfError, SwfTable, read_swf_table
from instances.workload import (
    MAX_CPUS,
    MAX_TIME,
    ClusterJob,
    Machine,
    Workload,
    trusted_jobs,
    trusted_workload,
)  # fmt: skip

if TYPE_CHECKING:
    import numpy as np

DROP_REASONS = (
    "submit_unknown",
    "run_time_unknown",
    "processors_unknown",
    "wider_than_every_machine",
    "duplicate_job_number",
)
"""Why an SWF record is not a job, in the order the rules are tried."""


def seconds(value: float) -> int:
    """Return ``value`` seconds rounded up to a whole second (binary noise absorbed)."""
    return math.ceil(round(value, 9))


def swf_table(path: str | os.PathLike[str]) -> SwfTable:
    """Parse an SWF log; raise :class:`InstanceFileError` (``line N`` as path) when malformed."""
    try:
        return read_swf_table(path)
    except SwfError as err:
        where = f"line {err.line}" if err.line is not None else ""
        raise InstanceFileError(err.file, where, err.rule) from None


def swf_machines(table: SwfTable) -> tuple[Machine, ...]:
    """Return the log's cluster: one machine of MaxProcs (else MaxNodes) CPUs at speed 1.

    A header value that is not an ASCII integer, or above the CPU limit, is an
    error naming the file and its header line.
    """
    return header_machines(table.path, table.header)


def header_machines(path: str, header: dict[str, str]) -> tuple[Machine, ...]:
    """Return :func:`swf_machines` of a log's ``header`` (``path`` names it in errors)."""
    from instances.traces.guards import header_count

    try:
        counts = [header_count(path, header, k) for k in ("MaxProcs", "MaxNodes")]
    except SwfError as err:
        where = f"line {err.line}" if err.line else ""
        raise InstanceFileError(err.file, where, err.rule) from None
    procs = counts[0] or counts[1]
    if procs is None:
        raise InstanceFileError(
            path, "", "the header has no MaxProcs or MaxNodes; give a machines file"
        )
    return (Machine("cluster", procs, 1.0),)


def workload_from_swf(
    table: SwfTable, machines: Sequence[Machine] | None = None, *, limit: int = 0
) -> Workload:
    """Map the log's records to jobs on ``machines`` (default :func:`swf_machines`).

    ``limit`` > 0 keeps only the first ``limit`` jobs in file order (after
    dropping). Raises :class:`InstanceFileError` naming the line of a record
    whose numbers are out of range (e.g. a fractional field 8).
    """
    import numpy as np

    machines = Workload(tuple(machines) if machines is not None else swf_machines(table)).machines
    widest = max(m.cpus for m in machines)
    name = _printable(os.path.basename(table.path))
    v = table.values
    if len(v) and np.abs(v[:, 0]).max() >= 2**53:
        return _by_rows(table, machines, widest, limit)  # ids beyond exact int64 arithmetic
    submit, run, cpus = v[:, 1], v[:, 3], np.where(v[:, 4] > 0, v[:, 4], v[:, 7])
    reasons = [submit < 0, run < 0, cpus <= 0, cpus > widest]
    taken = np.zeros(len(v), dtype=bool)
    for mask in reasons:
        mask &= ~taken
        taken |= mask
    number = v[:, 0].astype(np.int64)
    candidates = np.flatnonzero(~taken)
    kept = np.zeros(len(v), dtype=bool)
    kept[candidates[np.unique(number[candidates], return_index=True)[1]]] = True
    reasons.append(~taken & ~kept)
    rows = np.flatnonzero(kept)
    if limit and len(rows) > limit:
        end = rows[limit - 1] + 1
        rows, reasons = rows[:limit], [mask[:end] for mask in reasons]
    counts = tuple((r, int(m.sum())) for r, m in zip(DROP_REASONS, reasons, strict=True)
                   if m.any())  # fmt: skip
    jobs = _jobs(table, rows, cpus[rows])
    return trusted_workload(machines, jobs, name, counts)


def _jobs(table: SwfTable, rows: np.ndarray, cpus: np.ndarray) -> tuple[ClusterJob, ...]:
    """Build the kept records' jobs in queue order; rows not plainly valid are checked one by one.

    Plain: whole numbers of CPUs and seconds within ClusterJob's bounds, so
    ``seconds()`` is the number itself and no check can fail. The others go
    through :func:`_job` in file order, so the first bad record is the one named.
    """
    import numpy as np

    v = table.values[rows]
    submit, work, estimate = v[:, 1], v[:, 3], np.where(v[:, 8] > 0, v[:, 8], v[:, 3])
    plain = (cpus == np.floor(cpus)) & (cpus <= MAX_CPUS)
    for x in (submit, work, estimate):
        plain &= (x == np.floor(x)) & (x <= MAX_TIME)
    ids = [str(n) for n in v[:, 0].astype(np.int64).tolist()]
    cols = [np.where(plain, x, 0).astype(np.int64).tolist() for x in (submit, cpus, work, estimate)]
    for k in np.flatnonzero(~plain).tolist():
        job = _job(table.path, int(table.lines[rows[k]]), ids[k], tuple(v[k].tolist()))
        for col, value in zip(cols, (job.submit, job.cpus, job.work, job.estimate), strict=True):
            col[k] = value
    order = np.argsort(np.array(cols[0], dtype=np.int64), kind="stable").tolist()
    return trusted_jobs(*([col[i] for i in order] for col in [ids, *cols]))


def _by_rows(table: SwfTable, machines: tuple[Machine, ...], widest: int, limit: int) -> Workload:
    dropped: Counter[str] = Counter()
    jobs: list[ClusterJob] = []
    seen: set[str] = set()
    for lineno, f in table.rows:
        if limit and len(jobs) >= limit:
            break
        reason = _drop_reason(f, widest)
        ident = str(int(f[0]))
        if reason is None and ident in seen:
            reason = "duplicate_job_number"
        if reason is not None:
            dropped[reason] += 1
            continue
        seen.add(ident)
        jobs.append(_job(table.path, lineno, ident, f))
    counts = tuple((r, dropped[r]) for r in DROP_REASONS if dropped[r])
    name = _printable(os.path.basename(table.path))
    return Workload(machines, tuple(jobs), name=name, dropped=counts)


def _printable(name: str) -> str:
    """Return a file name as a valid workload name: undecodable bytes and controls replaced."""
    text = os.fsencode(name).decode("utf-8", errors="replace")[:TEXT_MAX]
    return "".join(c if c.isprintable() else "\ufffd" for c in text)


def _drop_reason(f: tuple[float, ...], widest: int) -> str | None:
    if f[1] < 0:
        return "submit_unknown"
    if f[3] < 0:
        return "run_time_unknown"
    cpus = f[4] if f[4] > 0 else f[7]
    if cpus <= 0:
        return "processors_unknown"
    if cpus > widest:
        return "wider_than_every_machine"
    return None


def _job(file: str, lineno: int, ident: str, f: tuple[float, ...]) -> ClusterJob:
    cpus = f[4] if f[4] > 0 else f[7]
    if cpus != int(cpus):
        field = 5 if f[4] > 0 else 8
        rule = f"field {field} (processors) must be an integer"
        raise InstanceFileError(file, f"line {lineno}", rule)
    work = seconds(f[3])
    estimate = seconds(f[8]) if f[8] > 0 else work
    try:
        return ClusterJob(ident, seconds(f[1]), int(cpus), work, estimate)
    except DataError as err:
        raise InstanceFileError(file, f"line {lineno}", str(err)) from None
