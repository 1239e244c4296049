"""Solve small problems exactly: single windows, then a batch of jobs at once.

Part 1 generates a few ``toporkov2012`` instances (Toporkov et al. 2012: 100
nodes, one job of 5 tasks), solves each job for several criteria with CP-SAT
and the subset DP (docs/exact-models.md), checks every window with the
independent checker and prints status, objective, bound and gap.

Part 2 takes a 6-job ``css2015`` batch (Toporkov et al. 2015) and compares
the two-phase scheme (alternatives, then the optimal combination for
problem (8), minimum total cost) with the joint co-allocation model, which
places all windows at once under the same limit t*.

Run:  python examples/exact_batch.py [--instances 3] [--time-limit 10]
"""

from __future__ import annotations

import argparse

from instances import generate
from instances.text import plural
from models import solve_combination, solve_joint, solve_window
from planner import find_alternatives
from validation import check_alternatives, check_window

CRITERIA = ("min_start", "min_cost", "min_finish", "dep")


def main(instances: int, time_limit: float) -> int:
    """Solve and print; return the number of disagreements or checker failures."""
    problems = 0
    print(f"{'seed':>4}  {'criterion':<10} {'solver':<6} {'status':<9} {'objective':>10} "
          f"{'bound':>10} {'gap':>6} {'ms':>8}")  # fmt: skip
    for seed in range(instances):
        inst = generate("toporkov2012", seed)
        for job in inst.jobs:
            for criterion in CRITERIA:
                results = {s: solve_window(inst, job, criterion, s, time_limit=time_limit)
                           for s in ("cpsat", "dp")}  # fmt: skip
                for solver, r in results.items():
                    gap = "-" if r.gap is None else f"{r.gap:.4f}"
                    obj = "-" if r.objective is None else f"{r.objective:.6g}"
                    bound = "-" if r.bound is None else f"{r.bound:.6g}"
                    print(f"{seed:>4}  {criterion:<10} {solver:<6} {r.status:<9} {obj:>10} "
                          f"{bound:>10} {gap:>6} {1000 * r.runtime:8.1f}")  # fmt: skip
                    if r.window is not None and check_window(inst, job.id, r.window):
                        problems += 1
                a, b = results["cpsat"], results["dp"]
                if a.is_optimal and b.is_optimal and abs(a.objective - b.objective) > 1e-6:
                    problems += 1  # two proven optima must agree
    problems += batch(time_limit)
    print(f"problems: {problems}")
    return problems


def batch(time_limit: float) -> int:
    """Two-phase vs joint on a small batch; return 1 if the joint optimum is worse, else 0."""
    inst = generate("css2015", 1, jobs=6)
    alternatives = find_alternatives(inst, "amp").by_job()
    two = solve_combination(alternatives, 8, time_limit=time_limit)
    joint = solve_joint(inst, problem=8, t_star=two.info["t_star"], hint=list(two.windows),
                        time_limit=time_limit)  # fmt: skip
    print(f"\nbatch of {plural(len(inst.jobs), 'job')}, problem (8) min total cost, "
          f"t* = {two.info['t_star']}")  # fmt: skip
    for name, r in (("two-phase", two), ("joint", joint)):
        print(f"  {name:<10} {r.status:<9} placed {len(r.windows)}  total cost {r.objective}  "
              f"bound {r.bound}  {r.runtime:.2f} s")  # fmt: skip
    if check_alternatives(inst, list(joint.windows), sequential=False):
        return 1
    better_or_equal = len(joint.windows) > len(two.windows) or (
        len(joint.windows) == len(two.windows) and joint.objective <= two.objective
    )
    return 0 if not joint.is_optimal or better_or_equal else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    raise SystemExit(1 if main(args.instances, args.time_limit) else 0)
