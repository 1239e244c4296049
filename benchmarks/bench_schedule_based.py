"""Schedule-based policies: replay time and scheduler time per job; the CP-SAT snapshot frontier.

Usage::

    python benchmarks/bench_schedule_based.py replay [--jobs 3000] [--interarrival 3] [--repeat 3]
    python benchmarks/bench_schedule_based.py frontier [--sizes 10 15 20 25 30] [--seeds 3]
                                                       [--time-limit 60]

``replay``: one ``klusacek2008`` stream (Klusáček & Rudová 2008's setting: 150
machines) replayed under each policy; prints the machine-independent counts
(jobs, event instants, Tabu's accepted moves) beside the median wall clock of
``--repeat`` replays and the median scheduler CPU time per job (the paper's
Fig. 5 quantity). ``frontier``: snapshots of 5 machines and n jobs
(``klusacek2008``, mean inter-arrival 40 s) solved by the lexicographic CP-SAT
model (one worker); per n, how many seeds were proven optimal within the time
limit and the median solve time. The machine is shared and noisy: compare
ratios of one run.
"""

from __future__ import annotations

import argparse
import statistics
import time

from instances.generators.registry import generate_workload
from models.cluster import solve_snapshot
from planner.cluster import simulate
from planner.cluster.engine import apply_estimates
from planner.cluster.policies import POLICIES


def capturing(cls: type, made: list[object]) -> type:
    """Return a subclass of policy ``cls`` that appends each instance to ``made``."""

    def init(self: object, *args: object, **kwargs: object) -> None:
        cls.__init__(self, *args, **kwargs)
        made.append(self)

    return type(f"Captured{cls.__name__}", (cls,), {"__init__": init})


def bench_replay(jobs: int, interarrival: float, repeat: int, seed: int) -> None:
    """Print one row per policy: counts, median wall seconds, median µs of scheduler per job."""
    wl = generate_workload("klusacek2008", seed, jobs=jobs, interarrival=interarrival)
    print(f"klusacek2008 seed {seed}: {jobs} jobs, 150 machines, mean inter-arrival "
          f"{interarrival:g} s; median of {repeat}")  # fmt: skip
    print("| policy | jobs | instants | Tabu moves | replay (s) | scheduler per job (µs) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in ("fcfs", "easy", "flex", "egedf", "tabu"):
        walls, per_job = [], []
        made: list[object] = []
        capture = capturing(POLICIES[name], made)
        for _ in range(repeat):
            t0 = time.perf_counter()
            rep = simulate(apply_estimates(wl, "requested"), capture)
            walls.append(time.perf_counter() - t0)
            per_job.append(1e6 * rep.scheduler_seconds / jobs)
        tabu = getattr(made[0], "moves", None)
        print(f"| {name} | {jobs} | {rep.instants} | {'-' if tabu is None else tabu} | "
              f"{statistics.median(walls):.2f} | {statistics.median(per_job):.0f} |")  # fmt: skip


def bench_frontier(sizes: list[int], seeds: int, time_limit: float) -> None:
    """Print per size: proven optimal count and median CP-SAT seconds."""
    print(f"CP-SAT snapshots: 5 machines, klusacek2008 (mean inter-arrival 40 s), "
          f"{seeds} seeds per size, {time_limit:g} s limit, 1 worker")  # fmt: skip
    print("| jobs | proven optimal | median seconds | max seconds |")
    print("| ---: | ---: | ---: | ---: |")
    for n in sizes:
        secs, proven = [], 0
        for s in range(seeds):
            wl = generate_workload("klusacek2008", s, machines=5, jobs=n, interarrival=40.0)
            res = solve_snapshot(wl, time_limit=time_limit)
            secs.append(res.runtime)
            proven += res.status == "optimal"
        print(f"| {n} | {proven}/{seeds} | {statistics.median(secs):.1f} | {max(secs):.1f} |")


def main() -> None:
    """Parse the arguments and run one benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("replay")
    r.add_argument("--jobs", type=int, default=3000)
    r.add_argument("--interarrival", type=float, default=3.0)
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("frontier")
    f.add_argument("--sizes", type=int, nargs="+", default=[10, 15, 20, 25, 30])
    f.add_argument("--seeds", type=int, default=3)
    f.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    if a.what == "replay":
        bench_replay(a.jobs, a.interarrival, a.repeat, a.seed)
    else:
        bench_frontier(a.sizes, a.seeds, a.time_limit)


if __name__ == "__main__":
    main()
