"""Large-neighbourhood search for incumbents of the joint co-allocation (docs/exact-models.md).

Ruin and recreate (Shaw 1998; Pisinger & Ropke 2010): from an incumbent placement, free
``k`` jobs — a random pivot, the jobs sharing a node with it nearest to it in time, and a
few random ones — keep the others' windows fixed as busy node time, and re-place the free
jobs optimally by a small CP-SAT model of the compact formulation of
:mod:`models.joint.cpsat` (any window of the job's space, the job's budget, square levels,
the same placed count among the free jobs, the side rows with the fixed jobs' share
subtracted), hinted with their current windows. An improvement is accepted; ``k`` grows
when a neighbourhood is solved to optimality without one and shrinks when CP-SAT stops
first. Each sub-solve is bounded by CP-SAT's deterministic time, so with a fixed ``seed``
the sequence of neighbourhoods and solutions is repeatable; only where a wall-clock
``deadline`` cuts it depends on the machine (``rounds`` instead makes the whole run
repeatable).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.joint.cg.column import Column
from models.joint.cg.repair import repair
from models.joint.space import JobSpace
from planner.deadline import Deadline

SIZE = 5
"""Jobs freed by the first neighbourhood."""

DET_LIMIT = 0.3
"""CP-SAT deterministic time of one neighbourhood's solve."""

PATIENCE = 30
"""Neighbourhoods in a row without an improvement after which the search stops, handing
its time to the proof (on css2015 problem (8) seeds 2 and 4 the search had held its whole
share while branch-and-price proved the incumbent optimal after it)."""


@dataclass
class Search:
    """The best columns found, their ``sign``·Σ metric, the neighbourhoods solved (and how
    many improved), the final size ``k``, and whether one neighbourhood held every job that
    can be placed and was solved to optimality (then nothing better exists at this count)."""

    columns: list[Column]
    value: int
    rounds: int = 0
    improved: int = 0
    size: int = 0
    exhausted: bool = False
    stale: int = 0
    """Neighbourhoods solved since the last improvement."""


def lns(
    spaces: Sequence[JobSpace],
    incumbent: Sequence[Column],
    metric: str,
    sign: int,
    sides: Sequence[tuple[str, int]] = (),
    *,
    free_start: bool = True,
    seed: int = 0,
    deadline: Deadline | None = None,
    rounds: int | None = None,
    target: int | None = None,
    size: int = SIZE,
    det_limit: float = DET_LIMIT,
    patience: int | None = PATIENCE,
    report: Callable[[Search], None] | None = None,
) -> Search:
    """Improve ``incumbent`` (one column per placed job, a solution) by large-neighbourhood
    search; stop at ``deadline``, after ``rounds`` neighbourhoods, after
    ``patience`` neighbourhoods in a row without an improvement (None: never), or when the
    value reaches ``target`` (a proven bound). The placed count never changes. ``report``
    is called with the search so far after every neighbourhood."""
    rng = random.Random(seed)
    cols = {c.j: c for c in incumbent}
    value = sum(sign * c.metric(metric) for c in incumbent)
    jobs = [j for j, sp in enumerate(spaces) if sp.start_range is not None]
    out = Search(list(incumbent), value, size=min(max(size, 2), len(jobs)), exhausted=not jobs)
    longest = 0.0  # a neighbourhood starts only with the longest one so far left
    while jobs and (rounds is None or out.rounds < rounds) and (
            target is None or out.value > target) and (
            patience is None or out.stale < patience) and (
            deadline is None or deadline.more_than(longest)):
        began = deadline.clock() if deadline is not None else 0.0
        free = _neighbourhood(cols, jobs, out.size, rng)
        status, found = repair(spaces, cols, free, metric, sign, sides, free_start=free_start,
                               seed=seed, det_limit=det_limit, deadline=deadline)
        out.rounds += 1
        if deadline is not None:
            longest = max(longest, deadline.clock() - began)
        better = False
        if found is not None:
            new = {**{j: c for j, c in cols.items() if j not in free}, **found}
            total = sum(sign * c.metric(metric) for c in new.values())
            if total < out.value:
                cols, out.value, out.improved, better = new, total, out.improved + 1, True
                out.columns = [cols[j] for j in sorted(cols)]
        if status == "optimal" and len(free) == len(jobs):
            out.exhausted = True
            break
        out.stale = 0 if better else out.stale + 1
        if report is not None:
            report(out)
        if not better:
            out.size = min(out.size + 1, len(jobs)) if status == "optimal" else max(
                out.size - 1, 2)
    return out


def _neighbourhood(
    cols: dict[int, Column], jobs: Sequence[int], k: int, rng: random.Random
) -> set[int]:
    """Return a random pivot, the placed jobs sharing a node with it nearest in time, and
    about k/4 random jobs (unplaced ones among them), k in all."""
    pivot = rng.choice(jobs)
    extra = k // 4 if pivot in cols else k - 1
    ranked = []
    if pivot in cols:
        p = cols[pivot]
        nodes = {node for node, _, _ in p.tasks}
        for j, c in cols.items():
            if j != pivot:
                gap = max(c.T - (p.T + p.runtime), p.T - (c.T + c.runtime), 0)
                shared = any(node in nodes for node, _, _ in c.tasks)
                ranked.append((not shared, gap, rng.random(), j))
    free = {pivot, *(j for *_, j in sorted(ranked)[: k - 1 - extra])}
    rest = [j for j in jobs if j not in free]
    return free | set(rng.sample(rest, min(k - len(free), len(rest))))
