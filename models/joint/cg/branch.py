"""Branch-and-price for the joint co-allocation (docs/exact-models.md): the master LP's gap
closed by branching on the jobs' decisions, each tree node bounded by column generation.

A node is a set of :class:`models.joint.cg.restrict.Rule`. Its master is the shared
restricted master with every column that breaks a rule held at zero, and the jobs whose
placement the rules fix made to take one window; an artificial window per job, using no
resource at a large cost, keeps every node's LP feasible so that its duals exist. The
node's bound is the best Lagrangian value met while pricing under its rules, which is
valid for every solution of the node (:class:`models.joint.cg.duals.Duals`, with the
jobs the rules place contributing ``v_j − μ`` instead of ``min(0, v_j − μ)``). Nodes are
explored best bound first; one whose bound, rounded up, reaches the incumbent is pruned.

Branching on a fractional LP solution, in this order: a job placed a fraction of the
time (placed / not placed); a job using a node a fraction of the time (the node
required / banned); a job whose windows have several starts (T ≤ t / T ≥ t + 1 at the
mean start); a job whose windows differ only in their options (square geometry's levels:
an option required / banned). The two children split the node's solutions, and an LP
solution with none of these is integral, so the search is finite and exact.
"""

from __future__ import annotations

import heapq
import math
import time as _clock
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from ortools.linear_solver import pywraplp

from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals, round_up
from models.joint.cg.generate import IMPROVING
from models.joint.cg.master import GLOP, Master
from models.joint.cg.restrict import (
    Limits,
    Restricted,
    Rule,
    compatible,
    gather,
    price_in,
    restrict,
)
from models.joint.space import JobSpace

TOLERANCE = 1e-6
"""An LP value within this of 0 or 1 counts as integral."""

GLOP_TREE = "use_dual_simplex:true use_preprocessing:false"
"""GLOP's parameters in the tree: a node changes column bounds, after which the dual
simplex restarts from the previous basis (primal feasibility is lost, dual feasibility
kept); measured on css2015 seed 1, problem (8), 40 s: median 69 simplex iterations per
re-solve against 100 with the primal simplex, 90 nodes against 78."""

DIVE_EVERY = 50
"""Nodes between two dives (:meth:`_Search.dive`), the first at the root."""

HEURISTIC_EVERY = 25
"""Nodes between two runs of the ``improve`` heuristic of :func:`branch_and_price`."""

RAISES = 12
"""The artificial windows' cost is raised tenfold while the LP uses them, this many times."""


def _up(bound: float) -> int:
    return 2**62 if bound == math.inf else round_up(bound)


@dataclass
class Tree:
    """The outcome of :func:`branch_and_price`: best columns and value, proven integer bound,
    and counts (nodes solved and left open, pricing rounds, deepest node)."""

    columns: list[Column]
    best: int
    low: int
    nodes: int = 0
    open: int = 0
    rounds: int = 0
    depth: int = 0
    improved: int = 0
    finished: bool = False


class _Node:
    __slots__ = ("bound", "rules")

    def __init__(self, bound: float, rules: tuple[Rule, ...]) -> None:
        self.bound, self.rules = bound, rules


def _lagrangian(duals: Duals, values: Sequence[float | None], lims: Sequence[Limits]) -> float:
    total = duals.fixed - sum(float(rho.sum()) for _, rho in duals.prices.by_node.values())
    for v, lim in zip(values, lims, strict=True):
        if lim.placed is False:
            continue
        if v is None:
            if lim.placed:
                return math.inf
            continue
        total += v - duals.mu if lim.placed else min(0.0, v - duals.mu)
    return total


def _overlap_free(columns: Sequence[Column]) -> bool:
    by_node: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for col in columns:
        for node, start, end in col.tasks:
            by_node[node].append((start, end))
    for spans in by_node.values():
        spans.sort()
        if any(a[1] > b[0] for a, b in pairwise(spans)):
            return False
    return True


