"""The random feasible subset of the paper's simplified minProcTime (Toporkov et al. 2012 §3.1 item
5).

The paper selects "a random window" at each step of the pass and keeps the
one with the least processor time; it does not say how the budget is met.
Here: draw n distinct alive slots uniformly with the run's seeded generator; while
they exceed the budget, replace the most expensive chosen slot by the
cheapest unchosen one. The repair ends at the n cheapest slots at worst, so
a step yields a window exactly when one fits the budget.
"""

from __future__ import annotations

from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run


def _sample(run: Run, m: int, n: int) -> list[int]:
    """Return n distinct positions of range(m), uniformly, sorted (draws with rejection)."""
    picked: dict[int, None] = {}
    for p in run.rng.integers(0, m, size=2 * n).tolist():
        picked.setdefault(p)
        if len(picked) == n:
            return sorted(picked)
    return sorted(run.rng.permutation(m)[:n].tolist())


def random_subset(run: Run, sw: Sweep) -> list[int] | None:
    """Return a seeded random n-subset of the alive slots within the budget, or None."""
    K = sw.K
    n, budget = run.feed.n, run.feed.budget
    keys = sw.keys
    if budget is not None and sum(k // K for k in keys[:n]) > budget:
        return None
    pos = _sample(run, len(keys), n)
    if budget is not None:
        total = sum(keys[p] // K for p in pos)
        taken = set(pos)
        free = (p for p in range(len(keys)) if p not in taken)
        while total > budget:
            lo = next(free)
            hi = pos.pop()
            total += keys[lo] // K - keys[hi] // K
            pos.insert(0, lo)
            pos.sort()
    return [keys[p] % K for p in pos]
