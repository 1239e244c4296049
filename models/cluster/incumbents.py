"""Integer snapshot schedules from the cluster policies, evaluated on the snapshot's durations.

Each policy of Klusáček & Rudová 2008 (FCFS, EASY, Flexible backfilling,
EG-EDF, Tabu search; ``planner simulate --policy``) replays the snapshot and
its (machine, start) per job is re-evaluated here with the snapshot's
durations p_jm = ceil(w_j / s_m): a schedule that breaks a release or a
machine's capacity (a policy that killed a job at its estimate ran it
shorter) is dropped, never repaired.
"""

from __future__ import annotations

from dataclasses import dataclass

from instances.workload import Workload
from models.cluster.snapshot import snapshot_durations

POLICIES = ("fcfs", "easy", "flex", "egedf", "tabu")
"""The policies whose schedules seed the ``cg`` snapshot solver."""


@dataclass(frozen=True)
class Schedule:
    """A valid snapshot schedule: (machine index, start) per job, its U and its makespan."""

    source: str
    placement: tuple[tuple[int, int], ...]
    delayed: int
    makespan: int

    @property
    def key(self) -> tuple[int, int]:
        """Return (U, Cmax): the lexicographic objective."""
        return (self.delayed, self.makespan)


def evaluate(workload: Workload, placement: list[tuple[int, int]] | tuple[tuple[int, int], ...],
             source: str = "") -> Schedule | None:  # fmt: skip
    """Return the schedule with its (U, Cmax), or None when it is not a valid schedule."""
    jobs, machines = workload.jobs, workload.machines
    p = snapshot_durations(workload)
    events: dict[int, list[tuple[int, int]]] = {}
    late = 0
    ends = []
    for k, (m, t) in enumerate(placement):
        job = jobs[k]
        if not 0 <= m < len(machines) or machines[m].cpus < job.cpus or t < job.submit:
            return None
        events.setdefault(m, []).extend([(t, job.cpus), (t + max(p[m][k], 1), -job.cpus)])
        ends.append(t + p[m][k])
        late += job.deadline is not None and t + p[m][k] > job.deadline
    for m, ev in events.items():
        use = 0
        for _, delta in sorted(ev, key=lambda e: (e[0], e[1])):
            use += delta
            if use > machines[m].cpus:
                return None
    first = min(j.submit for j in jobs)
    return Schedule(source, tuple(placement), late, max(ends) - first)


def policy_schedules(workload: Workload, policies: tuple[str, ...] = POLICIES) -> list[Schedule]:
    """Return the valid schedules of ``policies`` on the snapshot, best (U, Cmax) first."""
    from planner.cluster import simulate

    out = []
    for name in policies:
        replay = simulate(workload, name)
        s = evaluate(workload, list(zip(replay.machine, replay.start, strict=True)), name)
        if s is not None:
            out.append(s)
    return sorted(out, key=lambda s: s.key)
