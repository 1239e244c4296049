"""``solve_snapshot``: the snapshot solvers of :data:`planner.registry.SNAPSHOT_SOLVERS` by name.

Klusáček & Rudová 2008's lexicographic objective (fewest delayed jobs, then
makespan); the formulations are written out in ``docs/exact-models.md``,
"Cluster snapshots".
"""

from __future__ import annotations

from typing import Any

from instances.workload import Workload
from models.cluster.cg_solve import solve_snapshot_cg
from models.cluster.milp import check_snapshot_milp, solve_snapshot_milp
from models.cluster.snapshot import check_snapshot_cpsat, solve_snapshot_cpsat
from models.result import Result
from planner.deadline import DEFAULT_TIME_LIMIT

AUTO_CG_JOBS = 20
"""``auto`` runs ``cg`` above this many jobs and ``cpsat`` up to it (docs/benchmarks.md)."""


def snapshot_solver(workload: Workload, solver: str) -> str:
    """Return the solver ``solver`` runs on ``workload`` (``auto`` resolved); ValueError
    naming the choices for an unknown name."""
    from planner.registry import SNAPSHOT_SOLVERS

    if solver not in SNAPSHOT_SOLVERS:
        raise ValueError(f"unknown snapshot solver '{solver}' (choose from: "
                         f"{', '.join(SNAPSHOT_SOLVERS)})")  # fmt: skip
    if solver == "auto":
        return "cg" if len(workload.jobs) > AUTO_CG_JOBS else "cpsat"
    return solver


def check_snapshot(workload: Workload, solver: str = "auto") -> None:
    """Raise ValueError (one line naming the rule) when ``solver`` refuses ``workload``.

    The rules the solvers themselves apply before any work: ``milp`` past its cell or
    CPU caps, ``cpsat`` past the 64-bit range of CP-SAT's cumulative
    (``cg`` then keeps its own bounds and refuses nothing the workload allows).
    """
    solver = snapshot_solver(workload, solver)
    if solver == "milp":
        check_snapshot_milp(workload)
    elif solver == "cpsat":
        check_snapshot_cpsat(workload)


def solve_snapshot(workload: Workload, *, solver: str = "auto",
                   time_limit: float | None = DEFAULT_TIME_LIMIT,
                   threads: int = 1, seed: int = 0,
                   hint: dict[str, tuple[str, int]] | None = None) -> Result:  # fmt: skip
    """Solve a snapshot with the registered ``solver`` (``cpsat``, ``milp``, ``cg``, ``auto``).

    ``status`` is ``optimal`` only when both criteria are proven; otherwise
    ``feasible`` with ``bound`` (on the delayed jobs) and
    ``info["makespan_bound"]``. ``hint`` (job id → (machine id, start)) seeds
    ``cpsat`` and ``cg``. Raises ValueError naming the choices for an unknown
    solver, and naming the rule for a snapshot the solver refuses
    (:func:`check_snapshot`).
    """
    solver = snapshot_solver(workload, solver)
    kw: dict[str, Any] = {"time_limit": time_limit, "threads": threads}
    if solver == "milp":
        return solve_snapshot_milp(workload, **kw)
    run = solve_snapshot_cg if solver == "cg" else solve_snapshot_cpsat
    return run(workload, seed=seed, hint=hint, **kw)
