"""The set-packing problem over an explicit list of windows, solved by SCIP (docs/exact-models.md,
"Closing the gap by enumeration").

One binary per window: at most one window per job (exactly one for a job that must be
placed), the placed count, the side rows (VO budget, combination limit g*), and per node
one row per task start t, ``Σ_{tasks on the node covering t} x_w ≤ 1`` (the maximal cliques
of the node's interval graph, as in the master). SCIP (Achterberg 2009) runs in-process
through OR-Tools' ``pywraplp``; its clique cuts over the conflict graph of the windows
strengthen the bound beyond the master LP. The solve runs in a helper thread, so that
Ctrl-C interrupts SCIP and raises ``KeyboardInterrupt`` as the CP-SAT solves do.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.linear_solver import pywraplp

from models.backends import run_interruptible
from models.joint.cg.budget import SCIP_RESERVE, SCIP_TEARDOWN
from models.joint.cg.column import Column
from models.joint.exact import largest
from models.joint.space import JobSpace
from planner.deadline import Deadline

HEURISTICS = (
    "actconsdiving", "adaptivediving", "alns", "clique", "coefdiving", "conflictdiving",
    "crossover", "dins", "distributiondiving", "farkasdiving", "feaspump", "fracdiving",
    "gins", "guideddiving", "intshifting", "linesearchdiving", "localbranching", "locks",
    "lpface", "mutation", "objpscostdiving", "oneopt", "pscostdiving", "randrounding", "rens",
    "rins", "rootsoldiving", "rounding", "shiftandpropagate", "shifting", "simplerounding",
    "subnlp", "trivial", "trustregion", "undercover", "vbounds", "veclendiving", "zirounding",
)
"""SCIP's primal heuristics, all off: the solve starts from the incumbent (or the escape
window), and on css2015 batches the time went better to the bound (docs/benchmarks.md)."""

SCIP_PARAMETERS = "\n".join([
    "misc/catchctrlc = FALSE",  # Ctrl-C reaches Python (see the module docstring)
    "limits/gap = 0",  # a stop is a proof only at a zero gap (OR-Tools' default is 10⁻⁴)
    "limits/absgap = 0",
    "separating/clique/freq = 5",  # clique cuts below the root too
    "presolving/sparsify/maxrounds = 0",  # measured: half the memory, the same solve times
    "presolving/dualsparsify/maxrounds = 0",
    *(f"heuristics/{name}/freq = -1" for name in HEURISTICS),
])
"""SCIP's parameters (measured on css2015 batches, docs/benchmarks.md)."""


EXACT_MAGNITUDE = 10**6
"""Largest magnitude (Σ over the jobs of their largest |objective| among the listed windows,
with the escape window) for which SCIP's bound is taken as a bound: SCIP computes in
doubles with tolerances of 10⁻⁹ to 10⁻⁶ (relative, or absolute on rounding its dual bound
up), so a unit of difference stays far above its rounding only on values this small. Above
it the ``cg`` solver closes the gap on the compact CP-SAT model, which computes in 64-bit
integers (docs/guarantees.md)."""

MARGIN = 1e-7
"""Subtracted from SCIP's bound per unit of magnitude (at least 10⁻⁶ in all) before it is
rounded up to an integer: at :data:`EXACT_MAGNITUDE`, 0.1 of a unit."""


@dataclass
class Packing:
    """The outcome of :func:`solve_packing`: ``status`` (SCIP's: "optimal", "feasible",
    "infeasible" or "unknown"), the best columns found, their value, and ``bound``: SCIP's
    bound rounded up to an integer after a margin (None unless a solution was found and
    the values are within :data:`EXACT_MAGNITUDE`); ``escaped``: the best solution found is
    the escape window (no columns; its value is the escape's). A proof is ``bound ≥
    value``, compared by the caller in integers; SCIP's status proves nothing."""

    status: str
    columns: list[Column] = field(default_factory=list)
    value: int | None = None
    bound: int | None = None
    escaped: bool = False


