"""CP-SAT model of a static cluster snapshot: fewest delayed jobs, then shortest makespan.

A snapshot is a :class:`~instances.workload.Workload` whose jobs are all known:
machines with R_m CPUs and speed s_m; jobs with release r_j (``submit``),
work w_j, R_j CPUs and an optional deadline d_j. Job j runs on one machine m
for p_jm = ceil(w_j / s_m) seconds (the simulator's rounding; a job of length
0 holds its CPUs for one second, as in the simulator's planning), starting at
or after r_j, without preemption; on each machine the running jobs use at most
R_m CPUs at every instant. Klusáček & Rudová 2008's two criteria, in
lexicographic order: U = the number of jobs with C_j > d_j, then the makespan
Cmax = max C_j − min r_j.

Model: one optional interval per (job, suitable machine), exactly one present
per job; a cumulative constraint per machine; C_j tied to the present interval's
end; a Boolean late_j with C_j ≤ d_j + H · late_j. Stage 1 minimises Σ late_j;
stage 2 fixes Σ late_j to the stage-1 value and minimises Cmax. The result is
``optimal`` only when both stages are proven; otherwise ``feasible`` with the
proven bounds (``bound`` is the bound on U; ``info["makespan_bound"]`` the
stage-2 bound, given only when stage 1 was proven).
"""

from __future__ import annotations

import math
import time
from typing import Any

from instances.workload import Workload
from models.backends import cpsat_bound, cpsat_proven, cpsat_solver, cpsat_status, run_cpsat
from models.result import Result
from planner.deadline import DEFAULT_TIME_LIMIT, Deadline

CUMULATIVE_MAX = 2**62
"""A machine's CPUs (over the gcd of its CPU counts) times the horizon stays below this.
OR-Tools 9.15's cumulative multiplies capacity by time in 64 bits: at 10^9 CPUs and a
horizon of 1.8·10^10 s (product 1.8·10^19 > 2^63) CP-SAT proved a feasible snapshot
infeasible in 6 ms (``benchmarks/fuzz_snapshot.py`` seed 2804), while at 5·10^8 CPUs it
proved the optimum; 2^62 keeps a factor 2 from the measured edge."""


class BeyondCumulative(ValueError):
    """A machine's CPUs times the horizon reach :data:`CUMULATIVE_MAX`: the compact model is
    refused (the ``cg`` solver then keeps its own bounds)."""


def snapshot_durations(workload: Workload) -> list[list[int]]:
    """Return p[m][j] = ceil(round(w_j / s_m, 9)) (the simulator's actual durations)."""
    return [[math.ceil(round(j.work / m.speed, 9)) for j in workload.jobs]
            for m in workload.machines]  # fmt: skip


def snapshot_horizon(workload: Workload, p: list[list[int]]) -> int:
    """Return H = span of the releases + Σ_j max_m max(p_jm, 1): it holds every schedule
    without idle gaps, so an optimal one (times counted from the first release)."""
    jobs = workload.jobs
    first = min(j.submit for j in jobs)
    return max(j.submit for j in jobs) - first + sum(
        max(max(p[m][k], 1) for m in range(len(workload.machines))) for k in range(len(jobs)))


def check_widths(workload: Workload) -> None:
    """Raise ValueError for the first job wider than every machine (no solver places it)."""
    for job in workload.jobs:
        if all(m.cpus < job.cpus for m in workload.machines):
            raise ValueError(f"job {job.id} is wider than every machine")


def check_snapshot_cpsat(workload: Workload) -> None:
    """Raise ValueError naming the rule when the compact model refuses ``workload``: a job
    wider than every machine, or (:class:`BeyondCumulative`) a machine whose CPUs (over
    the gcd of its demands) times the horizon reach :data:`CUMULATIVE_MAX`."""
    jobs, machines = workload.jobs, workload.machines
    if not jobs:
        return
    check_widths(workload)
    horizon = snapshot_horizon(workload, snapshot_durations(workload))
    for mach in machines:
        demands = [j.cpus for j in jobs if j.cpus <= mach.cpus]
        if not demands:
            continue
        g = math.gcd(mach.cpus, *demands)
        if mach.cpus // g * horizon >= CUMULATIVE_MAX:
            raise BeyondCumulative(
                f"machine '{mach.id}': its CPUs times the horizon, {mach.cpus // g:,} x "
                f"{horizon:,}, must stay below 2^62, where CP-SAT's cumulative overflows; "
                "use the cg solver")  # fmt: skip


