"""Proven lower bounds on a snapshot's lexicographic objective (delayed jobs U, then Cmax).

How the lexicographic objective is bounded: the optimum (U*, C*) has
U* ≥ U_lb, the delayed-jobs LP bound of :mod:`models.cluster.cg`; and C*,
the least makespan among schedules with U* delayed jobs, is at least the
least makespan of any schedule, which is bounded here with no deadline
considered. So both parts are bounded separately and (U_lb, C_lb) ≤ (U*, C*)
componentwise. Makespan bound: the largest end T for which a makespan probe
proves "no schedule ends every job by T", found by bisection between the
critical-job bound max_j (r_j + min_m p_jm) and the incumbent's end; the
bisection only decides which probes are run, every probe's proof stands alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from instances.workload import Workload
from models.cluster.cg import EPS, Arrays, Pool, column_generation
from models.cluster.snapshot import snapshot_durations
from planner.deadline import Deadline


@dataclass
class Bounds:
    """Proven bounds: ``delayed`` on U, ``makespan`` on Cmax; counts of the work done."""

    delayed: int
    makespan: int
    critical: int
    probes: list[tuple[int, str]] = field(default_factory=list)
    iterations: int = 0
    columns: int = 0


def arrays(workload: Workload) -> tuple[Arrays, int]:
    """Return the snapshot as :class:`Arrays` and the first release (the time origin)."""
    jobs, machines = workload.jobs, workload.machines
    first = min(j.submit for j in jobs)
    p = np.array(snapshot_durations(workload), dtype=np.int64).reshape(len(machines), len(jobs))
    far = 2**62  # past every end (the workload keeps ends below 2^62): never late
    arr = Arrays(
        release=np.array([j.submit - first for j in jobs], dtype=np.int64),
        cpus=np.array([j.cpus for j in jobs], dtype=np.int64),
        late_after=np.array([far if j.deadline is None else j.deadline - first for j in jobs],
                            dtype=np.int64),
        p=p, hold=np.maximum(p, 1),
        capacity=np.array([m.cpus for m in machines], dtype=np.int64),
        fits=np.array([[m.cpus >= j.cpus for j in jobs] for m in machines], dtype=bool))
    return arr, first


def critical_bound(arr: Arrays) -> int:
    """Return max_j (r_j + min over fitting machines of p_jm): no schedule ends earlier."""
    p = np.where(arr.fits, arr.p, np.iinfo(np.int64).max)
    return int((arr.release + p.min(axis=0)).max())


def snapshot_bounds(workload: Workload, delayed: int, makespan: int, *,
                    time_limit: float | Deadline | None,
                    columns: set[tuple[int, int, int]] = frozenset(),  # type: ignore[assignment]
                    buckets: int = 48) -> Bounds:  # fmt: skip
    """Return proven bounds on (U*, C*) given an incumbent of ``delayed``/``makespan``.

    Parameters
    ----------
    workload
        The snapshot (at least one job; every job fits some machine).
    delayed, makespan
        The incumbent's values: U is only bounded when it is above 0, and the
        makespan probes stop at the incumbent's end.
    time_limit
        Wall-clock budget for all the column generation: seconds or a
        :class:`planner.deadline.Deadline` (None: no limit).
    columns
        Seed columns (job index, machine index, start − first release), e.g.
        the incumbent's.
    buckets
        About how many time buckets per master.
    """
    stop = Deadline.of(time_limit)
    arr, _ = arrays(workload)
    pool = Pool(set(columns))
    critical = critical_bound(arr)
    out = Bounds(0, critical, critical)
    horizon = int(arr.release.max() + arr.hold.max(axis=0).sum()) + 1
    if delayed > 0:
        left = stop.left()
        share = stop if makespan <= critical or left is None else stop.within(left / 2)
        lb = column_generation(arr, pool, last_end=None, length=horizon, deadlines=True,
                               deadline=share, buckets=buckets, stop_above=delayed - 1 + EPS)
        out.delayed = max(0, math.ceil(lb - EPS)) if lb > -math.inf else 0
    lo, hi = critical, makespan - 1
    order = [hi] if hi >= lo else []
    while order and not stop.passed():
        t = order.pop()
        lb = column_generation(arr, pool, last_end=t, length=t + 1, deadlines=False,
                               deadline=stop, buckets=buckets, stop_above=EPS)  # fmt: skip
        proven = lb > EPS
        out.probes.append((t, "infeasible" if proven else "open"))
        if proven:
            out.makespan = max(out.makespan, t + 1)
            lo = t + 1
        else:
            hi = t - 1
        if lo <= hi:
            order.append((lo + hi) // 2)
    out.iterations, out.columns = pool.iterations, len(pool.columns)
    return out
