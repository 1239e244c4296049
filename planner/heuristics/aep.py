"""The AEP scheme (Toporkov et al. 2012 §2.1, Toporkov et al. 2015 Algorithm 1) and its square form
(Toporkov & Yemelyanov 2018 §3.2).

Read the whole slot list once per geometry level; at every step with at
least n alive slots let a subset selector pick a window and keep the best
window over all steps. In the square geometry the levels run from the
fastest (shortest task) down, each a full pass (Toporkov & Yemelyanov 2018 step 3): the
performance levels of docs/algorithms.md, or, for exact selectors, one level per
distinct task duration (same optimum, fewer passes; see
:mod:`planner.heuristics.sweep`).

Ties: a window replaces the incumbent only with a strictly better value, or
an equal value and an earlier start; so among equally good windows the
earliest start wins, then the one met first (faster level, earlier step).
A pass for the finish time stops once T plus the shortest task reaches the
incumbent's finish (at a start no earlier than the incumbent's): no later
step of the pass can replace it (the finish selectors use no random source).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numpy as np

from planner.heuristics import lite
from planner.heuristics.feed import Feed
from planner.heuristics.sweep import Sweep, levels, performance_levels
from planner.heuristics.value import Run, value

Selector = Callable[[Run, Sweep], "list[int] | None"]


def feed_arrays(feed: Feed) -> SimpleNamespace:
    """Return numpy copies of the feed's start, end, rough duration, q and performance."""
    return SimpleNamespace(
        perf=np.array(feed.perf, dtype=float),
        start=np.array(feed.start, dtype=np.int64),
        end=np.array(feed.end, dtype=np.int64),
        edge_start=np.array(feed.edge_start, dtype=np.int64),
        edge_end=np.array(feed.edge_end, dtype=np.int64),
        rough=np.array(feed.rough, dtype=np.int64),
        q=np.array(feed.q, dtype=float),
    )


def aep(
    feed: Feed,
    metric: str,
    selector: Selector,
    *,
    square: bool,
    rng: np.random.Generator,
    last_of_start: bool = False,
    merge_levels: bool = False,
) -> tuple[int, list[int]] | None:
    """Return ``(T, chosen read indices)`` of the best window, or None when there is none.

    Parameters
    ----------
    feed
        The job's suitable slots.
    metric
        The docs/concepts.md metric the criterion optimises (see :mod:`planner.heuristics.value`).
    selector
        The per-step subset selector.
    square
        Square geometry (level loop) instead of rough.
    rng
        Random source of the random-subset selector.
    last_of_start
        Evaluate once per distinct start (exact selectors; see :class:`Sweep`).
    merge_levels
        Square geometry: one level per distinct task duration instead of the
        performance levels of docs/algorithms.md (exact selectors only: same optimum).
    """
    run = Run(feed, metric, square, rng)
    run.ladder = levels(feed)
    if not run.ladder:
        return None
    # a selector reading only the n cheapest gives the same value until they change
    first_n = getattr(selector, "first_n_only", False)
    moves = metric in ("start", "finish", "near_distance", "far_distance")
    n = feed.n
    best: tuple[int, list[int]] | None = None
    vector = first_n and metric in lite.METRICS
    if vector or getattr(selector, "uses_arrays", False):
        run.arrays = feed_arrays(feed)
    # finish >= T + the shortest task: once that reaches the incumbent, the pass is done
    floor = run.ladder[0] if metric == "finish" else None
    if not square:
        passes: list[tuple[float | None, int | None]] = [(None, None)]
    elif merge_levels:
        passes = [(None, d) for d in run.ladder]
    else:
        passes = performance_levels(feed)
    for perf, level in passes:
        sw = Sweep(feed, level, last_of_start=last_of_start, performance=perf)
        if vector:
            got = lite.best_lite_step(run, sw)
            if got is not None:
                run.best, t, chosen = got
                best = (t, chosen)
            continue
        seen: tuple[list[int], int] | None = None
        for t in sw.steps():
            if floor is not None and run.best is not None and t + floor >= run.best[0] \
                    and t >= run.best[1]:  # fmt: skip
                break  # no later step of this pass can improve on the incumbent
            if first_n:
                now = (sw.keys[:n], t if moves else 0)
                if now == seen:
                    continue
                seen = now
            chosen = selector(run, sw)
            if chosen is None:
                continue
            v = value(run, t, chosen)
            if run.improves(v, t):
                run.best = run.key(v, t)
                best = (t, chosen)
    return best