def solve_snapshot_cpsat(
    workload: Workload,
    *,
    time_limit: float | Deadline | None = DEFAULT_TIME_LIMIT,
    threads: int = 1,
    seed: int = 0,
    hint: dict[str, tuple[str, int]] | None = None,
    floors: tuple[int, int] | None = None,
) -> Result:
    """Solve the snapshot lexicographically (delayed jobs, then makespan); see the module docstring.

    ``hint`` (job id → (machine id, start), e.g. a heuristic's schedule) seeds
    stage 1; it changes what is found within a time limit, never what is proven.
    ``floors`` = proven lower bounds (U_lb, C_lb) on the delayed jobs of every
    schedule and on the makespan of every schedule (:mod:`models.cluster.bounds`)
    are added as constraints U ≥ U_lb, Cmax ≥ C_lb: they cut no schedule, and
    let CP-SAT stop as soon as it meets them.

    Returns
    -------
    Result
        ``objective`` = delayed jobs of the returned schedule, ``bound`` = the
        proven lower bound on them; ``info``: ``makespan``, ``makespan_bound``,
        ``stage1``, ``stage2``; ``windows`` = (job id, machine id, start) per job.
    """
    from ortools.sat.python import cp_model

    began = time.perf_counter()
    budget = Deadline.of(time_limit)
    jobs, machines = workload.jobs, workload.machines
    if not jobs:
        return Result("optimal", 0, 0, 0.0, "cpsat", (), {"makespan": 0, "makespan_bound": 0})
    check_snapshot_cpsat(workload)
    p = snapshot_durations(workload)
    first = min(j.submit for j in jobs)
    # times from the first release: domains the snapshot's span, not the clock (10^12 s)
    horizon = snapshot_horizon(workload, p)
    model = cp_model.CpModel()
    ends, late, pres = [], [], []
    per_machine: list[tuple[list[Any], list[int]]] = [([], []) for _ in machines]
    for k, job in enumerate(jobs):
        end = model.NewIntVar(job.submit - first, horizon, f"C{k}")
        choices = []
        for m, mach in enumerate(machines):
            if mach.cpus < job.cpus:
                continue
            x = model.NewBoolVar(f"x{k}_{m}")
            s = model.NewIntVar(job.submit - first, horizon, f"s{k}_{m}")
            hold = max(p[m][k], 1)
            iv = model.NewOptionalFixedSizeIntervalVar(s, hold, x, f"i{k}_{m}")
            model.Add(end == s + p[m][k]).OnlyEnforceIf(x)
            per_machine[m][0].append(iv)
            per_machine[m][1].append(job.cpus)
            choices.append((m, x, s))
        model.AddExactlyOne(x for _, x, _ in choices)
        pres.append(choices)
        ends.append(end)
        if job.deadline is None:
            late.append(None)
        else:
            b = model.NewBoolVar(f"late{k}")
            model.Add(end <= job.deadline - first).OnlyEnforceIf(b.Not())
            late.append(b)
    for m, (ivs, demands) in enumerate(per_machine):
        if ivs:
            g = math.gcd(machines[m].cpus, *demands)  # check_snapshot_cpsat kept it in range
            model.AddCumulative(ivs, [d // g for d in demands], machines[m].cpus // g)
    cmax = model.NewIntVar(0, horizon, "Cmax")
    model.AddMaxEquality(cmax, ends)
    delayed = sum(b for b in late if b is not None)
    if floors is not None:
        if floors[0] > 0:
            model.Add(delayed >= floors[0])
        model.Add(cmax >= floors[1])
    if hint:
        index = {mach.id: m for m, mach in enumerate(machines)}
        for job, choices in zip(jobs, pres, strict=True):
            m_hint, t_hint = hint.get(job.id, (None, None))
            for m, x, s in choices:
                model.AddHint(x, index.get(m_hint) == m)
                if index.get(m_hint) == m:
                    model.AddHint(s, t_hint - first)
    model.Minimize(delayed)
    solver = cpsat_solver(threads=threads, seed=seed, time_limit=budget.left())
    stage1 = cpsat_status(run_cpsat(solver, model)) or "unknown"
    if stage1 == "optimal" and not cpsat_proven(solver, model):
        stage1 = "feasible"  # a proof is the integer value equal to the integer bound
    if stage1 not in ("optimal", "feasible"):
        return Result(stage1, None, None, time.perf_counter() - began, "cpsat", (),
                      {"stage1": stage1, "stage2": None})  # fmt: skip
    u = _late(solver, workload, ends, first)
    # CP-SAT's integer bound: the double of BestObjectiveBound() sits an ulp above the integer
    # near 10^12 s, and its ceiling passed the optimum by 1 (benchmarks/fuzz_snapshot.py)
    u_bound = cpsat_bound(solver, model)
    u_bound = 0 if u_bound is None else max(u_bound, 0)
    sol = _solution(solver, workload, pres, first)
    info: dict[str, Any] = {"stage1": stage1, "stage2": None, "makespan_bound": None,
                            "makespan": max(solver.Value(e) for e in ends)}  # fmt: skip
    model.Add(delayed == u) if stage1 == "optimal" else model.Add(delayed <= u)
    model.ClearHints()
    for choices in pres:
        for _, x, s in choices:
            model.AddHint(x, solver.Value(x))
            model.AddHint(s, solver.Value(s))
    model.Minimize(cmax)
    solver2 = cpsat_solver(threads=threads, seed=seed, time_limit=budget.left())
    stage2 = cpsat_status(run_cpsat(solver2, model)) or "unknown"
    if stage2 == "optimal" and not cpsat_proven(solver2, model):
        stage2 = "feasible"
    info["stage2"] = stage2
    if stage2 in ("optimal", "feasible"):
        makespan = max(solver2.Value(e) for e in ends)
        if makespan <= info["makespan"]:
            sol = _solution(solver2, workload, pres, first)
            info["makespan"] = makespan
            u = _late(solver2, workload, ends, first)
        c_bound = cpsat_bound(solver2, model)
        if stage1 == "optimal" and c_bound is not None:
            info["makespan_bound"] = c_bound
    status = "optimal" if stage1 == stage2 == "optimal" else "feasible"
    return Result(status, u, u_bound, time.perf_counter() - began, "cpsat", sol, info)


def _solution(solver: Any, workload: Workload, pres: list[list[tuple[int, Any, Any]]],
              first: int) -> tuple[tuple[str, str, int], ...]:  # fmt: skip
    out = []
    for job, choices in zip(workload.jobs, pres, strict=True):
        for m, x, s in choices:
            if solver.Value(x):
                out.append((job.id, workload.machines[m].id, first + int(solver.Value(s))))
    return tuple(out)


def _late(solver: Any, workload: Workload, ends: list[Any], first: int) -> int:
    """Return the jobs of the solver's schedule (times from ``first``) that end after their
    deadline."""
    return sum(j.deadline is not None and first + solver.Value(e) > j.deadline
               for j, e in zip(workload.jobs, ends, strict=True))  # fmt: skip
