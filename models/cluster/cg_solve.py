"""The ``cg`` snapshot solver: policy schedules, column-generation bounds, then CP-SAT with them.

Klusáček & Rudová 2008's lexicographic objective (delayed jobs U, then
makespan Cmax; ``docs/exact-models.md``, "Cluster snapshots"):

1. integer schedules from the cluster policies (:mod:`models.cluster.incumbents`)
   and the caller's hint, then the serial scheme moving critical jobs forward
   (:mod:`models.cluster.sgs`, ``sgs_share`` of the limit, a third of it when
   CP-SAT follows); the best (U, Cmax) is the incumbent;
2. proven bounds (U_lb, C_lb) by column generation
   (:mod:`models.cluster.bounds`), until ``bound_share`` of the limit has passed;
3. unless the incumbent meets them, the serial scheme again, aiming at them
   (the same share; all the time left when CP-SAT does not follow);
4. unless the incumbent meets them, the CP-SAT model
   (:mod:`models.cluster.snapshot`) with the incumbent as hint and the bounds
   as floors, for the rest of the time, on snapshots of at most
   ``cpsat_cells`` job × machine pairs (beyond, its model is too large to
   improve on the policies within a minute).

All of it runs under one deadline (:mod:`planner.deadline`); ``time_limit=None`` means no
limit (each stage then runs to its own end).

``status`` is ``optimal`` only when the incumbent meets the bounds on both
criteria; otherwise ``feasible``: ``bound`` = U_lb and
``info["makespan_bound"]`` = C_lb (a bound on the makespan of every
schedule, so on C* whatever U* is); ``info["gap"]`` is the gap of the first
criterion not proven (see :func:`lex_gap`).
"""

from __future__ import annotations

import time
from typing import Any

from instances.workload import Workload
from models.cluster.bounds import arrays, critical_bound, snapshot_bounds
from models.cluster.incumbents import Schedule, evaluate, policy_schedules
from models.cluster.sgs import improve
from models.cluster.snapshot import BeyondCumulative, solve_snapshot_cpsat
from models.result import Result
from planner.deadline import DEFAULT_TIME_LIMIT, Deadline, Share


def lex_gap(delayed: int, delayed_bound: int, makespan: int, makespan_bound: int | None
            ) -> tuple[str, float | None]:  # fmt: skip
    """Return the criterion still open and its gap (x − bound) / max(x, 1); 0.0 when proven.

    The delayed jobs come first: while U > U_lb the gap is on U; once U is
    proven, the gap is on the makespan.
    """
    if delayed > delayed_bound:
        return "delayed", (delayed - delayed_bound) / max(delayed, 1)
    if makespan_bound is None:
        return "makespan", None
    return "makespan", max(makespan - makespan_bound, 0) / max(makespan, 1)


def solve_snapshot_cg(workload: Workload, *,
                      time_limit: float | Deadline | None = DEFAULT_TIME_LIMIT, threads: int = 1,
                      seed: int = 0, hint: dict[str, tuple[str, int]] | None = None,
                      bound_share: float = 0.5, sgs_share: float = 0.15,
                      cpsat_cells: int = 4000, buckets: int = 48) -> Result:  # fmt: skip
    """Solve the snapshot with bounds by column generation; see the module docstring.

    Returns
    -------
    Result
        As :func:`models.cluster.snapshot.solve_snapshot_cpsat` (``objective``
        = U, ``bound`` = U_lb, ``info``: ``makespan``, ``makespan_bound``) plus
        ``info``: ``gap``, ``open`` (criterion of the gap), ``source`` (what
        found the schedule), ``probes``, ``iterations``, ``columns``.
    """
    began = time.perf_counter()
    budget = Deadline.of(time_limit).rest()
    jobs, machines = workload.jobs, workload.machines
    if not jobs:
        return Result("optimal", 0, 0, 0.0, "cg", (), {"makespan": 0, "makespan_bound": 0})
    found = policy_schedules(workload)
    if hint:
        index = {m.id: k for k, m in enumerate(machines)}
        placed = [(index.get(hint.get(j.id, ("", 0))[0], -1), hint.get(j.id, ("", 0))[1])
                  for j in jobs]  # fmt: skip
        given = evaluate(workload, placed, "hint")
        found += [given] if given is not None else []
    critical = critical_bound(arrays(workload)[0])
    small = len(jobs) * len(machines) <= cpsat_cells
    sgs = Share(most=sgs_share / 3 if small else sgs_share)
    best: Schedule = improve(workload, (0, critical), budget.stage(sgs),
                             min(found, key=lambda s: s.key) if found else None)  # fmt: skip
    first = min(j.submit for j in jobs)
    seeds = {(k, m, t - first) for s in [*found, best] for k, (m, t) in enumerate(s.placement)}
    b = snapshot_bounds(workload, best.delayed, best.makespan, columns=seeds, buckets=buckets,
                        time_limit=budget.stage(Share(by=bound_share)))  # fmt: skip
    u_lb, c_lb = b.delayed, b.makespan
    info: dict[str, Any] = {"probes": len(b.probes), "iterations": b.iterations,
                            "columns": b.columns}  # fmt: skip
    if best.key != (u_lb, c_lb) and not budget.passed():
        best = improve(workload, (u_lb, c_lb), budget.stage(sgs) if small else budget, best)
    if best.key != (u_lb, c_lb) and small and not budget.passed():
        given = {j.id: (machines[m].id, t) for j, (m, t) in zip(jobs, best.placement, strict=True)}
        try:
            res = solve_snapshot_cpsat(workload, time_limit=budget.left(), threads=threads,
                                       seed=seed, hint=given, floors=(u_lb, c_lb))  # fmt: skip
        except BeyondCumulative:  # past CP-SAT's 64-bit range: the bounds and incumbent stand
            res = None
        info["cpsat"] = "refused" if res is None else res.status
        if res is not None and res.status in ("optimal", "feasible"):
            u_lb = max(u_lb, int(res.bound))
            mine = (res.objective, res.info["makespan"])
            if mine < best.key:
                best = _from_windows(workload, res.windows, "cpsat") or best
            if res.info.get("makespan_bound") is not None and best.delayed == u_lb:
                c_lb = max(c_lb, res.info["makespan_bound"])
    proven = best.key == (u_lb, c_lb)
    info.update(makespan=best.makespan, makespan_bound=c_lb)
    info["open"], info["gap"] = lex_gap(best.delayed, u_lb, best.makespan, info["makespan_bound"])
    info["source"] = best.source
    windows = tuple((j.id, machines[m].id, t) for j, (m, t) in zip(jobs, best.placement,
                                                                   strict=True))  # fmt: skip
    return Result("optimal" if proven else "feasible", best.delayed, u_lb,
                  time.perf_counter() - began, "cg", windows, info)


def _from_windows(workload: Workload, windows: tuple[Any, ...], source: str) -> Schedule | None:
    """Return the CP-SAT schedule as a :class:`Schedule` (None if it does not evaluate)."""
    index = {m.id: k for k, m in enumerate(workload.machines)}
    where = {jid: (index[mid], t) for jid, mid, t in windows}
    return evaluate(workload, [where[j.id] for j in workload.jobs], source)
