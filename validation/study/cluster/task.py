"""One replay of a cluster-policy study, checked by the independent checker (runs in workers)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from validation.study.cluster.spec import Task


def load(task: Task) -> Any:
    """Return the task's workload (a file read, or the family generated with the seed)."""
    from instances import WORKLOAD_FAMILIES, generate_workload, read_workload

    if task.workload in WORKLOAD_FAMILIES:
        workload = generate_workload(task.workload, task.seed, **dict(task.params))
        if task.machines is not None:
            from instances.traces.machines import read_machines
            from instances.workload_io import with_machines

            workload = with_machines(workload, read_machines(task.machines))
        return workload
    return read_workload(task.workload, machines=task.machines)


def run_task(task: Task) -> dict[str, Any]:
    """Replay ``task``, check the schedule, return its row (metrics, seconds, violations)."""
    from planner.cluster import ReservationLog, simulate
    from planner.cluster.output import write_jobs_csv
    from validation.cluster_check import check_schedule_files

    workload = load(task)
    log = ReservationLog()
    began = time.perf_counter()
    replay = simulate(workload, task.policy, estimates=task.estimates, log=log)
    seconds = time.perf_counter() - began
    with tempfile.TemporaryDirectory(prefix="planner-cluster-") as tmp:
        jobs, res = Path(tmp) / "jobs.csv", Path(tmp) / "res.csv"
        write_jobs_csv(replay, jobs)
        log.write(res)
        violations = check_schedule_files(replay.workload, jobs, policy=task.policy,
                                          reservations=res)  # fmt: skip
    s = replay.summary()
    waits = np.array([r.wait for r in replay.records], dtype=float)
    bsld = np.array([r.bounded_slowdown for r in replay.records], dtype=float)

    def pct(values: np.ndarray, q: float) -> float | None:
        return float(np.percentile(values, q)) if len(values) else None

    return {
        "workload": task.workload, "seed": task.seed, "estimates": task.estimates,
        "policy": task.policy, "jobs": s["jobs"], "dropped": s["dropped"], "killed": s["killed"],
        "makespan": s["makespan"], "utilisation": s["utilisation"],
        "weighted_utilisation": s["weighted_utilisation"], "mean_wait": s["mean_wait"],
        "median_wait": s["median_wait"], "p90_wait": pct(waits, 90), "p99_wait": pct(waits, 99),
        "mean_slowdown": s["mean_slowdown"], "mean_bounded_slowdown": s["mean_bounded_slowdown"],
        "median_bounded_slowdown": pct(bsld, 50), "p90_bounded_slowdown": pct(bsld, 90),
        "delayed": s["delayed"], "scheduler_seconds": s["scheduler_seconds"],
        "replay_seconds": seconds, "violations": len(violations),
        "first_violation": violations[0] if violations else None,
    }  # fmt: skip
