"""The slot-search algorithms as callables ``solve(instance, job, criterion, slots, rng)``.

Each returns a :class:`planner.Window` built by :func:`planner.window.make_window`
(placements in node order, recording the free slot that holds
them) or None. :mod:`planner.registry` names them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from instances import CRITERIA, Instance, Job, Slot, units
from planner.heuristics.aep import Selector, aep
from planner.heuristics.feed import Feed
from planner.heuristics.first_fit import first_fit
from planner.heuristics.multiple_best import multiple_best
from planner.heuristics.value import Run
from planner.window import Window, make_window

Solver = Callable[
    [Instance, Job, str, "Sequence[Slot] | None", np.random.Generator], "Window | None"
]


def build(feed: Feed, t: int, chosen: Sequence[int]) -> Window:
    """Return the window of ``feed.job`` at ``t`` on the chosen read indices (node order)."""
    inst = feed.instance
    order = inst.node_index
    slots = sorted((feed.slot[i] for i in chosen), key=lambda s: order[s.node])
    return make_window(inst, feed.job, t, slots)


def first_fit_solver(*, price_cap: bool) -> Solver:
    """Return AMP (``price_cap=False``) or ALP (only slots priced ≤ the job's C, no budget S).

    ALP (Toporkov et al. 2011 §3) stops at the first n alive slots priced at most C
    (:attr:`instances.Job.price_cap`); the window is those n slots, whatever
    their rounded total. AMP takes the n cheapest alive slots within S.
    """

    def solve(
        instance: Instance,
        job: Job,
        criterion: str,
        slots: Sequence[Slot] | None,
        rng: np.random.Generator,
    ) -> Window | None:
        cap = units.price_cap(job.max_price, job.budget, job.volume, job.nodes)
        feed = Feed(instance, job, slots, max_price=cap if price_cap else None)
        if price_cap:
            # ALP: condition 2°c alone, no window budget (Toporkov et al. 2011 §3)
            feed.budget = None
        got = first_fit(Run(feed, "start", instance.geometry == "square", rng))
        return None if got is None else build(feed, *got)

    return solve


def aep_solver(selector: Selector, *, exact_steps: bool) -> Solver:
    """Return an AEP algorithm using ``selector`` at each step (see :func:`aep`).

    ``exact_steps``: the selector is exact, so the pass may evaluate once per
    distinct start and merge square levels of equal duration.
    """

    def solve(
        instance: Instance,
        job: Job,
        criterion: str,
        slots: Sequence[Slot] | None,
        rng: np.random.Generator,
    ) -> Window | None:
        feed = Feed(instance, job, slots)
        metric = CRITERIA[criterion].metric
        square = instance.geometry == "square"
        got = aep(
            feed, metric, selector, square=square, rng=rng,
            last_of_start=exact_steps, merge_levels=exact_steps,
        )  # fmt: skip
        return None if got is None else build(feed, *got)

    return solve


def csa_solver(
    instance: Instance,
    job: Job,
    criterion: str,
    slots: Sequence[Slot] | None,
    rng: np.random.Generator,
) -> Window | None:
    """Return CSA / MultipleBest's window (see :mod:`planner.heuristics.multiple_best`)."""
    run = Run(Feed(instance, job, slots), "start", instance.geometry == "square", rng)
    return multiple_best(instance, job, slots, criterion, run)
