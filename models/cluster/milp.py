"""A time-indexed MILP of the cluster snapshot (CBC via PuLP): the CP-SAT model's cross-check.

Same problem as :mod:`models.cluster.snapshot` (Klusáček & Rudová 2008's
criteria, lexicographic: fewest delayed jobs, then makespan), formulated
independently for tiny snapshots. A binary x_jmt says job j starts on machine
m at second t (r_j ≤ t ≤ H − hold); each job starts once; at every second τ
the jobs running on m use at most R_m CPUs; C_j = Σ (t + p_jm) x_jmt; late_j
is 1 when C_j > d_j (C_j ≤ d_j + M_j · late_j, M_j = H + max(0, −d_j)). With
every end ≤ H, minimising (H + 1) · Σ late_j + Cmax is the lexicographic order. The horizon
H = max r_j + Σ_j max_m max(p_jm, 1) holds every schedule without idle
gaps, so an optimal one. Times are counted from the first release, so the
coefficients (and CBC's tolerances on them) stay the size of the snapshot's
span, not of its clock (at releases near 10^12 the absolute model was
declared infeasible). Only for tiny snapshots: the model has one variable
per job, machine and second, and is refused beyond :data:`MAX_CELLS`.
"""

from __future__ import annotations

import math
import time

from instances.workload import Workload
from models.backends import import_pulp
from models.cbc import solve_cbc
from models.cluster.incumbents import evaluate
from models.cluster.snapshot import check_widths, snapshot_durations
from models.result import Result
from planner.deadline import DEFAULT_TIME_LIMIT

MAX_CELLS = 100_000
"""Most (job, machine, second) cells, each a binary and its capacity terms, the model builds."""
MAX_CPUS = 10_000
"""Largest machine CPU count the model accepts. CBC's feasibility tolerances are about 10^-7
after scaling: a row Σ R_j x ≤ R_m with R_m near 2^31 lets one CPU too many pass and cuts
off optimal schedules (measured: a false optimal Cmax 11 where 10 is optimal, a job
started twice), while below 10^4 CPUs one CPU is 10^-4 of a row."""


MAX_PROOF = 10**9
"""Largest objective (H + 1) · U + Cmax whose CBC ``optimal`` is kept: CBC's tolerances
(10^-7 to 10^-6) stay far below the one unit between two schedules' values up to it."""


def _proven(value: int, claimed: float | None) -> bool:
    """Return True when CBC's ``optimal`` is kept for the re-checked schedule's integer
    objective ``value``: CBC's own objective is that integer, within :data:`MAX_PROOF`.

    CBC's final bound cannot be read through PuLP (its log prints one only when it stops
    early), so the proof rests on CBC's status with both gaps at 0; see
    ``docs/guarantees.md``, "Cluster snapshots".
    """
    return claimed is not None and abs(claimed - value) <= 1e-6 * max(1, value) and (
        value <= MAX_PROOF)  # fmt: skip


def check_snapshot_milp(workload: Workload) -> None:
    """Raise ValueError naming the rule when the MILP refuses ``workload``: a job wider
    than every machine, more than :data:`MAX_CELLS` (start, second) cells, or a machine of
    more than :data:`MAX_CPUS` CPUs."""
    if workload.jobs:
        _layout(workload)


def _layout(workload: Workload) -> tuple[list[list[int]], int, list[int], list[int | None],
                                         list[list[int]], int, list[tuple[int, int]]]:  # fmt: skip
    """Return p, the first release, releases, deadlines, holds, horizon and the fitting
    (job, machine) pairs; raise ValueError for a refused snapshot."""
    jobs, machines = workload.jobs, workload.machines
    check_widths(workload)
    p = snapshot_durations(workload)
    first = min(j.submit for j in jobs)
    rel = [j.submit - first for j in jobs]
    due = [None if j.deadline is None else j.deadline - first for j in jobs]
    hold = [[max(d, 1) for d in row] for row in p]
    horizon = max(rel) + sum(
        max(hold[m][k] for m in range(len(machines))) for k in range(len(jobs)))  # fmt: skip
    fits = [(k, m) for k, j in enumerate(jobs) for m, mach in enumerate(machines)
            if mach.cpus >= j.cpus]  # fmt: skip
    cells = sum(max(0, horizon - hold[m][k] - rel[k] + 1) * hold[m][k] for k, m in fits)
    if cells > MAX_CELLS:
        raise ValueError(f"the time-indexed snapshot MILP needs one binary per job, machine and "
                         f"second: {cells:,} (start, second) cells > {MAX_CELLS:,}; use the "
                         "cpsat or cg solver")  # fmt: skip
    if max(m.cpus for m in machines) > MAX_CPUS:
        raise ValueError(f"the snapshot MILP accepts machines of at most {MAX_CPUS:,} CPUs "
                         "(CBC's tolerances hide one CPU of a larger machine); use the cpsat "
                         "or cg solver")  # fmt: skip
    return p, first, rel, due, hold, horizon, fits


