"""The solve façade for batch combination (docs/concepts.md): one entry point, one :class:`Result`.

Each method's module, and so its solver library, is imported only when chosen.
"""

from __future__ import annotations

import time as _clock
from collections.abc import Mapping, Sequence
from typing import Any

from models.combination.problem import Table, limit_for, problem_of
from models.result import Result
from planner.deadline import DEFAULT_TIME_LIMIT, Deadline

COMBINATION_SOLVERS: dict[str, str] = {
    "dp": "backward recursion of Toporkov et al. 2015 eqs. (2)–(4) over the constraint resource",
    "cpsat": "multiple-choice knapsack, CP-SAT (OR-Tools)",
    "milp": "multiple-choice knapsack MILP, CBC via PuLP (subprocess)",
}
"""Combination method names → description."""


def solve_combination(
    alternatives: Mapping[str, Sequence[Any]],
    problem: int,
    solver: str = "dp",
    *,
    time: str = "proc_time",
    t_star: int | None = None,
    b_star: int | None = None,
    time_limit: float | Deadline | None = DEFAULT_TIME_LIMIT,
    threads: int = 1,
) -> Result:
    """Choose one alternative per job for combination problem (6)–(9) (docs/concepts.md, Toporkov
    et al. 2015 §2.3).

    Parameters
    ----------
    alternatives
        Job id → that job's alternative windows, in batch order (as
        ``planner.find_alternatives(...).by_job()`` gives). Jobs with an
        empty list are postponed to the next cycle.
    problem
        6 (max Σ cost, Σ time ≤ t*), 7 (min Σ time, Σ cost ≤ b*),
        8 (min Σ cost, Σ time ≤ t*) or 9 (max Σ time, Σ time ≤ t*).
    solver
        A :data:`COMBINATION_SOLVERS` name.
    time
        The window metric that is "time": ``proc_time`` (default) or ``runtime``.
    t_star, b_star
        The limits (integers). Defaults (docs/concepts.md), over the jobs that have
        alternatives: t* = Σ_i ceil(mean time of job i's alternatives)
        (Toporkov et al. 2015 eq. (5)); b* = floor(Σ_i mean cost of job i's alternatives).
    time_limit
        Seconds for ``cpsat``/``milp`` (the DP always runs to the end), or a
        :class:`planner.deadline.Deadline` shared with the caller; default
        :data:`planner.deadline.DEFAULT_TIME_LIMIT` (60 s), None for none.
    threads
        CP-SAT workers / CBC threads.

    Returns
    -------
    Result
        ``windows``: the chosen window per placed job, in batch order;
        ``objective``: Σ f of the chosen windows; ``bound``: the best proven
        bound; ``info``: ``problem``, ``time``, ``jobs`` (placed, batch order),
        ``postponed``, ``choice`` (job → alternative index), ``t_star``,
        ``b_star``, ``limit`` (the constraint's) and ``constraint_value`` (Σ g).
    """
    began = _clock.perf_counter()
    left = Deadline.of(time_limit).left()
    prob = problem_of(problem)
    if solver not in COMBINATION_SOLVERS:
        raise ValueError(
            f"unknown combination solver '{solver}' (choose from: {', '.join(COMBINATION_SOLVERS)})"
        )
    table = Table.of(alternatives, time)
    limit, t_used, b_used = limit_for(table, prob, t_star, b_star)
    if not table.jobs:
        status, choice, bound = ("optimal", [], 0.0) if limit >= 0 else ("infeasible", None, None)
    elif solver == "dp":
        from models.combination.dp import solve_dp

        status, choice, bound = solve_dp(table, prob, limit)
    elif solver == "cpsat":
        from models.combination.cpsat import solve_cpsat

        status, choice, bound = solve_cpsat(
            table, prob, limit, time_limit=left, threads=threads
        )
    else:
        from models.combination.milp import solve_milp

        status, choice, bound = solve_milp(
            table, prob, limit, time_limit=left, threads=threads
        )
    f_tab, g_tab = table.column(prob.objective), table.column(prob.constraint)
    info: dict[str, Any] = {
        "problem": prob.number,
        "time": time,
        "jobs": list(table.jobs),
        "postponed": list(table.postponed),
        "choice": {},
        "t_star": t_used,
        "b_star": b_used,
        "limit": limit,
        "constraint_value": None,
    }
    windows: list[Any] = []
    objective = None
    if choice is not None:
        info["choice"] = dict(zip(table.jobs, choice, strict=True))
        windows = [table.windows[i][j] for i, j in enumerate(choice)]
        objective = sum(f_tab[i][j] for i, j in enumerate(choice))
        info["constraint_value"] = sum(g_tab[i][j] for i, j in enumerate(choice))
        if status == "optimal":
            bound = objective
    return Result(
        status=status,
        objective=objective,
        bound=bound,
        runtime=_clock.perf_counter() - began,
        solver=solver,
        windows=tuple(windows),
        info=info,
    )
