"""Window selection as a compact CP-SAT model (OR-Tools; docs/concepts.md, Toporkov & Yemelyanov
2018 §3).

Variables: the start T, one Boolean x_j per suitable slot and, in square
geometry, one Boolean per duration level (:mod:`models.window.space`).
Constraints, each enforced by x_j: containment ``s_j ≤ T`` and
``T + d_j ≤ e_j``; cardinality ``Σ x_j = n``; at most one slot per node
(redundant, it strengthens the relaxation); the budget ``Σ c_j x_j ≤ S``.
The criterion is the objective; DEP/COORD add one distance variable per slot
bounded by both slot edges, and optimise the sum (n is fixed, docs/concepts.md means).

By default (``reduce=True``) the model is built only over the candidate
starts that survive the dominance reduction of :mod:`models.window.reduce`,
starts from its incumbent as a hint, and carries two redundant layers: the
candidate-start decomposition (one Boolean per candidate, x_cj = x_j ∧ y_c,
with cardinality, budget and level rule per candidate; additive objectives
are written on x_cj) and ``objective ≥ Σ_c bound_c y_c``. ``reduce=False``
is the plain compact model.
"""

from __future__ import annotations

import math
import time

import numpy as np
from ortools.sat.python import cp_model

from instances.errors import LimitError
from models.backends import cpsat_proven, cpsat_solver, cpsat_status, run_cpsat
from models.window.cpsat_layers import add_bound_cut, add_split, narrow, split_sum
from models.window.reduce import reduce_space
from models.window.space import WindowSpace, approximate_q, natural_q

SPLIT_LIMIT = 20000
"""Largest number of (candidate, slot) pairs for which the decomposition layer is added."""