def magnitude(
    columns: Sequence[Column], metric: str, escape: int | None = None
) -> int:
    """Return Σ over the jobs of the largest |``metric``| of their listed windows, plus
    |``escape``|: a bound on |objective| of every packing."""
    top: dict[int, int] = {}
    for col in columns:
        top[col.j] = max(top.get(col.j, 0), abs(col.metric(metric)))
    return sum(top.values()) + (abs(escape) if escape is not None else 0)


def exact_enough(columns: Sequence[Column], metric: str, sides: Sequence[tuple[str, int]],
                 escape: int | None = None) -> bool:
    """Return whether SCIP's answers on this packing can stand for integers: the objective's
    magnitude within :data:`EXACT_MAGNITUDE`, and every side coefficient and limit exact in
    a double (below 2⁵³)."""
    if magnitude(columns, metric, escape) > EXACT_MAGNITUDE:
        return False
    return all(abs(limit) < 2**53 and all(abs(c.metric(name)) < 2**53 for c in columns)
               for name, limit in sides)


def batch_exact_enough(
    spaces: Sequence[JobSpace], metric: str, sides: Sequence[tuple[str, int]]
) -> bool:
    """Return whether every packing of the batch's windows is within
    :data:`EXACT_MAGNITUDE` (each job at its largest |``metric``| of any window,
    :func:`models.joint.exact.largest`) and every side limit is below 2⁵³: whether the
    enumeration close can prove anything."""
    total = sum(largest(sp, metric) for sp in spaces)
    return total <= EXACT_MAGNITUDE and all(abs(limit) < 2**53 for _, limit in sides)


def integer_bound(raw: float, size: int) -> int | None:
    """Return SCIP's bound ``raw`` less the margin for a packing of magnitude ``size``,
    rounded up (None if it is not finite)."""
    if not math.isfinite(raw):
        return None
    return math.ceil(raw - max(1e-6, MARGIN * size))


def scip_seconds(deadline: Deadline, built: float) -> float | None:
    """Return the seconds SCIP may search, asked once its model is built (``built``
    seconds): what is left of ``deadline`` less :data:`~models.joint.cg.budget.SCIP_RESERVE`
    and :data:`~models.joint.cg.budget.SCIP_TEARDOWN` · ``built``, the time its late stop
    and the freeing of its model take past its limit (0: no time; None: no limit)."""
    return deadline.early(SCIP_RESERVE + SCIP_TEARDOWN * max(built, 0.0)).left()


@functools.cache
def available() -> bool:
    """Return whether this OR-Tools build has SCIP (asked once per process)."""
    return pywraplp.Solver.CreateSolver("SCIP") is not None


