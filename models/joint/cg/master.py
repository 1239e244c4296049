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
while the rows grow. GLOP re-solves the grown model from its previous basis.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from ortools.linear_solver import pywraplp

from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals
from models.joint.cg.pricing import Prices

GLOP = "use_preprocessing:false"
"""GLOP's parameters: presolve would discard the previous basis at every re-solve."""

SPARE = 256
"""Variables created at once, held at zero until a column fills one. GLOP re-solves from
its previous basis when a column fills a variable it already has, but starts afresh when
a variable is added (measured on css2015 seed 1, problem (8), 40 s: median 400–550
simplex iterations per re-solve with variables added one at a time, about 100 with
spare variables and no presolve; twice as many branch-and-price nodes)."""


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
    """

    def __init__(
        self,
        jobs: int,
        objective: Linear,
        sides: Sequence[tuple[Linear, float]] = (),
        count: int | None = None,
    ) -> None:
        self.lp = lp = pywraplp.Solver.CreateSolver("GLOP")
        self.objective = objective
        self.sides = list(sides)
        inf = lp.infinity()
        self.convex = [lp.Constraint(-inf, 1.0) for _ in range(jobs)]
        self.side_rows = [lp.Constraint(-inf, float(b)) for _, b in self.sides]
        self.count = count
        self.count_row = lp.Constraint(count, count) if count is not None else None
        self.rows: dict[str, dict[int, pywraplp.Constraint]] = defaultdict(dict)
        self.tasks: dict[str, list[tuple[pywraplp.Variable, int, int]]] = defaultdict(list)
        self.columns: list[Column] = []
        self.x: list[pywraplp.Variable] = []
        self.keys: set[tuple[int, int, tuple[int, ...]]] = set()
        self.spare: list[pywraplp.Variable] = []
        lp.Objective().SetMinimization()
        lp.SetSolverSpecificParametersAsString(GLOP)

    def add(self, col: Column) -> bool:
        """Add ``col`` (False when the same window is already in)."""
        if col.key in self.keys:
            return False
        lp = self.lp
        if not self.spare:
            self.spare = [lp.NumVar(0.0, 0.0, "") for _ in range(SPARE)][::-1]
        x = self.spare.pop()
        x.SetUb(lp.infinity())
        lp.Objective().SetCoefficient(x, col.value(self.objective))
        self.convex[col.j].SetCoefficient(x, 1.0)
        for (form, _), row in zip(self.sides, self.side_rows, strict=True):
            row.SetCoefficient(x, col.value(form))
        if self.count_row is not None:
            self.count_row.SetCoefficient(x, 1.0)
        for node, start, end in col.tasks:
            rows = self.rows[node]
            self.tasks[node].append((x, start, end))
            for t, row in rows.items():
                if start <= t < end:
                    row.SetCoefficient(x, 1.0)
            if start not in rows:
                row = rows[start] = lp.Constraint(-lp.infinity(), 1.0)
                for v, s, e in self.tasks[node]:
                    if s <= start < e:
                        row.SetCoefficient(v, 1.0)
        self.columns.append(col)
        self.x.append(x)
        self.keys.add(col.key)
        return True

    def solve(self) -> float:
        """Solve the LP; return its value (RuntimeError if GLOP fails)."""
        status = self.lp.Solve()
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
            items = sorted((t, -min(r.dual_value(), 0.0)) for t, r in rows.items())
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
        return Duals(form, Prices(by_node), mu, pi, fixed)

    def values(self) -> list[float]:
        """Return the LP value of each column's variable."""
        return [x.solution_value() for x in self.x]
