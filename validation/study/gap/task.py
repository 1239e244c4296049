"""One unit of study work: every job × heuristic of one instance against the exact optimum.

This runs in the worker (process pool or Dask) and returns plain rows; the
parent writes them. The exact model is solved once per (job, criterion) and
shared by every heuristic serving that criterion.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import time
from dataclasses import dataclass, field
from typing import Any

from validation.study.engine.seeds import instance_seed, search_seed
from validation.study.gap.metrics import matches, relative_gap, sense_of
from validation.study.gap.spec import StudySpec
from validation.study.gap.toolkit import Toolkit

FREE_START: tuple[str, ...] = ("dep", "coord")
"""Criteria whose exact optimum is taken over any integer start (docs/concepts.md): for these the
AEP start space may miss the optimum, and alternatives found on subtracted slot lists (CSA)
start outside it."""

TIMING_COLUMNS: tuple[str, ...] = ("heuristic_seconds", "exact_seconds")
"""Measured columns: they differ between runs; every other column is reproducible."""


@dataclass(frozen=True)
class InstanceResult:
    """The rows of one instance, and the instance file text when some row is an error."""

    index: int
    rows: list[dict[str, Any]]
    instance_text: str | None = None
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """What a worker needs: the spec, the toolkit and the resolved heuristics."""

    spec: StudySpec
    toolkit: Toolkit
    algorithms: tuple[tuple[str, str | None], ...]


_WARMED: set[Any] = set()


SOLVER_MODULES: dict[str, tuple[str, ...]] = {
    "cpsat": ("models", "models.window.cpsat"),
    "dp": ("models", "models.window.dp"),
    "milp": ("models", "models.window.milp"),
    "milp-highs": ("models", "models.window.milp"),
}
"""The modules each exact solver loads on its first solve."""


def warm_up(ctx: Context) -> None:
    """Run the exact solver and every heuristic once on a two-node model, untimed.

    The first solve in a process pays the solver's start-up (loading OR-Tools takes
    about a second; later tiny solves take milliseconds), which would otherwise be
    billed to the first instance's ``exact_seconds``. Once per process and
    (toolkit, solver, threads, heuristics); failures are ignored (the timed work
    reports its own errors).
    """
    from instances import Instance, Job, Node, Slot

    key = (ctx.toolkit, ctx.spec.solver, ctx.spec.threads, ctx.algorithms)
    if key in _WARMED:
        return
    # Load the solvers' modules outside the error guards below: a Ctrl-C that lands
    # while a C extension (OR-Tools) initialises can surface as an ImportError, which
    # the guards would take for a failed solve, and the study would go on.
    for module in SOLVER_MODULES.get(ctx.spec.solver, ("models",)):
        importlib.import_module(module)
    _WARMED.add(key)
    nodes = (Node("a", 1.0, price=1.0, q=1.0), Node("b", 2.0, price=2.0, q=2.0))
    slots = (Slot("a", 0, 20), Slot("b", 2, 20))
    for crit in dict.fromkeys(served or "min_start" for _, served in ctx.algorithms):
        job = Job("warm-up", nodes=1, volume=4.0, criterion=crit)
        inst = Instance(nodes=nodes, slots=slots, jobs=(job,), name="warm-up",
                        horizon=(0, 20), geometry="rough")  # fmt: skip
        # failures are reported by the timed work; a Ctrl-C (SolveInterrupted) must stop the study
        with contextlib.suppress(Exception):
            ctx.toolkit.solve(inst, job, crit, ctx.spec.solver, ctx.spec.time_limit,
                              ctx.spec.threads, crit in FREE_START)  # fmt: skip
        for name, served in ctx.algorithms:
            if (served or "min_start") == crit:
                with contextlib.suppress(Exception):
                    ctx.toolkit.search(inst, job, name, 0)


def evaluate_instance(ctx: Context, index: int) -> InstanceResult:
    """Generate instance ``index`` and evaluate every job, geometry and heuristic on it.

    The process's solvers and heuristics are warmed up first (:func:`warm_up`), so the
    timings exclude start-up costs.
    """
    warm_up(ctx)
    spec, kit = ctx.spec, ctx.toolkit
    seed = instance_seed(spec.seed, index)
    base = kit.generate(spec.family, seed, **spec.params)
    rows: list[dict[str, Any]] = []
    bad: list[Any] = []
    for geometry in spec.geometries or (base.geometry,):
        inst = base if geometry == base.geometry else dataclasses.replace(base, geometry=geometry)
        exact: dict[tuple[str, str], dict[str, Any]] = {}
        for job in inst.jobs:
            for name, served in ctx.algorithms:
                crit = served or job.criterion
                if (job.id, crit) not in exact:
                    exact[job.id, crit] = _exact(kit, spec, inst, job, crit)
                row = _row(kit, inst, job, name, crit, exact[job.id, crit], spec, index)
                row.update(instance=index, instance_seed=seed, instance_name=inst.name,
                           family=spec.family, geometry=geometry)  # fmt: skip
                rows.append(row)
                if row["error"] and inst not in bad:
                    bad.append(inst)
    text = None
    if bad:
        from instances import dumps_instance

        text = dumps_instance(bad[0])
    return InstanceResult(index, rows, text, [r["error"] for r in rows if r["error"]])


def _exact(kit: Toolkit, spec: StudySpec, inst: Any, job: Any, crit: str) -> dict[str, Any]:
    began = time.perf_counter()
    try:
        res = kit.solve(
            inst, job, crit, spec.solver, spec.time_limit, spec.threads, crit in FREE_START
        )
    except Exception as err:  # recorded as an error row; the study goes on
        return {"status": "error", "objective": None, "bound": None, "window": None,
                "seconds": time.perf_counter() - began, "verdict": "",
                "error": f"exact solver raised {type(err).__name__}: {err}"}  # fmt: skip
    window = res.windows[0] if res.windows else None
    try:
        verdict = kit.check(inst, job, window) if window is not None else []
        error = f"exact window infeasible: {verdict[0]}" if verdict else None
    except Exception as err:  # a checker failure is an error row, not a crashed study
        verdict, error = [], f"checking the exact window raised {type(err).__name__}: {err}"
    return {
        "status": res.status,
        "objective": res.objective,
        "bound": res.bound,
        "window": window,
        "seconds": res.runtime,
        "verdict": "; ".join(verdict),
        "error": error,
    }


def _row(
    kit: Toolkit, inst: Any, job: Any, name: str, crit: str, ex: dict[str, Any],
    spec: StudySpec, index: int,
) -> dict[str, Any]:  # fmt: skip
    error = ex["error"]
    began = time.perf_counter()
    try:
        window = kit.search(inst, job, name, search_seed(spec.seed, index))
    except Exception as err:  # recorded as an error row; the study goes on
        window = None
        error = error or f"heuristic raised {type(err).__name__}: {err}"
    seconds = time.perf_counter() - began
    try:
        # ALP keeps to the per-slot cap C, not to the budget S (Toporkov et al. 2011 §3)
        alp = {"price_cap": True} if name == "alp" else {}
        verdict = kit.check(inst, job, window, **alp) if window is not None else []
        value = window.value(crit) if window is not None else None
        budget = job.effective_budget
        # an ALP window over S lies outside the exact model's space: no gap to compare
        over = bool(alp) and window is not None and budget is not None and window.cost > budget
        start, cost = (window.start, window.cost) if window is not None else (None, None)
    except Exception as err:  # not a usable window, or a checker failure: an error row
        error = error or f"unusable heuristic result: {type(err).__name__}: {err}"
        window = value = start = cost = None
        verdict, over = [], False
    opt = ex["objective"]
    proven = ex["status"] == "optimal" and not over
    gap = match = None
    if proven and value is not None:
        gap = relative_gap(value, opt, sense_of(crit))
        match = matches(value, opt)
    elif proven:
        match = False
    if verdict:
        error = error or f"infeasible window: {verdict[0]}"
    elif gap is not None and gap < 0:
        error = error or f"better than the proven optimum ({value} vs {opt})"
    elif value is not None and ex["status"] == "infeasible" and not over:
        error = error or "window found where the exact model proved infeasibility"
    return {
        "job": job.id,
        "algorithm": name,
        "criterion": crit,
        "nodes": job.nodes,
        "slots": len(inst.suitable_slots(job)),
        "found": window is not None,
        "value": value,
        "start": start,
        "cost": cost,
        "exact_status": ex["status"],
        "exact_found": ex["window"] is not None,
        "exact_value": opt,
        "exact_bound": ex["bound"],
        "match": match,
        "gap": gap,
        "verdict": "; ".join(verdict),
        "exact_verdict": ex["verdict"],
        "error": error,
        "heuristic_seconds": seconds,
        "exact_seconds": ex["seconds"],
    }
