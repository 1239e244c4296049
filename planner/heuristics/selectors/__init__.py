"""Subset selectors: pick n of the alive slots at one step of the pass (docs/algorithms.md, §6, §9).

A selector is ``select(run, sweep) -> list[int] | None``: the read indices
of the chosen slots, or None when the step holds no window within the budget
(or, for the exact selectors, none that can beat the incumbent
``run.best``: skipping such a step never changes the result).
"""

from planner.heuristics.selectors.cheapest import cheapest
from planner.heuristics.selectors.dp import dp_selector
from planner.heuristics.selectors.knapsack import knapsack
from planner.heuristics.selectors.random_subset import random_subset
from planner.heuristics.selectors.swap import swap
from planner.heuristics.selectors.threshold import threshold

__all__ = ["cheapest", "dp_selector", "knapsack", "random_subset", "swap", "threshold"]