class WindowModel:
    """The CP-SAT model of one job's window selection; see the module docstring."""

    def __init__(self, sp: WindowSpace, *, free_start: bool = False, reduce: bool = True) -> None:
        self.sp = sp
        self.model = m = cp_model.CpModel()
        s, e, r = sp.s.tolist(), sp.e.tolist(), sp.r.tolist()
        self.levels = list(sp.levels)
        red = reduce_space(sp, free_start=free_start) if reduce else None
        self.incumbent = None
        if red is not None and red.start is not None:
            self.incumbent = (red.start, sorted(red.chosen.tolist()))
        if red is None:
            self.slots = [j for j in range(sp.m) if e[j] - s[j] >= r[j]]
            starts = sorted(set(s)) if not free_start else None
        else:
            self.slots = np.flatnonzero(red.alive.any(axis=0)).tolist()
            starts = sorted(set(red.t.tolist()))
            if sp.square:
                self.levels = sorted(set(red.level.tolist()))
                self.slots = [j for j in self.slots if r[j] <= max(self.levels)]
        if starts is None:
            self.T = m.NewIntVar(min(s, default=0), max(e, default=0), "T")
        else:
            self.T = m.NewIntVarFromDomain(cp_model.Domain.FromValues(starts or [0]), "T")
        sp.check_deadline()
        self.x = {j: m.NewBoolVar(f"x{j}") for j in self.slots}
        T, x = self.T, self.x
        m.Add(sum(x.values()) == sp.n)
        by_node: dict[int, list[cp_model.IntVar]] = {}
        for j in self.slots:
            by_node.setdefault(int(sp.node[j]), []).append(x[j])
            m.Add(s[j] <= T).OnlyEnforceIf(x[j])
        for group in by_node.values():
            if len(group) > 1:
                m.AddAtMostOne(group)
        self.D: cp_model.IntVar | None = None
        if sp.square:
            self._square(s, e, r)
        else:
            for j in self.slots:
                m.Add(T + r[j] <= e[j]).OnlyEnforceIf(x[j])
            if sp.budget is not None:
                c = sp.costs(0)
                m.Add(sum(int(c[j]) * x[j] for j in self.slots) <= sp.budget)
        self.scale = 1
        self.q_err = 0.0  # largest rounding error of an approximated q (see approximate_q)
        self.split: dict[tuple[int, int], cp_model.IntVar] = {}  # x_cj of cpsat_layers
        self.cand: list[tuple[int, int]] = []
        self.y: list[cp_model.IntVar] = []
        if red is not None and 0 < int(red.alive.sum()) <= SPLIT_LIMIT:
            add_split(self, red)
        self._objective(s, e, r)
        if self.split and (sp.criterion.metric != "q" or sp.q_exact):
            add_bound_cut(self, red)
        if red is not None and red.start is not None:
            narrow(self, red)

    def _square(self, s: list[int], e: list[int], r: list[int]) -> None:
        m, sp, T, x = self.model, self.sp, self.T, self.x
        levels = self.levels
        lvl = {d: m.NewBoolVar(f"l{d}") for d in levels}
        m.AddExactlyOne(lvl.values())
        self.D = D = m.NewIntVarFromDomain(cp_model.Domain.FromValues(levels or [0]), "D")
        m.Add(sum(d * b for d, b in lvl.items()) == D)
        for d, b in lvl.items():
            exact = [x[j] for j in self.slots if r[j] == d]
            if exact:
                m.AddBoolOr(exact).OnlyEnforceIf(b)
            else:
                m.Add(b == 0)
        self.c: dict[int, cp_model.IntVar] = {}
        for j in self.slots:
            m.Add(r[j] <= D).OnlyEnforceIf(x[j])
            m.Add(e[j] >= T + D).OnlyEnforceIf(x[j])
            table = {d: int(sp.costs(d)[j]) for d in levels if d >= r[j]}
            cj = self.c[j] = m.NewIntVar(0, max(table.values()), f"c{j}")
            m.Add(cj == 0).OnlyEnforceIf(x[j].Not())
            for d, value in table.items():
                if value:
                    m.Add(cj >= value).OnlyEnforceIf([x[j], lvl[d]])
        if sp.budget is not None:
            m.Add(sum(self.c.values()) <= sp.budget)

    def _objective(self, s: list[int], e: list[int], r: list[int]) -> None:
        m, sp, T, x, D = self.model, self.sp, self.T, self.x, self.D
        metric, n = sp.criterion.metric, sp.n
        d = {j: (D if D is not None else r[j]) for j in self.slots}
        if metric == "start":
            m.Minimize(T)
        elif metric in ("finish", "runtime"):
            if D is not None:
                m.Minimize(T + D if metric == "finish" else D)
                return
            horizon = max(e, default=0)
            R = m.NewIntVar(0, max(r, default=0), "R")
            for j in self.slots:
                m.Add(r[j] <= R).OnlyEnforceIf(x[j])
            if metric == "runtime":
                m.Minimize(R)
            else:
                F = m.NewIntVar(min(s, default=0), horizon, "F")
                for j in self.slots:
                    m.Add(T + r[j] <= F).OnlyEnforceIf(x[j])
                m.Minimize(F)
        elif self.split and metric in ("cost", "proc_time", "near_distance", "far_distance"):
            self.scale = n if metric in ("near_distance", "far_distance") else 1
            (m.Maximize if sp.criterion.sense == "max" else m.Minimize)(split_sum(self))
        elif metric == "cost":
            if D is not None:
                m.Minimize(sum(self.c.values()))
            else:
                c = sp.costs(0)
                m.Minimize(sum(int(c[j]) * x[j] for j in self.slots))
        elif metric == "proc_time":
            m.Minimize(n * D if D is not None else sum(r[j] * x[j] for j in self.slots))
        elif metric == "q":
            if sp.q_exact:  # sp.q holds exact integers
                qs = {j: int(sp.q[j]) for j in self.slots}
            else:
                ints, self.scale, self.q_err = approximate_q(sp.q[self.slots])
                qs = dict(zip(self.slots, ints, strict=True))
            m.Maximize(sum(qs[j] * x[j] for j in self.slots))
        else:
            self.scale = n
            near = metric == "near_distance"
            dist = []
            es, ee = sp.es.tolist(), sp.ee.tolist()  # the slots' own edges (docs/concepts.md)
            for j in self.slots:
                u = m.NewIntVar(0, ee[j] - es[j] - r[j], f"u{j}")
                dist.append(u)
                m.Add(u == 0).OnlyEnforceIf(x[j].Not())
                if near:
                    m.Add(u <= T - es[j]).OnlyEnforceIf(x[j])
                    m.Add(u <= ee[j] - d[j] - T).OnlyEnforceIf(x[j])
                else:
                    m.Add(u >= T - es[j]).OnlyEnforceIf(x[j])
                    m.Add(u >= ee[j] - d[j] - T).OnlyEnforceIf(x[j])
            (m.Maximize if near else m.Minimize)(sum(dist))

    def solve(
        self, *, time_limit: float | None = None, threads: int = 1, seed: int = 0
    ) -> tuple[str, tuple[int, list[int]] | None, float | None]:
        """Return ``(status, (T, chosen slot indices) or None, bound in natural units)``."""
        # cp_model_probing_level = 0 is faster here but OR-Tools 9.15 then returns an
        # infeasible "optimal" solution on some square models and aborts the process
        # (tests/models/test_window_status.py): keep CP-SAT's default probing
        if self.sp.limit_at is not None:  # building counted against the time limit
            time_limit = max(self.sp.limit_at - time.perf_counter(), 0.0)
        solver = cpsat_solver(threads=threads, seed=seed, time_limit=time_limit)
        code = run_cpsat(solver, self.model)
        status = cpsat_status(code)
        if status is None:
            why = (self.model.Validate() or solver.StatusName(code)).splitlines()[0]
            if "overflow" in why.lower():
                raise LimitError(
                    "the window model's integer sums exceed CP-SAT's 64-bit range "
                    f"({why[:120]}); use the dp or milp solver"
                )
            raise RuntimeError(f"CP-SAT rejected the window model: {why}")
        if status == "optimal" and not cpsat_proven(solver, self.model):
            status = "feasible"  # a proof is the integer value equal to the integer bound
        raw = solver.BestObjectiveBound()
        # without a solution CP-SAT may report 0 as its bound: not a proven one
        proven = status in ("optimal", "feasible") and math.isfinite(raw)
        if self.q_err:
            # the model maximised rounded q: its optimum is only near the true one
            raw += self.sp.n * self.q_err
            status = "feasible" if status == "optimal" else status
        bound = raw / self.scale if proven else None
        if bound is not None and self.sp.criterion.metric == "q" and self.sp.q_exact:
            bound = natural_q(raw, self.sp.q_exp)
        if status == "unknown" and self.incumbent is not None:
            return "feasible", self.incumbent, None  # stopped early: the reduction's window
        if status not in ("optimal", "feasible"):
            return status, None, bound
        chosen = [j for j in self.slots if solver.BooleanValue(self.x[j])]
        return status, (solver.Value(self.T), chosen), bound
