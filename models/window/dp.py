"""Window selection by dynamic programming per candidate start (docs/algorithms.md).

The recurrences are those of Toporkov et al. 2012 §2.1 and Toporkov & Yemelyanov 2018 §3.3.

For every candidate ``(T, level)`` of :mod:`models.window.space` the alive
slots form an n-of-m subset problem; the best window over all candidates is
the optimum. Candidates are visited in order of an optimistic bound (the
criterion's best n alive slots, budget ignored) and the pass stops once no
remaining bound can beat the incumbent, so most steps never run the DP.

Per criterion the subset step is exact:

- ``min_start``, ``min_cost``: the n cheapest alive slots (feasible iff they fit);
- ``min_runtime``, ``min_finish`` (rough): the smallest duration threshold
  whose n cheapest slots fit the budget (docs/exact-models.md); square: the level itself;
- ``min_proc_time`` (rough), ``max_q``, ``dep``, ``coord``: the knapsack of
  :func:`models.window.knapsack.select`; square ``coord`` also needs one
  slot of the exact level, as a longer level only lowers far distances.
"""

from __future__ import annotations

import time

import numpy as np

from models.window.knapsack import select
from models.window.space import WindowSpace

_SUM = ("cost", "proc_time", "q", "near_distance", "far_distance")


def optimistic_bounds(
    sp: WindowSpace, t: np.ndarray, lv: np.ndarray, alive: np.ndarray
) -> np.ndarray:
    """Return each candidate's optimistic normalised value (smaller is better)."""
    metric, n = sp.criterion.metric, sp.n
    if metric == "start":
        return t.astype(float)
    out = np.empty(len(t))
    for level in np.unique(lv):
        sp.check_deadline()
        rows = lv == level
        d = sp.durations(int(level))
        if metric in ("runtime", "finish"):
            if sp.square:
                part = np.full(int(rows.sum()), float(level))
            else:
                dd = np.where(alive[rows], d[None, :], np.iinfo(np.int64).max)
                part = np.partition(dd, n - 1, axis=1)[:, n - 1].astype(float)
            out[rows] = part + (t[rows] if metric == "finish" else 0)
            continue
        if metric in ("near_distance", "far_distance"):
            tt = t[rows][:, None]
            before, after = tt - sp.es[None, :], sp.ee[None, :] - tt - d[None, :]
            z = (
                -np.minimum(before, after) if metric == "near_distance"
                else np.maximum(before, after)
            ).astype(float)  # fmt: skip
        else:
            z = np.broadcast_to(sp.values(0, int(level)), (int(rows.sum()), sp.m))
        z = np.where(alive[rows], z, np.inf)
        out[rows] = np.partition(z, n - 1, axis=1)[:, :n].sum(axis=1)
    return out


def _threshold(d: np.ndarray, c: np.ndarray, n: int, budget: int | None) -> np.ndarray | None:
    """Return the n cheapest slots under the smallest duration cap that fits the budget."""
    for cap in np.unique(d):
        idx = np.flatnonzero(d <= cap)
        if len(idx) < n:
            continue
        pick = idx[np.argsort(c[idx], kind="stable")[:n]]
        if budget is None or int(c[pick].sum()) <= budget:
            return pick
    return None


def _step(sp: WindowSpace, t: int, level: int, idx: np.ndarray) -> tuple[float, np.ndarray] | None:
    """Return (normalised value, chosen slot indices) of the best window at (t, level)."""
    metric, n, budget = sp.criterion.metric, sp.n, sp.budget
    c = sp.costs(level)[idx]
    d = sp.durations(level)[idx]
    if metric in ("start", "cost") or (sp.square and metric in ("runtime", "finish")):
        pick = np.argsort(c, kind="stable")[:n]
        if budget is not None and int(c[pick].sum()) > budget:
            return None
    elif metric in ("runtime", "finish"):
        pick = _threshold(d, c, n, budget)
    else:
        z = sp.values(t, level)[idx]
        exact = (sp.r[idx] == level) if sp.square and metric == "far_distance" else None
        pick = select(z, c, n, budget, exact)
    if pick is None:
        return None
    chosen = idx[pick]
    if metric in _SUM:
        value = float(sp.values(t, level)[chosen].sum())
    else:
        runtime = float(sp.durations(level)[chosen].max())
        value = {"start": t, "runtime": runtime, "finish": t + runtime}[metric]
    return value, chosen


def relaxation_bound(sp: WindowSpace, *, free_start: bool = False) -> float | None:
    """Return the best optimistic value over all candidates (normalised), None if there are none.

    A proven bound on the optimum: each candidate's best n alive slots with
    the budget ignored.
    """
    key = ("relaxation", free_start)
    if key not in sp.cache:
        t, lv, alive = sp.candidates(free_start)
        sp.cache[key] = float(optimistic_bounds(sp, t, lv, alive).min()) if len(t) else None
    return sp.cache[key]


def solve_dp(
    sp: WindowSpace,
    *,
    free_start: bool = False,
    time_limit: float | None = None,
    prune: bool = True,
) -> tuple[str, tuple[int, np.ndarray] | None, float | None]:
    """Return ``(status, (T, slot indices) or None, normalised bound)`` for the space's criterion.

    The bound is the smallest optimistic value among the candidates not yet
    solved when a time limit stops the pass (equal to the optimum otherwise).
    ``prune=False`` solves every candidate (the plain per-step DP, kept as
    the benchmark baseline).
    """
    began = time.perf_counter()
    t, lv, alive = sp.candidates(free_start)
    if sp.limit_at is not None and time_limit is not None:  # building counts against it
        began, time_limit = time.perf_counter(), max(sp.limit_at - time.perf_counter(), 0.0)
    if len(t) == 0:
        return "infeasible", None, None
    bound = optimistic_bounds(sp, t, lv, alive)
    sp.cache["relaxation", free_start] = float(bound.min())
    best: tuple[float, int, np.ndarray] | None = None
    for k in np.lexsort((lv, t, bound)):
        if prune and best is not None and bound[k] >= best[0]:
            return "optimal", (best[1], best[2]), best[0]
        if time_limit is not None and time.perf_counter() - began > time_limit:
            status = "feasible" if best else "unknown"
            return status, (best[1], best[2]) if best else None, float(bound[k])
        got = _step(sp, int(t[k]), int(lv[k]), np.flatnonzero(alive[k]))
        if got is not None and (best is None or got[0] < best[0]):
            best = (got[0], int(t[k]), got[1])
    if best is None:
        return "infeasible", None, None
    return "optimal", (best[1], best[2]), best[0]
