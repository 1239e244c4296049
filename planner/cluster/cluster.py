"""The machine state a policy sees and acts on during a replay (Klusáček & Rudová 2008).

:class:`Cluster` is the engine's side of the policy interface: free CPU counts
per machine, the running jobs with their *planned* ends, the jobs' planned
durations per machine, and :meth:`Cluster.start`. It never shows a policy a
job's actual run time: a job's end is learnt when it completes. Every start is
checked against the rules of the model (capacity, submitted, waiting), so a
policy cannot produce an infeasible schedule silently.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from instances.workload import Workload


class InvariantError(RuntimeError):
    """A policy broke a rule of the cluster model (a bug in the policy, never bad input)."""


class Cluster:
    """Machines, waiting and running jobs during one replay.

    Jobs are named by their index in queue order (``workload.jobs``); machines by
    their index in machine order.

    Attributes
    ----------
    workload
        The replayed workload (``estimates`` already applied).
    cpus
        R_j per job.
    capacity
        R_m per machine.
    free
        Free CPUs per machine now.
    idle
        Free CPUs on all machines now.
    planned
        ``planned[m][j]`` = ceil(e_j / s_m), the duration policies plan with.
    running
        Per machine, the running jobs as a sorted list of ``(planned_end, job)``.
    now
        The current instant.
    """

    def __init__(self, workload: Workload, planned: list[list[int]],
                 actual: list[list[int]]) -> None:  # fmt: skip
        self.workload = workload
        self.cpus = [j.cpus for j in workload.jobs]
        self.capacity = [m.cpus for m in workload.machines]
        self.free = list(self.capacity)
        self.idle = sum(self.capacity)
        self.planned = planned
        self._actual = actual
        self.running: list[list[tuple[int, int]]] = [[] for _ in workload.machines]
        self.now = 0
        self.submitted = 0
        self.start_time = [-1] * len(workload.jobs)
        self.machine = [-1] * len(workload.jobs)
        self.planned_end = [-1] * len(workload.jobs)
        self.finish = [-1] * len(workload.jobs)
        self._on_start: Callable[[int, int, int], None] = lambda job, m, end: None

    def fits_now(self, job: int) -> int:
        """Return the first machine where ``job`` fits now, or -1."""
        need = self.cpus[job]
        for m, free in enumerate(self.free):
            if free >= need:
                return m
        return -1

    def start(self, job: int, m: int) -> None:
        """Start ``job`` now on machine ``m`` (its lowest-numbered free CPUs).

        Raises
        ------
        InvariantError
            The job is not waiting (not yet submitted, or already started) or
            does not fit on ``m`` now.
        """
        now = self.now
        if job >= self.submitted or self.start_time[job] >= 0:
            raise InvariantError(f"job {self.workload.jobs[job].id} is not waiting at {now}")
        if self.free[m] < self.cpus[job]:
            raise InvariantError(
                f"job {self.workload.jobs[job].id} needs {self.cpus[job]} CPUs on machine "
                f"{self.workload.machines[m].id} at {now}, {self.free[m]} free"
            )
        self.free[m] -= self.cpus[job]
        self.idle -= self.cpus[job]
        self.start_time[job] = now
        self.machine[job] = m
        planned_end = now + self.planned[m][job]
        self.planned_end[job] = planned_end
        insort(self.running[m], (planned_end, job))
        self._on_start(job, m, now + self._actual[m][job])
