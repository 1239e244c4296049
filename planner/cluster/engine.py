"""The event loop of the cluster job-flow simulator (Klusáček & Rudová 2008).

One loop, time jumping to the next event. At one instant: first every
completion (CPUs freed), then every submission (queued in queue order), then
one scheduling pass of the policy. A job whose actual duration is 0 needs its
CPUs free when it starts and frees them at once. A job runs on one machine on
its lowest-numbered free CPUs (CPUs numbered 0, 1, ... across machines in
machine order) for ceil(min(w, e) / s) seconds: a job that outlives its
estimate is killed at it. The loop records the order of starts and ends; the
CPUs each job got are worked out from it after the replay, when asked for
(:func:`planner.cluster.cluster.allocate`), as ranges, so a machine of
2^31 − 1 CPUs costs what one of 10 does. See ``docs/job-flows.md``.
"""

from __future__ import annotations

import heapq
import time
from bisect import bisect_left
from collections.abc import Callable

from instances.errors import DataError
from instances.workload import Workload
from planner.cluster import one_machine
from planner.cluster.cluster import Cluster, InvariantError
from planner.cluster.durations import cached_tables, durations
from planner.cluster.policies import POLICIES, Policy
from planner.cluster.records import Replay
from planner.cluster.reservations import ReservationLog

ESTIMATES = ("requested", "actual")
PROGRESS_EVERY = 100
"""Finished jobs between two calls of ``simulate``'s progress callback."""


def apply_estimates(workload: Workload, estimates: str) -> Workload:
    """Return ``workload`` with e_j = w_j for every job when ``estimates`` is ``actual``."""
    if estimates not in ESTIMATES:
        raise DataError("estimates", f"must be one of {', '.join(ESTIMATES)}")
    if estimates == "requested":
        return workload
    from instances.workload_io import perfect_estimates

    return perfect_estimates(workload)


def simulate(
    workload: Workload,
    policy: str | Callable[..., Policy],
    *,
    estimates: str = "requested",
    log: ReservationLog | None = None,
    progress: Callable[[int], None] | None = None,
    **options: object,
) -> Replay:
    """Replay ``workload`` under ``policy``; return the per-job records.

    Parameters
    ----------
    workload
        Machines and jobs (queue order = ``workload.jobs``).
    policy
        A name of :data:`planner.cluster.POLICIES`, or a policy class.
    estimates
        ``requested`` (the jobs' estimates) or ``actual`` (e_j = w_j).
    log
        Receives the policy's reservations (EASY's head, conservative's).
    progress
        Called with the number of finished jobs every :data:`PROGRESS_EVERY` completions.
    options
        Keyword options of the policy.

    Raises
    ------
    InvariantError
        The policy broke the model (a bug): over capacity, a start before the
        submission, a job left waiting for ever.

    Notes
    -----
    The replay's ``scheduler_seconds`` is the CPU time of the whole event loop
    (the policy's passes and the engine's event handling), read from the clock
    once before and once after it, so that no clock read costs time at each
    event. It stands for Klusáček & Rudová 2008's "average algorithm runtime"
    when divided by the jobs.
    """
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise DataError("policy", f"must be one of {', '.join(POLICIES)}")
        policy = POLICIES[policy]
    workload = apply_estimates(workload, estimates)
    planned, actual = durations(workload)
    cluster = Cluster(workload, planned, actual, running=getattr(policy, "needs_running", True))
    tables = cached_tables(planned)
    pol = policy(cluster, log=log, **options)
    n = len(workload.columns.id)
    submit = workload.columns.submit
    cpus, free, running, machine = cluster.cpus, cluster.free, cluster.running, cluster.machine
    planned_end, finish, ends = cluster.planned_end, cluster.finish, cluster.ends
    events, tracks = cluster.events, cluster.tracks_running
    heappop = heapq.heappop
    notify = pol.complete if type(pol).complete is not Policy.complete else None
    wakes = type(pol).wakeup is not Policy.wakeup
    schedule, queue = pol.schedule, pol.submit
    done = 0
    report = PROGRESS_EVERY if progress is not None else n + 1

    def ended_at_start(job: int) -> None:  # a job of actual duration 0
        nonlocal done
        done += 1
        if tables:
            for table in tables:
                table.forget(job)
        if notify is not None:
            notify(job)

    cluster._ended_at_start = ended_at_start
    if one_machine.fused(cluster, pol):
        began = time.process_time()
        instants = one_machine.replay(cluster, pol, tables, PROGRESS_EVERY, progress)
        spent = time.process_time() - began
        return Replay(
            workload=workload, policy=pol.name, start=list(cluster.start_time),
            machine=list(machine), finish=list(finish), events=events,
            scheduler_seconds=spent, instants=instants,
        )  # fmt: skip
    nxt = instants = now = 0
    later = 1 << 63  # after every instant (they are below 2^62)
    next_submit = submit[0] if n else later
    began = time.process_time()
    while done < n:
        while done >= report:
            progress(report)  # type: ignore[misc]
            report += PROGRESS_EVERY
        t = ends[0][0] if ends else later
        if next_submit < t:
            t = next_submit
        if wakes:
            wake = pol.wakeup()
            if wake is not None and wake < t:
                t = wake
        if t == later:
            waiting = [workload.columns.id[j] for j in range(n) if cluster.start_time[j] < 0][:3]
            raise InvariantError(f"policy {pol.name} left jobs waiting for ever: {waiting}")
        if t < now:
            raise InvariantError(f"time went back from {now} to {t}")
        cluster.now = now = t
        instants += 1
        while ends and ends[0][0] == now:
            job = heappop(ends)[1]
            m, need = machine[job], cpus[job]
            free[m] += need
            cluster.idle += need
            if tracks:
                lst = running[m]
                del lst[bisect_left(lst, (planned_end[job], job))]
            events.append(~job)
            finish[job] = now
            if tables:
                for table in tables:
                    table.forget(job)
            done += 1
            if notify is not None:
                notify(job)
        while next_submit == now:
            cluster.submitted = nxt + 1
            queue(nxt)
            nxt += 1
            next_submit = submit[nxt] if nxt < n else later
        schedule()
    spent = time.process_time() - began
    while done >= report:
        progress(report)  # type: ignore[misc]
        report += PROGRESS_EVERY
    return Replay(
        workload=workload, policy=pol.name, start=list(cluster.start_time),
        machine=list(machine), finish=list(finish), events=events,
        scheduler_seconds=spent, instants=instants,
    )  # fmt: skip
