"""Independent checker of cluster job-flow schedules (``jobs.csv``).

From the workload and the schedule file alone (and, for the reservation
policies, the simulator's reservation log) it recomputes what every row must
say and returns the violations, one string ``"<rule>: <detail>"`` each; the
rules are :data:`RULES`. It never imports the simulator: durations are
recomputed here, ``ceil(round(min(w_j, e_j) / s_m, 9))`` (Klusáček & Rudová
2008 machines; walltime kill at the estimate). ``docs/workloads.md``,
"Checking a schedule", lists the invariants.
"""

from __future__ import annotations

import math
import os
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence

from instances.text import noun, plural
from instances.workload import ClusterJob, Machine, Workload
from validation.cluster_csv import Reservation, Row, read_jobs_csv, read_reservations

RULES: tuple[str, ...] = (
    "rows",  # every workload job appears exactly once, no other job
    "request",  # submission_time, requested resources and time, deadline copy the workload
    "machine",  # the machine exists; all CPUs on it, as many as requested, none twice
    "overlap",  # no CPU runs two jobs at once
    "capacity",  # running jobs never use more CPUs than a machine has
    "submit",  # no start before submission
    "duration",  # execution_time = ceil(min(w, e) / s_m); success and final_state agree
    "times",  # finish = start + execution, waiting and turnaround times
    "metrics",  # stretch, bounded slowdown, delayed
    "fcfs",  # FCFS: start times non-decreasing in queue order
    "easy",  # EASY: start <= every shadow time recorded while the job was the head
    "conservative",  # conservative: start <= first reservation
    "reservation",  # log rows name known jobs and machines, start >= time, job still waiting
)

POLICIES = ("fcfs", "easy", "conservative", "flex", "egedf", "tabu")
"""Policy names accepted; fcfs, easy and conservative have invariants of their own."""

KILLED = "COMPLETED_WALLTIME_REACHED"
DONE = "COMPLETED_SUCCESSFULLY"


def actual_duration(job: ClusterJob, machine: Machine) -> int:
    """Return ceil(min(w, e) / s): the job's run time on ``machine`` (killed at e)."""
    estimate = job.work if job.estimate is None else job.estimate
    return math.ceil(round(min(job.work, estimate) / machine.speed, 9))


def check_schedule(
    workload: Workload,
    rows: Sequence[Row],
    *,
    policy: str | None = None,
    reservations: Sequence[Reservation] | None = None,
) -> list[str]:
    """Return every violation of ``rows`` (a parsed ``jobs.csv``) against ``workload``.

    ``policy`` adds that policy's invariant; for ``easy`` and ``conservative``
    it needs ``reservations`` (the ``--reservations`` log). Each violation is
    one line: control characters of ids read from the CSV are escaped.
    """
    if policy is not None and policy not in POLICIES:
        raise ValueError(f"unknown policy '{policy}' (choose from: {', '.join(POLICIES)})")
    out: list[str] = []
    jobs = {j.id: j for j in workload.jobs}
    offsets = workload.cpu_offsets()
    machines = {m.id: (m, offsets[i]) for i, m in enumerate(workload.machines)}
    seen: dict[str, Row] = {}
    for row in rows:
        if row.job_id not in jobs:
            out.append(f"rows: line {row.line}: job '{row.job_id}' is not in the workload")
        elif row.job_id in seen:
            out.append(f"rows: line {row.line}: job '{row.job_id}' repeats "
                       f"(first on line {seen[row.job_id].line})")  # fmt: skip
        else:
            seen[row.job_id] = row
            out.extend(_row(jobs[row.job_id], row, machines))
    out.extend(f"rows: job '{j.id}' has no row" for j in workload.jobs if j.id not in seen)
    out.extend(_overlaps(seen.values()))
    out.extend(_capacity(seen.values(), jobs, machines))
    if policy == "fcfs":
        out.extend(_fcfs(workload, seen))
    if reservations is not None:
        out.extend(_reservations(reservations, jobs, machines, seen, policy))
    return [_one_line(v) for v in out]


def _one_line(text: str) -> str:
    """Return ``text`` with control characters escaped: ids read from a CSV may hold them."""
    return text if text.isprintable() else "".join(
        c if c.isprintable() else repr(c)[1:-1] for c in text
    )


