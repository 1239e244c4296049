"""Benchmark: joint co-allocation (docs/exact-models.md) of css2015 batches, and its optimality
frontier.

Usage::

    python benchmarks/bench_joint.py [--seed 0] [--time-limit 60] [--jobs 5,10,15,20]
        [--objectives proc_time,finish,p7] [--frontier-nodes 12,24,48] [--frontier-jobs 30]

Part 1: the first k jobs of the ``css2015`` instance (24 nodes, Toporkov et al. 2015 §5)
for each objective: a docs/concepts.md metric summed over the placed jobs, or ``pN``
for combination problem N (docs/concepts.md), which is also solved the two-phase way
(AMP alternatives, then the DP combination) under the same limit and given
to CP-SAT as its hint, so the two can be compared. Part 2 (the frontier):
for each node count, the largest prefix batch (step 2) whose ``proc_time``
optimum the joint model proves within the time limit. One CP-SAT worker,
seed 0. Machine-independent columns: jobs, nodes, slots, options (Σ over
jobs of suitable slot × level pairs), placed counts, objectives and bounds.
"""

from __future__ import annotations

import argparse
import sys

from instances import generate
from models import solve_combination, solve_joint
from models.joint.space import JobSpace
from planner import find_alternatives
from validation import check_alternatives


def ints(text: str) -> list[int]:
    """Parse a comma-separated list of integers."""
    return [int(x) for x in text.split(",") if x]


def run_case(inst, k: int, objective: str, time_limit: float) -> dict:
    """Solve the first ``k`` jobs of ``inst`` jointly (and two-phase for ``pN``)."""
    ids = [j.id for j in inst.jobs[:k]]
    row = {"k": k, "objective": objective, "two_placed": "", "two_obj": ""}
    row["options"] = sum(len(JobSpace(inst, inst.job(i)).options) for i in ids)
    if objective[:1] == "p" and objective[1:].isdigit():
        problem = int(objective[1:])
        alts = find_alternatives(inst, "amp", jobs=ids).by_job()
        two = solve_combination(alts, problem, "dp")
        row.update(two_placed=len(two.windows), two_obj=two.objective)
        r = solve_joint(
            inst, problem=problem, jobs=ids, hint=list(two.windows), time_limit=time_limit,
            t_star=two.info["t_star"], b_star=two.info["b_star"],
        )  # fmt: skip
    else:
        r = solve_joint(inst, objective, jobs=ids, time_limit=time_limit)
    assert check_alternatives(inst, r.windows, sequential=False) == []
    row.update(
        status=r.status,
        placed=len(r.info["placed"]),
        obj=r.objective,
        bound=r.bound,
        seconds=r.runtime,
    )
    return row


def fmt(value: object, spec: str = "") -> str:
    """Format a value, blank for None."""
    if value is None or value == "":
        return "-"
    return format(value, spec) if spec else str(value)


def part1(args: argparse.Namespace) -> None:
    """Print the prefix-batch table of Part 1."""
    inst = generate("css2015", args.seed)
    solve_joint(inst, "proc_time", jobs=[inst.jobs[0].id], time_limit=5)  # untimed warm-up
    print(f"Part 1: css2015 seed {args.seed}: {len(inst.nodes)} nodes, {len(inst.slots)} slots")
    head = ["objective", "jobs", "options", "status", "placed", "objective", "bound", "seconds"]
    head += ["2ph placed", "2ph obj"]
    print("  ".join(f"{h:>10}" for h in head))
    for objective in args.objectives.split(","):
        for k in ints(args.jobs):
            r = run_case(inst, k, objective, args.time_limit)
            cells = [objective, k, r["options"], r["status"], r["placed"], fmt(r["obj"])]
            cells += [fmt(r["bound"], ".1f"), f"{r['seconds']:.2f}", r["two_placed"], r["two_obj"]]
            print("  ".join(f"{fmt(c):>10}" for c in cells), flush=True)


def part2(args: argparse.Namespace) -> None:
    """Print the frontier of Part 2: largest batch proven optimal per node count."""
    print(f"\nPart 2: frontier, proc_time, limit {args.time_limit:g} s (largest proven batch)")
    print("  ".join(f"{h:>10}" for h in ["nodes", "slots", "jobs", "options", "seconds", "next"]))
    for nodes in ints(args.frontier_nodes):
        inst = generate("css2015", args.seed, nodes=nodes, jobs=args.frontier_jobs)
        best, nxt = None, "none up to the cap"
        for k in range(2, args.frontier_jobs + 1, 2):
            r = run_case(inst, k, "proc_time", args.time_limit)
            if r["status"] != "optimal":
                nxt = f"{k}: {r['status']}"
                break
            best = r
        cells = [nodes, len(inst.slots), fmt(best and best["k"]), fmt(best and best["options"])]
        cells += [fmt(best and f"{best['seconds']:.2f}"), nxt]
        print("  ".join(f"{c!s:>10}" for c in cells), flush=True)


def main() -> None:
    """Run both parts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--jobs", default="5,10,15,20")
    ap.add_argument("--objectives", default="proc_time,finish,p7")
    ap.add_argument("--frontier-nodes", default="12,24,48")
    ap.add_argument("--frontier-jobs", type=int, default=30)
    args = ap.parse_args()
    print("$ python benchmarks/bench_joint.py " + " ".join(sys.argv[1:]))
    part1(args)
    if args.frontier_nodes:
        part2(args)


if __name__ == "__main__":
    main()
