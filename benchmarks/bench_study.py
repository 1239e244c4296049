"""Throughput of gap studies on ``toporkov2012``: heuristic-only and full (CP-SAT), 1 and 2 workers.

Usage::

    python benchmarks/bench_study.py [--instances 40] [--workers 1 2] [--repeat 1]
    python benchmarks/bench_study.py --target 1000   # the 1,000-instance full study

Prints rows, instances and seconds (machine-independent counts beside the
wall-clock figures) and instances per second. Heuristic-only replaces the
exact solver by a stub that returns ``unknown`` at once, so it measures the
generator, every heuristic, the checker, the database and the pool. Solver
start-up is excluded from the rows' times (each worker warms its solver up
once, untimed) and from the in-process runs (warmed up before the clock
starts); the wall clock of pool runs still includes spawning the workers.
The machine is shared and noisy: compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from validation.study import Store, StudySpec, Toolkit, make_executor, resolve, run_study
from validation.study.gap.task import warm_up


def heuristic_only_solve(instance: Any, job: Any, *args: Any) -> Any:
    """A stub exact solver: no solve, status ``unknown``."""
    from models import Result

    return Result("unknown", None, None, 0.0, "none")


HEURISTIC_ONLY = Toolkit(solve=heuristic_only_solve)
FULL = Toolkit()


def measure(kit: Toolkit, instances: int, workers: int, repeat: int) -> tuple[int, float]:
    """Return (rows, median seconds) of ``repeat`` fresh studies."""
    times, rows = [], 0
    spec = StudySpec("toporkov2012", instances=instances, seed=0)
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "b.sqlite") as store:
            warm_up(resolve(spec, kit))  # this process's solver start-up, untimed
            began = time.perf_counter()
            pool = make_executor("local", workers=workers)
            out = run_study(spec, store, toolkit=kit, executor=pool, progress=False)
            times.append(time.perf_counter() - began)
            rows = out.rows
    return rows, statistics.median(times)


def main() -> None:
    """Run the benchmark matrix and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=40)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--target", type=int, help="run only a full study of this many instances")
    args = ap.parse_args()
    cases = [("full (cpsat)", FULL)] if args.target else [("heuristic-only", HEURISTIC_ONLY),
                                                          ("full (cpsat)", FULL)]  # fmt: skip
    n = args.target or args.instances
    workers = [max(args.workers)] if args.target else args.workers
    print("| study | instances | rows | workers | seconds | instances/s | 1,000 instances (s) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, kit in cases:
        for w in workers:
            rows, sec = measure(kit, n, w, args.repeat)
            print(f"| {label} | {n} | {rows} | {w} | {sec:.1f} | {n / sec:.2f} | "
                  f"{1000 * sec / n:.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