def _row(job: ClusterJob, row: Row, machines: dict[str, tuple[Machine, int]]) -> list[str]:
    out: list[str] = []
    at = f"job '{job.id}' (line {row.line})"
    v = row.ints
    estimate = job.work if job.estimate is None else job.estimate
    requested = {
        "submission_time": job.submit,
        "requested_number_of_resources": job.cpus,
        "requested_time": estimate,
    }
    for column, want in requested.items():
        if v[column] != want:
            out.append(f"request: {at}: {column} is {v[column]}, the workload says {want}")
    if row.deadline != job.deadline:
        out.append(f"request: {at}: deadline is {row.deadline}, the workload says {job.deadline}")
    start, execution, finish = v["starting_time"], v["execution_time"], v["finish_time"]
    if start < job.submit:
        out.append(f"submit: {at}: starts at {start}, before its submission at {job.submit}")
    if row.machine not in machines:
        out.append(f"machine: {at}: unknown machine '{row.machine}'")
    else:
        machine, first = machines[row.machine]
        out.extend(_allocation(at, job, row, machine, first))
        want = actual_duration(job, machine)
        if execution != want:
            out.append(f"duration: {at}: execution_time is {execution}, expected {want} = "
                       f"ceil(min({job.work}, {estimate}) / {machine.speed:g})")  # fmt: skip
    killed = job.work > estimate
    state = (0, KILLED) if killed else (1, DONE)
    if (v["success"], row.final_state) != state:
        out.append(f"duration: {at}: success/final_state are {v['success']}/{row.final_state}, "
                   f"expected {state[0]}/{state[1]}")  # fmt: skip
    if finish != start + execution:
        out.append(f"times: {at}: finish_time {finish} != starting_time + execution_time "
                   f"{start + execution}")  # fmt: skip
    if v["waiting_time"] != start - job.submit:
        out.append(f"times: {at}: waiting_time {v['waiting_time']} != {start - job.submit}")
    response = finish - job.submit
    if v["turnaround_time"] != response:
        out.append(f"times: {at}: turnaround_time {v['turnaround_time']} != {response}")
    metrics = {
        "stretch": response / max(execution, 1),
        "bounded_slowdown": max(1.0, response / max(execution, 10)),
    }
    for column, want_real in metrics.items():
        got = row.reals[column]
        if not math.isclose(got, want_real, rel_tol=1e-6, abs_tol=1e-6):
            out.append(f"metrics: {at}: {column} is {got}, expected {want_real:.6g}")
    delayed = job.deadline is not None and finish > job.deadline
    if bool(row.delayed) != delayed:
        out.append(f"metrics: {at}: delayed is {row.delayed}, expected {int(delayed)}")
    return out


def _merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return ``spans`` sorted and merged where they overlap or touch."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _text(spans: Iterable[tuple[int, int]]) -> str:
    """Return CPU ranges as ``0-3 8``."""
    return " ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in spans)


def _cpus(spans: list[tuple[int, int]]) -> str:
    """Return ``CPU 3`` or ``CPUs 0-3 8``."""
    count = sum(hi - lo + 1 for lo, hi in spans)
    return f"{noun(count, 'CPU')} {_text(spans)}"


def _allocation(at: str, job: ClusterJob, row: Row, machine: Machine, first: int) -> list[str]:
    out = []
    spans = sorted(row.cpus)
    if any(spans[k][0] <= spans[k - 1][1] for k in range(1, len(spans))):
        out.append(f"machine: {at}: allocated_resources name a CPU twice")
    count = sum(hi - lo + 1 for lo, hi in spans)
    if count != job.cpus:
        out.append(f"machine: {at}: {plural(count, 'CPU')} allocated, {job.cpus} requested")
    last = first + machine.cpus - 1
    outside = [(lo, hi) for lo, hi in spans if lo < first or hi > last]
    if outside:
        one = sum(hi - lo + 1 for lo, hi in outside) == 1
        out.append(f"machine: {at}: {'CPU' if one else 'CPUs'} {_text(outside[:5])} "
                   f"{'is' if one else 'are'} not on machine '{machine.id}' "
                   f"(CPUs {first}-{last})")  # fmt: skip
    return out


