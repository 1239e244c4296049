"""First come, first served (Klusáček & Rudová 2008, the queue-based baseline)."""

from __future__ import annotations

from collections import deque

from planner.cluster.cluster import Cluster
from planner.cluster.policies.base import Policy
from planner.cluster.reservations import ReservationLog


class Fcfs(Policy):
    """Start queued jobs in queue order while they fit now; stop at the first that does not.

    A job starts on the first machine (in machine order) where it fits now.
    """

    name = "fcfs"
    summary = "first come, first served: queue order, stop at the first job that does not fit"
    needs_running = False

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None) -> None:
        super().__init__(cluster, log=log)
        self.queue: deque[int] = deque()

    def submit(self, job: int) -> None:
        """Append ``job`` to the queue."""
        self.queue.append(job)

    def schedule(self) -> None:
        """Start the queue's prefix that fits now."""
        queue, cluster = self.queue, self.cluster
        if not queue:
            return
        if len(cluster.free) == 1:  # one machine (an SWF log): no machine to choose
            cpus, free, start = cluster.cpus, cluster.free, cluster.start
            while queue and cpus[queue[0]] <= free[0]:
                start(queue.popleft(), 0)
            return
        while queue:
            m = cluster.fits_now(queue[0])
            if m < 0:
                return
            cluster.start(queue.popleft(), m)
