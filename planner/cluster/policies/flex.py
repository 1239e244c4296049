"""Flexible backfilling (Techiouba et al. 2008, as compared in Klusáček & Rudová 2008).

EASY backfilling (:mod:`planner.cluster.policies.easy`) on a queue ordered by
priority instead of arrival. At every scheduling pass that follows a
submission or a completion the waiting jobs' priorities are recomputed and
the queue re-sorted (highest first, ties in queue order); then EASY runs on
it. The priority of waiting job j at time t is

    P_j = w_deadline · D_j + w_wait · W_j + w_runtime · S_j

with each term scaled to [0, 1] over the waiting queue:

* D_j (deadline proximity): with slack_j = d_j − t − e_j / s_max (time left
  beyond a run on the fastest machine), D_j = 1 for the least slack and 0 for
  the most, linearly between; 0 for a job without deadline;
* W_j (waiting time): (t − r_j) / the longest wait in the queue;
* S_j (shortness): 1 for the shortest estimate e_j, 0 for the longest.

The weights are the ``weights`` option (default 1, 1, 1): three finite
numbers in [0, 10^6] (:data:`instances.limits.OPTION_WEIGHT_MAX`).
"""

from __future__ import annotations

from collections.abc import Sequence

from instances.limits import OPTION_WEIGHT_MAX
from planner.cluster.cluster import Cluster
from planner.cluster.policies.easy import Easy
from planner.cluster.policies.options import reals
from planner.cluster.reservations import ReservationLog

WEIGHTS = (1.0, 1.0, 1.0)
"""Default (w_deadline, w_wait, w_runtime)."""


def _scale(values: list[float]) -> list[float]:
    """Return (v − min) / (max − min) per value (all 0 when they are equal)."""
    lo, hi = min(values), max(values)
    return [0.0] * len(values) if hi == lo else [(v - lo) / (hi - lo) for v in values]


class Flex(Easy):
    """EASY backfilling on a priority queue recomputed at every submission and completion."""

    name = "flex"
    summary = "Flexible backfilling: EASY on a queue sorted by deadline, wait and run time"
    incremental = False

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None,
                 weights: Sequence[float] = WEIGHTS) -> None:  # fmt: skip
        super().__init__(cluster, log=log)
        self.weights = reals(self.name, "weights", weights, 3, 0.0, OPTION_WEIGHT_MAX)
        jobs = cluster.workload.jobs
        fastest = max(m.speed for m in cluster.workload.machines)
        self.run = [j.requested / fastest for j in jobs]
        self.deadline = [j.deadline for j in jobs]
        self.submit_time = [j.submit for j in jobs]
        self.dirty = False

    def submit(self, job: int) -> None:
        """Append ``job``; the queue is re-sorted before the next pass."""
        super().submit(job)
        self.dirty = True

    def complete(self, job: int) -> None:
        """Mark the queue for re-sorting."""
        self.dirty = True

    def priorities(self, waiting: list[int]) -> list[float]:
        """Return P_j for each job of ``waiting`` at the current instant."""
        now = self.cluster.now
        wd, ww, wr = self.weights
        with_dl = [j for j in waiting if self.deadline[j] is not None]
        urgency = dict.fromkeys(waiting, 0.0)
        if with_dl:
            slack = [self.deadline[j] - now - self.run[j] for j in with_dl]  # type: ignore[operator]
            urgency.update(zip(with_dl, (1.0 - x for x in _scale(slack)), strict=True))
        longest = max(now - self.submit_time[j] for j in waiting)
        short = _scale([-self.run[j] for j in waiting])
        return [
            wd * urgency[j] + ww * ((now - self.submit_time[j]) / longest if longest else 0.0)
            + wr * s
            for j, s in zip(waiting, short, strict=True)
        ]  # fmt: skip

    def schedule(self) -> None:
        """Re-sort the waiting queue by priority when something happened, then run EASY."""
        if self.dirty:
            self.dirty = False
            h = self.head
            waiting = self.queue[h:]
            if len(waiting) > 1:
                prio = self.priorities(waiting)
                order = sorted(range(len(waiting)), key=lambda k: (-prio[k], waiting[k]))
                self.queue[h:] = [waiting[k] for k in order]
        super().schedule()
