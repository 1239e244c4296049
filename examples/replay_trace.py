"""Replay the packaged KTH-SP2 trace with EASY backfilling and check the schedule.

Usage::

    python examples/replay_trace.py [--jobs N] [--out DIR]

Reads the Parallel Workloads Archive log bundled with the package (the IBM
SP2 of KTH, 100 CPUs; Feitelson et al. 2014), keeps the first N jobs (default
5,000; 0 for the whole log), replays them under EASY backfilling (Mu'alem &
Feitelson 2001), writes ``jobs.csv`` and the reservation log, passes both to
the independent checker and prints the summary metrics; on a terminal each
step shows its progress (``planner.progress``). See
``docs/job-flows.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from instances import read_workload
from instances.text import plural
from planner.cluster import ReservationLog, simulate
from planner.cluster.output import write_jobs_csv
from planner.progress import Progress, phase
from validation.cluster_check import check_schedule_files

TRACE = Path(__file__).parents[1] / "instances" / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"


def main(jobs: int = 5000, out: str = "replay-out") -> dict:
    """Replay, write, check; return the summary (raises if the checker finds anything)."""
    with phase(f"reading {TRACE.name}"):
        workload = read_workload(TRACE)
    if jobs:
        workload = dataclasses.replace(workload, jobs=workload.jobs[:jobs])
    log = ReservationLog()
    with Progress(len(workload.jobs), label="replaying under easy: jobs") as bar:
        replay = simulate(workload, "easy", log=log, progress=bar.update)
        bar.update(len(workload.jobs))
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    write_jobs_csv(replay, folder / "jobs.csv")
    log.write(folder / "reservations.csv")
    with phase("checking the schedule"):
        problems = check_schedule_files(replay.workload, folder / "jobs.csv", policy="easy",
                                        reservations=folder / "reservations.csv")  # fmt: skip
    if problems:
        raise SystemExit(f"the checker found {plural(len(problems), 'violation')}: {problems[0]}")
    summary = replay.summary()
    print(f"{plural(summary['jobs'], 'job')} of {TRACE.name} under EASY: checked, no violations")
    for key in ("makespan", "utilisation", "mean_wait", "median_wait", "mean_bounded_slowdown"):
        value = summary[key]
        print(f"  {key:<22} {value:.4g}" if isinstance(value, float) else f"  {key:<22} {value}")
    print(f"  files in {folder}/: jobs.csv, reservations.csv")
    return summary


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=5000, help="first N jobs (0: all)")
    ap.add_argument("--out", default="replay-out", help="output folder")
    args = ap.parse_args()
    main(args.jobs, args.out)
