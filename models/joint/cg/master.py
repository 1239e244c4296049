"""The restricted master LP of the joint decomposition (docs/exact-models.md), in GLOP.

    min Σ_w c_w x_w
    s.t. Σ_{w of job j} x_w ≤ 1                       (one window per job; duals π_j)
         Σ_{w with a task on k covering t} x_w ≤ 1     (node k's unit time [t, t+1); ρ_kt)
         Σ_w g_s(w) x_w ≤ b_s                          (VO budget, combination limit g*)
         Σ_w x_w = P                                   (placed count, second stage only)
         Σ_{w in cut c} x_w ≤ 1                         (robust cuts, optional; η_c ≥ 0)
         Σ_w ⌊h_S(w)/2⌋ x_w ≤ 1                        (subset-row cuts, optional; σ_S ≥ 0)
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

The robust cuts (:mod:`models.joint.cg.cuts`, :meth:`Master.add_cut`) and the subset-row
cuts (:mod:`models.joint.cg.subset_row`, :meth:`Master.add_subset_row`) are whole rows;
the solve after new cut rows starts by the dual simplex from the previous basis, as after
new node-time rows.

With ``first_order`` (default :data:`FIRST_ORDER`), a solve of at least
:data:`FIRST_ORDER_ROWS` rows is made by PDLP (:mod:`models.joint.cg.pdlp`), warm-started
from its previous point, until GLOP takes over for good: when a round priced at PDLP's
duals adds no window even at its tightest tolerance (:meth:`Master.confirm`), at a dual
re-solve, when a caller sets
GLOP's parameters (branch-and-price), or when PDLP fails. The duals are projected on their
signs as GLOP's are, so every Lagrangian bound stays valid; the LP value of a PDLP solve is
approximate and bounds nothing.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from ortools.linear_solver import pywraplp

from models.joint.cg.column import Column, Linear
from models.joint.cg.cuts import Cut
from models.joint.cg.duals import Duals
from models.joint.cg.pdlp import FirstOrder, FirstOrderFailed, Point
from models.joint.cg.pricing import Prices
from models.joint.cg.subset_row import SubsetRow
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

FIRST_ORDER = True
"""Whether a new master solves its large LPs by PDLP until GLOP takes over (module
docstring); measured in docs/exact-models.md ("A faster LP at size")."""

FIRST_ORDER_ROWS = 2_000
"""Least rows of an LP that the master gives to PDLP (GLOP is fast below)."""

TIGHTER = 0.01
"""Factor of PDLP's tolerance after a round that added no window at its duals."""

FINAL_TOLERANCE = 1e-6
"""PDLP's tolerance below which such a round goes to GLOP instead."""


