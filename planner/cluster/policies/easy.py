"""EASY backfilling (Mu'alem & Feitelson 2001; as compared in Klusáček & Rudová 2008).

FCFS, then the first waiting job (the head) gets a reservation at its shadow
time and the rest of the queue is scanned once for jobs that can start now
without delaying it. The reservation is recomputed at every pass.
"""

from __future__ import annotations

from planner.cluster.cluster import Cluster
from planner.cluster.policies.base import Policy
from planner.cluster.reservations import ReservationLog


def shadow(cluster: Cluster, head: int) -> tuple[int, int, int]:
    """Return (shadow time, machine, extra) of ``head`` counting running jobs to planned ends.

    The shadow time is the earliest instant at which ``R_head`` CPUs are free on
    some machine (ties to the first machine); ``extra`` is the number of CPUs free
    there then beyond ``R_head``.
    """
    need = cluster.cpus[head]
    best = (-1, -1, 0)
    for m, free in enumerate(cluster.free):
        if cluster.capacity[m] < need:
            continue
        if free >= need:
            t, avail = cluster.now, free
        else:
            t, avail = -1, free
            for end, job in cluster.running[m]:
                if t >= 0 and end > t:
                    break
                avail += cluster.cpus[job]
                if t < 0 and avail >= need:
                    t = end
        if best[0] < 0 or t < best[0]:
            best = (t, m, avail - need)
    return best


class Easy(Policy):
    """EASY backfilling on the queue order.

    After the FCFS prefix, the head's shadow time S and ``extra`` are computed on
    the head's machine h; one scan of the rest of the queue in order starts a
    job on the first machine where it fits now, provided that on h it either
    ends (planned) by S or takes at most ``extra`` CPUs (then ``extra`` shrinks).
    The scan stops early when no CPU is free anywhere.
    """

    name = "easy"
    summary = "EASY backfilling: FCFS plus backfilling that never delays the head's reservation"

    incremental = True
    """Whether a pass after one without completions scans only the jobs that came since
    (False when the queue is reordered between passes, as Flexible backfilling does)."""

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None) -> None:
        super().__init__(cluster, log=log)
        self.queue: list[int] = []
        self.head = 0  # queue[:head] have started
        self.one_machine = len(cluster.capacity) == 1
        self._last: tuple[int, int, int, int, int] | None = None
        """(head, free CPUs, shadow time, extra, queue length) after the last backfilling scan."""

    def submit(self, job: int) -> None:
        """Append ``job`` to the queue."""
        self.queue.append(job)

    def schedule(self) -> None:
        """FCFS, then the head's reservation, then one backfilling scan.

        On one machine, when no job ended since the last scan (its free CPUs are as
        it left them, every job it started still running) and the head is the
        same, the shadow time and ``extra`` are those the last scan left, and the
        jobs it turned down still cannot start (no more CPUs free, a later now, no
        more ``extra``): only the jobs queued since are scanned.
        """
        queue = self.queue
        h, n = self.head, len(queue)
        if h >= n:
            return
        if not self.one_machine:
            self._pass(h, n)
            return
        # one machine (an SWF log): the same pass with no machine to choose
        cluster = self.cluster
        cpus, free, start = cluster.cpus, cluster.free, cluster.start
        while h < n and cpus[queue[h]] <= free[0]:
            start(queue[h], 0)
            h += 1
        if h > 256:
            del queue[:h]
            n -= h
            h = 0
        self.head = h
        if h >= n or (self.log is None and (h + 1 == n or not free[0])):
            self._last = None
            return
        head, last = queue[h], self._last
        if last is not None and last[0] == head and last[1] == free[0] and self.incremental:
            _, _, t_shadow, extra, first = last
        else:
            need, avail, t_shadow = cpus[head], free[0], -1  # the head does not fit now
            for end, job in cluster.running[0]:
                if t_shadow >= 0 and end > t_shadow:
                    break
                avail += cpus[job]
                if t_shadow < 0 and avail >= need:
                    t_shadow = end
            extra, first = avail - need, h + 1
        now = cluster.now
        if self.log is not None:
            self.log.add(now, cluster.workload.columns.id[head], "easy_head",
                         cluster.workload.machines[0].id, t_shadow)  # fmt: skip
        plan = cluster.planned[0]
        started, idle = [], free[0]
        for k in range(first, n):
            if not free[0]:
                break
            job = queue[k]
            need = cpus[job]
            if need > free[0]:
                continue
            if now + plan[job] > t_shadow:
                if need > extra:
                    continue
                extra -= need
            start(job, 0)
            started.append(k)
            idle -= need
        for k in reversed(started):
            del queue[k]
        # a job that ended as it started (0 s) gave its CPUs back: a new scan could differ
        self._last = (head, idle, t_shadow, extra, len(queue)) if idle == free[0] else None

    def _pass(self, h: int, n: int) -> None:
        """The pass on several machines: each job on the first machine where it fits."""
        cluster, queue = self.cluster, self.queue
        while h < n:
            m = cluster.fits_now(queue[h])
            if m < 0:
                break
            cluster.start(queue[h], m)
            h += 1
        if h > 256:
            del queue[:h]
            n -= h
            h = 0
        self.head = h
        if h >= n:
            return
        if self.log is None and (h + 1 == n or not cluster.idle):
            return
        head = queue[h]
        t_shadow, hm, extra = shadow(cluster, head)
        if self.log is not None:
            ids, machines = cluster.workload.columns.id, cluster.workload.machines
            self.log.add(cluster.now, ids[head], "easy_head", machines[hm].id, t_shadow)
        free, cpus, planned, now = cluster.free, cluster.cpus, cluster.planned, cluster.now
        machines = range(len(free))
        started = []
        for k in range(h + 1, n):
            if not cluster.idle:
                break
            job = queue[k]
            need = cpus[job]
            for m in machines:
                if free[m] < need:
                    continue
                if m == hm and now + planned[m][job] > t_shadow:
                    if need > extra:
                        continue
                    extra -= need
                cluster.start(job, m)
                started.append(k)
                break
        for k in reversed(started):
            del queue[k]
