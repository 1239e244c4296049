"""The node problem of the joint branch-and-price (docs/exact-models.md): column generation
under a node's rules on the shared master, phase one for infeasible nodes, and dives.

The node's master is the shared restricted master with every column that breaks a rule
held at zero, and the jobs whose placement the rules fix made to take one window; an
artificial window per job, using no resource at a large cost, keeps every node's LP
feasible so that its duals exist. The node's bound is the best Lagrangian value met while
pricing under its rules, valid for every solution of the node
(:class:`models.joint.cg.duals.Duals`, with the jobs the rules place contributing
``v_j − μ`` instead of ``min(0, v_j − μ)``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from ortools.linear_solver import pywraplp

from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals, round_up
from models.joint.cg.generate import IMPROVING
from models.joint.cg.master import Master
from models.joint.cg.restrict import (
    Limits,
    Restricted,
    Rule,
    compatible,
    gather,
    price_many_in,
    restrict,
)
from models.joint.space import JobSpace
from planner.deadline import Deadline

TOLERANCE = 1e-6
"""An LP value within this of 0 or 1 counts as integral."""

GLOP_TREE = "use_preprocessing:false"
"""GLOP's parameters in the tree: the master's own (primal simplex from the previous basis,
no presolve). The dual simplex after a node's bound changes was measured too (css2015,
problem (8), 60 s): on seed 6 its re-solves took 137 ms on average against 70 ms and the
tree solved 1 node against 9; on seed 1, 87 nodes against 138."""

NODE_COLUMNS = 3
"""Windows per job a node's pricing round may add (its least ones at distinct starts)."""

DIVE_ROUNDS = 3
"""Pricing rounds a dive spends at each of its nodes after the first: a dive only looks for
a solution, so it rounds the LP of a node before that LP has converged."""

RAISES = 12
"""The artificial windows' cost is raised tenfold while the LP uses them, this many times."""


def up(bound: float) -> int:
    """Return the rounded-up bound, a huge integer for +inf (an infeasible node)."""
    return 2**62 if bound == math.inf else round_up(bound)


def lagrangian(duals: Duals, values: Sequence[float | None], lims: Sequence[Limits]) -> float:
    """Return the node's Lagrangian bound for each job's least priced value under its rules."""
    return duals.lagrangian(values, [lim.placed for lim in lims])


def overlap_free(columns: Sequence[Column]) -> bool:
    """Return True when no two tasks of ``columns`` share a node's time."""
    by_node: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for col in columns:
        for node, start, end in col.tasks:
            by_node[node].append((start, end))
    for spans in by_node.values():
        spans.sort()
        if any(a[1] > b[0] for a, b in pairwise(spans)):
            return False
    return True


