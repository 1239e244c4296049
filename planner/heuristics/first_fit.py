"""AMP / FirstFit and ALP: the first window that fits (Toporkov et al. 2011 §3, Toporkov &
Yemelyanov 2018 §4.2).

AMP (Toporkov et al. 2011 steps 1°–4°): read slots in start order; as soon as at least n
slots are alive, take the n cheapest; if they fit the budget S that is the
window, else read on. The first such step has the earliest feasible start
of the AEP space. ALP is the same pass over only the slots priced at most C
(condition 2°c) with no budget test: it stops as soon as n such slots are
alive and the window is those n slots, whatever their total (Toporkov et al. 2011 §3;
the window budget S is AMP's constraint, not ALP's).

Square geometry (FirstFit of Toporkov & Yemelyanov 2018): one pass per performance level of
docs/algorithms.md (fastest first, see :func:`planner.heuristics.sweep.performance_levels`);
each level's pass stops at its first fitting step, or once it reaches the
best start found at a faster level; the earliest start over the levels wins
(the faster level on a tie).
"""

from __future__ import annotations

from planner.heuristics.feed import Feed
from planner.heuristics.selectors.cheapest import cheapest
from planner.heuristics.sweep import Sweep, performance_levels
from planner.heuristics.value import Run


def first_fit(run: Run) -> tuple[int, list[int]] | None:
    """Return ``(T, chosen read indices)`` of the earliest fitting window, or None."""
    feed: Feed = run.feed
    best: tuple[int, list[int]] | None = None
    for perf, level in performance_levels(feed) if run.square else [(None, None)]:
        sw = Sweep(feed, level, performance=perf)
        tried = -1
        for t in sw.steps():
            if best is not None and t >= best[0]:
                break
            if sw.front == tried:  # the same n cheapest failed the budget at the last step
                continue
            tried = sw.front
            chosen = cheapest(run, sw)
            if chosen is not None:
                best = (t, chosen)
                break
    return best
