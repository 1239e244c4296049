"""Fuzz: the cluster snapshot solvers against brute force across magnitudes (docs/guarantees.md,
"What makes a proof a proof"; docs/benchmarks.md, "Snapshot proofs across magnitudes").

Usage::

    python benchmarks/fuzz_snapshot.py [--cases 2000] [--start 0] [--solvers cpsat,cg,milp]
        [--time-limit 20] [--milp-time-limit 5] [--failures FILE]

Each case (seed = start + k, :func:`fuzz_case`) is a tiny snapshot of Klusáček & Rudová
2008's cluster (1–3 machines, 2–5 jobs) whose works run from 0 to 10^s (s = seed mod 11,
so 1 to 10^10), releases from 0 to 10^12 (equal releases often), speeds with awkward
ratios (10^-3 to 10^3, near-equal pairs), CPU counts up to 2^31 − 1 (jobs of half a
machine and one CPU more), zero-work jobs, and deadlines at exactly the completion times
of a makespan-optimal schedule and a unit either side.
:func:`validation.cluster_brute.brute_schedule` finds the optimum (delayed jobs, then
makespan) by enumeration, imports no model code, and every solver's result
is judged against it: an ``optimal`` that is not the optimum (false optimal), a
schedule the independent checker :func:`validation.snapshot_check.check_snapshot` rejects
or whose claimed values are not its own (infeasible), a bound on the delayed jobs or on
the makespan past the optimum, or a schedule better than the optimum (the brute force
wrong). ``milp`` (one binary per job, machine and second) runs only on snapshots of at
most ``MILP_CELLS`` such binaries. A ValueError is tallied as a refusal with its message.
Prints the tallies every 250 cases and by work scale at the end; exit 1 if any wrong.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random
import re
import time
from dataclasses import dataclass, replace

from fuzz_tally import every_250, summary  # a sibling script: run from benchmarks/

from instances.errors import DataError
from instances.workload import ClusterJob, Machine, Workload
from validation.cluster_brute import brute_schedule
from validation.snapshot_check import check_snapshot

TIME_MAX = 10**12
"""Largest release and deadline the workload accepts (seconds)."""
SPEEDS = (1.0, 2.0, 3.0, 0.5, 1 / 3, 0.7, 1.1, 7 / 3, 1e-3, 999.999, 1.0000001, 0.999999)
"""Speeds with awkward ratios (drawn beside log-uniform ones)."""
WIDE_CPUS = (2**31 - 1, 10**9, 2**30 + 1, 999_999_937)
"""Large CPU counts."""
MILP_CELLS = 4000
"""``milp`` runs when its model has at most this many (job, machine, start) binaries."""


@dataclass(frozen=True)
class Case:
    """One fuzzed snapshot, its work scale exponent and the brute-force optimum."""

    seed: int
    scale: int
    workload: Workload
    optimum: tuple[int, int]


def durations(workload: Workload) -> list[list[int]]:
    """Return p[m][j] = ceil(round(w_j / s_m, 9)) (the project's definition, restated)."""
    return [[math.ceil(round(j.work / m.speed, 9)) for j in workload.jobs]
            for m in workload.machines]  # fmt: skip


def _speed(rng: random.Random) -> float:
    if rng.random() < 0.5:
        return rng.choice(SPEEDS)
    return float(f"{10 ** rng.uniform(-3, 3):.6g}")


def fuzz_case(seed: int) -> Case:
    """Return the snapshot of ``seed`` with its brute-force optimum (module docstring)."""
    rng = random.Random(seed)
    scale = seed % 11
    top = 10**scale
    wide = rng.random() < 0.4
    speeds = [_speed(rng) for _ in range(rng.choice((1, 2, 2, 3, 3)))]
    if len(speeds) > 1 and rng.random() < 0.3:
        speeds[1] = min(1e6, max(1e-3, speeds[0] * (1 + rng.choice((1e-9, -1e-9, 1e-6)))))
    caps = [rng.choice(WIDE_CPUS) if wide else rng.randint(1, 8) for _ in speeds]
    if len(caps) > 1 and rng.random() < 0.3:
        caps[1] = max(1, caps[0] - 1)
    machines = tuple(Machine(f"m{i}", c, s) for i, (c, s) in enumerate(zip(caps, speeds,
                                                                          strict=True)))
    widest = max(caps)
    base = rng.choice((0, 0, rng.randint(0, TIME_MAX - 2 * top), TIME_MAX - 2 * top,
                       int(10 ** rng.uniform(0, 12)) // 2))
    jobs: list[ClusterJob] = []
    for i in range(rng.randint(2, 5)):
        cap = rng.choice(caps)
        cpus = min(widest, rng.choice((1, cap, max(1, cap // 2), cap // 2 + 1,
                                       rng.randint(1, cap))))
        pick = rng.random()
        if pick < 0.12:
            work = 0
        elif pick < 0.3 and jobs:
            work = max(0, min(top, rng.choice(jobs).work + rng.choice((-1, 0, 1))))
        elif pick < 0.45:
            work = rng.choice((top, max(top - 1, 1)))
        else:
            work = rng.randint(1, top)
        if jobs and rng.random() < 0.35:
            release = rng.choice(jobs).submit
        else:
            release = min(TIME_MAX, base + rng.randint(0, 2 * top))
        jobs.append(ClusterJob(f"j{i}", release, cpus, work))
    plain = Workload(machines, tuple(jobs), name=f"fuzz-{seed}")
    _, ends = brute_schedule(plain)
    p = durations(plain)
    dated = []
    for k, job in enumerate(plain.jobs):
        d: int | None = None
        if rng.random() < 0.6:
            fastest = min(p[m][k] for m, mc in enumerate(machines) if mc.cpus >= job.cpus)
            d = rng.choice((ends[k], ends[k], job.submit + fastest, job.submit + top)) + \
                rng.choice((-1, 0, 1))  # fmt: skip
        try:
            dated.append(replace(job, deadline=d))
        except DataError:  # past the largest time, or below 0
            dated.append(job)
    workload = Workload(machines, tuple(dated), name=f"fuzz-{seed}")
    return Case(seed, scale, workload, brute_schedule(workload)[0])


def milp_cells(workload: Workload) -> int:
    """Return the (job, machine, start) binaries of the time-indexed MILP (its horizon rule)."""
    p = durations(workload)
    hold = [[max(x, 1) for x in row] for row in p]
    jobs, machines = workload.jobs, workload.machines
    horizon = max(j.submit for j in jobs) + sum(
        max(hold[m][k] for m in range(len(machines))) for k in range(len(jobs)))  # fmt: skip
    return sum(max(0, horizon - hold[m][k] - j.submit + 1) for k, j in enumerate(jobs)
               for m, mc in enumerate(machines) if mc.cpus >= j.cpus)  # fmt: skip


def verdict(case: Case, r) -> list[str]:  # type: ignore[no-untyped-def]
    """Return what is wrong with result ``r`` against the optimum and the checker."""
    u_opt, c_opt = case.optimum
    out = []
    has = r.status in ("optimal", "feasible")
    if has:
        makespan = r.info.get("makespan")
        bad = check_snapshot(case.workload, r.windows, r.objective, makespan)
        if bad:
            out.append(f"infeasible: {'; '.join(bad[:3])}")
        elif (r.objective, makespan) < case.optimum:
            out.append(f"beats brute force: ({r.objective}, {makespan}) < {case.optimum}")
        if r.status == "optimal" and (r.objective, makespan) != case.optimum:
            out.append(f"false optimal: ({r.objective}, {makespan}) != {case.optimum}")
    elif r.status == "optimal":
        out.append("false optimal: no schedule")
    elif r.status == "infeasible":  # every snapshot has a schedule: jobs one after another
        out.append("false infeasible: the solver claims no schedule exists")
    if r.bound is not None and r.bound > u_opt:
        out.append(f"bound past the optimum: delayed bound {r.bound} > {u_opt}")
    cb = r.info.get("makespan_bound")
    if cb is not None and cb > c_opt:
        out.append(f"bound past the optimum: makespan bound {cb} > {c_opt}")
    return out


def main() -> int:
    """Run the fuzz; print the tallies; return 1 if any result is wrong."""
    from models.cluster import solve_snapshot

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--solvers", default="cpsat,cg,milp")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--milp-time-limit", type=float, default=5.0)
    ap.add_argument("--failures", default=None, help="write each wrong result as a JSON line")
    args = ap.parse_args()
    solvers = args.solvers.split(",")
    tally: collections.Counter[str] = collections.Counter()
    scales: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    sink = open(args.failures, "w") if args.failures else None  # noqa: SIM115
    began = time.perf_counter()
    for seed in range(args.start, args.start + args.cases):
        case = fuzz_case(seed)
        tally["cases"] += 1
        by_scale = scales[case.scale]
        by_scale["cases"] += 1
        for name in solvers:
            if name == "milp" and milp_cells(case.workload) > MILP_CELLS:
                by_scale["milp skipped"] += 1
                tally["milp skipped (model too large)"] += 1
                continue
            try:
                limit = args.milp_time_limit if name == "milp" else args.time_limit
                r = solve_snapshot(case.workload, solver=name, time_limit=limit)
            except ValueError as err:
                tally[f"{name} refused: {re.sub(r'[0-9]+(?:,[0-9]{3})*', 'N', str(err))}"] += 1
                by_scale[f"{name} refused"] += 1
                continue
            except Exception as err:  # a crash is a finding too
                wrong = [f"error: {type(err).__name__}: {err}"]
            else:
                tally[f"{name} {r.status}"] += 1
                by_scale[f"{name} {r.status}"] += 1
                wrong = verdict(case, r)
                if r.status != "optimal" and name != "milp":  # unproven: worth a look
                    print(f"seed {seed} scale 1e{case.scale} {name}: {r.status} "
                          f"({r.objective}, {r.info.get('makespan')}) bounds ({r.bound}, "
                          f"{r.info.get('makespan_bound')}), optimum {case.optimum}, "
                          f"{r.runtime:.1f} s", flush=True)
            for w in wrong:
                kind = w.split(":")[0]
                tally[f"{name} wrong: {kind}"] += 1
                by_scale[f"{name} wrong"] += 1
                tally["wrong"] += 1
                print(f"seed {seed} scale 1e{case.scale} {name}: {w}", flush=True)
                if sink:
                    sink.write(json.dumps({"seed": seed, "solver": name, "wrong": w}) + "\n")
        every_250(tally, began)
    print(f"cases {args.start}..{args.start + args.cases - 1}: {tally['cases']}, "
          f"{time.perf_counter() - began:.0f} s")
    code = summary(tally, scales, "by work scale", lambda s: f"1e{s:<3}")
    if sink:
        sink.close()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
