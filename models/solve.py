"""The solve façade for single-job window selection: one entry point, one :class:`Result`.

``solve_window`` finds the optimum of a docs/concepts.md criterion over the windows of
docs/concepts.md (AEP start space by default, any integer start with ``free_start``),
with the backend named by ``solver`` (:data:`SOLVERS`). Each backend's
module, and so its solver library, is imported only when it is chosen.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from instances import Instance, Job, Slot
from instances.text import noun
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
    """Turn a normalised value (minimised; DEP/COORD summed, q scaled) into the metric."""
    if value is None:
        return None
    metric = sp.criterion.metric
    if metric in ("near_distance", "far_distance"):
        value = value / sp.n
    elif metric == "q":
        from models.window.space import natural_q

        value = natural_q(value, sp.q_exp)
    return -value if sp.criterion.sense == "max" else value


def _normalised(sp: Any, chosen: Sequence[int], objective: float) -> float:
    """Return a window's value in the solvers' normalised units (exact for q)."""
    if sp.criterion.metric == "q":
        return -float(sp.q[list(chosen)].sum())
    value = sp.criterion.normalised(objective)
    return value * sp.n if sp.criterion.metric in ("near_distance", "far_distance") else value


def _tighter(sp: Any, bound: float | None, relaxed: float | None) -> float | None:
    """Return the tighter of a solver's bound and the budget-free relaxation (both natural)."""
    if bound is None or relaxed is None:
        return relaxed if bound is None else bound
    return max(bound, relaxed) if sp.criterion.sense == "min" else min(bound, relaxed)


def _inexact_q_bound(sp: Any, relaxed: float | None) -> float | None:
    """Return a proven bound from the float relaxation of inexact q, widened by its rounding."""
    if relaxed is None:
        return None
    margin = sp.n * float(abs(sp.q).max(initial=0.0)) * 2.0**-40
    return _denormalise(sp, relaxed - margin)


BUILD_GRACE = 0.5
"""Seconds of model building allowed even under a smaller time limit.

Building a small model (and the dominance reduction's incumbent window) takes
milliseconds and gives a useful ``feasible`` answer even at a zero limit; large
models are cut off after at most this long (plus one chunk of work)."""

INEXACT_Q = (
    "q has no exact integer scaling (the absolute sum of the scaled q of the suitable "
    "slots exceeds 2^50): optimality is not claimed"
)
MILP_TOLERANCE = (
    "the MILP objective may exceed 10^9 units, beyond which the solver's tolerances "
    "may hide a better window: optimality is not claimed"
)


def _run(
    sp: Any,
    solver: str,
    free_start: bool,
    time_limit: float | None,
    threads: int,
    options: dict[str, Any],
    notes: list[str],
) -> tuple[str, Any, float | None]:
    """Build and solve the model of ``solver``; return (status, found, natural bound)."""
    if solver == "cpsat":
        from models.window.cpsat import WindowModel

        model = WindowModel(sp, free_start=free_start, reduce=options.get("reduce", True))
        return model.solve(time_limit=time_limit, threads=threads, seed=options.get("seed", 0))
    if solver == "dp":
        from models.window.dp import solve_dp

        status, found, raw = solve_dp(
            sp, free_start=free_start, time_limit=time_limit, prune=options.get("prune", True)
        )
    else:
        from models.window.milp import solve_milp

        backend = "highs" if solver == "milp-highs" else options.get("backend", "cbc")
        status, found, raw = solve_milp(
            sp,
            free_start=free_start,
            backend=backend,
            time_limit=time_limit,
            threads=threads,
            notes=notes,
        )
    return status, found, _denormalise(sp, raw)


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
        The instance; its ``geometry`` sets the task durations (docs/concepts.md).
    job
        The job or its id.
    criterion
        A docs/concepts.md criterion name (default: the job's own).
    solver
        A :data:`SOLVERS` name.
    free_start
        Allow any integer start T, not only suitable slot starts (docs/concepts.md).
    time_limit
        Seconds, model building included; on expiry the status is ``feasible``
        (with ``bound``) or ``unknown`` (``info["reason"]`` says so when the
        limit struck while the model was being built). Default
        :data:`models.progress.DEFAULT_TIME_LIMIT` (60 s); None for no limit.
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
    from models.window.space import BuildTimeLimit, WindowSpace, criterion_of

    began = time.perf_counter()
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver '{solver}' (choose from: {', '.join(SOLVERS)})")
    job = instance.job(job) if isinstance(job, str) else job
    crit = criterion_of(job, criterion)
    allowed = {"milp": {"backend"}, "cpsat": {"seed", "reduce"}, "dp": {"prune"}}.get(solver, set())
    extra = set(options) - allowed
    if extra:
        raise TypeError(f"solver '{solver}' takes no {noun(len(extra), 'option')} "
                        f"{', '.join(sorted(extra))}")
    limit_at = began + time_limit if time_limit is not None else None
    deadline = began + max(time_limit, BUILD_GRACE) if time_limit is not None else None
    notes: list[str] = []
    try:
        sp = WindowSpace(instance, job, crit, slots, deadline=deadline, limit_at=limit_at)
        status, found, bound = _run(sp, solver, free_start, time_limit, threads, options, notes)
    except BuildTimeLimit as err:
        base = {"job": job.id, "criterion": crit.name, "free_start": free_start}
        return Result(
            status="unknown",
            objective=None,
            bound=None,
            runtime=time.perf_counter() - began,
            solver=solver,
            info=base | {"reason": str(err)},
        )
    sp.deadline = None  # the checks below are part of the answer, not of the search
    window = sp.window(found[0], found[1]) if found is not None else None
    objective = window.value(crit.name) if window is not None else None
    info: dict[str, Any] = {"job": job.id, "criterion": crit.name, "free_start": free_start}
    inexact = crit.metric == "q" and not sp.q_exact
    if status == "optimal" and not inexact:
        bound = objective
    elif status in ("feasible", "unknown", "optimal"):
        from models.window.dp import relaxation_bound

        relaxed = relaxation_bound(sp, free_start=free_start)  # exact, normalised
        if inexact:
            status = "feasible" if status == "optimal" else status
            bound = _inexact_q_bound(sp, relaxed)
            info["reason"] = INEXACT_Q
        else:
            bound = _tighter(sp, bound, _denormalise(sp, relaxed))
            # values are integers in normalised units: the incumbent attains the relaxation
            if (
                found is not None
                and relaxed is not None
                and objective is not None
                and _normalised(sp, found[1], objective) <= relaxed + 0.5
            ):
                status, bound = "optimal", objective
            if status == "feasible" and "tolerance" in notes:
                info["reason"] = MILP_TOLERANCE
    return Result(
        status=status,
        objective=objective,
        bound=bound,
        runtime=time.perf_counter() - began,
        solver=solver,
        windows=(window,) if window is not None else (),
        info=info,
    )
