"""Conservative backfilling (Mu'alem & Feitelson 2001): a reservation for every job.

Each job gets, when submitted, the earliest start that running jobs (to their
planned ends) and all earlier reservations allow, on the machine with the
earliest such start (ties to the first). After a completion earlier than
planned, the queue is compressed in queue order: each reservation is taken out
and put back at the earliest start >= now, so it never moves later. A job
starts when its reservation time is now; no job starts later than its first
reservation.
"""

from __future__ import annotations

import heapq

from planner.cluster.cluster import Cluster, InvariantError
from planner.cluster.policies.base import Policy
from planner.cluster.profile import Profile
from planner.cluster.reservations import ReservationLog


class Conservative(Policy):
    """Conservative backfilling with compression after early completions.

    A job of planned duration 0 holds its CPUs for one second in the profile
    (profiles are step functions over whole seconds) and releases them when it
    starts.
    """

    name = "conservative"
    summary = "conservative backfilling: every job reserved at submission, compressed, never later"
    needs_running = False

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None) -> None:
        super().__init__(cluster, log=log)
        self.profiles = [Profile(c) for c in cluster.capacity]
        self.waiting: dict[int, tuple[int, int]] = {}  # job -> (start, machine), queue order
        self.due: list[tuple[int, int]] = []  # heap of (start, job), stale entries skipped
        self.held: dict[int, tuple[int, int, int]] = {}  # started job -> (machine, start, end)
        self.dirty = False

    def _hold(self, m: int, job: int) -> int:
        return max(self.cluster.planned[m][job], 1)

    def _place(self, job: int) -> tuple[int, int]:
        """Return the earliest (start, machine) for ``job`` in the current profiles."""
        cluster = self.cluster
        need, now, planned = cluster.cpus[job], cluster.now, cluster.planned
        best = (-1, -1)
        for m, prof in enumerate(self.profiles):
            if cluster.capacity[m] < need:
                continue
            t = prof.earliest(need, max(planned[m][job], 1), now)
            if best[0] < 0 or t < best[0]:
                best = (t, m)
        return best

    def _reserve(self, job: int) -> None:
        t, m = self._place(job)
        self.profiles[m].add(t, t + self._hold(m, job), -self.cluster.cpus[job])
        self.waiting[job] = (t, m)
        heapq.heappush(self.due, (t, job))
        if self.log is not None:
            cluster = self.cluster
            self.log.add(cluster.now, cluster.workload.columns.id[job], "conservative",
                         cluster.workload.machines[m].id, t)  # fmt: skip

    def _compress(self) -> None:
        """Take each waiting job out and put it back at its earliest start, in queue order.

        On its own machine the job's earliest start is read with its reservation
        still in place (:meth:`Profile.earliest_before`: from its start on, its
        CPUs count as free), so a job that does not move costs no change of the
        profile.
        """
        cluster = self.cluster
        now, cpus, planned, capacity = cluster.now, cluster.cpus, cluster.planned, cluster.capacity
        profiles, waiting = self.profiles, self.waiting
        for prof in profiles:
            prof.trim(now)
        for job, (t, m) in waiting.items():  # only the value of ``job`` changes
            need = cpus[job]
            best_t = best_m = -1
            for m2, prof in enumerate(profiles):
                if capacity[m2] < need:
                    continue
                hold = max(planned[m2][job], 1)
                t2 = (prof.earliest_before(need, hold, now, t) if m2 == m else
                      prof.earliest(need, hold, now))  # fmt: skip
                if best_t < 0 or t2 < best_t:
                    best_t, best_m = t2, m2
            if best_t == t and best_m == m:
                continue
            profiles[m].add(t, t + max(planned[m][job], 1), need)
            profiles[best_m].add(best_t, best_t + max(planned[best_m][job], 1), -need)
            waiting[job] = (best_t, best_m)
            heapq.heappush(self.due, (best_t, job))
            if self.log is not None:
                self.log.add(now, cluster.workload.columns.id[job], "conservative",
                             cluster.workload.machines[best_m].id, best_t)  # fmt: skip
        self.dirty = False

    def submit(self, job: int) -> None:
        """Reserve the earliest start for ``job`` (after compressing if a job ended early)."""
        if self.dirty:
            self._compress()
        self._reserve(job)

    def complete(self, job: int) -> None:
        """Release the rest of an early-ending job's planned time; compress before the next use."""
        m, _, end = self.held.pop(job)
        now = self.cluster.now
        if now < end:
            self.profiles[m].add(now, end, self.cluster.cpus[job])
            self.dirty = True

    def wakeup(self) -> int | None:
        """Return the earliest reservation start."""
        due = self.due
        while due and self.waiting.get(due[0][1], (-1,))[0] != due[0][0]:
            heapq.heappop(due)
        return due[0][0] if due else None

    def schedule(self) -> None:
        """Start every job whose reservation is now, in queue order."""
        cluster = self.cluster
        now = cluster.now
        while True:
            if self.dirty:
                self._compress()
            starting = set()
            while (t := self.wakeup()) is not None and t <= now:
                if t < now:
                    raise InvariantError(f"a reservation at {t} was missed (now {now})")
                starting.add(heapq.heappop(self.due)[1])
            for job in sorted(starting):
                m = self.waiting.pop(job)[1]
                self.held[job] = (m, now, now + self._hold(m, job))
                cluster.start(job, m)
            if not self.dirty:
                return
