"""An independent time-indexed MILP of the joint problem, to certify the joint solvers' proofs
(docs/benchmarks.md, "Certificates").

Built from the data classes and the docs/concepts.md unit functions only, never from the
models it certifies: per job j, start T and option o (a suitable slot, clipped to the
job's release and deadline, at a duration level) a binary z[j,o,T] for every T at which
the task fits the slot, and a binary y[j,T,D] per start and level D (rough geometry: one
level). Rows: Σ_{T,D} y ≤ 1 per job; the options at (j, T, D) number n_j·y, one of them
of exact duration in square geometry; the job's budget; per node and unit time at most
one task; the side limits (VO budget, t*, b*); the placed count. Objectives: Σ cost,
Σ proc_time, Σ start, Σ finish (a runtime r_j ≥ d_o·z per job). Solved by SCIP through
OR-Tools with zero gaps; only the integers matter (:func:`certify`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from instances import Instance, Job, cost, duration
from validation.brute import _budget, _suitable


def _options(inst: Instance, job: Job) -> list[tuple[str, int, int, int, int, bool]]:
    """Return (node, slot start, slot end, d, cost, exact) per option, with the level d."""
    nodes = {n.id: n for n in inst.nodes}
    pairs = _suitable(inst, job, None)
    own = {c.node: duration(job.volume, nodes[c.node].performance) for c, _ in pairs}
    levels = sorted(set(own.values())) if inst.geometry == "square" else [None]
    out = []
    for c, s in pairs:
        price = nodes[s.node].price if s.price is None else s.price
        for level in levels:
            d = own[c.node] if level is None else level
            if d < own[c.node] or c.end - c.start < d:
                continue
            out.append((c.node, c.start, c.end, d, cost(price, d), d == own[c.node]))
    return out


def certify(
    inst: Instance,
    objective: str,
    sides: Sequence[tuple[str, int]] = (),
    *,
    free_start: bool = True,
    count: int | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """Return the MILP's answer: ``placed`` (the most jobs placed, with its integer bound
    ``placed_bound``), ``value`` and ``bound`` of ``objective`` (minimised) at that count
    (or at ``count`` if given), each bound SCIP's rounded up after 10⁻⁶, and the size."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("SCIP")
    inf = solver.infinity()
    terms: dict[str, list[tuple[Any, int]]] = defaultdict(list)
    cover: dict[tuple[str, int], list[Any]] = defaultdict(list)
    ys: list[Any] = []
    size = 0
    for job in inst.jobs:
        opts = _options(inst, job)
        slot_starts = {s for _, s, _, _, _, _ in opts}
        by_start: dict[tuple[int, int], list[tuple[Any, tuple]]] = defaultdict(list)
        for o in opts:
            node, s, e, d, c, exact = o
            for T in range(s, e - d + 1):
                if free_start or T in slot_starts:
                    by_start[(T, d if inst.geometry == "square" else 0)].append(
                        (solver.BoolVar(""), o))
        job_y, budget = [], _budget(job)
        runtime = solver.NumVar(0, inf, "") if objective in ("finish", "runtime") else None
        spend = solver.Constraint(-inf, budget) if budget is not None else None
        for (T, _), zs in by_start.items():
            if len(zs) < job.nodes:
                continue
            y = solver.BoolVar("")
            job_y.append(y)
            row = solver.Constraint(0, 0)
            row.SetCoefficient(y, -job.nodes)
            nodes: dict[str, list[Any]] = defaultdict(list)
            exact_row = solver.Constraint(0, inf) if inst.geometry == "square" else None
            if exact_row is not None:
                exact_row.SetCoefficient(y, -1)
            for z, (node, _, _, d, c, exact) in zs:
                size += 1
                row.SetCoefficient(z, 1)
                nodes[node].append(z)
                if exact_row is not None and exact:
                    exact_row.SetCoefficient(z, 1)
                if spend is not None:
                    spend.SetCoefficient(z, c)
                for t in range(T, T + d):
                    cover[(node, t)].append(z)
                terms["cost"].append((z, c))
                terms["proc_time"].append((z, d))
                if runtime is not None:
                    r = solver.Constraint(0, inf)
                    r.SetCoefficient(runtime, 1)
                    r.SetCoefficient(z, -d)
            for group in nodes.values():
                if len(group) > 1:
                    one = solver.Constraint(-inf, 1)
                    for z in group:
                        one.SetCoefficient(z, 1)
            terms["start"].append((y, T))
        once = solver.Constraint(-inf, 1)
        for y in job_y:
            once.SetCoefficient(y, 1)
        ys += job_y
        if runtime is not None:
            terms["runtime"].append((runtime, 1))
    terms["finish"] = terms["start"] + terms["runtime"]
    for members in cover.values():
        if len(members) > 1:
            row = solver.Constraint(-inf, 1)
            for z in members:
                row.SetCoefficient(z, 1)
    for name, limit in sides:
        row = solver.Constraint(-inf, limit)
        for v, a in terms[name]:
            row.SetCoefficient(v, a)
    solver.SetSolverSpecificParametersAsString(
        "limits/gap = 0\nlimits/absgap = 0\npresolving/maxrounds = 0")
    params = pywraplp.MPSolverParameters()
    params.SetDoubleParam(params.RELATIVE_MIP_GAP, 0.0)
    if time_limit is not None:
        solver.SetTimeLimit(int(1000 * time_limit))
    out: dict[str, Any] = {"variables": solver.NumVariables(), "rows": solver.NumConstraints(),
                           "options x starts": size}
    obj = solver.Objective()
    if count is None:
        for y in ys:
            obj.SetCoefficient(y, 1)
        obj.SetMaximization()
        code = solver.Solve(params)
        if code not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return {**out, "placed": None}
        out["placed"] = round(obj.Value())
        out["placed_bound"] = math.floor(obj.BestBound() + 1e-6)
        count = out["placed"]
        obj.Clear()
    fixed = solver.Constraint(count, count)
    for y in ys:
        fixed.SetCoefficient(y, 1)
    for v, a in terms[objective]:
        obj.SetCoefficient(v, obj.GetCoefficient(v) + a)
    obj.SetMinimization()
    code = solver.Solve(params)
    if code not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        return {**out, "value": None, "bound": None}
    out["value"] = round(obj.Value())
    out["bound"] = math.ceil(obj.BestBound() - 1e-6)
    return out
