"""The event loop fused with FCFS or EASY on one machine: an SWF log's usual replay.

The same replay as :func:`planner.cluster.engine.simulate` driving
:class:`~planner.cluster.policies.fcfs.Fcfs` or
:class:`~planner.cluster.policies.easy.Easy` through the policy interface (the
same events, passes, starts, reservation log and final machine state), with the
policy's pass, :meth:`Cluster.start` and the engine's event handling in one
function and its state in local variables: per instant, no call and no attribute
look-up. A job starts only from the waiting queue and only when its CPUs are free
now, the two rules :meth:`Cluster.start` checks. Subclasses of the two policies
(Flexible backfilling reorders EASY's queue) keep the general loop.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable
from heapq import heappop, heappush

from planner.cluster.cluster import Cluster, InvariantError
from planner.cluster.durations import Scaled
from planner.cluster.policies.base import Policy
from planner.cluster.policies.easy import Easy
from planner.cluster.policies.fcfs import Fcfs
from planner.cluster.reservations import ReservationLog

FUSED = (Fcfs, Easy)
"""The policies (exact classes) that :func:`replay` runs on one machine."""


def fused(cluster: Cluster, pol: Policy) -> bool:
    """Return True when :func:`replay` runs ``pol`` on ``cluster`` (one machine, FCFS or EASY)."""
    return len(cluster.capacity) == 1 and type(pol) in FUSED


def replay(cluster: Cluster, pol: Policy, tables: list[Scaled], every: int,
           progress: Callable[[int], None] | None) -> int:  # fmt: skip
    """Replay every job of ``cluster`` under ``pol`` (FCFS or EASY); return the event instants.

    ``tables`` are the caching duration tables (a machine of speed other than 1);
    ``progress`` is called with the finished jobs every ``every`` completions.
    """
    easy = type(pol) is Easy
    log: ReservationLog | None = pol.log
    wl = cluster.workload
    ids, submit, cpus = wl.columns.id, wl.columns.submit, cluster.cpus
    n = len(ids)
    plan, actual = cluster.planned[0], cluster._actual[0]
    start_time, machine, finish = cluster.start_time, cluster.machine, cluster.finish
    planned_end, events, ends = cluster.planned_end, cluster.events, cluster.ends
    running = cluster.running[0]
    machine_id = wl.machines[0].id
    push = events.append
    queue: list[int] = []
    h = 0  # queue[:h] have started
    last: tuple[int, int, int, int, int] | None = None  # EASY's last scan (see Easy.schedule)
    free = cluster.free[0]
    done = nxt = instants = now = 0
    report = every if progress is not None else n + 1
    later = 1 << 63
    next_submit = submit[0] if n else later
    while done < n:
        while done >= report:
            progress(report)  # type: ignore[misc]
            report += every
        t = ends[0][0] if ends else later
        if next_submit < t:
            t = next_submit
        if t == later:
            waiting = [ids[j] for j in range(n) if start_time[j] < 0][:3]
            raise InvariantError(f"policy {pol.name} left jobs waiting for ever: {waiting}")
        now = t
        instants += 1
        while ends and ends[0][0] == now:
            job = heappop(ends)[1]
            free += cpus[job]
            if easy:
                del running[bisect_left(running, (planned_end[job], job))]
            push(~job)
            finish[job] = now
            for table in tables:
                table.forget(job)
            done += 1
        while next_submit == now:
            queue.append(nxt)
            nxt += 1
            next_submit = submit[nxt] if nxt < n else later
        # the pass: the FCFS prefix, then (EASY) the head's reservation and one scan
        n_q = len(queue)
        if h >= n_q:
            continue
        while h < n_q and cpus[queue[h]] <= free:
            job = queue[h]
            h += 1
            start_time[job] = now
            machine[job] = 0
            push(job)
            run = actual[job]
            if run:
                free -= cpus[job]
                heappush(ends, (now + run, job))
                if easy:
                    planned_end[job] = end = now + plan[job]
                    insort(running, (end, job))
            else:
                push(~job)
                finish[job] = now
                done += 1
                for table in tables:
                    table.forget(job)
        if h > 256:
            del queue[:h]
            n_q -= h
            h = 0
        if not easy:
            continue
        if h >= n_q or (log is None and (h + 1 == n_q or not free)):
            last = None
            continue
        head = queue[h]
        if last is not None and last[0] == head and last[1] == free:
            _, _, t_shadow, extra, first = last
        else:
            need, avail, t_shadow = cpus[head], free, -1  # the head does not fit now
            for end, job in running:
                if t_shadow >= 0 and end > t_shadow:
                    break
                avail += cpus[job]
                if t_shadow < 0 and avail >= need:
                    t_shadow = end
            extra, first = avail - need, h + 1
        if log is not None:
            log.add(now, ids[head], "easy_head", machine_id, t_shadow)
        started, idle = [], free
        for k in range(first, n_q):
            if not free:
                break
            job = queue[k]
            need = cpus[job]
            if need > free:
                continue
            if now + plan[job] > t_shadow:
                if need > extra:
                    continue
                extra -= need
            start_time[job] = now
            machine[job] = 0
            push(job)
            run = actual[job]
            if run:
                free -= need
                heappush(ends, (now + run, job))
                planned_end[job] = end = now + plan[job]
                insort(running, (end, job))
            else:
                push(~job)
                finish[job] = now
                done += 1
                for table in tables:
                    table.forget(job)
            started.append(k)
            idle -= need
        for k in reversed(started):
            del queue[k]
        last = (head, idle, t_shadow, extra, len(queue)) if idle == free else None
    while done >= report:
        progress(report)  # type: ignore[misc]
        report += every
    cluster.now, cluster.submitted = now, nxt
    cluster.free[0] = cluster.idle = free
    return instants
