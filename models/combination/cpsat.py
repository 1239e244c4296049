"""Problems (6)–(9) of docs/concepts.md as a CP-SAT multiple-choice knapsack (OR-Tools).

One Boolean x_ij per alternative j of job i; ``Σ_j x_ij = 1`` per job;
``Σ_ij g_ij x_ij ≤ g*``; extremise ``Σ_ij f_ij x_ij`` (Toporkov et al. 2015 eq. (1)).
"""

from __future__ import annotations

import math

from ortools.sat.python import cp_model

from models.backends import cpsat_proven, cpsat_solver, cpsat_status, run_cpsat
from models.combination.problem import Problem, Table


def solve_cpsat(
    table: Table,
    problem: Problem,
    limit: int,
    *,
    time_limit: float | None = None,
    threads: int = 1,
    seed: int = 0,
) -> tuple[str, list[int] | None, float | None]:
    """Return ``(status, chosen alternative per job or None, best proven bound)``."""
    f_tab = table.column(problem.objective)
    g_tab = table.column(problem.constraint)
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{i}_{j}") for j in range(len(row))] for i, row in enumerate(f_tab)]
    for row in x:
        m.AddExactlyOne(row)
    cells = [(f_tab[i][j], g_tab[i][j], v) for i, row in enumerate(x) for j, v in enumerate(row)]
    # a limit past every combination's sum binds nothing: kept within CP-SAT's 64-bit sums
    m.Add(sum(g * v for _, g, v in cells) <= min(limit, sum(max(row) for row in g_tab)))
    goal = sum(f * v for f, _, v in cells)
    (m.Maximize if problem.sense == "max" else m.Minimize)(goal)
    solver = cpsat_solver(threads=threads, seed=seed, time_limit=time_limit)
    status = cpsat_status(run_cpsat(solver, m)) or "unknown"
    if status == "optimal" and not cpsat_proven(solver, m):
        status = "feasible"  # a proof is the integer value equal to the integer bound
    raw = solver.BestObjectiveBound()
    # without a solution CP-SAT reports 0 as its bound: no proven one (0 < a max optimum)
    proven = status in ("optimal", "feasible") and math.isfinite(raw)
    bound = raw if proven else None
    if status not in ("optimal", "feasible"):
        return status, None, bound
    choice = [next(j for j, v in enumerate(row) if solver.BooleanValue(v)) for row in x]
    return status, choice, bound
