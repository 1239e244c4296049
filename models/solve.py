"""The solve façade for single-job window selection: one entry point, one :class:`Result`.

``solve_window`` finds the optimum of a SPEC §4 criterion over the windows of
SPEC §3 (AEP start space by default, any integer start with ``free_start``),
with the backend named by ``solver`` (:data:`SOLVERS`). Each backend's
module, and so its solver library, is imported only when it is chosen.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from instances import Instance, Job, Slot
from models.progress import DEFAULT_TIME_LIMIT
from models.result import Result

SOLVERS: dict[str, str] = {
    "cpsat": "compact CP-SAT model (OR-Tools)",
    "milp": "time-indexed MILP over the candidate starts, CBC via PuLP",
    "milp-highs": "the same MILP, HiGHS in a separate process",
    "dp": "n-of-m subset DP per candidate start, bound-ordered (docs/exact-models.md)",
}
"""Window solver names → description; ``milp`` also takes ``backend="highs"``."""


def _denormalise(sp: Any, value: float | None) -> float | None:
    """Turn a normalised sum (minimised; DEP/COORD summed over tasks) into the metric's sign."""
    if value is None:
        return None
    if sp.criterion.metric in ("near_distance", "far_distance"):
        value = value / sp.n
    return -value if sp.criterion.sense == "max" else value


def _meets(sense: str, objective: float, bound: float) -> bool:
    """Return True when ``objective`` attains the proven ``bound`` (up to float noise).

    The tolerance is relative only: q may be a real of any magnitude, so an
    absolute one would accept a window that is worse by a small q difference.
    """
    gap = objective - bound if sense == "min" else bound - objective
    return gap <= 1e-9 * max(abs(objective), abs(bound))


def _tighter(sp: Any, bound: float | None, free_start: bool) -> float | None:
    """Return the tighter of a solver's bound and the budget-free relaxation of :mod:`dp`."""
    from models.window.dp import relaxation_bound

    relaxed = _denormalise(sp, relaxation_bound(sp, free_start=free_start))
    if bound is None or relaxed is None:
        return relaxed if bound is None else bound
    return max(bound, relaxed) if sp.criterion.sense == "min" else min(bound, relaxed)


def solve_window(
    instance: Instance,
    job: Job | str,
    criterion: str | None = None,
    solver: str = "cpsat",
    *,
    free_start: bool = False,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    threads: int = 1,
    slots: Sequence[Slot] | None = None,
    **options: Any,
) -> Result:
    """Return the optimal window of ``job`` for ``criterion`` as a :class:`Result`.

    Parameters
    ----------
    instance
        The instance; its ``geometry`` sets the task durations (SPEC §3).
    job
        The job or its id.
    criterion
        A SPEC §4 criterion name (default: the job's own).
    solver
        A :data:`SOLVERS` name.
    free_start
        Allow any integer start T, not only suitable slot starts (SPEC §4).
    time_limit
        Seconds; on expiry the status is ``feasible`` (with ``bound``) or
        ``unknown``. Default :data:`models.progress.DEFAULT_TIME_LIMIT` (60 s);
        None for no limit.
    threads
        Solver threads (CP-SAT workers, CBC/HiGHS threads; the DP uses one).
    slots
        The free slot list to search (default: the instance's).
    **options
        ``backend`` (``cbc`` or ``highs``) for ``milp``; ``seed`` and ``reduce``
        (default True: drop dominated candidate starts first, :mod:`models.window.reduce`)
        for ``cpsat``; ``prune`` (default True: skip candidates whose bound cannot win) for ``dp``.

    Returns
    -------
    Result
        ``windows`` holds the optimal (or best found) window, else nothing;
        ``objective`` is its criterion metric and ``bound`` the best proven
        bound, both in the metric's natural sign (e.g. q for ``max_q``).
    """
    from models.window.space import WindowSpace, criterion_of

    began = time.perf_counter()
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver '{solver}' (choose from: {', '.join(SOLVERS)})")
    job = instance.job(job) if isinstance(job, str) else job
    crit = criterion_of(job, criterion)
    allowed = {"milp": {"backend"}, "cpsat": {"seed", "reduce"}, "dp": {"prune"}}.get(solver, set())
    extra = set(options) - allowed
    if extra:
        raise TypeError(f"solver '{solver}' takes no option(s) {', '.join(sorted(extra))}")
    sp = WindowSpace(instance, job, crit, slots)
    if solver == "cpsat":
        from models.window.cpsat import WindowModel

        model = WindowModel(sp, free_start=free_start, reduce=options.get("reduce", True))
        status, found, bound = model.solve(
            time_limit=time_limit, threads=threads, seed=options.get("seed", 0)
        )
    else:
        if solver == "dp":
            from models.window.dp import solve_dp

            status, found, raw = solve_dp(
                sp, free_start=free_start, time_limit=time_limit, prune=options.get("prune", True)
            )
        else:
            from models.window.milp import solve_milp

            backend = "highs" if solver == "milp-highs" else options.get("backend", "cbc")
            status, found, raw = solve_milp(
                sp, free_start=free_start, backend=backend, time_limit=time_limit, threads=threads
            )
        bound = _denormalise(sp, raw)
    window = sp.window(found[0], found[1]) if found is not None else None
    objective = window.value(crit.name) if window is not None else None
    if status == "optimal":
        bound = objective
    elif status in ("feasible", "unknown"):
        bound = _tighter(sp, bound, free_start)
        if objective is not None and bound is not None and _meets(crit.sense, objective, bound):
            status, bound = "optimal", objective  # the incumbent attains a proven bound
    return Result(
        status=status,
        objective=objective,
        bound=bound,
        runtime=time.perf_counter() - began,
        solver=solver,
        windows=(window,) if window is not None else (),
        info={"job": job.id, "criterion": crit.name, "free_start": free_start},
    )
