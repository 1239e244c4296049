"""The integer master over generated columns (price-and-branch, docs/exact-models.md), CP-SAT.

One Boolean per column, at most one per job, no overlap of the columns' tasks on each
node, the side rows (VO budget, combination limit g*). First the placed count is
maximised (or fixed), then the integer objective minimised at that count. It proves
nothing about the joint optimum (other windows exist); it supplies incumbents.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ortools.sat.python import cp_model

from models.backends import cpsat_solver, cpsat_status, run_cpsat
from models.joint.cg.column import Column
from planner.deadline import Deadline


def integer_master(
    jobs: int,
    columns: Sequence[Column],
    objective: str | None,
    sign: int,
    sides: Sequence[tuple[str, int]],
    *,
    count: int | None = None,
    deadline: Deadline | None = None,
    threads: int = 1,
    seed: int = 0,
    hint: Sequence[Column] = (),
    below: int | None = None,
) -> list[Column] | None:
    """Return the best column set found (most placed, then least ``sign``·Σ objective).

    ``objective`` None: only the placed count. ``count``: the number of placed jobs
    required. ``below``: only sets whose ``sign``·Σ objective is below it (an incumbent's
    value). None when no set is found before ``deadline`` (None: no limit).
    """
    m = cp_model.CpModel()
    b = [m.NewBoolVar(f"b{i}") for i in range(len(columns))]
    per_job: dict[int, list[cp_model.IntVar]] = defaultdict(list)
    per_node: dict[str, list[cp_model.IntervalVar]] = defaultdict(list)
    for v, col in zip(b, columns, strict=True):
        per_job[col.j].append(v)
        for node, start, end in col.tasks:
            per_node[node].append(m.NewOptionalFixedSizeIntervalVar(start, end - start, v, ""))
    for group in per_job.values():
        m.AddAtMostOne(group)
    for intervals in per_node.values():
        if len(intervals) > 1:
            m.AddNoOverlap(intervals)
    for metric, limit in sides:
        m.Add(sum(col.metric(metric) * v for col, v in zip(columns, b, strict=True)) <= limit)
    keys = {c.key for c in hint}
    for col, v in zip(columns, b, strict=True):
        m.AddHint(v, col.key in keys)
    placed = sum(b)
    if count is not None:
        m.Add(placed == count)
    else:
        m.Maximize(placed)
    solver = cpsat_solver(threads=threads, seed=seed,
                          time_limit=None if deadline is None else deadline.left())
    if count is None:
        if cpsat_status(run_cpsat(solver, m)) not in ("optimal", "feasible"):
            return None
        m.Add(placed == round(solver.ObjectiveValue()))
        best = [solver.BooleanValue(v) for v in b]
        if objective is None:
            return [c for c, on in zip(columns, best, strict=True) if on]
        m.ClearHints()
        for v, on in zip(b, best, strict=True):
            m.AddHint(v, on)
        if deadline is not None:  # the second solve gets what the first left
            solver.parameters.max_time_in_seconds = deadline.left()
    if objective is not None:
        goal = sum(sign * c.metric(objective) * v for c, v in zip(columns, b, strict=True))
        if below is not None:
            m.Add(goal <= below - 1)
        m.Minimize(goal)
    if cpsat_status(run_cpsat(solver, m)) not in ("optimal", "feasible"):
        return None
    return [c for c, v in zip(columns, b, strict=True) if solver.BooleanValue(v)]
