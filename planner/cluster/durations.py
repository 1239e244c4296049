"""Planned and actual durations of the jobs on every machine, computed when first needed.

On a machine of speed s a job plans ceil(e / s) seconds and runs
ceil(min(w, e) / s) (killed at its estimate), with the rounding of
:class:`~instances.workload.ClusterJob` (``ceil(round(x / s, 9))``).

Speed 1 (every SWF log without a machines file) needs no table: the jobs' own
seconds are used. Other speeds are :class:`Scaled` tables computed job by job
when a policy first asks, and forgotten when the job completes, so memory
grows with the jobs in the system, not with jobs × distinct machine speeds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from instances.workload import Workload


def scaled(seconds: list[int], speed: float) -> list[int]:
    """Return ceil(round(x / speed, 9)) for every x, exactly as ClusterJob computes durations.

    Vectorised: the rounding changes ceil(x / speed) only when the quotient lies
    within 1e-9 above an integer; those few are recomputed one by one.
    """
    import numpy as np

    x = np.asarray(seconds, dtype=np.float64)
    if speed == 1.0:
        return [int(v) for v in seconds]
    q = x / speed
    out = np.ceil(q)
    frac = q - np.floor(q)
    for k in np.flatnonzero((frac > 0) & (frac < 1e-9)):
        out[k] = math.ceil(round(seconds[k] / speed, 9))
    return out.astype(np.int64).tolist()


class Scaled(dict[int, int]):
    """ceil(round(x_j / speed, 9)) by job index, computed on first use.

    ``keep`` False computes every lookup afresh (values read once, such as the
    actual duration at a job's start); True caches until :meth:`forget`.
    """

    __slots__ = ("keep", "seconds", "speed")

    def __init__(self, seconds: Sequence[int], speed: float, keep: bool) -> None:
        super().__init__()
        self.seconds, self.speed, self.keep = seconds, speed, keep

    def __missing__(self, job: int) -> int:
        value = math.ceil(round(self.seconds[job] / self.speed, 9))
        if self.keep:
            self[job] = value
        return value

    def forget(self, job: int) -> None:
        """Drop the cached value of ``job`` (it completed)."""
        self.pop(job, None)


def durations(workload: Workload) -> tuple[list[Sequence[int]], list[Sequence[int]]]:
    """Return (planned, actual) durations, indexed ``[machine][job]``; equal speeds share tables."""
    requested, work = workload.columns.requested, workload.columns.work
    used = list(map(min, work, requested))
    by_speed: dict[float, tuple[Sequence[int], Sequence[int]]] = {}
    planned: list[Sequence[int]] = []
    actual: list[Sequence[int]] = []
    for m in workload.machines:
        if m.speed not in by_speed:
            by_speed[m.speed] = ((requested, used) if m.speed == 1.0 else
                                 (Scaled(requested, m.speed, True),
                                  Scaled(used, m.speed, False)))  # fmt: skip
        planned.append(by_speed[m.speed][0])
        actual.append(by_speed[m.speed][1])
    return planned, actual


def cached_tables(planned: list[Sequence[int]]) -> list[Scaled]:
    """Return the distinct caching tables among ``planned`` (one per speed other than 1)."""
    seen = {id(t): t for t in planned if isinstance(t, Scaled) and t.keep}
    return list(seen.values())
