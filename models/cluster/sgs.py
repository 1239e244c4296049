"""Serial schedule generation for snapshots: list scheduling with earliest-finish machine choice.

An integer-solution heuristic for the ``cg`` solver (beyond Klusáček &
Rudová 2008, whose policies are online): jobs in a priority order, each at
the machine and earliest start ≥ r_j that ends it first given the jobs
placed before (the serial schedule-generation scheme; any start fits the
profile, not only the latest). :func:`improve` repeats it, each time moving
the job that ends last (or the first late job) to the front of the order, so
the critical job gets its fastest machine first, from four start orders in
turn; it stops at the proven bounds or at the time limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from instances.workload import Workload
from models.cluster.incumbents import Schedule, evaluate
from models.cluster.snapshot import snapshot_durations
from planner.deadline import Deadline


def _earliest(busy: list[tuple[int, int, int]], capacity: int, need: int, hold: int,
              release: int) -> int:  # fmt: skip
    """Return the earliest t ≥ release with ``need`` CPUs free on [t, t + hold)."""
    for t in sorted({release} | {e for _, e, _ in busy if e > release}):
        points = {t} | {s for s, _, _ in busy if t < s < t + hold}
        if all(sum(c for s, e, c in busy if s <= u < e) + need <= capacity for u in points):
            return t
    raise AssertionError("unreachable: after the last end every CPU is free")


def generate(workload: Workload, order: Sequence[int], source: str = "sgs") -> Schedule:
    """Return the schedule of the serial scheme with jobs taken in ``order``."""
    jobs, machines = workload.jobs, workload.machines
    p = snapshot_durations(workload)
    busy: list[list[tuple[int, int, int]]] = [[] for _ in machines]
    placed: list[tuple[int, int]] = [(0, 0)] * len(jobs)
    for k in order:
        job = jobs[k]
        best: tuple[int, int, int, int] | None = None
        for m, mach in enumerate(machines):
            if mach.cpus < job.cpus:
                continue
            hold = max(p[m][k], 1)
            t = _earliest(busy[m], mach.cpus, job.cpus, hold, job.submit)
            late = int(job.deadline is not None and t + p[m][k] > job.deadline)
            key = (late, t + p[m][k], m, t)
            best = key if best is None or key < best else best
        assert best is not None, "every job fits some machine"
        _, _, m, t = best
        busy[m].append((t, t + max(p[m][k], 1), job.cpus))
        placed[k] = (m, t)
    out = evaluate(workload, placed, source)
    assert out is not None, "the serial scheme builds valid schedules"
    return out


def orders(workload: Workload) -> list[list[int]]:
    """Return the starting priority orders: release, earliest deadline, longest tail first,
    largest area (CPUs × fastest duration) first."""
    jobs, n = workload.jobs, len(workload.jobs)
    p = snapshot_durations(workload)
    fastest = [min(p[m][k] for m, mc in enumerate(workload.machines) if mc.cpus >= j.cpus)
               for k, j in enumerate(jobs)]  # fmt: skip
    far = 2**62
    return [sorted(range(n), key=lambda k: (jobs[k].submit, k)),
            sorted(range(n), key=lambda k: (jobs[k].deadline or far, jobs[k].submit, k)),
            sorted(range(n), key=lambda k: (-(jobs[k].submit + fastest[k]), k)),
            sorted(range(n), key=lambda k: (-fastest[k] * jobs[k].cpus, k))]  # fmt: skip


def improve(workload: Workload, target: tuple[int, int], time_limit: float | Deadline | None,
            start: Schedule | None = None) -> Schedule:  # fmt: skip
    """Return the best schedule found by moving critical jobs forward, from every start order.

    The start orders advance in turn, one step each, until a schedule meets
    ``target`` = the proven bounds (U_lb, C_lb), every order repeats itself,
    or ``time_limit`` (seconds or a :class:`planner.deadline.Deadline`; None: none)
    passes — at least one step of each order is taken.
    """
    stop = Deadline.of(time_limit)
    best = start
    chains: list[tuple[list[int], set[tuple[int, ...]]]] = [(o, set()) for o in orders(workload)]
    first = True
    while chains and (first or not stop.passed()):
        first = False
        alive = []
        for order, seen in chains:
            seen.add(tuple(order))
            s = generate(workload, order)
            if best is None or s.key < best.key:
                best = s
            if best.key <= target:
                return best
            lead = _critical(workload, s, s.delayed > target[0])
            nxt = [lead, *(k for k in order if k != lead)]
            if tuple(nxt) not in seen:
                alive.append((nxt, seen))
        chains = alive
    assert best is not None
    return best


def _critical(workload: Workload, s: Schedule, late_first: bool) -> int:
    """Return the first late job of ``s`` (when ``late_first``), else the job that ends last."""
    p = snapshot_durations(workload)
    ends = [t + p[m][k] for k, (m, t) in enumerate(s.placement)]
    for k, j in enumerate(workload.jobs):
        if late_first and j.deadline is not None and ends[k] > j.deadline:
            return k
    return max(range(len(ends)), key=lambda k: (ends[k], -k))
