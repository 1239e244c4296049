"""Repair step of the large-neighbourhood search (:mod:`models.joint.cg.lns`): re-place a
few free jobs optimally around the fixed windows of the others.

The model is the compact formulation of :mod:`models.joint.cpsat` (docs/exact-models.md)
restricted to the free jobs: per job a Boolean ``placed``, a start T and one Boolean per
placement option, each option's task an optional interval inside its slot; at most one
option per node, the job's budget, square levels; the other jobs' tasks are fixed busy
intervals in each node's no-overlap. Options whose slot has no gap long enough between
the busy intervals are left out. Built afresh per neighbourhood: a 5-job model takes a few
milliseconds, less than fixing the variables of the whole compact model.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ortools.sat.python import cp_model

from models.backends import cpsat_solver, cpsat_status, run_cpsat
from models.joint.cg.column import LINEAR_METRICS, Column
from models.joint.space import JobSpace, Option
from planner.deadline import Deadline


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


def repair(
    spaces: Sequence[JobSpace],
    cols: dict[int, Column],
    free: set[int],
    metric: str,
    sign: int,
    sides: Sequence[tuple[str, int]],
    *,
    free_start: bool = True,
    seed: int = 0,
    det_limit: float = 1.0,
    deadline: Deadline | None = None,
) -> tuple[str | None, dict[int, Column] | None]:
    """Re-place the ``free`` jobs around the fixed windows of the other jobs of ``cols``.

    Returns the CP-SAT status and the free jobs' new columns (None when no solution was
    found): as many placed as in ``cols``, Σ ``sign``·``metric`` over them minimised, the
    side rows ``(metric, limit)`` held with the fixed jobs' share subtracted. The solve is
    bounded by ``det_limit`` deterministic seconds and by ``deadline`` (status ``unknown``
    when it passes while the model is built).
    """
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
        if deadline is not None and deadline.passed():  # a large model takes seconds to build
            return "unknown", None
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
    solver = cpsat_solver(threads=1, seed=seed,
                          time_limit=None if deadline is None else deadline.left())
    solver.parameters.max_deterministic_time = det_limit
    status = cpsat_status(run_cpsat(solver, m))
    if status not in ("optimal", "feasible"):
        return status, None
    return status, {j: Column.build(j, spaces[j], solver.Value(T),
                                    [k for k, v in y.items() if solver.Value(v)])
                    for j, (placed, T, y) in made.items() if solver.Value(placed)}
