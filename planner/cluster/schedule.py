"""The schedule of the schedule-based policies (Klusáček & Rudová 2008): planned jobs per machine.

Klusáček & Rudová 2008, "Applied Approaches": the schedule is an array of
machine schedules; a machine schedule is a list of the waiting jobs ordered by
planned start, and a **gap** is idle CPU time between them. Here a machine
schedule keeps the list (``jobs``, ``starts``) and a free-CPU profile of the
machine over time (running jobs to their planned ends plus every planned
job), from which gaps are read off: job j fits a gap on machine i when R_j CPUs
are free on [t, t + p_ij) for some t ≥ now that ends no later than the
machine's planned completion ``end`` (the job fits *inside* the schedule, so
the makespan does not change; the paper's footnote 1).

Planned starts follow the estimates. A job occupies ``max(p, 1)`` seconds in
the profile (a zero-length job still needs its CPUs free at its start). When a
job ends earlier than planned, its machine's list is re-planned in list order
(each job at the earliest instant ≥ now and ≥ its predecessor's start that the
profile allows): jobs shift left, never later, and keep their order. Jobs never
end later than planned (a job is killed at its estimate).
"""

from __future__ import annotations

import math

from planner.cluster.cluster import Cluster
from planner.cluster.profile import Profile

NO_DEADLINE = math.inf
EPSILON = 1e-13
"""Smallest denominator of the AcceptanceCriterion's two ratios (Alea's zero-division guard)."""