class _Search:
    """The tree search over one shared master (see the module docstring)."""

    def __init__(
        self,
        spaces: Sequence[JobSpace],
        master: Master,
        metric: str,
        sign: int,
        free_start: bool,
        deadline: float | None,
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
        return self.deadline is not None and _clock.perf_counter() > self.deadline

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
            found = None if rs is None else price_in(rs, duals.form, duals.prices,
                                                     free_start=self.free_start)
            values.append(found[0] if found is not None else None)
            if found is not None:
                col = Column.build(j, self.spaces[j], found[1], found[2])
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
                    if m.solve() <= TOLERANCE:
                        return True, rounds
                except RuntimeError:
                    return None, rounds
                duals, values, added = self._round(spaces, lims)
                rounds += 1
                capped = [None if lim.placed is False else 1.0 if v is None else min(v, 1.0)
                          for v, lim in zip(values, lims, strict=True)]
                if _lagrangian(duals, capped, lims) > TOLERANCE:
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
        while not self.late():
            _, x, _, settled = self.solve_node(tuple(fixed), -math.inf, best)
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
        self, rules: tuple[Rule, ...], bound: float, best: int
    ) -> tuple[float, list[float] | None, int, bool]:
        """Run column generation at a node; return its bound, the LP values of the columns
        (None: pruned, infeasible or stopped), the pricing rounds spent, and whether the node
        is settled (False: stopped by the deadline or a failed LP, so it stays open)."""
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
                m.solve()
            except RuntimeError:  # GLOP gave up: the node stays open, nothing is claimed
                return bound, None, rounds, False
            duals, values, added = self._round(spaces, lims)
            rounds += 1
            bound = max(bound, _lagrangian(duals, values, lims))
            if _up(bound) >= best:
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
            if self.late():
                return bound, None, rounds, False


Fractional = dict[int, list[tuple[Column, float]]]


def _frac(v: float) -> float:
    return min(v, 1.0 - v)


def _on_placed(per_job: Fractional, spaces: Sequence[JobSpace]) -> tuple[Rule, Rule] | None:
    placed = {j: sum(v for _, v in cs) for j, cs in per_job.items()}
    j, z = max(placed.items(), key=lambda kv: (_frac(kv[1]), -kv[0]), default=(None, 0.0))
    if j is None or _frac(z) <= TOLERANCE:
        return None
    return Rule(j, "placed", True), Rule(j, "placed", False)


def _on_node(per_job: Fractional, spaces: Sequence[JobSpace]) -> tuple[Rule, Rule] | None:
    best: tuple[float, int, str] | None = None
    for j, cs in sorted(per_job.items()):
        use: dict[str, float] = defaultdict(float)
        for col, v in cs:
            for k in col.chosen:
                use[spaces[j].options[k].node] += v
        for node, y in sorted(use.items()):
            if _frac(y) > TOLERANCE and (best is None or _frac(y) > best[0]):
                best = (_frac(y), j, node)
    if best is None:
        return None
    return Rule(best[1], "node", True, best[2]), Rule(best[1], "node", False, best[2])


def _on_start(per_job: Fractional, spaces: Sequence[JobSpace]) -> tuple[Rule, Rule] | None:
    best: tuple[float, int, int] | None = None
    for j, cs in sorted(per_job.items()):
        if len({col.T for col, _ in cs}) < 2:
            continue
        z = sum(v for _, v in cs)
        cut = math.floor(sum(col.T * v for col, v in cs) / z)
        below = sum(v for col, v in cs if cut >= col.T) / z
        if best is None or _frac(below) > best[0]:
            best = (_frac(below), j, cut)
    if best is None:
        return None
    return Rule(best[1], "start", False, best[2]), Rule(best[1], "start", True, best[2] + 1)


def _on_option(per_job: Fractional, spaces: Sequence[JobSpace]) -> tuple[Rule, Rule] | None:
    for j, cs in sorted(per_job.items()):
        if len(cs) > 1:
            sets = [set(col.chosen) for col, _ in cs]
            k = min(set.union(*sets) - set.intersection(*sets))
            return Rule(j, "option", True, k), Rule(j, "option", False, k)
    return None


ORDER = (_on_placed, _on_node, _on_start, _on_option)
"""The branching rules tried in turn on a fractional LP solution (module docstring)."""


def _branch(columns: Sequence[Column], x: Sequence[float], spaces: Sequence[JobSpace]
            ) -> tuple[Rule, Rule] | None:
    """Return the two children's rules for a fractional LP solution (None: it is integral)."""
    per_job: Fractional = defaultdict(list)
    for col, v in zip(columns, x, strict=True):
        if v > TOLERANCE:
            per_job[col.j].append((col, v))
    for rule in ORDER:
        children = rule(per_job, spaces)
        if children is not None:
            return children
    return None


