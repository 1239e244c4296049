"""The backward recursion of Toporkov et al. 2015 §2.3, eqs. (2)–(4), for problems (6)–(9)
(docs/concepts.md).

With jobs i = 1..n, alternatives s_j of job i with objective value f_i(s_j)
and resource expense g_i(s_j) (integers), and the remaining resource g::

    f_{n+1}(g) ≡ 0                                                    (g ≥ 0)
    f_i(g) = extr_{s_j : g_i(s_j) ≤ g} { f_i(s_j) + f_{i+1}(g − g_i(s_j)) }   (2)

over g = 0..g*. The optimum is f_1(g*) (eq. (3): f_i is monotone in g, so the
best expense level is the whole remaining budget), and the optimal
alternatives follow forward from g_1 = g*: s*_i = the argument of the
extremum in (2) at g_i, g_{i+1} = g_i − g_i(s*_i) (eq. (4)).

Two exact representations of f_i, both in integers (never floats, which round sums past
2⁵³): a table over g = 0..g* (numpy int64, one vectorised max per alternative,
O(Σ_i l_i · g*)) while it holds at most :data:`TABLE_CELLS` cells and the sums stay within
2⁶¹; otherwise f_i as a step function, the list of its steps (g, f_i(g)) — the Pareto
front of (expense, value) over the combinations of jobs i..n — whose size does not grow
with g* but with the distinct sums; past :data:`MAX_STEPS` candidate steps for a job it
stops with a :class:`instances.errors.LimitError` (exit 2 on the command line). Memory is
thus at most about 8·TABLE_CELLS bytes, or a few hundred bytes per step. Ties go to the
lowest index.
"""

from __future__ import annotations

import numpy as np

from instances.errors import LimitError
from models.combination.problem import Problem, Table

TABLE_CELLS = 20_000_000
"""Most cells ((jobs + 1) × (g* + 1)) of the table: 160 MB of int64."""

MAX_STEPS = 2_000_000
"""Most candidate steps (steps of f_{i+1} × alternatives of job i) of one job in the
step-function form."""

_NONE = -(2**62)
"""The table's mark of an expense level with no combination (values stay within 2⁶¹)."""


def solve_dp(
    table: Table, problem: Problem, limit: int
) -> tuple[str, list[int] | None, int | None]:
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
    sign = 1 if problem.sense == "max" else -1
    if limit < 0:
        return "infeasible", None, None
    # Beyond Σ_i max_j g the constraint cannot bind: cap the index range there.
    top = min(limit, sum(max(row) for row in g_tab))
    n = len(f_tab)
    small = sum(max(abs(f) for f in row) for row in f_tab) < 2**61
    if small and (n + 1) * (top + 1) <= TABLE_CELLS:
        found = _table(f_tab, g_tab, sign, top)
    else:
        found = _steps(f_tab, g_tab, sign, top)
    if found is None:
        return "infeasible", None, None
    choice, value = found
    return "optimal", choice, sign * value


def _table(
    f_tab: tuple[tuple[int, ...], ...], g_tab: tuple[tuple[int, ...], ...], sign: int, top: int
) -> tuple[list[int], int] | None:
    """Eqs. (2)–(4) over the table g = 0..top, in the maximising sign."""
    n = len(f_tab)
    rows = [np.zeros(top + 1, dtype=np.int64)]  # rows[k] = f_{n+1-k}
    for i in range(n - 1, -1, -1):
        nxt, cur = rows[-1], np.full(top + 1, _NONE, dtype=np.int64)
        for f, g in zip(f_tab[i], g_tab[i], strict=True):
            if g <= top:
                tail = nxt[: top + 1 - g]
                cand = np.where(tail == _NONE, _NONE, tail + sign * f)
                np.maximum(cur[g:], cand, out=cur[g:])
        rows.append(cur)
    if rows[-1][top] == _NONE:
        return None
    choice: list[int] = []
    rest = top
    for i in range(n):
        nxt = rows[n - 1 - i]
        best_j, best = -1, None
        for j, (f, g) in enumerate(zip(f_tab[i], g_tab[i], strict=True)):
            if g <= rest and nxt[rest - g] != _NONE:
                v = sign * f + int(nxt[rest - g])
                if best is None or v > best:
                    best_j, best = j, v
        choice.append(best_j)
        rest -= g_tab[i][best_j]
    return choice, int(rows[-1][top])


def _steps(
    f_tab: tuple[tuple[int, ...], ...], g_tab: tuple[tuple[int, ...], ...], sign: int, top: int
) -> tuple[list[int], int] | None:
    """Eqs. (2)–(4) with each f_i kept as its steps, in Python integers: per job the list
    of (expense, value, alternative, step of f_{i+1}) with expense ≤ top and value rising
    strictly with the expense (a step no better than a cheaper one is dropped)."""
    n = len(f_tab)
    fronts: list[list[tuple[int, int, int, int]]] = [[(0, 0, -1, -1)]]  # f_{n+1}
    for i in range(n - 1, -1, -1):
        nxt = fronts[-1]
        if len(nxt) * len(f_tab[i]) > MAX_STEPS:
            raise LimitError(
                f"the combination DP would weigh {len(nxt) * len(f_tab[i]):,} steps for one "
                f"job, above its limit of {MAX_STEPS:,} (limit {top}); use the cpsat or milp "
                "solver")
        cand = [(s + g, v + sign * f, j, k)
                for j, (f, g) in enumerate(zip(f_tab[i], g_tab[i], strict=True))
                for k, (s, v, _, _) in enumerate(nxt) if s + g <= top]
        cand.sort(key=lambda c: (c[0], -c[1], c[2]))
        front: list[tuple[int, int, int, int]] = []
        for c in cand:
            if not front or c[1] > front[-1][1]:
                front.append(c)
        if not front:
            return None
        fronts.append(front)
    at = len(fronts[-1]) - 1  # the values rise along a front: its last step is f_1(top)
    value = fronts[-1][at][1]
    choice: list[int] = []
    for i in range(n):
        _, _, j, at = fronts[n - i][at]
        choice.append(j)
    return choice, value
