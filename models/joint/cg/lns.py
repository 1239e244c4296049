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
import time as _clock
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.backends import cpsat_solver, cpsat_status, run_cpsat
from models.joint.cg.column import LINEAR_METRICS, Column
from models.joint.space import JobSpace, Option

SIZE = 5
"""Jobs freed by the first neighbourhood."""

DET_LIMIT = 0.3
"""CP-SAT deterministic time of one neighbourhood's solve."""


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


def lns(
    spaces: Sequence[JobSpace],
    incumbent: Sequence[Column],
    metric: str,
    sign: int,
    sides: Sequence[tuple[str, int]] = (),
    *,
    free_start: bool = True,
    seed: int = 0,
    deadline: float | None = None,
    rounds: int | None = None,
    target: int | None = None,
    size: int = SIZE,
    det_limit: float = DET_LIMIT,
) -> Search:
    """Improve ``incumbent`` (one column per placed job, a solution) by large-neighbourhood
    search; stop at ``deadline`` (perf_counter), after ``rounds`` neighbourhoods, or when the
    value reaches ``target`` (a proven bound). The placed count never changes."""
    rng = random.Random(seed)
    cols = {c.j: c for c in incumbent}
    value = sum(sign * c.metric(metric) for c in incumbent)
    jobs = [j for j, sp in enumerate(spaces) if sp.start_range is not None]
    out = Search(list(incumbent), value, size=min(max(size, 2), len(jobs)), exhausted=not jobs)
    while jobs and (rounds is None or out.rounds < rounds) and (
            target is None or out.value > target) and (
            deadline is None or _clock.perf_counter() < deadline):
        free = _neighbourhood(cols, jobs, out.size, rng)
        status, found = _recreate(spaces, cols, free, metric, sign, sides, free_start, seed,
                                  det_limit, deadline)
        out.rounds += 1
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


def _fits(o: Option, busy: Sequence[tuple[int, int]]) -> bool:
    """Whether a task of ``o`` fits in its slot between the busy intervals of its node."""
    at = o.slot.start
    for s, e in sorted(busy):
        if e <= at or s >= o.slot.end:
            continue
        if s - at >= o.d:
            return True
        at = max(at, e)
    return o.slot.end - at >= o.d


def _recreate(
    spaces: Sequence[JobSpace],
    cols: dict[int, Column],
    free: set[int],
    metric: str,
    sign: int,
    sides: Sequence[tuple[str, int]],
    free_start: bool,
    seed: int,
    det_limit: float,
    deadline: float | None,
) -> tuple[str | None, dict[int, Column] | None]:
    """Re-place the ``free`` jobs around the others' fixed windows; return the CP-SAT
    status and the free jobs' new columns (None when no solution was found)."""
    m = cp_model.CpModel()
    busy: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for j, c in cols.items():
        if j not in free:
            for node, s, e in c.tasks:
                busy[node].append((s, e))
    names = {metric, *(name for name, _ in sides)}
    terms: dict[str, list[cp_model.LinearExprT]] = {name: [] for name in names}
    per_node: dict[str, list[cp_model.IntervalVar]] = defaultdict(list)
    made: dict[int, tuple[cp_model.IntVar, cp_model.IntVar, dict[int, cp_model.IntVar]]] = {}
    for j in sorted(free):
        sp, now = spaces[j], cols.get(j)
        lo, hi = sp.start_range or (0, 0)
        placed = m.NewBoolVar("")
        if free_start:
            T = m.NewIntVar(lo, hi, "")
        else:
            starts = [t for t in sp.slot_starts if lo <= t <= hi] or [lo]
            T = m.NewIntVarFromDomain(cp_model.Domain.FromValues(starts), "")
        y = {k: m.NewBoolVar("") for k, o in enumerate(sp.options) if _fits(o, busy[o.node])}
        m.Add(sum(y.values()) == sp.n * placed)
        by_node: dict[str, list[cp_model.IntVar]] = defaultdict(list)
        for k, v in y.items():
            o = sp.options[k]
            by_node[o.node].append(v)
            m.Add(o.slot.start <= T).OnlyEnforceIf(v)
            m.Add(T + o.d <= o.slot.end).OnlyEnforceIf(v)
            per_node[o.node].append(m.NewOptionalFixedSizeIntervalVar(T, o.d, v, ""))
        for group in by_node.values():
            m.AddAtMostOne(group)
        cost = sum(sp.options[k].cost * v for k, v in y.items())
        if sp.budget is not None:
            m.Add(cost <= sp.budget)
        R = m.NewIntVar(0, max((o.d for o in sp.options), default=0), "")
        if sp.square:
            levels = {d: m.NewBoolVar("") for d in sp.levels}
            m.Add(sum(levels.values()) == placed)
            for d, b in levels.items():
                exact = [v for k, v in y.items() if sp.options[k].level == d
                         and sp.options[k].exact]
                if exact:
                    m.AddBoolOr(exact).OnlyEnforceIf(b)
                else:
                    m.Add(b == 0)
            for k, v in y.items():
                m.AddImplication(v, levels[sp.options[k].level])
            m.Add(sum(d * b for d, b in levels.items()) == R)
            for d, b in levels.items():
                m.AddHint(b, now is not None and now.runtime == d)
        else:
            m.AddMaxEquality(R, [0, *(sp.options[k].d * v for k, v in y.items())])
        S = m.NewIntVar(min(0, lo), max(0, hi), "")
        m.Add(S == T).OnlyEnforceIf(placed)
        m.Add(S == 0).OnlyEnforceIf(placed.Not())
        parts = (sum(sp.options[k].d * v for k, v in y.items()), cost, R, S)
        for name in names:
            terms[name].append(sum(a * e for a, e in zip(LINEAR_METRICS[name], parts,
                                                          strict=True) if a))
        m.AddHint(placed, now is not None)
        m.AddHint(T, now.T if now is not None else lo)
        for k, v in y.items():
            m.AddHint(v, now is not None and k in now.chosen)
        made[j] = placed, T, y
    for node, intervals in per_node.items():
        intervals += [m.NewFixedSizeIntervalVar(s, e - s, "") for s, e in busy[node]]
        if len(intervals) > 1:
            m.AddNoOverlap(intervals)
    m.Add(sum(p for p, _, _ in made.values()) == sum(j in cols for j in free))
    for name, limit in sides:
        fixed = sum(c.metric(name) for j, c in cols.items() if j not in free)
        m.Add(sum(terms[name]) <= limit - fixed)
    m.Minimize(sign * sum(terms[metric]))
    left = None if deadline is None else max(deadline - _clock.perf_counter(), 0.01)
    solver = cpsat_solver(threads=1, seed=seed, time_limit=left)
    solver.parameters.max_deterministic_time = det_limit
    status = cpsat_status(run_cpsat(solver, m))
    if status not in ("optimal", "feasible"):
        return status, None
    return status, {j: Column.build(j, spaces[j], solver.Value(T),
                                    [k for k, v in y.items() if solver.Value(v)])
                    for j, (placed, T, y) in made.items() if solver.Value(placed)}
