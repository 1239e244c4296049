"""The restricted master LP of the joint decomposition (docs/exact-models.md), in GLOP.

    min Σ_w c_w x_w
    s.t. Σ_{w of job j} x_w ≤ 1                       (one window per job; duals π_j)
         Σ_{w with a task on k covering t} x_w ≤ 1     (node k's unit time [t, t+1); ρ_kt)
         Σ_w g_s(w) x_w ≤ b_s                          (VO budget, combination limit g*)
         Σ_w x_w = P                                   (placed count, second stage only)
         x ≥ 0

Two tasks on a node overlap exactly when both cover the later one's start, so the rows
(k, t) at the tasks' starts are the maximal cliques of each node's interval graph; a row
is added when a column first starts a task at t on k. Any subset of these rows is a
relaxation, so every Lagrangian bound (:class:`models.joint.cg.duals.Duals`) stays valid
while the rows grow.

A task covers many rows of its node (a median of 274 columns per row on the css2015
batch), so GLOP may hold each node's rows in differenced form: with a slack s_t per row,
row t is kept as ``row_t − row_p`` for a neighbouring row p (its *parent*, the nearest
row present when t was added; the node's first row is kept whole), an invertible row
operation that gives the same LP with a task entering only the rows whose interval
between t and p holds its start or end (17 times fewer nonzeros there). The duals of the
original rows are ``ρ_t = σ_t − Σ_{children c of t} σ_c``. GLOP (without presolve)
re-solves the grown model from its previous basis when only rows or only columns are new,
so new rows are solved first, then columns, and the rows' slacks are created beforehand
with the columns.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from ortools.linear_solver import pywraplp

from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals
from models.joint.cg.pricing import Prices
from planner.deadline import Deadline

PRIMAL = "use_preprocessing: false use_dual_simplex: false"
"""GLOP's parameters of the master's solves (set others through ``master.lp`` as usual):
without presolve, which discards the previous basis, so that a re-solve after new columns
starts from it (primal simplex)."""

DUAL = "use_preprocessing: false use_dual_simplex: true"
"""GLOP's parameters of the re-solve after new rows alone (dual simplex from the basis)."""

FRESH = "use_preprocessing: true"
"""GLOP's parameters of a solve from scratch, after a warm re-solve ended ABNORMAL."""

SPARES = 64
"""Least number of slack variables kept ready for the node-time rows of the next solve (see
the module docstring): created with columns, so that a later row step adds rows alone."""

GLOP = PRIMAL
"""GLOP's default parameters in the master (a caller restores them with this)."""


class _Glop:
    """``pywraplp.Solver`` as the master's ``lp``, remembering its parameter string so that
    :meth:`Master.solve` can switch to :data:`DUAL` for a row step and back."""

    def __init__(self) -> None:
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        self.params = PRIMAL

    def SetSolverSpecificParametersAsString(self, text: str) -> bool:
        """Keep ``text`` (empty: :data:`PRIMAL`) as the parameters of the next solves."""
        self.params = text or PRIMAL
        return bool(self.solver.SetSolverSpecificParametersAsString(self.params))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.solver, name)


