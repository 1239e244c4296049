"""Window selection as a time-indexed MILP over the candidate starts (PuLP; docs/concepts.md).

One binary y_c per candidate ``c = (T, level)`` of :mod:`models.window.space`
and one binary x_cj per slot j alive at c: ``Σ_c y_c = 1``,
``Σ_j x_cj = n · y_c``, ``x_cj ≤ y_c``, the budget ``Σ_j c_cj x_cj ≤ S · y_c`` and,
in square geometry, at least one slot of the exact level per chosen
candidate. Additive criteria are linear in x; ``min_start`` is linear in y;
rough ``min_runtime``/``min_finish`` bound an extra variable by every chosen
slot's duration (finish time). The model is always a minimisation of the
normalised criterion (maxima negated).

Backends: CBC (PuLP's bundled binary, run as a subprocess) by default, or
HiGHS through :mod:`models.window.highs_proc`, a separate Python process, so
that either works in a process that has already loaded OR-Tools (the two
wheels bundle clashing HiGHS builds).
"""

from __future__ import annotations

import math
import time

import numpy as np

from models.backends import import_pulp
from models.cbc import solve_cbc
from models.window.space import WindowSpace

pulp = import_pulp()

BACKENDS: tuple[str, ...] = ("cbc", "highs")


def build(
    sp: WindowSpace, *, free_start: bool = False
) -> tuple[pulp.LpProblem, dict[tuple[int, int, int], pulp.LpVariable]]:
    """Return the PuLP model and ``{(candidate, its start T, slot j): x variable}``."""
    t, lv, alive = sp.candidates(free_start)
    metric = sp.criterion.metric
    unit = objective_unit(sp)
    prob = pulp.LpProblem("window", pulp.LpMinimize)
    y = [prob.add_variable(f"y{c}", cat="Binary") for c in range(len(t))]
    x: dict[tuple[int, int, int], pulp.LpVariable] = {}
    goal: list[tuple[float, pulp.LpVariable]] = []
    durations: dict[int, list[tuple[int, int, int]]] = {}
    for c, (tc, level, row) in enumerate(zip(t.tolist(), lv.tolist(), alive, strict=True)):
        sp.check_deadline()
        idx = np.flatnonzero(row).tolist()
        xs = {j: prob.add_variable(f"x{c}_{j}", cat="Binary") for j in idx}
        prob += pulp.lpSum(xs.values()) == sp.n * y[c], f"card{c}"
        for j, v in xs.items():
            prob += v <= y[c], f"link{c}_{j}"
            x[c, tc, j] = v
        if sp.budget is not None:
            costs = sp.costs(level)
            spend = pulp.LpAffineExpression([(v, int(costs[j])) for j, v in xs.items()])
            prob += spend <= sp.budget * y[c], f"budget{c}"
        if sp.square:
            exact = [v for j, v in xs.items() if sp.r[j] == level]
            prob += pulp.lpSum(exact) >= y[c], f"level{c}"
        if metric == "start":
            goal.append((tc, y[c]))
        elif metric in ("runtime", "finish"):
            if sp.square:
                goal.append((level + (tc if metric == "finish" else 0), y[c]))
            else:
                for j, v in xs.items():
                    durations.setdefault(j, []).append((tc, int(sp.r[j]), v))
        else:
            z = sp.values(tc, level) * unit
            goal += [(float(z[j]), v) for j, v in xs.items()]
    prob += pulp.lpSum(y) == 1, "one_start"
    if durations:
        top = prob.add_variable("top", lowBound=0)
        for j, terms in durations.items():
            start = metric == "finish"
            prob += top >= pulp.lpSum((tc * start + d) * v for tc, d, v in terms), f"end{j}"
        goal.append((1, top))
    prob += pulp.LpAffineExpression([(v, k) for k, v in goal])
    return prob, x


SAFE_MAGNITUDE = 10**9
"""Largest |objective| (in its integer units) for which a MILP's ``optimal`` is kept.

CBC and HiGHS work in doubles with feasibility and integrality tolerances of
about 1e-7 to 1e-6 (relative to the values involved); below 10^9 units their
errors stay well under the one unit that separates two windows' values.
Above it, or with q that has no exact integer scaling, an ``optimal`` is
reported as ``feasible``."""


def objective_unit(sp: WindowSpace) -> float:
    """Return the factor of the objective: 1, or a scale for inexact q.

    Exactly scaled q (:func:`models.window.space.exact_q`) are integers already;
    other q are scaled so that the largest is about 10^6 (huge or tiny
    coefficients stall the solvers; the result is never claimed optimal).
    """
    top = float(np.abs(sp.q).max()) if sp.m else 0.0
    if sp.criterion.metric != "q" or sp.q_exact or top == 0:
        return 1
    return 10.0 ** (6 - math.floor(math.log10(top)))


def tolerance_safe(prob: pulp.LpProblem, sp: WindowSpace) -> bool:
    """Return True when the MILP's objective is integral and small enough to trust its status."""
    if sp.criterion.metric == "q" and not sp.q_exact:
        return False
    coefs = [abs(k) for k in prob.objective.values()] or [0]
    return max(coefs) * max(sp.n, 1) <= SAFE_MAGNITUDE


def solve_milp(
    sp: WindowSpace,
    *,
    free_start: bool = False,
    backend: str = "cbc",
    time_limit: float | None = None,
    threads: int = 1,
    notes: list[str] | None = None,
) -> tuple[str, tuple[int, list[int]] | None, float | None]:
    """Return ``(status, (T, chosen slot indices) or None, normalised bound)``.

    An ``optimal`` that :func:`tolerance_safe` does not trust is returned as
    ``feasible``, and ``"tolerance"`` is appended to ``notes``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown MILP backend '{backend}' (choose from: {', '.join(BACKENDS)})")
    prob, x = build(sp, free_start=free_start)
    if sp.limit_at is not None:  # building counts against the time limit
        time_limit = max(sp.limit_at - time.perf_counter(), 0.001)
    if not x:
        return "infeasible", None, None
    if backend == "highs":
        from models.window.highs_proc import solve_mps

        status, values, bound = solve_mps(prob, time_limit=time_limit, threads=threads)
    else:
        status, values, bound = _solve_cbc(prob, time_limit, threads)
    if bound is not None:
        bound /= objective_unit(sp)
    if status == "optimal" and not tolerance_safe(prob, sp):
        status = "feasible"  # see SAFE_MAGNITUDE
        if notes is not None:
            notes.append("tolerance")
    if status not in ("optimal", "feasible"):
        return status, None, bound
    chosen = [(tc, j) for (_, tc, j), v in x.items() if values.get(v.name, 0.0) > 0.5]
    return status, (chosen[0][0], sorted(j for _, j in chosen)), bound


def _solve_cbc(
    prob: pulp.LpProblem, time_limit: float | None, threads: int
) -> tuple[str, dict[str, float], float | None]:
    status, bound = solve_cbc(prob, time_limit=time_limit, threads=threads)
    values = {v.name: v.varValue or 0.0 for v in prob.variables()}
    return status, values, bound
