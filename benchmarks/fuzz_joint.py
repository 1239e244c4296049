"""Fuzz: the joint solvers against brute force on batches across magnitudes (docs/guarantees.md,
"What makes a proof a proof").

Usage::

    python benchmarks/fuzz_joint.py [--cases 10000] [--start 0] [--solvers cg,cpsat]
        [--time-limit 20] [--failures FILE] [--cuts] [--subset-row]

Each case is :func:`validation.joint_fuzz.fuzz_case` (seed = start + k): a tiny batch whose
durations run from 1 to 10^12 quanta and prices from 10^-3 to 10^3 (task costs 1 to 10^15),
with near-ties a unit apart, every objective of ``solve_joint`` and problems (6)–(9), VO
budgets and limits a unit either side of what the jobs need. Every solver's result is
judged by :func:`validation.joint_fuzz.verdict` against the brute-force optimum and the
independent checker, and the solvers against each other (an ``optimal`` worse than another
solver's solution). ``cg`` runs on the objectives it handles. The count may also come from
``PLANNER_FUZZ_JOINT_CASES``. Prints per solver the statuses, false ``optimal`` claims,
infeasible solutions and bounds past the optimum, by duration scale; exit 1 if any.
``--cuts``: cg with its root cuts on (docs/exact-models.md, "Cuts"); the tally then counts
the cases whose root added cuts (``cg cuts added``). ``--subset-row``: cg with its root
subset-row cuts on (Jepsen et al. 2008), counted as ``cg subset-row cuts added``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import time
from fractions import Fraction

from fuzz_tally import every_250, summary  # a sibling script: run from benchmarks/

from models import solve_joint
from models.joint.cg import solve as cg_solve
from validation.joint_fuzz import exact_value, fuzz_case, optimum, parts, verdict

CG_OBJECTIVES = {"proc_time", "runtime", "cost", "finish", "start", 6, 7, 8, 9}
"""Objectives the cg solver handles (the others go to cpsat alone)."""


def _value(case, result) -> tuple[int, Fraction] | None:  # type: ignore[no-untyped-def]
    """Return (placed, exact value) of a result with windows, None without."""
    if not result.windows:
        return None
    metric = parts(case)[0]
    return len(result.windows), sum((exact_value(w, metric) for w in result.windows),
                                    Fraction(0))


def cross(case, results: dict) -> list[str]:  # type: ignore[no-untyped-def, type-arg]
    """Return the optimal claims another solver's solution beats (more placed, or as many
    and a better value)."""
    sense = parts(case)[1]
    sign = 1 if sense == "min" else -1
    out = []
    for name, r in results.items():
        mine = _value(case, r)
        if r.status != "optimal" or mine is None:
            continue
        for other, q in results.items():
            theirs = _value(case, q) if other != name else None
            if theirs is None or q.info.get("rejected"):
                continue
            if theirs[0] > mine[0] or (theirs[0] == mine[0] and sign * theirs[1] <
                                       sign * mine[1]):
                out.append(f"{name} optimal {mine} beaten by {other} {theirs}")
    return out


def main() -> int:
    """Run the fuzz; print the tallies; return 1 if any result is wrong."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int,
                    default=int(os.environ.get("PLANNER_FUZZ_JOINT_CASES", "10000")))
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--solvers", default="cg,cpsat")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--failures", default=None, help="write each wrong result as a JSON line")
    ap.add_argument("--cuts", action="store_true", help="cg with its root cuts on")
    ap.add_argument("--subset-row", action="store_true",
                    help="cg with its root subset-row cuts on")
    args = ap.parse_args()
    cg_solve.CUTS = cg_solve.CUTS or args.cuts
    cg_solve.SUBSET_ROW = cg_solve.SUBSET_ROW or args.subset_row
    solvers = args.solvers.split(",")
    tally: collections.Counter[str] = collections.Counter()
    scales: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    sink = open(args.failures, "w") if args.failures else None  # noqa: SIM115
    began = time.perf_counter()
    for seed in range(args.start, args.start + args.cases):
        case = fuzz_case(seed)
        best = optimum(case)
        tally["cases"] += 1
        tally["brute force" if best is not None else "no brute force"] += 1
        by_scale = scales[case.scale]
        by_scale["cases"] += 1
        results = {}
        for name in solvers:
            if name == "cg" and case.objective not in CG_OBJECTIVES:
                continue
            try:
                r = solve_joint(case.instance, solver=name, time_limit=args.time_limit,
                                progress=False, **case.solve_kwargs())
            except Exception as err:  # a crash is a finding too
                wrong = [f"error: {type(err).__name__}: {err}"]
            else:
                results[name] = r
                tally[f"{name} {r.status}"] += 1
                cuts = (r.info.get("cg") or {}).get("cuts")
                if cuts and cuts["added"]:
                    tally[f"{name} cuts added"] += 1
                if cuts and cuts.get("subset_row"):
                    tally[f"{name} subset-row cuts added"] += 1
                by_scale[f"{name} {r.status}"] += 1
                wrong = verdict(case, r, best)
            for w in wrong:
                kind = w.split(":")[0]
                tally[f"{name} wrong: {kind}"] += 1
                tally["wrong"] += 1
                print(f"seed {seed} scale {case.scale} objective {case.objective} {name}: {w}",
                      flush=True)
                if sink:
                    sink.write(json.dumps({"seed": seed, "solver": name, "wrong": w}) + "\n")
        for w in cross(case, results):
            tally["cross"] += 1
            tally["wrong"] += 1
            print(f"seed {seed} scale {case.scale} objective {case.objective}: {w}", flush=True)
        every_250(tally, began)
    print(f"cases {args.start}..{args.start + args.cases - 1}: {tally['cases']} "
          f"({tally['brute force']} with a brute-force optimum), "
          f"{time.perf_counter() - began:.0f} s")
    code = summary(tally, scales, "by duration scale", lambda s: f"{s:>14,}")
    if sink:
        sink.close()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
