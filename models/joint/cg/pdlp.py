"""First-order solves of the joint master LP by PDLP (Applegate et al. 2021), in process
through OR-Tools, warm-started from the previous solve (docs/exact-models.md, "A faster LP
at size").

PDLP's primal-dual hybrid gradient reaches a point within a relative tolerance of the
optimum, not a vertex: its duals are approximate, and its objective is no bound. The
master uses them only for pricing, whose Lagrangian bound
(:meth:`models.joint.cg.duals.Duals.lagrangian`) is computed from the duals priced, after
:meth:`models.joint.cg.master.Master.duals` projects them on their signs, so every bound
stays valid; GLOP takes over for the solves near convergence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ortools.linear_solver import linear_solver_pb2, pywraplp
from ortools.pdlp import solve_log_pb2, solvers_pb2
from ortools.pdlp.python import pdlp

from planner.deadline import Deadline

TOLERANCE = 1e-4
"""PDLP's relative (and absolute) optimality tolerance on the primal and dual residuals
and the duality gap (its ``simple_optimality_criteria``)."""

OPTIMAL = solve_log_pb2.TERMINATION_REASON_OPTIMAL
TIME_LIMIT = solve_log_pb2.TERMINATION_REASON_TIME_LIMIT


class FirstOrderFailed(RuntimeError):
    """PDLP ended without a point within its tolerance (other than by the deadline)."""


@dataclass(frozen=True)
class Point:
    """A PDLP solution: primal objective, primal values by variable index and duals by
    constraint index of the ``pywraplp`` model, and the iterations spent."""

    objective: float
    primal: np.ndarray
    dual: np.ndarray
    iterations: int


class FirstOrder:
    """PDLP over a ``pywraplp`` model, each solve warm-started from the previous point (new
    variables at 0, new rows' duals at 0: the master only appends variables and rows).

    Parameters
    ----------
    tolerance
        Relative optimality tolerance (None: :data:`TOLERANCE`).
    """

    def __init__(self, tolerance: float | None = None) -> None:
        self.tolerance = TOLERANCE if tolerance is None else tolerance
        self.last: Point | None = None
        self.weight: float | None = None  # PDLP's primal weight at the last solve
        self.solves = 0
        self.iterations = 0

    def solve(self, solver: pywraplp.Solver, deadline: Deadline | None = None) -> Point:
        """Solve the LP of ``solver`` (a minimisation); RuntimeError at ``deadline``,
        :class:`FirstOrderFailed` when PDLP ends otherwise without a point."""
        proto = linear_solver_pb2.MPModelProto()
        solver.ExportModelToProto(proto)
        qp = pdlp.qp_from_mpmodel_proto(proto, relax_integer_variables=True)
        params = solvers_pb2.PrimalDualHybridGradientParams()
        params.num_threads = 1
        criteria = params.termination_criteria.simple_optimality_criteria
        criteria.eps_optimal_relative = criteria.eps_optimal_absolute = self.tolerance
        if deadline is not None and deadline.left() is not None:
            params.termination_criteria.time_sec_limit = max(deadline.left() or 0.0, 1e-3)
        if self.weight is not None:
            params.initial_primal_weight = self.weight
        result = pdlp.primal_dual_hybrid_gradient(qp, params, initial_solution=self._start(qp))
        log = result.solve_log
        self.solves += 1
        self.iterations += log.iteration_count
        if log.termination_reason == TIME_LIMIT:
            raise RuntimeError("PDLP stopped at the deadline")
        if log.termination_reason != OPTIMAL:
            raise FirstOrderFailed(f"PDLP ended with {log.termination_string or 'no point'}"
                                   f" (reason {log.termination_reason})")
        if log.solution_stats.primal_weight > 0:
            self.weight = log.solution_stats.primal_weight
        primal = np.asarray(result.primal_solution, dtype=float)
        dual = np.asarray(result.dual_solution, dtype=float)
        objective = float(qp.objective_vector @ primal) + qp.objective_offset
        self.last = Point(objective, primal, dual, log.iteration_count)
        return self.last

    def _start(self, qp: pdlp.QuadraticProgram) -> pdlp.PrimalAndDualSolution | None:
        """The previous point padded with zeros to ``qp``'s size (None: no previous point)."""
        if self.last is None:
            return None
        n, m = len(qp.objective_vector), len(qp.constraint_lower_bounds)
        if len(self.last.primal) > n or len(self.last.dual) > m:
            return None
        start = pdlp.PrimalAndDualSolution()
        start.primal_solution = np.concatenate([self.last.primal,
                                                np.zeros(n - len(self.last.primal))])
        start.dual_solution = np.concatenate([self.last.dual, np.zeros(m - len(self.last.dual))])
        return start
