"""The enumeration close of the ``cg`` solver (docs/exact-models.md, "Closing the gap by
enumeration"): every window that a solution better than the incumbent may use is listed from
the root duals (:mod:`models.joint.cg.enumeration`; reduced-cost reasoning as in route
enumeration, Baldacci, Christofides & Mingozzi 2008) and their set packing is solved by SCIP
(:mod:`models.joint.cg.packing`; Achterberg 2009); when they are too many, the bound is raised
level by level, each listing closed by an escape window.
"""

from __future__ import annotations

import time as _clock
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from instances.text import plural
from models.joint.cg.column import Column
from models.joint.cg.duals import MARGIN
from models.joint.cg.enumeration import count_below
from models.joint.cg.fixing import job_thresholds
from models.joint.cg.generate import Generation
from models.joint.cg.packing import available as packing_available
from models.joint.cg.packing import solve_packing
from models.joint.exact import broken
from models.joint.space import JobSpace
from models.progress import SearchProgress
from planner.deadline import Deadline

LISTING_LIMIT = 25_000
"""Most windows the ``enumerate`` close lists to prove the incumbent or find the optimum; past
it, a bound is sought from smaller listings (:data:`LEVEL_LIMIT`), then by branch-and-price.
Measured on css2015 batches (docs/benchmarks.md): SCIP solved listings of 10,000–25,000
windows in 3–35 s, and those of 33,000–40,000 not within 30 s."""

LEVEL_LIMIT = 8_000
"""Windows of the first listing below a level (:func:`deepen`); each further level doubles it."""


@dataclass
class Closing:
    """What the enumeration close needs of the batch: job spaces, the root generation (bound
    and duals), the objective, side rows, placed count, start rule, seed, statistics, the
    progress line and the deadline of every listing (None: none)."""

    spaces: Sequence[JobSpace]
    gen: Generation
    metric: str
    sign: int
    sides: Sequence[tuple[str, int]]
    count: int
    free_start: bool
    seed: int
    stats: dict[str, Any]
    track: SearchProgress
    deadline: Deadline | None = None


def listing(
    c: Closing, gap: float, limit: int | None = None
) -> tuple[list[Column], list[int]] | None:
    """Return every window that a solution of value ≤ L + ``gap`` may use (L the bound of
    the root generation; reduced-cost reasoning of :mod:`models.joint.cg.fixing`) and the
    jobs such a solution must place; None past ``limit`` windows (default
    :data:`LISTING_LIMIT`), past the deadline, or without SCIP."""
    gen = c.gen
    assert gen.duals is not None and gen.values is not None
    if not packing_available():
        return None
    duals = gen.duals
    jobs = job_thresholds(gen.values, duals.mu, gap + MARGIN * max(1.0, abs(gen.bound)))
    thresholds = [None if job is None else job[0] for job in jobs]
    must = [j for j, job in enumerate(jobs) if job is not None and job[1]]
    found = count_below(c.spaces, duals.form, duals.prices, thresholds,
                        free_start=c.free_start, limit=LISTING_LIMIT if limit is None else limit,
                        deadline=c.deadline)
    if found is None:
        return None
    columns = [Column.build(j, c.spaces[j], T, chosen)
               for j, listed in enumerate(found) for _, T, chosen in listed]
    return columns, must


def pack(
    c: Closing,
    listed: tuple[list[Column], list[int]],
    incumbent: Sequence[Column],
    best: int,
    low: int,
    escape: int | None,
    deadline: Deadline | None,
) -> tuple[list[Column], int, int]:
    """Solve the set-packing problem over the listed windows; return the best solution, its
    ``sign``-value and the proven bound (SCIP's, an integer, :mod:`models.joint.cg.packing`;
    a solution SCIP returns is kept only when it passes the exact re-check).

    Without ``escape`` the listing holds every window of a solution of value ≤ ``best``
    and SCIP starts from the incumbent: its optimum is the joint optimum and its bound, at
    most ``best``, bounds the joint problem. With ``escape`` = ⌊L + g⌋ + 1 the listing holds
    every window of a solution of value ≤ L + g, and the escape window stands for all
    others: an optimum that takes it proves the bound ``escape``; one that does not is the
    joint optimum; a stopped solve bounds the joint problem by its own bound. In every case
    the joint optimum is at least min(SCIP's bound, ``best``): the proof is that integer
    reaching ``best``."""
    columns, must = listed
    keys = {col.key for col in columns}
    if escape is None:  # only a float margin could leave one out
        columns = columns + [col for col in incumbent if col.key not in keys]
    got = solve_packing(len(c.spaces), columns, c.metric, c.sign, c.sides, count=c.count,
                        must=must, hint=incumbent if escape is None else (), escape=escape,
                        deadline=deadline, seed=c.seed)
    inc = list(incumbent)
    if got.value is not None and not got.escaped:
        if not passes(c, got.columns, must):
            return inc, best, low  # SCIP's numbers went wrong: neither answer is used
        if got.value < best:
            inc, best = got.columns, got.value
    if got.bound is None:
        return inc, best, low
    if got.bound >= best:
        c.stats["closed_by"] = "enumeration"
    return inc, best, min(max(low, got.bound), best)


def passes(c: Closing, columns: Sequence[Column], must: Sequence[int] = ()) -> bool:
    """Return whether ``columns`` are a solution of the joint problem with the count fixed,
    re-checked in integers (:func:`models.joint.exact.broken`): SCIP's feasibility
    tolerance is relative, so a packing it returns may break a row by many units."""
    placed = {col.j: (col.T, col.chosen) for col in columns}
    return (len(placed) == len(columns) == c.count and set(must) <= set(placed)
            and broken(c.spaces, placed, c.sides, free_start=c.free_start) is None)


def deepen(
    c: Closing, incumbent: Sequence[Column], best: int, low: int, deadline: Deadline | None
) -> tuple[list[Column], int, int]:
    """When the windows of every better solution are too many to list, raise the bound level
    by level: list the windows of the solutions worth at most ``level``, the largest level
    whose listing stays within the limit (bisection), and solve their set packing with an
    escape window worth ``level + 1`` (:func:`pack`); while SCIP proves each level, double
    the limit (up to :data:`LISTING_LIMIT`) if the time left is at least twice what the
    last level took. Return the best solution, its value and the bound."""
    inc, limit, L, took = list(incumbent), LEVEL_LIMIT, c.gen.bound, 0.0
    while low < best and (deadline is None or deadline.more_than(2 * took)):
        began = _clock.perf_counter()
        lo, hi = low - 1, best - 1  # no solution is worth lo; best - 1's listing is too large
        chosen: tuple[int, tuple[list[Column], list[int]]] | None = None
        while lo < hi and (deadline is None or not deadline.passed()):
            level = (lo + hi + 1) // 2
            listed = listing(c, level - L, limit)
            if listed is None:
                hi = level - 1
            else:
                chosen, lo = (level, listed), level
        if chosen is None:
            break
        level, listed = chosen
        c.stats["listed"], c.stats["level"] = len(listed[0]), c.sign * level
        c.track.update(stage=f"set packing of {plural(len(listed[0]), 'window')} below "
                       f"{c.sign * (level + 1)}", incumbent=best, bound=low)
        before = low
        inc, best, low = pack(c, listed, inc, best, low, level + 1, deadline)
        if low <= level or low == before or level + 1 >= best or limit >= LISTING_LIMIT:
            break  # not proven, nothing left to prove, or as large as SCIP can take
        limit, took = min(2 * limit, LISTING_LIMIT), _clock.perf_counter() - began
    return inc, best, low
