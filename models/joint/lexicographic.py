"""The lexicographic solve of the joint model (docs/exact-models.md): most jobs placed, then the
objective.

Two CP-SAT stages: first maximise the number of placed jobs; then fix that
number (hinting the first solution) and optimise the batch objective: Σ of
one docs/concepts.md metric over the placed jobs, or a combination problem's Σ f_j.
Both run under one deadline (:mod:`planner.deadline`): stage 2 gets what stage 1 left.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from instances.text import plural
from models.backends import cpsat_bound, cpsat_solver, cpsat_status, run_cpsat
from models.joint.cpsat import JointModel
from models.progress import SearchProgress
from planner.deadline import Deadline


def _solver(time_limit: float | None, threads: int, seed: int) -> cp_model.CpSolver:
    solver = cpsat_solver(threads=threads, seed=seed, time_limit=time_limit)
    # Linear relaxation of the enforced constraints too: measured to prove
    # larger css2015 batches (benchmarks/bench_joint.py).
    solver.parameters.linearization_level = 2
    return solver


def solve_lexicographic(
    jm: JointModel,
    goal: cp_model.LinearExprT | None,
    sense: str,
    *,
    hint: dict[int, tuple[int, list[int]]] | None = None,
    deadline: Deadline | None = None,
    threads: int = 1,
    seed: int = 0,
    scale: float = 1.0,
    track: SearchProgress | None = None,
) -> dict[str, Any]:
    """Solve max #placed, then extremise ``goal`` with that number fixed.

    ``hint`` (see :meth:`JointModel.hint`) seeds the first stage.

    Returns a dict with ``status`` (both stages proven → ``optimal``),
    ``solution`` (see :meth:`JointModel.solution`, None without one), ``value`` (its
    ``goal``, an exact integer), ``bound`` (stage 2's exact integer bound,
    :func:`models.backends.cpsat_bound`, only when stage 1 is proven), ``placed_bound``
    (stage 1's) and the stages' statuses. A stage is proven when its value equals its
    bound (integers), whatever CP-SAT's status says. Both stages stop at ``deadline``
    (None: no limit). ``track`` (optional) shows each stage's incumbent and bound as
    CP-SAT finds them; ``scale`` divides stage 2's raw objective for that display.
    """
    m = jm.model
    count = sum(jm.placed)
    m.Maximize(count)
    if hint is not None:
        jm.hint(hint)

    def run(solver: cp_model.CpSolver, *, counting: bool) -> str:
        watched = track.watch(solver, count=counting, scale=scale) if track else solver
        return cpsat_status(run_cpsat(watched, m)) or "unknown"

    left = None if deadline is None else deadline.left()
    solver = _solver(left, threads, seed)
    if track is not None:
        track.update(stage="jobs placed")
    first = run(solver, counting=True)
    out: dict[str, Any] = {"stage1": first, "stage2": None, "bound": None, "placed_bound": None,
                           "value": None}
    if first not in ("optimal", "feasible"):
        out.update(status=first, solution=None)
        return out
    best = jm.solution(solver)
    # the count is proven when it equals CP-SAT's integer bound, not by CP-SAT's status
    out["placed_bound"] = cpsat_bound(solver, m)
    first = "optimal" if out["placed_bound"] == len(best) else "feasible"
    out.update(status=first, solution=best, stage1=first)
    if goal is None:
        return out
    m.Add(count == len(best))
    m.ClearHints()
    jm.hint(best)
    (m.Maximize if sense == "max" else m.Minimize)(goal)
    solver = _solver(None if deadline is None else deadline.left(), threads, seed)
    if track is not None:
        track.update(stage=f"objective, {plural(len(best), 'job')} placed")
    second = run(solver, counting=False)
    if second in ("optimal", "feasible"):
        out["solution"] = jm.solution(solver)
        out["value"] = int(solver.Value(goal))
        if first == "optimal":
            out["bound"] = cpsat_bound(solver, m)
        second = "optimal" if out["bound"] is not None and out["bound"] == out["value"] else (
            "feasible")
    out["stage2"] = second
    out["status"] = "optimal" if first == second == "optimal" else "feasible"
    return out
