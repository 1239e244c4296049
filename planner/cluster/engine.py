"""The event loop of the cluster job-flow simulator (Klusáček & Rudová 2008).

One loop, time jumping to the next event. At one instant: first every
completion (CPUs freed), then every submission (queued in queue order), then
one scheduling pass of the policy. A job whose actual duration is 0 needs its
CPUs free when it starts and frees them at once. A job runs on one machine on
its lowest-numbered free CPUs (CPUs numbered 0, 1, ... across machines in
machine order) for ceil(min(w, e) / s) seconds: a job that outlives its
estimate is killed at it. Free and allocated CPUs are kept as ranges, so a
machine of 2^31 − 1 CPUs costs what one of 10 does. See ``docs/job-flows.md``.
"""

from __future__ import annotations

import heapq
import time
from bisect import bisect_left
from collections.abc import Callable

from instances.errors import DataError
from instances.workload import Workload
from instances.workload_io import perfect_estimates
from planner.cluster.cluster import Cluster, InvariantError
from planner.cluster.durations import cached_tables, durations
from planner.cluster.policies import POLICIES, Policy
from planner.cluster.records import Replay
from planner.cluster.reservations import ReservationLog

ESTIMATES = ("requested", "actual")
PROGRESS_EVERY = 100
"""Finished jobs between two calls of ``simulate``'s progress callback."""

Spans = tuple[tuple[int, int], ...]
"""CPU numbers as sorted, disjoint, non-adjacent inclusive ranges ``((lo, hi), ...)``."""


def take(free: list[tuple[int, int]], k: int) -> tuple[Spans, list[tuple[int, int]]]:
    """Return (the ``k`` lowest-numbered CPUs of ``free``, the rest), both as ranges.

    Work is proportional to the number of ranges, never to the CPU count.
    """
    taken: list[tuple[int, int]] = []
    i = 0
    while k > 0:
        lo, hi = free[i]
        size = hi - lo + 1
        if size > k:
            taken.append((lo, lo + k - 1))
            return tuple(taken), [(lo + k, hi), *free[i + 1 :]]
        taken.append((lo, hi))
        k -= size
        i += 1
    return tuple(taken), free[i:]


def give(free: list[tuple[int, int]], back: Spans) -> list[tuple[int, int]]:
    """Return ``free`` with the ranges ``back`` added, merged into disjoint ranges."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted([*free, *back]):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def apply_estimates(workload: Workload, estimates: str) -> Workload:
    """Return ``workload`` with e_j = w_j for every job when ``estimates`` is ``actual``."""
    if estimates not in ESTIMATES:
        raise DataError("estimates", f"must be one of {', '.join(ESTIMATES)}")
    return workload if estimates == "requested" else perfect_estimates(workload)


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
    The replay's ``scheduler_seconds`` is the CPU time spent in the policy's
    ``submit`` and ``schedule`` calls (Klusáček & Rudová 2008, "average
    algorithm runtime"); ``complete`` callbacks only record and are not timed.
    """
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise DataError("policy", f"must be one of {', '.join(POLICIES)}")
        policy = POLICIES[policy]
    workload = apply_estimates(workload, estimates)
    planned, actual = durations(workload)
    cluster = Cluster(workload, planned, actual)
    tables = cached_tables(planned)
    pol = policy(cluster, log=log, **options)
    jobs = workload.jobs
    n = len(jobs)
    submit = [j.submit for j in jobs]
    offsets = workload.cpu_offsets()
    free_cpus = [[(o, o + m.cpus - 1)] for o, m in zip(offsets, workload.machines, strict=True)]
    alloc: list[Spans] = [() for _ in range(n)]
    ends: list[tuple[int, int]] = []  # heap of (actual end, job)
    running, finish = cluster.running, cluster.finish
    clock = time.process_time
    done = 0

    def complete(job: int) -> None:
        nonlocal done
        m = cluster.machine[job]
        cluster.free[m] += cluster.cpus[job]
        cluster.idle += cluster.cpus[job]
        lst = running[m]
        del lst[bisect_left(lst, (cluster.planned_end[job], job))]
        free_cpus[m] = give(free_cpus[m], alloc[job])
        finish[job] = cluster.now
        for table in tables:
            table.forget(job)
        done += 1
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done)
        pol.complete(job)

    def on_start(job: int, m: int, end: int) -> None:
        if cluster.now < submit[job]:
            raise InvariantError(f"job {jobs[job].id} starts at {cluster.now} before its submit")
        alloc[job], free_cpus[m] = take(free_cpus[m], cluster.cpus[job])
        if end == cluster.now:
            complete(job)
        else:
            heapq.heappush(ends, (end, job))

    cluster._on_start = on_start
    nxt = instants = 0
    never = float("inf")
    spent = 0.0
    while done < n:
        wake = pol.wakeup()
        now = min(ends[0][0] if ends else never, submit[nxt] if nxt < n else never,
                  never if wake is None else wake)  # fmt: skip
        if now == never:
            waiting = [jobs[j].id for j in range(n) if cluster.start_time[j] < 0][:3]
            raise InvariantError(f"policy {pol.name} left jobs waiting for ever: {waiting}")
        if now < cluster.now:
            raise InvariantError(f"time went back from {cluster.now} to {now}")
        cluster.now = now
        instants += 1
        while ends and ends[0][0] == now:
            complete(heapq.heappop(ends)[1])
        t0 = clock()
        while nxt < n and submit[nxt] == now:
            nxt += 1
            cluster.submitted = nxt
            pol.submit(nxt - 1)
        pol.schedule()
        spent += clock() - t0
    return Replay(
        workload=workload, policy=pol.name, start=list(cluster.start_time),
        machine=list(cluster.machine), finish=list(finish), alloc=alloc,
        scheduler_seconds=spent, instants=instants,
    )  # fmt: skip
