"""Exact pricing of snapshot columns (job, machine, start) under bucket prices on CPU time.

A column x_jmt says job j starts on machine m at second t; it holds R_j CPUs
on m during [t, t + h_jm), h_jm = max(p_jm, 1). The master
(:mod:`models.cluster.cg`) prices CPU time per machine and time bucket
[β_b, β_{b+1}) at λ_mb ≥ 0 per CPU-second, so the column costs

    c_j(t) + R_j · Σ_b λ_mb · |[t, t + h_jm) ∩ [β_b, β_{b+1})|

where c_j(t) is the column's own cost (1 when t + p_jm > d_j in the
delayed-jobs master, else 0). The priced term is S_m(t + h) − S_m(t) with
S_m the integral of the bucket prices, a piecewise-linear function whose
knots are the bucket boundaries, so the sum is linear in t between the points
where t or t + h crosses a boundary; c_j only changes at d_j − p_jm. The
minimum over every integer start in [lo, hi] is therefore attained at one of
those breakpoints or at lo or hi, which this module evaluates: exact over all
starts (Dantzig–Wolfe pricing as in Gamst & Pisinger 2013, here with
time-bucketed capacity rows). A machine's wide jobs (2 R_j > R_m: no two
run side by side) may also pay μ_mb per second of bucket b, the price of
the master's single-job rows; the same breakpoints hold.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def price_machine(
    bounds: NDArray[np.int64],
    prices: NDArray[np.float64],
    cpus: NDArray[np.int64],
    hold: NDArray[np.int64],
    lo: NDArray[np.int64],
    hi: NDArray[np.int64],
    late_after: NDArray[np.int64] | None = None,
    single: tuple[NDArray[np.float64], NDArray[np.bool_]] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Return, per job, the least column cost on one machine and a start attaining it.

    Parameters
    ----------
    bounds
        Bucket boundaries β_0 < … < β_B (integer seconds); every hold interval
        [t, t + h) with lo ≤ t ≤ hi lies inside [β_0, β_B].
    prices
        λ_b ≥ 0 per CPU-second of bucket b (length B).
    cpus, hold, lo, hi
        Per job: R_j, h_jm, the first and last allowed start (lo ≤ hi).
    late_after
        Per job: the last start that meets the deadline (cost 0 up to it, 1
        after); None for a master without deadline costs. A job without a
        deadline has a value ≥ hi.
    single
        (μ_b, wide_j): a price per second of bucket b paid by the wide jobs
        (those that no other wide job can run beside), or None.

    Returns
    -------
    (cost, start)
        The minimum over every integer start in [lo, hi] and a start attaining it.
    """
    integral = np.concatenate(([0.0], np.cumsum(prices * np.diff(bounds))))
    h = hold[:, None]
    cand = [bounds[None, :], bounds[None, :] - h, lo[:, None], hi[:, None]]
    if late_after is not None:
        cand += [late_after[:, None], late_after[:, None] + 1]
    starts = np.concatenate(np.broadcast_arrays(*cand), axis=1) if len(cand) else lo[:, None]
    starts = np.clip(starts, lo[:, None], hi[:, None])
    used = np.interp(starts + h, bounds, integral) - np.interp(starts, bounds, integral)
    cost = cpus[:, None] * used
    if single is not None:
        extra = np.concatenate(([0.0], np.cumsum(single[0] * np.diff(bounds))))
        alone = np.interp(starts + h, bounds, extra) - np.interp(starts, bounds, extra)
        cost = cost + single[1][:, None] * alone
    if late_after is not None:
        cost = cost + (starts > late_after[:, None])
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(lo))
    return cost[rows, best], starts[rows, best]


def overlaps(bounds: NDArray[np.int64], start: int, hold: int) -> list[tuple[int, int]]:
    """Return (bucket, seconds of [start, start + hold) inside it) for every bucket it meets."""
    first = int(np.searchsorted(bounds, start, side="right")) - 1
    out = []
    b = max(first, 0)
    while b < len(bounds) - 1 and bounds[b] < start + hold:
        seconds = min(bounds[b + 1], start + hold) - max(bounds[b], start)
        if seconds > 0:
            out.append((b, int(seconds)))
        b += 1
    return out
