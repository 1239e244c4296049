"""Importing the optional solver libraries so that they coexist in one process.

ortools 9.15 and highspy 1.15 each bundle their own HiGHS; whichever is
imported second fails with an undefined-symbol ImportError. PuLP imports
highspy (if installed) as soon as it is imported itself, so ``import pulp``
before OR-Tools breaks CP-SAT. :func:`import_pulp` imports PuLP with highspy
hidden, so PuLP's in-process HiGHS is disabled (the CBC binary and the
subprocess HiGHS of :mod:`models.window.highs_proc` are unaffected) and
CP-SAT stays importable. Every module of :mod:`models` imports PuLP through it.

:func:`cpsat_solver` and :func:`run_cpsat` create and run every CP-SAT solve of
the package (project parameters; Ctrl-C raises KeyboardInterrupt), and
:func:`run_interruptible` runs any other solve that releases the GIL the same way (SCIP
in :mod:`models.joint.cg.packing`). CBC runs through :func:`models.cbc.solve_cbc`.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any


def import_pulp() -> ModuleType:
    """Return the ``pulp`` module, imported without letting it load highspy."""
    if "pulp" in sys.modules:
        return sys.modules["pulp"]
    hidden = "highspy" not in sys.modules
    if hidden:
        sys.modules["highspy"] = None  # type: ignore[assignment]  # makes `import highspy` fail
    try:
        return importlib.import_module("pulp")
    finally:
        if hidden:
            del sys.modules["highspy"]


def loaded() -> dict[str, bool]:
    """Return which solver libraries the current process has imported."""
    return {name: name in sys.modules for name in ("ortools", "pulp", "highspy")}


def cpsat_solver(*, threads: int, seed: int, time_limit: float | None) -> Any:
    """Return a CP-SAT solver with the project's parameters (OR-Tools imported here).

    CP-SAT catches SIGINT by default and then returns its incumbent as if a time
    limit had stopped it (a gap study would store that unproven answer), and it
    leaves SIGINT at the system default afterwards. Its handler stays off; solve
    with :func:`run_cpsat` so that Ctrl-C still stops a long solve at once.
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = threads
    solver.parameters.random_seed = seed
    solver.parameters.catch_sigint_signal = False
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(float(time_limit), 0.0)
    solver.parameters.absolute_gap_limit = 0.0  # a stop is optimal only at a zero gap
    solver.parameters.relative_gap_limit = 0.0
    # OR-Tools 9.15's presolve sums 64-bit coefficients of an enforced linear row into a
    # 32-bit int (google/or-tools#5293): past 2^31 of Boolean terms it drops the
    # enforcement literal, cuts off feasible solutions and proves a wrong optimum
    # (docs/guarantees.md). The rule runs only inside the inclusion step, which this turns off.
    solver.parameters.presolve_inclusion_work_limit = 0
    return solver


def cpsat_bound(solver: Any, model: Any) -> int | None:
    """Return CP-SAT's proven bound on ``model``'s objective as an exact integer (a lower
    bound when minimising, an upper bound when maximising), or None when there is none
    (no solution yet, or an objective with a fractional or inexact offset or scaling).

    Read from the response's integer ``inner_objective_lower_bound`` rather than the double
    of ``BestObjectiveBound``, which rounds values past 2⁵³."""
    from ortools.sat.python import cp_model

    obj = model.Proto().objective
    response = solver.response_proto
    if response.status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    factor, offset = obj.scaling_factor or 1.0, obj.offset
    if factor not in (1.0, -1.0) or offset != int(offset) or abs(offset) >= 2**53:
        return None
    inner = int(response.inner_objective_lower_bound) if obj.vars else 0  # a constant
    return int(factor) * (inner + int(offset))


def cpsat_proven(solver: Any, model: Any) -> bool:
    """Return whether CP-SAT's solution is proven optimal by integers: its objective value,
    summed in Python integers over the response's solution, equals :func:`cpsat_bound`."""
    obj = model.Proto().objective
    response = solver.response_proto
    bound = cpsat_bound(solver, model)
    if bound is None or len(response.solution) < len(model.Proto().variables):
        return False
    inner = sum(int(c) * int(response.solution[v]) if v >= 0 else -int(c) * (
        1 - int(response.solution[-v - 1])) for v, c in zip(obj.vars, obj.coeffs, strict=True))
    return int(obj.scaling_factor or 1.0) * (inner + int(obj.offset)) == bound


def cpsat_status(code: int) -> str | None:
    """Return the :data:`models.STATUSES` name of a CP-SAT status code (None: a model error)."""
    from ortools.sat.python import cp_model

    return {
        cp_model.OPTIMAL: "optimal",
        cp_model.FEASIBLE: "feasible",
        cp_model.INFEASIBLE: "infeasible",
        cp_model.UNKNOWN: "unknown",
    }.get(code)


def run_cpsat(solver: Any, model: Any) -> int:
    """Return ``solver.Solve(model)``; Ctrl-C stops the search and raises KeyboardInterrupt.

    The solve runs in a helper thread (CP-SAT releases the GIL) so that the main
    thread keeps receiving SIGINT; on KeyboardInterrupt the search is stopped
    and the interrupt re-raised, never returned as a time-limited result.

    OR-Tools 9.15's presolve raises ``IndexError`` on some infeasible models (a 7-column
    integer master of the joint column generation, tests/models/test_backends.py); such a
    solve is repeated without presolve, which answers it.
    """
    try:
        return run_interruptible(lambda: solver.Solve(model), solver.StopSearch, "cp-sat")
    except IndexError:
        solver.parameters.cp_model_presolve = False
        return run_interruptible(lambda: solver.Solve(model), solver.StopSearch, "cp-sat")


def run_interruptible(solve: Callable[[], Any], stop: Callable[[], Any], name: str) -> Any:
    """Return ``solve()`` run in a helper thread (the solver must release the GIL), so that
    Ctrl-C in the main thread calls ``stop()``, waits for the solver and re-raises."""
    done = threading.Event()
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = solve()
        except BaseException as err:  # re-raised in the caller's thread
            out["error"] = err
        finally:
            done.set()

    worker = threading.Thread(target=run, name=name, daemon=True)
    worker.start()
    try:
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        stop()
        # Joined, not only waited for: a daemon thread still unwinding out of the solver when
        # the interpreter exits is killed inside C++ (std::terminate, "terminate called
        # without an active exception", exit -6 instead of 130).
        worker.join()
        raise
    if "error" in out:
        raise out["error"]
    return out["value"]