class Master:
    """The restricted master over the columns added so far.

    Parameters
    ----------
    jobs
        Number of jobs of the batch.
    objective
        The form c_w minimised (a maximised objective is negated by the caller).
    sides
        ``(form g_s, limit b_s)`` rows: VO budget and combination limit g*.
    count
        Fix the number of placed jobs (None: free).
    differenced
        Hold the node-time rows in differenced form (module docstring); else each row
        whole, as ``Σ_{w covers t} x_w ≤ 1``.
    """

    def __init__(
        self,
        jobs: int,
        objective: Linear,
        sides: Sequence[tuple[Linear, float]] = (),
        count: int | None = None,
        differenced: bool = True,
    ) -> None:
        self.lp = lp = _Glop()
        self.differenced = differenced
        self.objective = objective
        self.sides = list(sides)
        inf = lp.infinity()
        self.convex = [lp.Constraint(-inf, 1.0) for _ in range(jobs)]
        self.side_rows = [lp.Constraint(-inf, float(b)) for _, b in self.sides]
        self.count = count
        self.count_row = lp.Constraint(count, count) if count is not None else None
        self.rows: dict[str, dict[int, pywraplp.Constraint]] = defaultdict(dict)
        self.points: dict[str, list[int]] = defaultdict(list)
        self.parent: dict[str, dict[int, int | None]] = defaultdict(dict)
        self.children: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        self.slack: dict[str, dict[int, pywraplp.Variable]] = defaultdict(dict)
        self.spares: list[pywraplp.Variable] = []
        self.restarts = 0  # solves restarted from scratch (FRESH)
        self.stock = SPARES  # spare slacks to keep: twice the most rows one step added
        self.tasks: dict[str, list[tuple[pywraplp.Variable, int, int]]] = defaultdict(list)
        self.columns: list[Column] = []
        self._x: list[pywraplp.Variable] = []
        self.keys: set[tuple[int, int, tuple[int, ...]]] = set()
        self.pending: list[Column] = []
        lp.SetSolverSpecificParametersAsString(PRIMAL)
        lp.Objective().SetMinimization()

    def add(self, col: Column) -> bool:
        """Add ``col`` (False when the same window is already in); it enters the LP at the
        next :meth:`solve`."""
        if col.key in self.keys:
            return False
        self.keys.add(col.key)
        self.columns.append(col)
        self.pending.append(col)
        return True

    def _new_rows(self) -> bool:
        """Add the node-time rows the pending columns start, over the columns already in."""
        fresh = sorted({(node, start) for col in self.pending for node, start, _ in col.tasks
                        if start not in self.rows[node]})
        for node, start in fresh:
            self._add_row(node, start)
        self.stock = max(self.stock, 2 * len(fresh))
        return bool(fresh)

    def _add_row(self, node: str, t: int) -> None:
        """Add node ``node``'s row at ``t``: differenced against its nearest row, or whole."""
        lp, points = self.lp, self.points[node]
        i = bisect.bisect_left(points, t)
        parent = points[i - 1] if i > 0 else points[i] if points else None
        points.insert(i, t)
        if not self.differenced:
            self.parent[node][t] = None
            row = self.rows[node][t] = lp.Constraint(-lp.infinity(), 1.0)
            for v, s, e in self.tasks[node]:
                if s <= t < e:
                    row.SetCoefficient(v, 1.0)
            return
        self.parent[node][t] = parent
        rhs = 1.0 if parent is None else 0.0
        row = self.rows[node][t] = lp.Constraint(rhs, rhs)
        slack = self.spares.pop() if self.spares else lp.NumVar(0.0, lp.infinity(), "")
        self.slack[node][t] = slack
        row.SetCoefficient(slack, 1.0)
        if parent is not None:
            self.children[node][parent].append(t)
            row.SetCoefficient(self.slack[node][parent], -1.0)
        for v, s, e in self.tasks[node]:
            c = _coefficient(t, parent, s, e)
            if c:
                row.SetCoefficient(v, c)

    def _enter_pending(self) -> None:
        self._new_rows()
        for col in self.pending:
            self._enter(col)
        self.pending = []
        lp = self.lp
        while self.differenced and len(self.spares) < self.stock:
            self.spares.append(lp.NumVar(0.0, lp.infinity(), ""))

    @property
    def x(self) -> list[pywraplp.Variable]:
        """The LP variable of each column (the pending ones enter the model now)."""
        if self.pending:
            self._enter_pending()
        return self._x

    def _enter(self, col: Column) -> None:
        lp = self.lp
        x = lp.NumVar(0.0, lp.infinity(), f"x{len(self._x)}")
        lp.Objective().SetCoefficient(x, col.value(self.objective))
        self.convex[col.j].SetCoefficient(x, 1.0)
        for (form, _), row in zip(self.sides, self.side_rows, strict=True):
            row.SetCoefficient(x, col.value(form))
        if self.count_row is not None:
            self.count_row.SetCoefficient(x, 1.0)
        for node, start, end in col.tasks:
            self.tasks[node].append((x, start, end))
            parent = self.parent[node]
            for t, row in self.rows[node].items():
                c = _coefficient(t, parent[t], start, end)
                if c:
                    row.SetCoefficient(x, c)
        self._x.append(x)

    def solve(self, deadline: Deadline | None = None, dual: bool = False) -> float:
        """Solve the LP with the columns added so far; return its value (RuntimeError if GLOP
        fails, or stops at ``deadline``). ``dual``: by the dual
        simplex from the previous basis (after bounds changed, as at a new tree node)."""
        lp = self.lp
        left = 0 if deadline is None else deadline.milliseconds()
        lp.solver.SetTimeLimit(left)  # milliseconds; 0: no limit
        if self.pending:
            # GLOP re-solves from the previous basis when only rows or only columns are
            # new, and from scratch when both are: new rows first (dual simplex), then
            # the new columns (primal)
            if self._new_rows() and self._x:
                lp.solver.SetSolverSpecificParametersAsString(DUAL)
                lp.solver.Solve()
                lp.solver.SetSolverSpecificParametersAsString(lp.params)
            self._enter_pending()
        if dual:
            lp.solver.SetSolverSpecificParametersAsString(DUAL)
        status = lp.Solve()
        if dual:
            lp.solver.SetSolverSpecificParametersAsString(lp.params)
        if status == pywraplp.Solver.ABNORMAL and (deadline is None or not deadline.passed()):
            # GLOP's warm start can stall numerically; its presolve starts afresh
            self.restarts += 1
            lp.solver.SetSolverSpecificParametersAsString(FRESH)
            status = lp.Solve()
            lp.solver.SetSolverSpecificParametersAsString(lp.params)
        if status != pywraplp.Solver.OPTIMAL:
            raise RuntimeError(f"the master LP ended with GLOP status {status}")
        return self.lp.Objective().Value()

    def duals(self) -> Duals:
        """Return the LP's duals, clipped to their valid signs, as :class:`Duals`."""
        form = self.objective
        for (g, _), row in zip(self.sides, self.side_rows, strict=True):
            form = form + g.scaled(-min(row.dual_value(), 0.0))
        by_node = {}
        for node, rows in self.rows.items():
            sigma = {t: r.dual_value() for t, r in rows.items()}
            children = self.children[node]
            items = [(t, -min(sigma[t] - sum(sigma[c] for c in children.get(t, ())), 0.0))
                     for t in self.points[node]]
            items = [(t, rho) for t, rho in items if rho > 0.0]
            if items:
                by_node[node] = (
                    np.array([t for t, _ in items], dtype=np.int64),
                    np.array([rho for _, rho in items]),
                )
        mu = self.count_row.dual_value() if self.count_row is not None else 0.0
        fixed = sum(min(r.dual_value(), 0.0) * b for r, (_, b) in
                    zip(self.side_rows, self.sides, strict=True))
        fixed += mu * (self.count or 0)
        pi = [min(r.dual_value(), 0.0) for r in self.convex]
        sides = tuple(-min(r.dual_value(), 0.0) for r in self.side_rows)
        return Duals(form, Prices(by_node), mu, pi, fixed, sides)

    def values(self) -> list[float]:
        """Return the LP value of each column's variable."""
        return [x.solution_value() for x in self.x]


def _coefficient(t: int, parent: int | None, start: int, end: int) -> int:
    """Return the entry of task ``[start, end)`` in the differenced row at ``t``."""
    return (start <= t < end) - (parent is not None and start <= parent < end)
