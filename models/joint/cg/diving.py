"""Diving with limited discrepancy for incumbents of the joint column generation (Sadykov,
Vanderbeck, Pessoa, Tahiri & Uchoa 2019, "Primal heuristics for branch and price: the
assets of diving methods", § 3; docs/exact-models.md, "Diving").

A dive fixes, at each of its nodes, the job of the column with the largest fractional LP
value to that very window (placed, its start, its options), re-runs column generation
under the fixings (a few rounds: :data:`models.joint.cg.node.DIVE_ROUNDS`), and goes on
until the LP is integral (a solution) or the node is pruned or infeasible. Limited
discrepancy search backtracks in the first :data:`DEPTH` levels: after a child returns,
its column joins the node's tabu list (a column on it is never fixed again below that
node, though the LP may still use it) and the node is re-solved to fix the best column
not on the list, while the path has taken at most :data:`DISCREPANCY` such second choices.
Nodes prune against the best solution found (``best``), so every later dive looks only
for better solutions. A heuristic: it proves nothing; every solution it returns is
re-checked by the caller.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from models.joint.cg.column import Column
from models.joint.cg.master import GLOP, Master
from models.joint.cg.node import DIVE_ROUNDS, GLOP_TREE, TOLERANCE, NodeSearch
from models.joint.cg.restrict import Limits, Rule, gather
from models.joint.space import JobSpace
from planner.deadline import Deadline

__all__ = ["DEPTH", "DISCREPANCY", "Dive", "dive", "dive_root", "fixing"]

DISCREPANCY = 2
"""Most second choices along one path (maxDiscrepancy; Sadykov et al. 2019 use 1–3)."""

DEPTH = 3
"""Levels of the dive at which it backtracks (maxDepth; Sadykov et al. 2019 use 2–3)."""

Key = tuple[int, int, tuple[int, ...]]


@dataclass
class Dive:
    """The outcome of :func:`dive`: the best solution and its value (None, ``best`` given:
    none better), dive nodes solved, pricing rounds and solutions met."""

    columns: list[Column] | None
    value: int
    nodes: int = 0
    rounds: int = 0
    found: list[int] = field(default_factory=list)


def fixing(col: Column) -> list[Rule]:
    """Return the rules that fix ``col``'s job to that window (placed, start, options)."""
    return [Rule(col.j, "placed", True), Rule(col.j, "start", True, col.T),
            Rule(col.j, "start", False, col.T),
            *(Rule(col.j, "option", True, k) for k in col.chosen)]


def dive(
    search: NodeSearch,
    best: int,
    *,
    accept: Callable[[Sequence[Column]], bool],
    discrepancy: int = DISCREPANCY,
    depth: int = DEPTH,
) -> Dive:
    """Dive from the root of ``search`` with limited discrepancy; return the best solution
    better than ``best`` that ``accept`` (the exact re-check) passes.

    ``discrepancy`` 0 is the pure dive (no backtracking)."""
    out = Dive(None, best)

    def visit(rules: tuple[Rule, ...], tabu: frozenset[Key], left: int, level: int) -> None:
        first = True
        while not search.late():
            _, x, rounds, settled = search.solve_node(
                rules, -math.inf, out.value, None if level == 0 else DIVE_ROUNDS)
            out.nodes += 1
            out.rounds += rounds
            if x is None or not settled:
                return
            cols = search.master.columns[: len(x)]
            frac = sorted(((v, i) for i, v in enumerate(x)
                           if TOLERANCE < v < 1.0 - TOLERANCE and cols[i].key not in tabu),
                          reverse=True)
            if not frac:
                if all(v <= TOLERANCE or v >= 1.0 - TOLERANCE for v in x):
                    chosen = [c for c, v in zip(cols, x, strict=True) if v > 0.5]
                    value = search.value(chosen)
                    if value < out.value and accept(chosen):
                        out.columns, out.value = chosen, value
                        out.found.append(value)
                return  # integral, or every fractional column is tabu
            if not first:
                left -= 1
            col = cols[frac[0][1]]
            visit((*rules, *fixing(col)), tabu, left, level + 1)
            if left <= 0 or level >= depth:
                return
            tabu = tabu | {col.key}
            first = False

    visit((), frozenset(), discrepancy, 0)
    return out


def dive_root(
    spaces: Sequence[JobSpace],
    master: Master,
    metric: str,
    sign: int,
    best: int,
    *,
    accept: Callable[[Sequence[Column]], bool],
    free_start: bool = True,
    deadline: Deadline | None = None,
    base: Sequence[Limits] | None = None,
) -> Dive:
    """Run :func:`dive` from the root of ``master`` (its count row fixed) under the
    reduced-cost limits ``base``, until ``deadline``; leave the master as it was, with the
    dives' new columns."""
    search = NodeSearch(spaces, master, metric, sign, free_start, deadline, base)
    master.lp.SetSolverSpecificParametersAsString(GLOP_TREE)
    search.set_big(10.0 * (abs(best) + 1.0) + 1000.0, first=True)
    try:
        return dive(search, best, accept=accept)
    finally:
        master.lp.SetSolverSpecificParametersAsString(GLOP)
        search.apply(gather((), len(spaces)))
        for a in search.phantom:
            a.SetUb(0.0)
