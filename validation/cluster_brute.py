"""Brute-force optimum of a tiny cluster snapshot: fewest delayed jobs, then makespan.

The reference for :mod:`models.cluster` (Klusáček & Rudová 2008's criteria in
lexicographic order). Both criteria are regular (never worse when a job ends
earlier), so some active schedule is optimal, and every active schedule is
produced by the serial schedule-generation scheme from some job order and
machine assignment: jobs in that order, each at the earliest instant ≥ its
release at which its CPUs are free on its machine for its whole run, given
the jobs placed before it. This module enumerates every order and every
assignment (``len(jobs)! · machines^len(jobs)`` schedules; it refuses more
than ``MAX_JOBS`` jobs). It imports no planner or models code: durations are
ceil(round(w / s, 9)) computed here, a job of length 0 holding its CPUs for
one second.
"""

from __future__ import annotations

import math
from itertools import permutations, product

from instances.workload import Workload

MAX_JOBS = 6


def _earliest(busy: list[tuple[int, int, int]], capacity: int, need: int, length: int,
              release: int) -> int:  # fmt: skip
    """Return the earliest t ≥ release with ``need`` CPUs free on [t, t + length)."""
    candidates = sorted({release} | {e for _, e, _ in busy if e > release})
    for t in candidates:
        if all(sum(c for s, e, c in busy if s < u + 1 and e > u) + need <= capacity
               for u in _points(busy, t, t + length)):  # fmt: skip
            return t
    raise AssertionError("unreachable: the last end always fits")


def _points(busy: list[tuple[int, int, int]], a: int, b: int) -> list[int]:
    """Return the instants in [a, b) where the CPU use can change."""
    return sorted({a} | {s for s, _, _ in busy if a < s < b})


def brute_snapshot(workload: Workload) -> tuple[int, int]:
    """Return the optimal (delayed jobs, makespan) of ``workload`` by enumeration."""
    jobs, machines = workload.jobs, workload.machines
    if len(jobs) > MAX_JOBS:
        raise ValueError(f"brute force refuses more than {MAX_JOBS} jobs")
    if not jobs:
        return (0, 0)
    first = min(j.submit for j in jobs)
    p = [[math.ceil(round(j.work / m.speed, 9)) for j in jobs] for m in machines]
    best = (math.inf, math.inf)
    for assign in product(range(len(machines)), repeat=len(jobs)):
        if any(machines[m].cpus < jobs[k].cpus for k, m in enumerate(assign)):
            continue
        for order in permutations(range(len(jobs))):
            busy: list[list[tuple[int, int, int]]] = [[] for _ in machines]
            late = cmax = 0
            for k in order:
                m, job = assign[k], jobs[k]
                hold = max(p[m][k], 1)
                t = _earliest(busy[m], machines[m].cpus, job.cpus, hold, job.submit)
                busy[m].append((t, t + hold, job.cpus))
                end = t + p[m][k]
                late += job.deadline is not None and end > job.deadline
                cmax = max(cmax, end)
            best = min(best, (late, cmax - first))
    return (int(best[0]), int(best[1]))