class NodeSearch:
    """The nodes of one tree over one shared master (see the module docstring)."""

    def __init__(
        self,
        spaces: Sequence[JobSpace],
        master: Master,
        metric: str,
        sign: int,
        free_start: bool,
        deadline: Deadline | None,
        base: Sequence[Limits] | None,
    ) -> None:
        self.spaces, self.master, self.metric, self.sign = spaces, master, metric, sign
        self.base = base
        self.free_start, self.deadline = free_start, deadline
        lp = master.lp
        self.big = self.biggest = 1.0
        self.phantom: list[pywraplp.Variable] = []
        for j in range(len(spaces)):
            a = lp.NumVar(0.0, lp.infinity(), f"a{j}")
            master.convex[j].SetCoefficient(a, 1.0)
            if master.count_row is not None:
                master.count_row.SetCoefficient(a, 1.0)
            self.phantom.append(a)

    def set_big(self, big: float, first: bool = False) -> None:
        if first:
            self.biggest = big * 10.0**RAISES
        self.big = big
        for a in self.phantom:
            self.master.lp.Objective().SetCoefficient(a, big)

    def value(self, columns: Sequence[Column]) -> int:
        return sum(self.sign * c.metric(self.metric) for c in columns)

    def late(self) -> bool:
        return self.deadline is not None and self.deadline.passed()

    def apply(self, lims: Sequence[Limits]) -> None:
        """Hold the columns that break a rule at zero; fix the placed jobs' convex rows."""
        lp, m = self.master.lp, self.master
        inf = lp.infinity()
        for x, c in zip(m.x, m.columns, strict=True):
            x.SetUb(inf if compatible(c, self.spaces[c.j], lims[c.j]) else 0.0)
        for row, a, lim in zip(m.convex, self.phantom, lims, strict=True):
            row.SetLb(1.0 if lim.placed else -inf)
            a.SetUb(0.0 if lim.placed is False else inf)

    def _round(
        self, spaces: Sequence[Restricted | None], lims: Sequence[Limits]
    ) -> tuple[Duals, list[float | None], int]:
        """Price every job at the LP's duals; add the improving windows; return the duals,
        each job's least priced value and the number of windows added."""
        m = self.master
        duals = m.duals()
        pi = [row.dual_value() if lim.placed else p
              for row, lim, p in zip(m.convex, lims, duals.pi, strict=True)]
        lp_duals = replace(duals, pi=pi)
        values: list[float | None] = []
        added = 0
        for j, rs in enumerate(spaces):
            found = [] if rs is None else price_many_in(rs, duals.form, duals.prices.of(j),
                                                        NODE_COLUMNS, free_start=self.free_start)
            values.append(found[0][0] if found else None)
            for _, T, chosen in found:
                col = Column.build(j, self.spaces[j], T, chosen)
                if lp_duals.reduced(col) < -IMPROVING and m.add(col):
                    added += 1
        return duals, values, added

    def _feasible(
        self, spaces: Sequence[Restricted | None], lims: Sequence[Limits]
    ) -> tuple[bool | None, int]:
        """Phase one: minimise the artificial windows alone by column generation. Return
        True when the LP needs none, False when a Lagrangian bound above zero proves that
        every solution of the node needs one (the node is infeasible), None when stopped;
        and the pricing rounds spent. The artificial window counts as a window of value 1."""
        m = self.master
        saved, objective = m.objective, m.lp.Objective()
        m.objective = Linear()
        for x in m.x:
            objective.SetCoefficient(x, 0.0)
        for a in self.phantom:
            objective.SetCoefficient(a, 1.0)
        rounds = 0
        try:
            while not self.late():
                try:
                    if m.solve(self.deadline) <= TOLERANCE:
                        return True, rounds
                except RuntimeError:
                    return None, rounds
                duals, values, added = self._round(spaces, lims)
                rounds += 1
                capped = [None if lim.placed is False else 1.0 if v is None else min(v, 1.0)
                          for v, lim in zip(values, lims, strict=True)]
                if lagrangian(duals, capped, lims) > TOLERANCE:
                    return False, rounds
                if not added:
                    return None, rounds
            return None, rounds
        finally:
            m.objective = saved
            for x, col in zip(m.x, m.columns, strict=True):
                objective.SetCoefficient(x, col.value(saved))
            for a in self.phantom:
                objective.SetCoefficient(a, self.big)

    def dive(self, rules: tuple[Rule, ...], best: int) -> list[Column] | None:
        """Dive from a node: fix the job of the column with the largest fractional LP value
        to that very window (placed, its start, its options), solve the child, repeat until
        the LP is integral; return that solution (None: pruned, infeasible or out of time).
        A heuristic: it proves nothing and leaves the tree as it was."""
        fixed = list(rules)
        limit = None
        while not self.late():
            _, x, _, settled = self.solve_node(tuple(fixed), -math.inf, best, limit)
            limit = DIVE_ROUNDS
            if x is None or not settled:
                return None
            m = self.master
            frac = [(v, i) for i, v in enumerate(x) if TOLERANCE < v < 1.0 - TOLERANCE]
            if not frac:
                return [c for c, v in zip(m.columns, x, strict=True) if v > 0.5]
            col = m.columns[max(frac)[1]]
            fixed += [Rule(col.j, "placed", True), Rule(col.j, "start", True, col.T),
                      Rule(col.j, "start", False, col.T)]
            fixed += [Rule(col.j, "option", True, k) for k in col.chosen]
        return None

    def solve_node(
        self, rules: tuple[Rule, ...], bound: float, best: int, rounds_limit: int | None = None
    ) -> tuple[float, list[float] | None, int, bool]:
        """Run column generation at a node; return its bound, the LP values of the columns
        (None: pruned, infeasible or stopped), the pricing rounds spent, and whether the node
        is settled (False: stopped by the deadline or a failed LP, so it stays open).

        ``rounds_limit`` (dives only): return the LP values after that many rounds with
        columns still coming, whose bound is then no node's bound."""
        J, m = len(self.spaces), self.master
        lims = gather(rules, J, self.base)
        count = m.count or 0
        if sum(lim.placed is not False for lim in lims) < count or sum(
            bool(lim.placed) for lim in lims
        ) > count:
            return math.inf, None, 0, True
        spaces = [restrict(sp, lim) for sp, lim in zip(self.spaces, lims, strict=True)]
        if any(lim.placed and rs is None for lim, rs in zip(lims, spaces, strict=True)):
            return math.inf, None, 0, True
        self.apply(lims)
        rounds = 0
        while True:
            try:
                m.solve(self.deadline, dual=rounds == 0)
            except RuntimeError:  # GLOP gave up: the node stays open, nothing is claimed
                return bound, None, rounds, False
            duals, values, added = self._round(spaces, lims)
            rounds += 1
            bound = max(bound, lagrangian(duals, values, lims))
            if up(bound) >= best:
                return bound, None, rounds, True
            if not added:
                if any(a.solution_value() > TOLERANCE for a in self.phantom):
                    feasible, more = self._feasible(spaces, lims)
                    rounds += more
                    if feasible is False:
                        return math.inf, None, rounds, True
                    if feasible is None or self.big > self.biggest:
                        return bound, None, rounds, False  # no proof either way: left open
                    self.set_big(self.big * 10.0)
                    continue
                return bound, [x.solution_value() for x in m.x], rounds, True
            if rounds_limit is not None and rounds >= rounds_limit and not any(
                a.solution_value() > TOLERANCE for a in self.phantom
            ):
                try:
                    m.solve(self.deadline)
                except RuntimeError:
                    return bound, None, rounds, False
                return bound, [x.solution_value() for x in m.x], rounds, True
            if self.late():
                return bound, None, rounds, False

