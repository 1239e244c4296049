"""One snapshot of a schedule-gap study: every policy replayed and checked, then solved exactly.

Runs in the workers. Each policy replays the snapshot online in the cluster
simulator (it learns the jobs as they are released) and its schedule passes
the independent checker (:mod:`validation.cluster_check`); the spec's solver
(:func:`models.cluster.solve_snapshot`: ``cpsat``, ``cg``, ...;
lexicographic: fewest delayed jobs, then makespan; Klusáček & Rudová 2008's
criteria) solves it offline, seeded with the best replay, and its schedule
passes :mod:`validation.snapshot_check`. A row holds the solver's status,
values and proven bounds; the gap (:func:`gap_text`) is derived from them.
See ``docs/schedule-based.md``, "Gap to the optimum".
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from validation.study.schedule_gap.spec import Snapshot


def _replay(workload: Any, policy: str) -> tuple[Any, list[str]]:
    """Return the replay of ``policy`` and the checker's violations of its schedule."""
    from planner.cluster import ReservationLog, simulate
    from planner.cluster.output import write_jobs_csv
    from validation.cluster_check import check_schedule_files

    log = ReservationLog()
    replay = simulate(workload, policy, log=log)
    with tempfile.TemporaryDirectory(prefix="planner-schedule-gap-") as tmp:
        jobs, res = Path(tmp) / "jobs.csv", Path(tmp) / "res.csv"
        write_jobs_csv(replay, jobs)
        log.write(res)
        return replay, check_schedule_files(replay.workload, jobs, policy=policy,
                                            reservations=res)  # fmt: skip


def _workload(task: Snapshot) -> Any:
    from instances.generators.registry import generate_workload

    return generate_workload("klusacek2008", task.seed, machines=task.machines, jobs=task.jobs,
                             interarrival=task.interarrival)  # fmt: skip


def check_task(task: Snapshot) -> None:
    """Raise StudyError (one line naming the snapshot and the rule) when the generator or
    the spec's solver refuses the snapshot (:func:`models.cluster.check_snapshot`)."""
    from models.cluster import check_snapshot
    from validation.study.engine.errors import StudyError

    try:
        wl = _workload(task)
    except ValueError as err:
        raise StudyError(f"snapshot {task.seed}: {str(err).splitlines()[0]}") from None
    try:
        check_snapshot(wl, task.solver)
    except ValueError as err:
        raise StudyError(f"snapshot {task.seed}, solver {task.solver}: "
                         f"{str(err).splitlines()[0]}") from None


def run_snapshot(task: Snapshot) -> dict[str, Any]:
    """Replay, check and solve one snapshot.

    Returns
    -------
    dict
        ``snapshot`` (its seed), ``rows`` (one per policy, in the task's order,
        with the snapshot's solver columns; no run times), ``replay_seconds``
        and ``solve_seconds`` (kept apart from the rows).
    """
    from models.cluster import solve_snapshot
    from validation.snapshot_check import check_snapshot

    wl = _workload(task)
    began = time.perf_counter()
    replays, violations = {}, {}
    for p in task.policies:
        replays[p], violations[p] = _replay(wl, p)
    replay_seconds = time.perf_counter() - began
    scores = {p: (r.summary()["delayed"], r.summary()["makespan"]) for p, r in replays.items()}
    best = replays[min(task.policies, key=lambda p: scores[p])]
    hint = {j.id: (wl.machines[best.machine[i]].id, best.start[i]) for i, j in enumerate(wl.jobs)}
    res = solve_snapshot(wl, solver=task.solver, time_limit=task.time_limit,
                         threads=task.threads, hint=hint)  # fmt: skip
    opt_makespan = res.info.get("makespan")
    wrong = check_snapshot(wl, res.windows, res.objective, opt_makespan) if res.windows else []
    rows = []
    for p in task.policies:
        rows.append({"snapshot": task.seed, "jobs": task.jobs, "machines": task.machines,
                     "status": res.status, "opt_delayed": res.objective,
                     "opt_makespan": opt_makespan, "delayed_bound": res.bound,
                     "makespan_bound": res.info.get("makespan_bound"),
                     "optimum_violations": len(wrong), "policy": p, "delayed": scores[p][0],
                     "makespan": scores[p][1], "violations": len(violations[p]),
                     "first_violation": (violations[p] or wrong or [None])[0]})  # fmt: skip
    return {"snapshot": task.seed, "rows": rows, "replay_seconds": replay_seconds,
            "solve_seconds": res.runtime}  # fmt: skip


def gap_text(row: dict[str, Any]) -> str:
    """Return ``optimal`` or ``within x % (bound b)`` for a row's exact result.

    Lexicographic (``models.cluster.lex_gap``): while the delayed jobs exceed
    their bound the gap is on them (``delayed``), then on the makespan.
    """
    from models.cluster import lex_gap

    if row["status"] == "optimal":
        return "optimal"
    if row["opt_delayed"] is None or row["delayed_bound"] is None:
        return row["status"]
    which, gap = lex_gap(row["opt_delayed"], row["delayed_bound"], row["opt_makespan"],
                         row["makespan_bound"])  # fmt: skip
    if gap is None:
        return f"{row['status']} (no makespan bound)"
    bound = row["delayed_bound"] if which == "delayed" else row["makespan_bound"]
    return f"within {100 * gap:.1f} % (bound {bound}{' delayed' if which == 'delayed' else ''})"