def solve_snapshot_milp(workload: Workload, *, time_limit: float | None = DEFAULT_TIME_LIMIT,
                        threads: int = 1) -> Result:  # fmt: skip
    """Solve the snapshot with CBC; same ``Result`` fields as :func:`solve_snapshot`."""
    lp = import_pulp()
    began = time.perf_counter()
    jobs, machines = workload.jobs, workload.machines
    if not jobs:
        return Result("optimal", 0, 0, 0.0, "milp", (), {"makespan": 0, "makespan_bound": 0})
    p, first, rel, due, hold, horizon, fits = _layout(workload)
    prob = lp.LpProblem("snapshot", lp.LpMinimize)
    new = getattr(prob, "add_variable", None) or lp.LpVariable
    x = {(k, m, t): new(f"x_{k}_{m}_{t}", cat="Binary")
         for k, m in fits for t in range(rel[k], horizon - hold[m][k] + 1)}  # fmt: skip
    cmax = new("Cmax", lowBound=0, upBound=horizon, cat="Integer")  # an integral objective
    late = {k: new(f"late_{k}", cat="Binary") for k in range(len(jobs)) if due[k] is not None}
    prob += (horizon + 1) * lp.lpSum(late.values()) + cmax
    ends = {}
    for k in range(len(jobs)):
        mine = [(m, t, v) for (kk, m, t), v in x.items() if kk == k]
        prob += lp.lpSum(v for _, _, v in mine) == 1
        ends[k] = lp.lpSum((t + p[m][k]) * v for m, t, v in mine)
        prob += cmax >= ends[k]
        if k in late:
            prob += ends[k] <= due[k] + (horizon + max(0, -due[k])) * late[k]
    use: dict[tuple[int, int], list] = {}  # type: ignore[type-arg]
    for (k, m, t), v in x.items():
        for tau in range(t, t + hold[m][k]):
            use.setdefault((m, tau), []).append(jobs[k].cpus * v)
    for (m, _), terms in sorted(use.items(), key=lambda e: e[0]):
        prob += lp.lpSum(terms) <= machines[m].cpus
    status, raw = solve_cbc(prob, time_limit=time_limit, threads=threads)
    runtime = time.perf_counter() - began
    if status not in ("optimal", "feasible"):
        return Result(status, None, None, runtime, "milp")
    chosen = [(k, m, t) for (k, m, t), v in x.items() if (v.value() or 0) > 0.5]
    placed = {k: (m, first + t) for k, m, t in chosen}
    if len(chosen) != len(jobs) or evaluate(workload, [placed.get(k, (-1, 0))
                                                       for k in range(len(jobs))]) is None:
        # CBC's answer breaks a rule once re-checked in integers: no schedule, no proof
        return Result("unknown", None, None, runtime, "milp", (), {"rejected": "re-check"})
    windows = tuple((jobs[k].id, machines[m].id, first + t) for k, m, t in sorted(chosen))
    ends_val = {k: t + p[m][k] for k, m, t in chosen}
    u = sum(due[k] is not None and ends_val[k] > due[k] for k in range(len(jobs)))
    makespan = max(ends_val.values())
    value = (horizon + 1) * u + makespan
    if status == "optimal" and not _proven(value, prob.objective.value()):
        status = "feasible"  # CBC's claim is not the integer value of its own schedule
    u_bound = u if status == "optimal" else (
        None if raw is None else math.floor((raw + 1e-6) / (horizon + 1)))  # fmt: skip
    info = {"makespan": makespan, "makespan_bound": makespan if status == "optimal" else None}
    return Result(status, u, u_bound, runtime, "milp", windows, info)
