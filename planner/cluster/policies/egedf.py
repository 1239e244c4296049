"""Earliest Gap—Earlier Deadline First (Klusáček & Rudová 2008, Algorithms 1 and 2).

A schedule-based policy: every submitted job is put into the schedule
(:mod:`planner.cluster.schedule`) at once, and jobs start when their planned
start comes. For a new job each suitable machine is tried in machine order:
if the machine's schedule has a gap that holds the job, the job goes into its
earliest gap (EG); otherwise, as long as no machine so far had a gap, it is
inserted before the first job with a later deadline, shifting that job and
the rest of the list (EDF; a job without a deadline goes last). Each such
candidate is compared with the best so far by the AcceptanceCriterion
(:func:`planner.cluster.schedule.acceptance`): relative makespan gain plus
relative gain in non-delayed jobs must be > 0; the first candidate is always
taken. Once a gap was found, EDF is not tried again (Algorithm 1 line 8).

The non-delayed count N is the paper's objective U = Σ_j U_j read over all
jobs: the waiting jobs planned to meet their deadline plus the started ones
(running, planned to; finished, did), as Alea's ``ResourceInfo.update`` counts
``resource_score``. ``all_jobs=False`` counts the waiting jobs only.
"""

from __future__ import annotations

from planner.cluster.cluster import Cluster, InvariantError
from planner.cluster.policies.base import Policy
from planner.cluster.policies.options import flag
from planner.cluster.reservations import ReservationLog
from planner.cluster.schedule import NO_DEADLINE, MachineSchedule, acceptance, nondelayed


class EgEdf(Policy):
    """EG-EDF: incremental schedule construction, jobs start at their planned start."""

    name = "egedf"
    summary = "EG-EDF (schedule-based): new job into the earliest gap, else EDF insertion"

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None,
                 all_jobs: bool = True) -> None:  # fmt: skip
        super().__init__(cluster, log=log)
        self.all_jobs = flag(self.name, "all_jobs", all_jobs)
        self.settled = 0
        """Started jobs (running: planned to; finished: did) meeting their deadline (all_jobs)."""
        self.started_late: dict[int, bool] = {}
        jobs = cluster.workload.jobs
        self.deadline = [NO_DEADLINE if j.deadline is None else j.deadline for j in jobs]
        self.schedules = [MachineSchedule(cluster, m, self.deadline)
                          for m in range(len(cluster.capacity))]  # fmt: skip
        self.dirty: set[int] = set()
        self.started_hold: dict[int, int] = {}  # running job -> end of its hold in the profile

    # -- events ---------------------------------------------------------------------------

    def submit(self, job: int) -> None:
        """Add ``job`` to the schedule by Algorithm 1."""
        self._flush()
        self.add(job)

    def complete(self, job: int) -> None:
        """Free the rest of the job's planned time; its machine is re-planned before next use."""
        m = self.cluster.machine[job]
        s = self.schedules[m]
        hold_end = self.started_hold.pop(job)
        now = self.cluster.now
        if self.all_jobs and self.started_late.pop(job) != (now > self.deadline[job]):
            self.settled += 1 if now <= self.deadline[job] else -1
        if now < hold_end:
            s.profile.add(now, hold_end, self.cluster.cpus[job])
        ends = [self.started_hold[j] for _, j in self.cluster.running[m] if j in self.started_hold]
        s.running_end = max(ends, default=0)
        self.dirty.add(m)

    def schedule(self) -> None:
        """Start every job whose planned start is now (re-planning after early ends)."""
        self._flush()
        self.optimise()
        cluster, now = self.cluster, self.cluster.now
        while True:
            for s in self.schedules:
                if not s.starts or s.starts[0] > now:
                    continue
                while s.starts and s.starts[0] <= now:
                    if s.starts[0] < now:
                        raise InvariantError(f"a planned start at {s.starts[0]} was missed ({now})")
                    job = s.jobs.pop(0)
                    s.starts.pop(0)
                    hold_end = now + s.hold(job)
                    self.started_hold[job] = hold_end
                    if self.all_jobs:
                        late = now + cluster.planned[s.m][job] > self.deadline[job]
                        self.started_late[job] = late
                        self.settled += not late
                    s.running_end = max(s.running_end, hold_end)
                    cluster.start(job, s.m)
                s.refresh()
                s.profile.trim(now)
            if not self.dirty:
                return
            self._flush()

    def wakeup(self) -> int | None:
        """Return the earliest planned start of any machine."""
        firsts = [s.starts[0] for s in self.schedules if s.starts]
        return min(firsts) if firsts else None

    def optimise(self) -> None:
        """Improve the schedule before jobs start (EG-EDF alone: nothing)."""

    def _flush(self) -> None:
        for m in sorted(self.dirty):
            self.schedules[m].replan()
        self.dirty.clear()

    # -- Algorithm 1 ----------------------------------------------------------------------

    def add(self, job: int) -> None:
        """Put ``job`` into the schedule (Algorithm 1, AcceptanceCriterion of Algorithm 2)."""
        scheds = self.schedules
        ends = sorted(((s.end, s.m) for s in scheds), reverse=True)[:2]
        total = nondelayed(scheds) + self.settled
        planned = self.cluster.planned
        best: tuple[int, int] | None = None
        choice: tuple[int, int | None, MachineSchedule | None] | None = None
        gap_found = False
        for s in scheds:
            if not s.suitable(job):
                continue
            other = ends[0][0] if ends[0][1] != s.m else (ends[1][0] if len(ends) > 1 else 0)
            t = s.gap(job)
            if t is not None:
                gap_found = True
                late = t + planned[s.m][job] > self.deadline[job]
                cand, end, on_time = None, s.end, len(s.jobs) + 1 - s.delayed - late
            elif not gap_found:
                k = s.edf_position(job)
                if k == len(s.jobs):  # appended: nothing shifts, no copy to re-plan
                    t, cand = s.append_start(job), None
                    late = t + planned[s.m][job] > self.deadline[job]
                    end = max(s.end, t + s.hold(job))
                    on_time = len(s.jobs) + 1 - s.delayed - late
                else:
                    if best is not None and not acceptance(best, (max(other, s.end), total + 1)):
                        continue  # bound: shifted jobs only end later, the new one adds <= 1
                    cand = s.copy()
                    cand.insert(job, k)
                    end, on_time = cand.end, len(cand.jobs) - cand.delayed
            else:
                continue
            score = (max(other, end), total - (len(s.jobs) - s.delayed) + on_time)
            if acceptance(best, score):
                best, choice = score, (s.m, t, cand)
        if choice is None:
            raise InvariantError(f"job {self.cluster.workload.jobs[job].id} fits no machine")
        m, t, cand = choice
        if cand is None:
            scheds[m].place(job, t)  # type: ignore[arg-type]  # a gap, or the end of the list
        else:
            scheds[m] = cand
