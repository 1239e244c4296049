"""Lite selectors valued in one vector operation per pass (Toporkov & Yemelyanov 2018 §4.2 MaxQ
Lite, §4.3).

A Lite algorithm takes the n cheapest alive slots at every step and values
them by its criterion; the selection needs the pass, the valuation does not.
So the pass only records, at each step where the n cheapest fit the budget,
the start T and their keys; the values of all steps (Σ q, Σ near or far
distance, with the chosen slots' true task durations) are then computed in
one numpy operation and the best step is taken with the same tie rule as
the step-by-step loop: least (value, T), then the step met first.
"""

from __future__ import annotations

import numpy as np

from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run

METRICS = ("q", "near_distance", "far_distance")


def best_lite_step(run: Run, sw: Sweep) -> tuple[tuple[float, int], int, list[int]] | None:
    """Run the pass ``sw``; return ``(key, T, chosen)`` of its best step that beats ``run.best``."""
    n, budget, K = run.feed.n, run.feed.budget, sw.K
    ts: list[int] = []
    rows: list[list[int]] = []
    last: list[int] | None = None
    last_t = None
    moves = run.metric != "q"
    for t in sw.steps():
        keys = sw.keys[:n]
        if keys == last and (t == last_t or not moves):
            continue
        last, last_t = keys, t
        if budget is not None and sum(keys) // K > budget:
            continue
        ts.append(t)
        rows.append(keys)
    if not ts:
        return None
    try:
        idx = (np.array(rows, dtype=np.uint64) & np.uint64(K - 1)).astype(np.int64)
    except OverflowError:
        idx = np.array([[k % K for k in row] for row in rows], dtype=np.int64)
    arrays = run.arrays
    t_arr = np.array(ts, dtype=np.int64)
    if run.metric == "q":
        values = -arrays.q[idx].sum(axis=1)
        values = np.round(values, 9)
    else:
        d = arrays.rough[idx]
        if run.square:
            d = np.broadcast_to(d.max(axis=1, keepdims=True), d.shape)
        before = t_arr[:, None] - arrays.edge_start[idx]
        after = arrays.edge_end[idx] - t_arr[:, None] - d
        if run.metric == "near_distance":
            values = -np.minimum(before, after).sum(axis=1).astype(float)
        else:
            values = np.maximum(before, after).sum(axis=1).astype(float)
    k = int(np.lexsort((np.arange(len(ts)), t_arr, values))[0])
    key = (float(values[k]), ts[k])
    if run.best is not None and not key < run.best:
        return None
    return key, ts[k], idx[k].tolist()
