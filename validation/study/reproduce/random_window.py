"""Readings of the simplified minProcTime's random window (Toporkov et al. 2012 §3.1 item 5, §3.2).

The paper: "a random window was selected (without any optimization) at
the each step of the algorithm, though the search was performed on the
whole list of available slots. With such a random selection the most
effective window by the processor time criterion was near the end of the
scheduling interval." It does not say how a random n-subset that exceeds
the budget S is handled, nor (beyond "the most effective window") which
step's window is returned. Readings measured:

- ``repair`` (the library's ``min_proc_time``): n alive slots drawn
  uniformly, the dearest replaced by the cheapest unchosen until within S;
  the best step's window kept;
- ``reject``: one uniform draw per step, the step has no window when it
  exceeds S; the best step's window kept;
- ``resample``: uniform draws until one fits S (a uniform feasible window);
  the best step's window kept;
- ``last``: ``repair``'s window at the last step that has one (no
  optimisation over the steps either);
- ``cheapest``: no random draw, the step's AMP window (its n cheapest alive
  slots, "without any optimization" of the processor time); the best
  step's window kept.
"""

from __future__ import annotations

import numpy as np

from instances import Instance, Job
from planner import Window
from planner.heuristics.aep import aep
from planner.heuristics.algorithms import build
from planner.heuristics.feed import Feed
from planner.heuristics.selectors.random_subset import random_subset
from planner.heuristics.sweep import Sweep
from planner.heuristics.value import Run

READINGS = {
    "repair": "uniform n-subset, dearest swapped for cheapest until within S; best step (used)",
    "reject": "uniform n-subset, none at a step where it exceeds S; best step",
    "resample": "uniform n-subset redrawn until within S; best step",
    "last": "as used, but the last step's window (no optimisation over steps)",
    "cheapest": "the step's n cheapest alive slots (AMP's window, no draw); best step",
}
RESAMPLE_TRIES = 1000


def _draw(run: Run, sw: Sweep) -> tuple[list[int], bool]:
    """Return one uniform n-subset of the alive slots (read indices) and whether it fits S."""
    keys, n, cap = sw.keys, run.feed.n, run.feed.budget
    pos = run.rng.choice(len(keys), size=n, replace=False)
    fits = cap is None or sum(keys[p] // sw.K for p in pos) <= cap
    return [keys[p] % sw.K for p in sorted(pos.tolist())], fits


def _reject(run: Run, sw: Sweep) -> list[int] | None:
    chosen, fits = _draw(run, sw)
    return chosen if fits else None


def _cheapest_fit(run: Run, sw: Sweep) -> bool:
    """Whether the step's n cheapest alive slots fit S (else no window at this step fits)."""
    cap = run.feed.budget
    return cap is None or sum(k // sw.K for k in sw.keys[: run.feed.n]) <= cap


def _resample(run: Run, sw: Sweep) -> list[int] | None:
    if not _cheapest_fit(run, sw):
        return None
    for _ in range(RESAMPLE_TRIES):
        chosen, fits = _draw(run, sw)
        if fits:
            return chosen
    return None


def _cheapest(run: Run, sw: Sweep) -> list[int] | None:
    if not _cheapest_fit(run, sw):
        return None
    return [k % sw.K for k in sw.keys[: run.feed.n]]


def min_proc_time(instance: Instance, job: Job, reading: str, seed: int) -> Window | None:
    """Return the simplified minProcTime's window of ``job`` under ``reading`` (rough geometry)."""
    if reading not in READINGS:
        raise ValueError(f"unknown reading '{reading}' (one of {', '.join(READINGS)})")
    feed = Feed(instance, job, None)
    steps: list[tuple[int, list[int]]] = []

    def select(run: Run, sw: Sweep) -> list[int] | None:
        pick = {"reject": _reject, "resample": _resample, "cheapest": _cheapest}.get(
            reading, random_subset)
        chosen = pick(run, sw)
        if chosen is not None:
            steps.append((sw.T, list(chosen)))
        return chosen

    got = aep(feed, "proc_time", select, square=False, rng=np.random.default_rng(seed))
    if reading == "last" and steps:
        got = steps[-1]
    return None if got is None else build(feed, *got)
