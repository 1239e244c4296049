"""Criterion values of a candidate window inside the pass (docs/concepts.md, §4).

Values are *normalised*: smaller is better (maximised metrics are negated),
and the additive DEP/COORD distances are summed rather than averaged (n is
fixed, so the order is the same). They are computed from the chosen slots'
true task durations, exactly as :func:`planner.window.make_window` will:
in the square geometry every task lasts ``max_i duration(V, p_i)`` of the
chosen nodes, which may be shorter than the level being searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from planner.heuristics.feed import Feed


@dataclass
class Run:
    """The state of one search: the feed, the criterion, the incumbent and the random source.

    ``best`` is the incumbent's comparison key ``(value, T)``: a candidate
    replaces it only when its key is strictly smaller, so among windows of
    equal value the earliest start wins, and among those the first found.
    """

    feed: Feed
    metric: str
    square: bool
    rng: np.random.Generator
    best: tuple[float, int] | None = None
    arrays: Any = None
    ladder: list[int] | None = None

    def key(self, value: float, t: int) -> tuple[float, int]:
        """Return the comparison key of a window (q sums are rounded: float noise)."""
        return (round(value, 9) if self.metric == "q" else value, t)

    def improves(self, value: float, t: int) -> bool:
        """Return True when ``(value, t)`` beats the incumbent."""
        return self.best is None or self.key(value, t) < self.best


def task_durations(feed: Feed, chosen: Sequence[int], square: bool) -> list[int]:
    """Return the true task durations of the chosen slots (docs/concepts.md)."""
    r = [feed.rough[i] for i in chosen]
    return [max(r)] * len(r) if square else r


def value(run: Run, t: int, chosen: Sequence[int]) -> float:
    """Return the normalised criterion value of the window at ``t`` on ``chosen``."""
    feed, metric = run.feed, run.metric
    if metric == "start":
        return float(t)
    if metric == "q":
        q = feed.q
        return -sum([q[i] for i in chosen])
    d = task_durations(feed, chosen, run.square)
    if metric == "runtime":
        return float(max(d))
    if metric == "finish":
        return float(t + max(d))
    if metric == "cost":
        return float(sum([feed.cost(i, di) for i, di in zip(chosen, d, strict=True)]))
    if metric == "proc_time":
        return float(sum(d))
    s, e = feed.edge_start, feed.edge_end
    pairs = zip(chosen, d, strict=True)
    if metric == "near_distance":
        return -float(sum([min(t - s[i], e[i] - t - di) for i, di in pairs]))
    if metric == "far_distance":
        return float(sum([max(t - s[i], e[i] - t - di) for i, di in pairs]))
    raise ValueError(f"unknown metric '{metric}'")


def runtime_bound_prunes(run: Run, sw: Any) -> bool:
    """Return True when no window of this step can beat the incumbent on runtime or finish.

    Any n alive slots last at least the n-th smallest alive rough duration
    (also in the square geometry, where tasks last the chosen maximum), so
    that bounds runtime from below and T plus it bounds finish.
    """
    if run.best is None or run.ladder is None:
        return False
    bound = sw.nth_rough(run.feed.n, run.ladder)
    if run.metric == "finish":
        bound += sw.T
    return not run.improves(float(bound), sw.T)