class _Glop:
    """``pywraplp.Solver`` as the master's ``lp``, remembering its parameter string so that
    :meth:`Master.solve` can switch to :data:`DUAL` for a row step and back."""

    def __init__(self) -> None:
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        self.params = PRIMAL
        self.tuned = False  # a caller set the parameters: GLOP alone from then on

    def SetSolverSpecificParametersAsString(self, text: str) -> bool:
        """Keep ``text`` (empty: :data:`PRIMAL`) as the parameters of the next solves."""
        self.params = text or PRIMAL
        self.tuned = True
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
    first_order
        Solve LPs of at least :data:`FIRST_ORDER_ROWS` rows by PDLP until GLOP takes over
        (module docstring; None: :data:`FIRST_ORDER`).
    """

    def __init__(
        self,
        jobs: int,
        objective: Linear,
        sides: Sequence[tuple[Linear, float]] = (),
        count: int | None = None,
        differenced: bool = True,
        first_order: bool | None = None,
    ) -> None:
        self.lp = lp = _Glop()
        self.first_order = FIRST_ORDER if first_order is None else first_order
        self.pdlp = FirstOrder()
        self.point: Point | None = None  # the PDLP point of the last solve (None: GLOP's)
        self.glop_solves = 0
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
        self.cuts: list[Cut] = []  # robust cuts (models.joint.cg.cuts), rows kept whole
        self.cut_rows: list[pywraplp.Constraint] = []
        self.subset_rows: list[SubsetRow] = []  # models.joint.cg.subset_row, rows whole
        self.subset_row_rows: list[pywraplp.Constraint] = []
        self.fresh_cuts = False  # cut rows added since the last solve
        lp.SetSolverSpecificParametersAsString(PRIMAL)
        lp.tuned = False
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

    def add_cut(self, cut: Cut) -> None:
        """Add the row of ``cut`` (whole) over every column; the next solve starts by the
        dual simplex from the previous basis, as after new node-time rows."""
        row = self.lp.Constraint(-self.lp.infinity(), 1.0)
        for col, x in zip(self.columns, self._x, strict=False):  # the entered ones
            if cut.coefficient(col):
                row.SetCoefficient(x, 1.0)
        self.cuts.append(cut)
        self.cut_rows.append(row)
        self.fresh_cuts = True

    def add_subset_row(self, cut: SubsetRow) -> None:
        """Add the row of the subset-row cut ``cut`` (whole) over every column, as
        :meth:`add_cut` does."""
        row = self.lp.Constraint(-self.lp.infinity(), 1.0)
        for col, x in zip(self.columns, self._x, strict=False):  # the entered ones
            if coef := cut.coefficient(col):
                row.SetCoefficient(x, float(coef))
        self.subset_rows.append(cut)
        self.subset_row_rows.append(row)
        self.fresh_cuts = True

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
        for cut, row in zip(self.cuts, self.cut_rows, strict=True):
            if cut.coefficient(col):
                row.SetCoefficient(x, 1.0)
        for sr, row in zip(self.subset_rows, self.subset_row_rows, strict=True):
            if coef := sr.coefficient(col):
                row.SetCoefficient(x, float(coef))
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
        simplex from the previous basis (after bounds changed, as at a new tree node).
        With :attr:`first_order` on and the LP large, PDLP solves it (module docstring)
        and the value returned is PDLP's approximate primal objective."""
        lp = self.lp
        self.point = None
        if dual or lp.tuned:
            self.first_order = False
        if self.first_order and lp.NumConstraints() >= FIRST_ORDER_ROWS:
            if self.pending:
                self._enter_pending()
            try:
                self.point = self.pdlp.solve(lp.solver, deadline)
                return self.point.objective
            except FirstOrderFailed:
                self.first_order = False
        self.glop_solves += 1
        left = 0 if deadline is None else deadline.milliseconds()
        lp.solver.SetTimeLimit(left)  # milliseconds; 0: no limit
        # GLOP re-solves from the previous basis when only rows or only columns are new,
        # and from scratch when both are: new rows first (dual simplex), then the new
        # columns (primal)
        rows, self.fresh_cuts = self.fresh_cuts, False
        if self.pending and self._new_rows():
            rows = True
        if rows and self._x:
            lp.solver.SetSolverSpecificParametersAsString(DUAL)
            lp.solver.Solve()
            lp.solver.SetSolverSpecificParametersAsString(lp.params)
        if self.pending:
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

    def confirm(self) -> bool:
        """Return whether the last solve was PDLP's, so that a round that adds no window at
        its duals is repeated: by PDLP at a tolerance :data:`TIGHTER` times smaller, down
        to :data:`FINAL_TOLERANCE`, then by GLOP for good, at the LP optimum."""
        if self.point is None:
            return False
        self.point = None
        if self.pdlp.tolerance > FINAL_TOLERANCE:
            tighter = self.pdlp.tolerance * TIGHTER  # 1e-4 · 0.01 is a hair above 1e-6
            self.pdlp.tolerance = FINAL_TOLERANCE if tighter < 1.01 * FINAL_TOLERANCE \
                else tighter
        else:
            self.first_order = False
        return True

    def _dual(self, row: pywraplp.Constraint) -> float:
        """GLOP's dual of ``row``, or PDLP's (0 for a row added since its solve)."""
        if self.point is None:
            return row.dual_value()
        i = row.index()
        return float(self.point.dual[i]) if i < len(self.point.dual) else 0.0

    def duals(self) -> Duals:
        """Return the LP's duals (GLOP's or PDLP's, whichever solved last), clipped to their
        valid signs, as :class:`Duals`."""
        dual = self._dual
        form = self.objective
        for (g, _), row in zip(self.sides, self.side_rows, strict=True):
            form = form + g.scaled(-min(dual(row), 0.0))
        by_node = {}
        for node, rows in self.rows.items():
            sigma = {t: dual(r) for t, r in rows.items()}
            children = self.children[node]
            items = [(t, -min(sigma[t] - sum(sigma[c] for c in children.get(t, ())), 0.0))
                     for t in self.points[node]]
            items = [(t, rho) for t, rho in items if rho > 0.0]
            if items:
                by_node[node] = (
                    np.array([t for t, _ in items], dtype=np.int64),
                    np.array([rho for _, rho in items]),
                )
        mu = dual(self.count_row) if self.count_row is not None else 0.0
        fixed = sum(min(dual(r), 0.0) * b for r, (_, b) in
                    zip(self.side_rows, self.sides, strict=True))
        fixed += mu * (self.count or 0)
        pi = [min(dual(r), 0.0) for r in self.convex]
        sides = tuple(-min(dual(r), 0.0) for r in self.side_rows)
        charges = tuple((c.node, c.a, c.b, c.job, eta) for c, r in
                        zip(self.cuts, self.cut_rows, strict=True)
                        if (eta := -min(dual(r), 0.0)) > 0.0)
        rows = tuple((c.points, sigma) for c, r in
                     zip(self.subset_rows, self.subset_row_rows, strict=True)
                     if (sigma := -min(dual(r), 0.0)) > 0.0)
        return Duals(form, Prices(by_node, charges, rows=rows), mu, pi, fixed, sides)

    def values(self) -> list[float]:
        """Return the LP value of each column's variable."""
        if self.point is not None:
            primal = self.point.primal
            return [float(primal[x.index()]) if x.index() < len(primal) else 0.0
                    for x in self.x]
        return [x.solution_value() for x in self.x]


def _coefficient(t: int, parent: int | None, start: int, end: int) -> int:
    """Return the entry of task ``[start, end)`` in the differenced row at ``t``."""
    return (start <= t < end) - (parent is not None and start <= parent < end)
