"""The ``compact`` close of the ``cg`` solver (docs/exact-models.md): the compact CP-SAT model
of :mod:`models.joint.cpsat`, its count fixed, its objective bounded below by the column
generation bound and above by the incumbent, and the starts and options of each job
restricted by reduced-cost fixing (:mod:`models.joint.cg.fixing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ortools.sat.python import cp_model

from models.backends import cpsat_bound, cpsat_status, run_cpsat
from models.joint.cpsat import JointModel
from planner.deadline import Deadline


def close_compact(
    jm: JointModel,
    goal: Any,
    sign: int,
    count: int,
    low: int | None,
    incumbent: tuple[dict[int, tuple[int, list[int]]], int],
    fixed: Sequence[tuple[bool, list[tuple[int, int]], set[int]]],
    deadline: Deadline,
    threads: int,
    seed: int,
    stats: dict[str, Any],
) -> tuple[dict[int, tuple[int, list[int]]], int, int | None]:
    """Search the compact model for a solution better than the incumbent, with the count
    fixed, ``low ≤ sign·goal ≤ U − 1`` and the starts of ``fixed``; return the best
    solution, its ``sign``-value and the proven bound (infeasible: the incumbent is optimal);
    CP-SAT stops at ``deadline``.
    """
    from models.joint.lexicographic import _solver

    solution, best = incumbent
    if any(must and not spans for must, spans, _ in fixed):
        stats["closed_by"] = "fixing"
        return solution, best, best
    m = jm.model
    m.Add(sum(jm.placed) == count)
    if low is not None:
        m.Add(sign * goal >= low)
    m.Add(sign * goal <= best - 1)
    for placed, T, y, (must, spans, options) in zip(jm.placed, jm.T, jm.y, fixed, strict=True):
        if not spans:
            m.Add(placed == 0)
            continue
        if must:
            m.Add(placed == 1)
        for k, v in enumerate(y):
            if k not in options:
                m.Add(v == 0)
        domain = cp_model.Domain.FromIntervals([list(span) for span in spans])
        m.AddLinearExpressionInDomain(T, domain).OnlyEnforceIf(placed)
    m.ClearHints()
    m.Minimize(sign * goal)
    solver = _solver(deadline.left(), threads, seed)
    status = cpsat_status(run_cpsat(solver, m))
    if status == "infeasible":  # nothing better than the incumbent exists
        stats["closed_by"] = "compact"
        return solution, best, best
    if status not in ("optimal", "feasible"):
        return solution, best, low
    found = cpsat_bound(solver, m)  # exact integers, never the doubles of ObjectiveValue
    if found is not None:
        low = found if low is None else max(low, found)
    value = sign * int(solver.Value(goal))
    if low is not None and value <= low:
        stats["closed_by"] = "compact"
    return jm.solution(solver), value, low