def solve_packing(
    jobs: int,
    columns: Sequence[Column],
    metric: str,
    sign: int,
    sides: Sequence[tuple[str, int]],
    *,
    count: int | None = None,
    must: Sequence[int] = (),
    hint: Sequence[Column] = (),
    escape: int | None = None,
    deadline: Deadline | None = None,
    seed: int = 0,
) -> Packing:
    """Minimise ``sign``·Σ ``metric`` over sets of ``columns`` that pack (see the module
    docstring), with ``count`` windows if given and a window for every job of ``must``.

    ``hint``: a solution made of listed columns (its keys), given to SCIP as a starting
    solution. ``escape``: add an *escape window* worth ``escape`` that stands for every
    solution outside the listing (it fills the count and the must rows alone and uses no
    node), the starting solution when there is no hint; an optimum that takes it proves
    that no listed solution is worth less. ``deadline``: the whole step, freeing SCIP's
    model included, ends by it (None: no limit): SCIP searches for :func:`scip_seconds`,
    and not at all when they are none (status "unknown").
    """
    began = deadline.clock() if deadline is not None else 0.0
    solver = pywraplp.Solver.CreateSolver("SCIP")
    if solver is None:
        return Packing("unknown")
    solver.SetSolverSpecificParametersAsString(
        f"{SCIP_PARAMETERS}\nrandomization/randomseedshift = {int(seed)}")
    inf = solver.infinity()
    musts = set(must)
    convex = [solver.Constraint(1.0 if j in musts else 0.0, 1.0) for j in range(jobs)]
    count_row = solver.Constraint(count, count) if count is not None else None
    side_rows = [solver.Constraint(-inf, float(limit)) for _, limit in sides]
    objective = solver.Objective()
    tasks: dict[str, list[tuple[int, int, Any]]] = defaultdict(list)
    xs = []
    if escape is not None:
        z = solver.BoolVar("escape")
        objective.SetCoefficient(z, float(escape))
        for j in musts:
            convex[j].SetCoefficient(z, 1.0)
        if count_row is not None:
            count_row.SetCoefficient(z, float(count))
    for i, col in enumerate(columns):
        if deadline is not None and i % 256 == 0 and deadline.passed():
            return Packing("unknown")  # building a large model takes seconds
        x = solver.BoolVar("")
        xs.append(x)
        convex[col.j].SetCoefficient(x, 1.0)
        if count_row is not None:
            count_row.SetCoefficient(x, 1.0)
        for (name, _), row in zip(sides, side_rows, strict=True):
            row.SetCoefficient(x, float(col.metric(name)))
        objective.SetCoefficient(x, float(sign * col.metric(metric)))
        for node, start, end in col.tasks:
            tasks[node].append((start, end, x))
    for spans in tasks.values():
        if deadline is not None and deadline.passed():
            return Packing("unknown")
        starts = sorted({start for start, _, _ in spans})
        rows: dict[int, list[Any]] = defaultdict(list)
        for start, end, x in spans:
            i = bisect.bisect_left(starts, start)
            while i < len(starts) and starts[i] < end:
                rows[starts[i]].append(x)
                i += 1
        for k, members in enumerate(rows.values()):
            if deadline is not None and k % 256 == 0 and deadline.passed():
                return Packing("unknown")
            if len(members) > 1:
                row = solver.Constraint(-inf, 1.0)
                for x in members:
                    row.SetCoefficient(x, 1.0)
    objective.SetMinimization()
    if hint:
        keys = {c.key for c in hint}
        solver.SetHint(xs, [1.0 if c.key in keys else 0.0 for c in columns])
    elif escape is not None:
        solver.SetHint([z, *xs], [1.0] + [0.0] * len(xs))
    if deadline is not None:  # the model is built: SCIP gets what is left less its reserve
        seconds = scip_seconds(deadline, deadline.clock() - began)
        if seconds is None or seconds <= 0:
            return Packing("unknown")
        solver.SetTimeLimit(max(1, int(1000 * seconds)))
    params = pywraplp.MPSolverParameters()
    params.SetDoubleParam(params.RELATIVE_MIP_GAP, 0.0)
    code = run_interruptible(lambda: solver.Solve(params), solver.InterruptSolve, "scip")
    status = {pywraplp.Solver.OPTIMAL: "optimal", pywraplp.Solver.FEASIBLE: "feasible",
              pywraplp.Solver.INFEASIBLE: "infeasible"}.get(code, "unknown")
    if status not in ("optimal", "feasible"):
        return Packing(status)
    bound = None
    if exact_enough(columns, metric, sides, escape):
        bound = integer_bound(objective.BestBound(), magnitude(columns, metric, escape))
    if escape is not None and z.solution_value() > 0.5:
        return Packing(status, [], escape, bound, escaped=True)
    chosen = [c for c, x in zip(columns, xs, strict=True) if x.solution_value() > 0.5]
    value = sum(sign * c.metric(metric) for c in chosen)
    return Packing(status, chosen, value, bound)