class MachineSchedule:
    """The planned (waiting) jobs of one machine, in start order, with its free-CPU profile.

    Attributes
    ----------
    jobs, starts
        The waiting jobs of this machine in list order and their planned starts
        (non-decreasing).
    profile
        Free CPUs over time: capacity minus running jobs (to planned ends) minus planned jobs.
    end
        The planned completion of the machine (last planned end of a running or
        waiting job; 0 when it never had a job).
    delayed
        Waiting jobs planned to finish after their deadline.
    """

    __slots__ = ("cluster", "deadline", "delayed", "end", "jobs", "m", "profile", "running_end",
                 "starts")  # fmt: skip

    def __init__(self, cluster: Cluster, m: int, deadline: list[float]) -> None:
        self.cluster = cluster
        self.m = m
        self.deadline = deadline
        self.jobs: list[int] = []
        self.starts: list[int] = []
        self.profile = Profile(cluster.capacity[m])
        self.running_end = 0
        self.end = 0
        self.delayed = 0

    def hold(self, job: int) -> int:
        """Return the seconds ``job`` occupies in the profile: max(planned duration, 1)."""
        return max(self.cluster.planned[self.m][job], 1)

    def copy(self) -> MachineSchedule:
        """Return an independent copy (lists and profile copied)."""
        new = MachineSchedule.__new__(MachineSchedule)
        new.cluster, new.m, new.deadline = self.cluster, self.m, self.deadline
        new.jobs, new.starts = list(self.jobs), list(self.starts)
        new.profile = Profile.__new__(Profile)
        new.profile.times, new.profile.free = list(self.profile.times), list(self.profile.free)
        new.running_end, new.end, new.delayed = self.running_end, self.end, self.delayed
        return new

    def suitable(self, job: int) -> bool:
        """Return True when the machine has enough CPUs for ``job`` at all."""
        return self.cluster.capacity[self.m] >= self.cluster.cpus[job]

    def gap(self, job: int) -> int | None:
        """Return the start of the earliest gap that holds ``job`` entirely, or None."""
        if not self.suitable(job):
            return None
        d, now = self.hold(job), self.cluster.now
        if now + d > self.end:
            return None  # no room before the planned completion
        t = self.profile.earliest(self.cluster.cpus[job], d, now)
        return t if t + d <= self.end else None

    def refresh(self) -> None:
        """Recompute ``end`` and ``delayed`` from the list (after any change to it)."""
        planned, deadline = self.cluster.planned[self.m], self.deadline
        end, late = self.running_end, 0
        for job, t in zip(self.jobs, self.starts, strict=True):
            end = max(end, t + max(planned[job], 1))
            late += t + planned[job] > deadline[job]
        self.end, self.delayed = end, late

    def place(self, job: int, t: int) -> None:
        """Put ``job`` at start ``t`` (a gap: no other job moves)."""
        k = len(self.starts)
        while k > 0 and self.starts[k - 1] > t:
            k -= 1
        self.jobs.insert(k, job)
        self.starts.insert(k, t)
        self.profile.add(t, t + self.hold(job), -self.cluster.cpus[job])
        self.refresh()

    def insert(self, job: int, k: int) -> None:
        """Insert ``job`` at list position ``k``; jobs from k on are re-planned (shift right)."""
        self.jobs.insert(k, job)
        self.starts.insert(k, -1)
        self.replan(k, fresh=1)

    def remove(self, k: int) -> int:
        """Take out the job at position ``k``; the jobs after it are re-planned (shift left)."""
        job, t = self.jobs.pop(k), self.starts.pop(k)
        self.profile.add(t, t + self.hold(job), self.cluster.cpus[job])
        self.replan(k)
        return job

    def replan(self, k: int = 0, *, fresh: int = 0) -> None:
        """Re-plan positions k.. in list order at the earliest start ≥ now and ≥ the predecessor's.

        ``fresh`` leading jobs from k on are not yet in the profile.
        """
        cpus, prof, now = self.cluster.cpus, self.profile, self.cluster.now
        jobs, starts = self.jobs, self.starts
        for i in range(k + fresh, len(jobs)):
            prof.add(starts[i], starts[i] + self.hold(jobs[i]), cpus[jobs[i]])
        prev = max(now, starts[k - 1]) if k > 0 else now
        for i in range(k, len(jobs)):
            job = jobs[i]
            d = self.hold(job)
            t = prof.earliest(cpus[job], d, prev)
            prof.add(t, t + d, -cpus[job])
            starts[i] = prev = t
        self.refresh()

    def append_start(self, job: int) -> int:
        """Return the start ``job`` gets when appended to the list (as ``insert`` at the end)."""
        prev = max(self.cluster.now, self.starts[-1]) if self.starts else self.cluster.now
        return self.profile.earliest(self.cluster.cpus[job], self.hold(job), prev)

    def edf_position(self, job: int) -> int:
        """Return the index of the first job with a later deadline (EDF, Algorithm 1 line 10)."""
        d = self.deadline[job]
        for k, other in enumerate(self.jobs):
            if self.deadline[other] > d:
                return k
        return len(self.jobs)

    def last_non_tabu(self, tabu: set[int] | dict[int, None]) -> int:
        """Return the list position of the last job not in ``tabu``, or -1 (Algorithm 3 line 8)."""
        for k in range(len(self.jobs) - 1, -1, -1):
            if self.jobs[k] not in tabu:
                return k
        return -1


def nondelayed(schedules: list[MachineSchedule]) -> int:
    """Return the number of waiting jobs planned to meet their deadline (or having none)."""
    return sum(len(s.jobs) - s.delayed for s in schedules)


def makespan(schedules: list[MachineSchedule]) -> int:
    """Return the schedule's planned completion: the latest ``end`` of any machine."""
    return max((s.end for s in schedules), default=0)


def acceptance(best: tuple[int, int] | None, new: tuple[int, int]) -> bool:
    """AcceptanceCriterion (Klusáček & Rudová 2008, Algorithm 2) on (makespan, nondelayed) pairs.

    weight = (C_best − C_new) / C_best + (N_new − N_best) / N_best, accepted when
    weight > 0. The zero divisions the paper leaves out are resolved as the
    authors' simulator Alea resolves those of its later acceptance rules: a
    denominator is at least :data:`EPSILON` (``Math.max(0.0000000000001, previous)``
    in Alea's ``TabuSearch.java``), so a change from zero dominates the other
    term. ``best`` None (no schedule yet) is always accepted (Algorithm 2 line 1).
    """
    if best is None:
        return True
    (c_best, n_best), (c_new, n_new) = best, new
    return ((c_best - c_new) / max(c_best, EPSILON) + (n_new - n_best) / max(n_best, EPSILON)
            > 0.0)  # fmt: skip
