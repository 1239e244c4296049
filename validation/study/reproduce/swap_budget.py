"""Readings of the runtime swap's budget test (Toporkov et al. 2012 §2.2 vs Toporkov et al. 2015
Algorithm 2), for the ``aep-criteria`` sensitivity table.

Toporkov et al. 2012 §2.2 prints the swap's test as
``resultWindow.cost + shortSlot.cost < S``: the slot to be swapped out is
not subtracted, so a swap needs the window *plus* the new slot within S.
Toporkov et al. 2015 Algorithm 2 (the library's ``swap`` selector)
subtracts it: ``resultWindowList.sumCost - longSlot.cost + shortSlot.cost
< job.costLimit``. Both papers report the same experiment, so the 2012
test is measured as a reading.
"""

from __future__ import annotations

import numpy as np

from instances import Instance, Job
from planner import Window
from planner.heuristics.aep import aep
from planner.heuristics.algorithms import build
from planner.heuristics.feed import Feed
from planner.heuristics.selectors.swap import swap
from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run

READINGS = {
    "2015": "window - swapped-out slot + new slot within S (Toporkov et al. 2015; used)",
    "2012": "window + new slot < S, nothing subtracted (Toporkov et al. 2012 as printed)",
}


def swap_2012(run: Run, sw: Sweep) -> list[int] | None:
    """Return the swap result with the 2012 test: a swap needs ``total + c < S``."""
    K, n, cap = sw.K, run.feed.n, run.feed.budget
    result = sw.keys[:n]
    total = sum(k // K for k in result)
    if cap is not None and total > cap:
        return None
    rough = run.feed.rough
    dur = [rough[k % K] for k in result]
    long = max(range(n), key=lambda a: (dur[a], result[a]))
    for key in sw.keys[n:]:
        c, d = key // K, rough[key % K]
        if d < dur[long] and (cap is None or total + c < cap):
            total += c - result[long] // K
            result[long], dur[long] = key, d
            long = max(range(n), key=lambda a: (dur[a], result[a]))
    return [k % K for k in result]


def swap_window(instance: Instance, job: Job, metric: str, reading: str) -> Window | None:
    """Return minRuntime's (``metric="runtime"``) or minFinish's window under ``reading``."""
    if reading not in READINGS:
        raise ValueError(f"unknown reading '{reading}' (one of {', '.join(READINGS)})")
    feed = Feed(instance, job, None)
    select = swap if reading == "2015" else swap_2012
    got = aep(feed, metric, select, square=False, rng=np.random.default_rng(0))
    return None if got is None else build(feed, *got)
