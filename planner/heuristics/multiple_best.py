"""CSA / MultipleBest: the best disjoint AMP alternative (Toporkov et al. 2012 §3.1 item 6,
Toporkov & Yemelyanov 2018 §4.2).

Run AMP (FirstFit in the square geometry) on the job's slots, subtract the
window found (docs/concepts.md), and repeat until no window is found; return the
alternative with the best value of the criterion (the job's own for
``csa``). Every alternative is rebuilt on the original slot list before it
is valued and returned, so its recorded slots, and hence its DEP/COORD
distances, are those of the environment the job was given (the slots left
after subtracting earlier alternatives are the search's scratch state).
Ties: the earlier start, then the alternative found first. Each AMP run
resumes at the previous alternative's start: on the shrunk list no window
starts earlier.
"""

from __future__ import annotations

from collections.abc import Sequence

from instances import CRITERIA, Instance, Job, Slot
from planner.heuristics.feed import Feed
from planner.heuristics.first_fit import first_fit
from planner.heuristics.slotlist import SlotList
from planner.heuristics.value import Run
from planner.window import Window, make_window


def multiple_best(
    instance: Instance, job: Job, slots: Sequence[Slot] | None, criterion: str, run: Run
) -> Window | None:
    """Return the best AMP alternative of ``job`` by ``criterion``, or None when AMP finds none."""
    order = instance.node_index
    pairs = instance.suitable_pairs(job, slots)
    hosts = SlotList([slot for _, slot in pairs], order)  # unclipped: DEP/COORD edges
    free = SlotList([clipped for clipped, _ in pairs], order)
    crit = CRITERIA[criterion]
    best: tuple[tuple[float, int], Window] | None = None
    t0: int | None = None
    while True:
        feed = Feed(instance, job, free.slots() if t0 is None else free.slots_from(t0))
        got = first_fit(Run(feed, "start", run.square, run.rng))
        if got is None:
            return None if best is None else best[1]
        t, chosen = got
        t0 = t
        found = [feed.slot[i] for i in chosen]
        window = make_window(instance, job, t, sorted(found, key=lambda s: order[s.node]))
        for p in window.placements:
            free.subtract(p.node, p.start, p.end)
        placed = [hosts.host(p.node, p.start, p.end) for p in window.placements]
        window = make_window(instance, job, t, [s for s in placed if s is not None])
        key = (round(crit.normalised(window.value(criterion)), 9), t)
        if best is None or key < best[0]:
            best = (key, window)
