"""The knapsack selector of the AEP pass: MaxQ, DEP, COORD, exact minProcTime (Toporkov &
Yemelyanov 2018 §3.3).

Builds the docs/algorithms.md item values of the alive slots at the current step and
solves the subset problem with :func:`planner.heuristics.selectors.knapsack.knapsack`.
"""

from __future__ import annotations

import numpy as np

from planner.heuristics.selectors.knapsack import best_n, knapsack
from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run


def _alive_arrays(sw: Sweep) -> tuple[np.ndarray, np.ndarray]:
    K = sw.K
    try:
        keys = np.array(sw.keys, dtype=np.uint64)
    except OverflowError:  # keys beyond 2**64: the slow exact path
        return np.array([k % K for k in sw.keys]), np.array([k // K for k in sw.keys])
    idx = (keys & np.uint64(K - 1)).astype(np.int64)
    return idx, (keys >> np.uint64(sw.bits)).astype(np.int64)


def dp_selector(run: Run, sw: Sweep) -> list[int] | None:
    """Return the alive slots solving docs/algorithms.md for the run's additive criterion, or None.

    z per slot at the current start T and task duration d (the level's in
    the square geometry): cost; d (proc_time); −q (max_q); −min(T − s, e − T − d)
    (DEP); max(T − s, e − T − d) (COORD). The step is skipped when even the
    budget-free best n cannot beat the incumbent. In the square geometry,
    COORD requires one slot of the level's own duration (of its own
    performance at a performance level): with only faster
    nodes the tasks would be shorter and their far distances longer than z
    says, while for the other criteria a shorter task only helps and that
    window is also met, exactly valued, at its own level.
    """
    feed, metric, n = run.feed, run.metric, run.feed.n
    arrays = run.arrays
    idx, c = _alive_arrays(sw)
    t = sw.T
    d = arrays.rough[idx] if sw.level is None else np.full(len(idx), sw.level, dtype=np.int64)
    if metric == "cost":
        z = c.astype(float)
    elif metric == "proc_time":
        z = d.astype(float)
    elif metric == "q":
        z = -arrays.q[idx]
    else:
        before, after = t - arrays.edge_start[idx], arrays.edge_end[idx] - t - d
        if metric == "near_distance":
            z = -np.minimum(before, after).astype(float)
        else:
            z = np.maximum(before, after).astype(float)
    must = None
    if sw.level is not None and metric == "far_distance":
        if sw.performance is None:
            must = arrays.rough[idx] == sw.level
        else:
            must = arrays.perf[idx] == sw.performance
    if run.best is not None:
        pick = best_n(z, c, n, must)
        if not run.improves(float(z[pick].sum()), t):
            return None
    got = knapsack(z, c, n, feed.budget, must)
    return None if got is None else idx[got].tolist()


# it reads run.arrays, which aep builds only for the selectors that say so
dp_selector.uses_arrays = True  # type: ignore[attr-defined]