def branch_and_price(
    spaces: Sequence[JobSpace],
    master: Master,
    metric: str,
    sign: int,
    incumbent: Sequence[Column],
    root_bound: float,
    *,
    free_start: bool = True,
    deadline: float | None = None,
    base: Sequence[Limits] | None = None,
    report: Callable[[Tree], None] | None = None,
    cutoff: int = 2**62,
    improve: Callable[[Sequence[Column], Sequence[Column]], Sequence[Column] | None] | None = None,
) -> Tree:
    """Close the gap between ``incumbent`` (``sign``·Σ ``metric``) and ``root_bound`` by
    branch-and-price over ``master`` (its count row fixed); return the best solution and
    the proven bound when the tree is exhausted or ``deadline`` passes.

    ``cutoff``: the value to beat when ``incumbent`` is empty (the tree then finds its own
    solutions; none better than ``cutoff`` leaves :attr:`Tree.columns` empty).
    ``base``: limits every solution better than ``incumbent`` obeys (reduced-cost fixing),
    held at every node. ``report`` is called after each branching with the current
    :class:`Tree`. ``improve(columns, incumbent)`` is a heuristic over the master's columns
    (the integer master), run after the root and every :data:`HEURISTIC_EVERY` nodes
    while new columns keep coming; its solution must obey the master's rows.
    """
    search = _Search(spaces, master, metric, sign, free_start, deadline, base)
    master.lp.SetSolverSpecificParametersAsString(GLOP_TREE)
    best = search.value(incumbent) if incumbent else cutoff
    search.set_big(10.0 * (abs(best) + 1.0) + 1000.0 if incumbent else 1e4, first=True)
    tree = Tree(list(incumbent), best, min(round_up(root_bound), best))
    heap: list[tuple[float, int, int, _Node]] = []
    counter, seen = 0, 0
    heapq.heappush(heap, (root_bound, 0, counter, _Node(root_bound, ())))
    while heap:
        if search.late():
            break
        bound, _, _, node = heapq.heappop(heap)
        if _up(bound) >= tree.best:
            continue
        bound, x, rounds, settled = search.solve_node(node.rules, bound, tree.best)
        tree.rounds += rounds
        tree.nodes += 1
        tree.depth = max(tree.depth, len(node.rules))
        if not settled:
            heapq.heappush(heap, (bound, -len(node.rules), counter, _Node(bound, node.rules)))
            break
        if x is None:
            continue
        if (tree.nodes - 1) % DIVE_EVERY == 0:
            found = search.dive(node.rules, tree.best)
            if found is not None and search.value(found) < tree.best and _overlap_free(found):
                tree.columns, tree.best = list(found), search.value(found)
                tree.improved += 1
            if _up(bound) >= tree.best:
                continue
            search.apply(gather(node.rules, len(spaces), search.base))
        if improve is not None and (tree.nodes - 1) % HEURISTIC_EVERY == 0 and (
            len(master.columns) > seen
        ):
            seen = len(master.columns)
            found = improve(master.columns, tree.columns)
            if found is not None and search.value(found) < tree.best and _overlap_free(found):
                tree.columns, tree.best = list(found), search.value(found)
                tree.improved += 1
        columns = master.columns[: len(x)]  # a dive may have added columns since
        children = _branch(columns, x, spaces)
        if children is None:
            chosen = [c for c, v in zip(columns, x, strict=True) if v > 0.5]
            value = search.value(chosen)
            one_each = len({c.j for c in chosen}) == len(chosen) == (master.count or 0)
            if value < tree.best and one_each and _overlap_free(chosen):
                tree.columns, tree.best = chosen, value
                tree.improved += 1
            continue
        for rule in children:
            counter += 1
            heapq.heappush(heap, (bound, -(len(node.rules) + 1), counter,
                                  _Node(bound, (*node.rules, rule))))
        if report is not None:
            tree.open = len(heap)
            tree.low = min(tree.best, max(tree.low, _up(min(b for b, *_ in heap))))
            report(tree)
    tree.open = len(heap)
    tree.finished = not heap
    open_low = min((b for b, *_ in heap), default=math.inf)
    tree.low = min(tree.best, max(tree.low, _up(open_low)) if heap else tree.best)
    master.lp.SetSolverSpecificParametersAsString(GLOP)
    search.apply(gather((), len(spaces)))
    for a in search.phantom:
        a.SetUb(0.0)
    return tree
