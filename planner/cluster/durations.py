"""Planned and actual durations of every job on every machine, computed once per speed.

On a machine of speed s a job plans ceil(e / s) seconds and runs
ceil(min(w, e) / s) (killed at its estimate), with the rounding of
:class:`~instances.workload.ClusterJob` (``ceil(round(x / s, 9))``).
"""

from __future__ import annotations

import math

import numpy as np

from instances.workload import Workload


def scaled(seconds: list[int], speed: float) -> list[int]:
    """Return ceil(round(x / speed, 9)) for every x, exactly as ClusterJob computes durations.

    Vectorised: the rounding changes ceil(x / speed) only when the quotient lies
    within 1e-9 above an integer; those few are recomputed one by one.
    """
    x = np.asarray(seconds, dtype=np.float64)
    if speed == 1.0:
        return [int(v) for v in seconds]
    q = x / speed
    out = np.ceil(q)
    frac = q - np.floor(q)
    for k in np.flatnonzero((frac > 0) & (frac < 1e-9)):
        out[k] = math.ceil(round(seconds[k] / speed, 9))
    return out.astype(np.int64).tolist()


def durations(workload: Workload) -> tuple[list[list[int]], list[list[int]]]:
    """Return (planned, actual) durations, indexed ``[machine][job]``; equal speeds share lists."""
    requested = [j.requested for j in workload.jobs]
    used = [min(j.work, j.requested) for j in workload.jobs]
    by_speed: dict[float, tuple[list[int], list[int]]] = {}
    planned, actual = [], []
    for m in workload.machines:
        if m.speed not in by_speed:
            by_speed[m.speed] = (scaled(requested, m.speed), scaled(used, m.speed))
        planned.append(by_speed[m.speed][0])
        actual.append(by_speed[m.speed][1])
    return planned, actual
