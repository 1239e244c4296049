"""Independent checker of an exact snapshot schedule (job → machine, start).

The CP-SAT snapshot model (``docs/schedule-based.md``, "Exact baseline")
returns one window (job id, machine id, start) per job and claims its delayed
jobs U = #{j : C_j > d_j} and makespan Cmax = max C_j − min r_j (Klusáček &
Rudová 2008's criteria). This module recomputes both from the workload alone,
with durations ``ceil(w_j / s_m)``, and checks that the schedule is one: every
job once, on a machine with enough CPUs, not before its release, and no
machine over capacity at any instant. It never imports the model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from instances.text import plural
from instances.workload import Workload


def check_snapshot(workload: Workload, windows: Iterable[tuple[str, str, int]], delayed: int,
                   makespan: int) -> list[str]:  # fmt: skip
    """Return every violation of ``windows`` against ``workload`` and the claimed values.

    Parameters
    ----------
    workload
        The snapshot.
    windows
        (job id, machine id, start) per job.
    delayed, makespan
        The values the solver claims for this schedule.

    Returns
    -------
    list of str
        ``"<rule>: <detail>"`` per violation (rules: rows, machine, release,
        capacity, delayed, makespan); empty when the schedule is valid.
    """
    jobs = {j.id: j for j in workload.jobs}
    machines = {m.id: m for m in workload.machines}
    out: list[str] = []
    spans: list[tuple[str, int, int, int, int]] = []  # machine, start, hold end, end, cpus
    late = 0
    seen: set[str] = set()
    for jid, mid, start in windows:
        if jid not in jobs or jid in seen:
            out.append(f"rows: job '{jid}' is unknown or repeated")
            continue
        seen.add(jid)
        job, m = jobs[jid], machines.get(mid)
        if m is None or m.cpus < job.cpus:
            out.append(f"machine: job '{jid}' on '{mid}' (unknown or too few CPUs)")
            continue
        if start < job.submit:
            out.append(f"release: job '{jid}' starts at {start} before {job.submit}")
        p = math.ceil(round(job.work / m.speed, 9))
        spans.append((mid, start, start + max(p, 1), start + p, job.cpus))
        late += job.deadline is not None and start + p > job.deadline
    out.extend(f"rows: job '{j}' has no window" for j in jobs if j not in seen)
    for mid, s, _, _, _ in spans:
        use = sum(c for m2, s2, e2, _, c in spans if m2 == mid and s2 <= s < e2)
        if use > machines[mid].cpus:
            out.append(f"capacity: machine '{mid}' uses {use} CPUs at {s}")
    if late != delayed:
        out.append(f"delayed: the schedule delays {plural(late, 'job')}, "
                   f"the solver claims {delayed}")
    if spans and not out:
        span = max(e for *_, e, _ in spans) - min(j.submit for j in workload.jobs)
        if span != makespan:
            out.append(f"makespan: the schedule's is {span}, the solver claims {makespan}")
    return out
