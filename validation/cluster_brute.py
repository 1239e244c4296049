"""Brute-force optimum of a tiny cluster snapshot: fewest delayed jobs, then makespan.

The reference for :mod:`models.cluster` (Klusáček & Rudová 2008's criteria in
lexicographic order). Both criteria are regular (never worse when a job ends
earlier), so some active schedule is optimal, and every active schedule is
produced by the serial schedule-generation scheme from some job order and
machine assignment: jobs in that order, each at the earliest instant ≥ its
release at which its CPUs are free on its machine for its whole run, given
the jobs placed before it. This module enumerates every assignment and,
per machine, every order of its jobs (:func:`brute_schedule`; it refuses
more than ``MAX_JOBS`` jobs). It imports no planner or models code: durations are
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
    if not workload.jobs:
        return (0, 0)
    return brute_schedule(workload)[0]


def brute_schedule(workload: Workload) -> tuple[tuple[int, int], list[int]]:
    """Return the optimal (delayed jobs, makespan) and the job ends of one optimal schedule.

    Machines share nothing, so a job order matters only among the jobs of one machine: each
    (machine, job set) is enumerated once, in every order, and its Pareto front of (delayed
    jobs, last end) kept; an assignment combines one point of each machine's front (the
    delayed jobs add up, the makespan is the largest end).
    """
    jobs, machines = workload.jobs, workload.machines
    if len(jobs) > MAX_JOBS:
        raise ValueError(f"brute force refuses more than {MAX_JOBS} jobs")
    first = min(j.submit for j in jobs)
    p = [[math.ceil(round(j.work / m.speed, 9)) for j in jobs] for m in machines]
    memo: dict[tuple[int, tuple[int, ...]], list[tuple[int, int, dict[int, int]]]] = {}

    def front(m: int, subset: tuple[int, ...]) -> list[tuple[int, int, dict[int, int]]]:
        if (m, subset) not in memo:
            opts: dict[tuple[int, int], dict[int, int]] = {}
            for order in permutations(subset):
                busy: list[tuple[int, int, int]] = []
                ends: dict[int, int] = {}
                for k in order:
                    hold = max(p[m][k], 1)
                    t = _earliest(busy, machines[m].cpus, jobs[k].cpus, hold, jobs[k].submit)
                    busy.append((t, t + hold, jobs[k].cpus))
                    ends[k] = t + p[m][k]
                late = sum(jobs[k].deadline is not None and ends[k] > jobs[k].deadline
                           for k in order)  # fmt: skip
                opts.setdefault((late, max(ends.values(), default=first)), ends)
            memo[(m, subset)] = [(u, c, e) for (u, c), e in opts.items()
                                 if not any(u2 <= u and c2 <= c and (u2, c2) != (u, c)
                                            for u2, c2 in opts)]  # fmt: skip
        return memo[(m, subset)]

    best: tuple[int, int] | None = None
    ends_best: dict[int, int] = {}
    for assign in product(range(len(machines)), repeat=len(jobs)):
        if any(machines[m].cpus < jobs[k].cpus for k, m in enumerate(assign)):
            continue
        fronts = [front(m, tuple(k for k in range(len(jobs)) if assign[k] == m))
                  for m in range(len(machines))]  # fmt: skip
        for pick in product(*fronts):
            key = (sum(u for u, _, _ in pick), max(c for _, c, _ in pick) - first)
            if best is None or key < best:
                best = key
                ends_best = {k: e for _, _, ends in pick for k, e in ends.items()}
    if best is None:
        raise ValueError("a job is wider than every machine")
    return best, [ends_best[k] for k in range(len(jobs))]
