"""A combination file against planner's own combination (``planner check --algorithm`` on the
lines of ``planner combine``).

planner finds the batch's alternatives with the algorithm, solves the stated
problem by the dynamic programme of Toporkov et al. 2015 (a proven optimum)
with the same limits, and compares: ``identical`` (the same alternative for
every job), ``tie`` (the same objective, another choice) or ``differs``.
"""

from __future__ import annotations

import math
from typing import Any

from instances import Instance
from planner import find_alternatives, resolve
from validation.conformance.compare import Outcome
from validation.conformance.reference import expected

SENSE: dict[int, str] = {6: "max Σ cost", 7: "min Σ time", 8: "min Σ cost", 9: "max Σ time"}


def planner_alternatives(instance: Instance, algorithm: str, seed: int = 0) -> Any:
    """Return planner's alternatives of the batch as a parsed result file."""
    return expected(instance, algorithm, "alternatives", seed=seed)[1]


def compare_combination(
    instance: Instance,
    summary: dict[str, Any],
    chosen: dict[str, int | None],
    algorithm: str,
    *,
    t_star: int | None = None,
    b_star: int | None = None,
    seed: int = 0,
) -> Outcome:
    """Compare a stated combination (``chosen``: job → alternative number or None) with planner's
    dynamic programme over planner's alternatives found with ``algorithm``."""
    from models import solve_combination

    name = resolve(algorithm).name
    alts = find_alternatives(instance, name, seed=seed).by_job()
    problem = int(summary["problem"])
    time = summary.get("time") or "proc_time"
    res = solve_combination({j.id: alts.get(j.id, []) for j in instance.jobs}, problem, "dp",
                            time=time, t_star=t_star, b_star=b_star)  # fmt: skip
    mine = {w.job: res.info["choice"][w.job] + 1 for w in res.windows}
    theirs = {job: k for job, k in chosen.items() if k is not None}
    head = f"problem {problem} ({SENSE[problem]}, limit {res.info.get('limit')})"
    if res.status != "optimal":
        return Outcome("(combination)", "differs",
                       f"{head}: planner's combination is {res.status}", "status")  # fmt: skip
    if mine == theirs:
        return Outcome("(combination)", "identical")
    stated = summary.get("objective")
    plan = ", ".join(f"{j}: {k}" for j, k in mine.items()) or "nothing placed"
    text = (f"{head}: planner's combination ({plan}) has objective {res.objective}; "
            f"yours {stated}")  # fmt: skip
    if stated is not None and math.isclose(float(stated), float(res.objective), abs_tol=1e-9):
        return Outcome("(combination)", "tie", text)
    return Outcome("(combination)", "differs", text, "objective")
