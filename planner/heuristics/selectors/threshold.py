"""Exact minRuntime/minFinish selector (docs/exact-models.md): the smallest feasible duration
threshold.

At a step with start T, a window of runtime at most θ exists iff the n
cheapest alive slots whose task lasts at most θ fit the budget; that test is
monotone in θ, so the least feasible θ over the distinct task durations is
the step's minimum runtime, and T + θ its minimum finish. Durations are the
true ones (rough ``ceil(V/p)`` of each node, also at a square level, where
the window's tasks then last the chosen maximum).

The selector first tests the largest θ that could still beat the incumbent
(a strictly smaller value, or an equal one at an earlier start) and returns
None at once when even that fails, so most steps cost one scan that stops
after n slots.
"""

from __future__ import annotations

from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run, runtime_bound_prunes


def _fit(
    keys: list[int], rough: list[int], n: int, theta: int, budget: int | None, K: int
) -> list[int]:
    chosen: list[int] = []
    total = 0
    for key in keys:
        i = key % K
        if rough[i] <= theta:
            chosen.append(i)
            total += key // K
            if len(chosen) == n:
                return chosen if budget is None or total <= budget else []
    return []


def threshold(run: Run, sw: Sweep) -> list[int] | None:
    """Return the n cheapest alive slots under the least feasible duration threshold."""
    K = sw.K
    n, budget, rough = run.feed.n, run.feed.budget, run.feed.rough
    if runtime_bound_prunes(run, sw):
        return None
    keys, t = sw.keys, sw.T
    # the distinct alive durations, from the pass's counts (no scan of the alive set)
    durations = sorted(d for d, count in sw.by_rough.items() if count)
    cap = durations[-1]
    if run.best is not None:
        best, best_t = run.best
        offset = t if run.metric == "finish" else 0
        cap = int(best) - offset - (0 if t < best_t else 1)
        durations = [d for d in durations if d <= cap]
        if not durations:
            return None
    if not _fit(keys, rough, n, durations[-1], budget, K):
        return None
    lo, hi = 0, len(durations) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if _fit(keys, rough, n, durations[mid], budget, K):
            hi = mid
        else:
            lo = mid + 1
    return _fit(keys, rough, n, durations[hi], budget, K)
