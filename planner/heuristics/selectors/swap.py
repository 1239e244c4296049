"""The runtime swap heuristic of Toporkov et al. 2015 Algorithm 2 (Toporkov et al. 2012 §2.2,
"minRuntime").

Start from the n cheapest alive slots (``resultWindowList``); take the
others in ascending cost (``spareWindowList``). For each spare slot, in
order: if its task is shorter than the longest task of the result and
swapping it for that longest one keeps the result within the budget,
swap them. The result is the step's window for minRuntime and minFinish.

Settled ambiguities:

- "length" of a slot is its task duration in the pass (rough: ``ceil(V/p)``;
  square: the level's duration, so no swap ever happens there);
- the budget test is docs/concepts.md's ``cost ≤ S`` (the pseudo-code writes ``<``)
  and the step is skipped if even the n cheapest exceed S (the pseudo-code
  does not check the initial result);
- among equally long result slots the most expensive one is swapped out;
- the loop stops at the first spare slot failing the cost test: every later
  spare slot costs at least as much and the result can no longer change,
  so this returns exactly what the full loop would;
- a step is skipped when the n-th shortest alive task already cannot beat
  the incumbent: the step's result could not replace it either.
"""

from __future__ import annotations

from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run, runtime_bound_prunes


def swap(run: Run, sw: Sweep) -> list[int] | None:
    """Return the result of Algorithm 2 on the alive slots, or None if no window fits."""
    K = sw.K
    n, budget = run.feed.n, run.feed.budget
    if runtime_bound_prunes(run, sw):
        return None
    keys = sw.keys
    rough, level = run.feed.rough, sw.level
    result = keys[:n]
    total = sum(k // K for k in result)
    if budget is not None and total > budget:
        return None
    if level is not None:
        return [k % K for k in result]
    dur = [rough[k % K] for k in result]
    long = max(range(n), key=lambda a: (dur[a], result[a]))
    for key in keys[n:]:
        c = key // K
        if budget is not None and total - result[long] // K + c > budget:
            break
        d = rough[key % K]
        if d < dur[long]:
            total += c - result[long] // K
            result[long] = key
            dur[long] = d
            long = max(range(n), key=lambda a: (dur[a], result[a]))
    return [k % K for k in result]
