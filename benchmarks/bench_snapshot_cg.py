"""Snapshot solvers side by side: proofs, bounds and each policy's gap (Klusáček & Rudová 2008).

Usage::

    python benchmarks/bench_snapshot_cg.py [--jobs 50] [--machines 20] [--interarrival 40]
        [--seeds 1 2 ... 10] [--time-limit 60] [--solvers cpsat cg]

Each seed is the ``klusacek2008`` snapshot of that seed and size (the
schedule-gap study's snapshots). Every solver's schedule passes the
independent checker (``validation/snapshot_check.py``); a row prints the
status, (U, Cmax), the proven bounds, the lexicographic gap, the wall
seconds and the machine-independent counts of the decomposition (makespan
probes, column-generation iterations, columns). Then, per policy, the gap
of its replay to the proven bound of the last solver (on U while the policy
delays more jobs than the bound, else on the makespan) and, per solver, how
many seeds were proven and the median seconds. The machine is shared: the
proofs depend on the load, the counts do not.
"""

from __future__ import annotations

import argparse
import statistics

from instances.generators.registry import generate_workload
from models.cluster import lex_gap, solve_snapshot
from planner.cluster import simulate
from validation.snapshot_check import check_snapshot

POLICIES = ("fcfs", "easy", "flex", "egedf", "tabu")


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def main() -> None:
    """Run the benchmark and print the tables (Markdown)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=50)
    ap.add_argument("--machines", type=int, default=20)
    ap.add_argument("--interarrival", type=float, default=40.0)
    ap.add_argument("--seeds", type=int, nargs="+", default=list(range(1, 11)))
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--solvers", nargs="+", default=["cpsat", "cg"])
    args = ap.parse_args()
    print(f"klusacek2008 snapshots: {args.jobs} jobs, {args.machines} machines, mean "
          f"inter-arrival {args.interarrival:g} s, {args.time_limit:g} s per solve, 1 thread")
    print("\n| seed | solver | status | U / Cmax | U bound / Cmax bound | gap | s | "
          "probes | iterations | columns |")  # fmt: skip
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    proven: dict[str, list[float]] = {s: [] for s in args.solvers}
    seconds: dict[str, list[float]] = {s: [] for s in args.solvers}
    gaps: dict[str, list[float]] = {p: [] for p in POLICIES}
    for seed in args.seeds:
        wl = generate_workload("klusacek2008", seed, machines=args.machines, jobs=args.jobs,
                               interarrival=args.interarrival)  # fmt: skip
        last = None
        for solver in args.solvers:
            res = solve_snapshot(wl, solver=solver, time_limit=args.time_limit)
            c, cb = res.info.get("makespan"), res.info.get("makespan_bound")
            bad = check_snapshot(wl, res.windows, res.objective, c) if res.windows else []
            assert not bad, bad
            _, gap = (lex_gap(res.objective, res.bound, c, cb) if res.objective is not None
                      else ("", None))  # fmt: skip
            seconds[solver].append(res.runtime)
            proven[solver].append(res.status == "optimal")
            counts = " | ".join(str(res.info.get(k, "-")) for k in ("probes", "iterations",
                                                                     "columns"))  # fmt: skip
            print(f"| {seed} | {solver} | {res.status} | {res.objective} / {c} | {res.bound} / "
                  f"{cb} | {_pct(gap)} | {res.runtime:.1f} | {counts} |")  # fmt: skip
            last = res
        if last is None or last.bound is None or last.info.get("makespan_bound") is None:
            continue
        for p in POLICIES:
            s = simulate(wl, p).summary()
            gaps[p].append(lex_gap(s["delayed"], int(last.bound), s["makespan"],
                                   last.info["makespan_bound"])[1] or 0.0)  # fmt: skip
    print("\n| solver | proven | median s |\n| --- | ---: | ---: |")
    for solver in args.solvers:
        print(f"| {solver} | {sum(proven[solver])} of {len(args.seeds)} | "
              f"{statistics.median(seconds[solver]):.1f} |")  # fmt: skip
    print(f"\nPolicy gap to the proven bound of {args.solvers[-1]} (mean, max over seeds):\n")
    print("| policy | mean gap | max gap |\n| --- | ---: | ---: |")
    for p, g in gaps.items():
        print(f"| {p} | {_pct(statistics.fmean(g) if g else None)} | "
              f"{_pct(max(g, default=None))} |")  # fmt: skip


if __name__ == "__main__":
    main()
