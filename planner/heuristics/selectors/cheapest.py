"""The n cheapest alive slots (Toporkov et al. 2011 AMP step 2°; Toporkov et al. 2012 minCost;
Toporkov & Yemelyanov 2018 Lite).

The alive set is kept in (cost, read index) order, so the n cheapest are its
first n keys; ties in cost go to the slot read first (earlier start, then
node order). The subset is returned only if its cost is within the budget S;
otherwise no n-subset of the step is (docs/algorithms.md).
"""

from __future__ import annotations

from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run


def cheapest(run: Run, sw: Sweep) -> list[int] | None:
    """Return the n cheapest alive slots, or None when they exceed the budget."""
    K = sw.K
    keys = sw.keys[: run.feed.n]
    budget = run.feed.budget
    # the read indices of n keys sum to less than K, so one division gives the total cost
    if budget is not None and sum(keys) // K > budget:
        return None
    return [k % K for k in keys]


cheapest.first_n_only = True  # type: ignore[attr-defined]
