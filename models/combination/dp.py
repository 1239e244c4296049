"""The backward recursion of Toporkov et al. 2015 §2.3, eqs. (2)–(4), for problems (6)–(9)
(docs/concepts.md).

With jobs i = 1..n, alternatives s_j of job i with objective value f_i(s_j)
and resource expense g_i(s_j) (integers), and the remaining resource g::

    f_{n+1}(g) ≡ 0                                                    (g ≥ 0)
    f_i(g) = extr_{s_j : g_i(s_j) ≤ g} { f_i(s_j) + f_{i+1}(g − g_i(s_j)) }   (2)

over g = 0..g*. The optimum is f_1(g*) (eq. (3): f_i is monotone in g, so the
best expense level is the whole remaining budget), and the optimal
alternatives follow forward from g_1 = g*: s*_i = the argument of the
extremum in (2) at g_i, g_{i+1} = g_i − g_i(s*_i) (eq. (4)). Each table row
f_i(·) is a numpy vector, one vectorised max per alternative, so the cost is
O(Σ_i l_i · g*) with l_i alternatives per job. Ties go to the lowest index.
"""

from __future__ import annotations

import numpy as np

from models.combination.problem import Problem, Table


def solve_dp(
    table: Table, problem: Problem, limit: int
) -> tuple[str, list[int] | None, float | None]:
    """Return ``(status, chosen alternative per job or None, bound)``; always proven.

    Parameters
    ----------
    table
        The integer tables of the jobs' alternatives.
    problem
        The combination problem (objective, constraint, sense).
    limit
        g*: the limit of the constraint resource.
    """
    f_tab = table.column(problem.objective)
    g_tab = table.column(problem.constraint)
    sign = 1.0 if problem.sense == "max" else -1.0
    if limit < 0:
        return "infeasible", None, None
    # Beyond Σ_i max_j g the constraint cannot bind: cap the index range there.
    top = min(limit, sum(max(row) for row in g_tab))
    n = len(f_tab)
    rows = [np.zeros(top + 1)]  # rows[k] = f_{n+1-k}, in the maximising sign
    for i in range(n - 1, -1, -1):
        nxt, cur = rows[-1], np.full(top + 1, -np.inf)
        for f, g in zip(f_tab[i], g_tab[i], strict=True):
            if g <= top:
                np.maximum(cur[g:], sign * f + nxt[: top + 1 - g], out=cur[g:])
        rows.append(cur)
    if not np.isfinite(rows[-1][top]):
        return "infeasible", None, None
    choice: list[int] = []
    rest = top
    for i in range(n):
        nxt = rows[n - 1 - i]
        best_j, best = -1, -np.inf
        for j, (f, g) in enumerate(zip(f_tab[i], g_tab[i], strict=True)):
            if g <= rest and sign * f + nxt[rest - g] > best:
                best_j, best = j, sign * f + nxt[rest - g]
        choice.append(best_j)
        rest -= g_tab[i][best_j]
    return "optimal", choice, sign * float(rows[-1][top])
