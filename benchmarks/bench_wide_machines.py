"""Benchmark: replay and check cost against machine width (CPUs kept as ranges).

Usage::

    python benchmarks/bench_wide_machines.py [--repeats 3] [--jobs 2000]

The same ``klusacek2008`` job stream (``--jobs`` jobs, seed 1, one machine)
is replayed under EASY on machines of 16 CPUs up to 2^31 − 1 CPUs, every job
widened in proportion, then its ``jobs.csv`` is checked by
``validation.cluster_check``. Each line prints the machine-independent
counts (jobs, CPUs, CPU ranges written) beside the medians of ``--repeats``
runs. Expected: the times stay flat as the width grows by 10^8, since the
simulator and the checker never touch CPUs one by one (docs/workloads.md,
"Limits").
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import tempfile
import time
from pathlib import Path

from instances import generate_workload
from instances.workload import Machine, Workload
from planner.cluster import simulate
from planner.cluster.output import write_jobs_csv
from validation.cluster_check import check_schedule_files


def _widened(base: Workload, width: int) -> Workload:
    scale = width // 16
    jobs = tuple(dataclasses.replace(j, cpus=min(width, j.cpus * scale)) for j in base.jobs)
    return Workload((Machine("m", width),), jobs, f"width {width}")


def main() -> None:
    """Print one line per width: counts and median replay and check seconds."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2000)
    args = ap.parse_args()
    flow = generate_workload("klusacek2008", 1, machines=1, jobs=args.jobs,
                             machine_cpus_min=16, machine_cpus_max=16)  # fmt: skip
    base = Workload((Machine("m", 16),), flow.jobs)
    print(f"{'CPUs':>12} {'jobs':>6} {'ranges':>7} {'replay s':>9} {'check s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobs.csv"
        for width in (16, 16 * 10**4, 16 * 10**8, 2**31 - 1):
            w = _widened(base, width)
            replay_times, check_times = [], []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                replay = simulate(w, "easy")
                replay_times.append(time.perf_counter() - t0)
                write_jobs_csv(replay, path)
                t0 = time.perf_counter()
                assert check_schedule_files(w, path) == []
                check_times.append(time.perf_counter() - t0)
            ranges = sum(len(r.cpu_spans) for r in replay.records)
            print(
                f"{width:>12} {len(w.jobs):>6} {ranges:>7} "
                f"{statistics.median(replay_times):>9.3f} {statistics.median(check_times):>8.3f}"
            )


if __name__ == "__main__":
    main()
