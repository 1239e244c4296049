"""Problems (6)–(9) of docs/concepts.md as a MILP multiple-choice knapsack (PuLP, CBC by default).

The same model as :mod:`models.combination.cpsat`, binary x_ij, written as a
minimisation (maxima negated, so CBC's logged bound reads one way). CBC runs
as a subprocess, so this works in a process that has loaded OR-Tools; PuLP is
imported through :func:`models.backends.import_pulp` for the same reason.
"""

from __future__ import annotations

from models.backends import import_pulp
from models.cbc import solve_cbc
from models.combination.problem import Problem, Table

pulp = import_pulp()


def solve_milp(
    table: Table,
    problem: Problem,
    limit: int,
    *,
    time_limit: float | None = None,
    threads: int = 1,
) -> tuple[str, list[int] | None, float | None]:
    """Return ``(status, chosen alternative per job or None, best proven bound)``."""
    f_tab = table.column(problem.objective)
    g_tab = table.column(problem.constraint)
    sign = -1 if problem.sense == "max" else 1
    prob = pulp.LpProblem("combination", pulp.LpMinimize)
    # PuLP >= 3.3 deprecates constructing variables outside the problem.
    new = getattr(prob, "add_variable", None) or pulp.LpVariable
    x = [[new(f"x{i}_{j}", cat="Binary") for j in range(len(row))] for i, row in enumerate(f_tab)]
    for i, row in enumerate(x):
        prob += pulp.lpSum(row) == 1, f"one{i}"
    cells = [(f_tab[i][j], g_tab[i][j], v) for i, row in enumerate(x) for j, v in enumerate(row)]
    top = min(limit, sum(max(row) for row in g_tab))  # a larger limit binds nothing
    prob += pulp.LpAffineExpression([(v, g) for _, g, v in cells]) <= top, "limit"
    prob += pulp.LpAffineExpression([(v, sign * f) for f, _, v in cells])
    status, raw = solve_cbc(prob, time_limit=time_limit, threads=threads)
    bound = sign * raw if raw is not None else None
    if status not in ("optimal", "feasible"):
        return status, None, bound
    choice = [max(range(len(row)), key=lambda j, r=row: r[j].varValue or 0.0) for row in x]
    return status, choice, bound