def _overlaps(rows: Iterable[Row]) -> list[str]:
    """CPUs of two jobs overlap in time; a zero-length job needs its CPUs free at its start.

    One sweep over the rows in (start, finish, id) order keeps, as disjoint CPU
    ranges, the job holding each CPU longest so far; work and memory grow with
    the number of ranges, never with CPU counts.
    """
    los: list[int] = []
    held: list[tuple[int, int, int, str]] = []  # (lo, hi, until, job), disjoint, sorted
    clashes: dict[tuple[str, int, str, int], list[tuple[int, int]]] = defaultdict(list)
    order = sorted(rows, key=lambda r: (r.ints["starting_time"], r.ints["finish_time"], r.job_id))
    for row in order:
        start, finish, ident = row.ints["starting_time"], row.ints["finish_time"], row.job_id
        for a, b in _merged(row.cpus):
            i = bisect_right(los, a) - 1
            if i < 0 or held[i][1] < a:
                i += 1
            j = i
            new: list[tuple[int, int, int, str]] = []
            cursor = a
            while j < len(held) and held[j][0] <= b:
                lo, hi, until, holder = held[j]
                if lo < a:
                    new.append((lo, a - 1, until, holder))
                top = min(hi, b)
                low = max(lo, a)
                if cursor < low:
                    new.append((cursor, low - 1, finish, ident))
                if start < until:
                    clashes[(ident, start, holder, until)].append((low, top))
                keep = finish <= until
                new.append((low, top, until, holder) if keep else (low, top, finish, ident))
                if hi > b:
                    new.append((b + 1, hi, until, holder))
                cursor = top + 1
                j += 1
            if cursor <= b:
                new.append((cursor, b, finish, ident))
            new.sort()
            held[i:j] = new
            los[i:j] = [p[0] for p in new]
    return [
        f"overlap: job '{ident}' starts at {start} on {_cpus(_merged(cpus))} while job "
        f"'{holder}' runs there until {end}"
        for (ident, start, holder, end), cpus in clashes.items()
    ]


def _capacity(
    rows: Iterable[Row], jobs: dict[str, ClusterJob], machines: dict[str, tuple[Machine, int]]
) -> list[str]:
    """Sweep each machine's starts and finishes (finishes first at one instant)."""
    events: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for row in rows:
        if row.machine in machines and row.ints["finish_time"] > row.ints["starting_time"]:
            n = jobs[row.job_id].cpus
            events[row.machine].append((row.ints["starting_time"], 1, n))
            events[row.machine].append((row.ints["finish_time"], 0, -n))
    out = []
    for name, evs in sorted(events.items()):
        used, limit = 0, machines[name][0].cpus
        for time, _, delta in sorted(evs):
            used += delta
            if used > limit:
                out.append(f"capacity: machine '{name}' runs {used} > {limit} CPUs at {time}")
                break
    return out


def _fcfs(workload: Workload, seen: dict[str, Row]) -> list[str]:
    out, latest, prev = [], -1, ""
    for job in workload.jobs:
        row = seen.get(job.id)
        if row is None:
            continue
        start = row.ints["starting_time"]
        if start < latest:
            out.append(f"fcfs: job '{job.id}' starts at {start}, before job '{prev}' queued "
                       f"ahead of it (starts at {latest})")  # fmt: skip
        if start >= latest:
            latest, prev = start, job.id
    return out


def _reservations(
    log: Sequence[Reservation],
    jobs: dict[str, ClusterJob],
    machines: dict[str, tuple[Machine, int]],
    seen: dict[str, Row],
    policy: str | None,
) -> list[str]:
    out: list[str] = []
    first: dict[str, Reservation] = {}
    for r in log:
        at = f"reservation log line {r.line}"
        if r.job_id not in jobs:
            out.append(f"reservation: {at}: job '{r.job_id}' is not in the workload")
            continue
        if r.machine not in machines:
            out.append(f"reservation: {at}: unknown machine '{r.machine}'")
        if r.start < r.time:
            out.append(f"reservation: {at}: start {r.start} is before the pass time {r.time}")
        row = seen.get(r.job_id)
        if row is None:
            continue
        start = row.ints["starting_time"]
        if start < r.time:
            out.append(f"reservation: {at}: job '{r.job_id}' started at {start}, "
                       f"before this reservation at {r.time}")  # fmt: skip
        if policy == "easy" and r.kind == "easy_head" and start > r.start:
            out.append(f"easy: job '{r.job_id}' starts at {start}, after its shadow time "
                       f"{r.start} recorded at {r.time} ({at})")  # fmt: skip
        if r.kind == "conservative":
            first.setdefault(r.job_id, r)
    if policy == "conservative":
        for ident, r in first.items():
            row = seen.get(ident)
            if row is not None and row.ints["starting_time"] > r.start:
                out.append(f"conservative: job '{ident}' starts at {row.ints['starting_time']}, "
                           f"after its first reservation {r.start} (line {r.line})")  # fmt: skip
    return out


def check_schedule_files(
    workload: Workload,
    jobs_csv: str | os.PathLike[str],
    *,
    policy: str | None = None,
    reservations: str | os.PathLike[str] | None = None,
) -> list[str]:
    """Parse ``jobs_csv`` (and the reservation log) and return :func:`check_schedule`'s list."""
    rows = read_jobs_csv(jobs_csv)
    log = read_reservations(reservations) if reservations is not None else None
    return check_schedule(workload, rows, policy=policy, reservations=log)
