"""Branch-and-price for the joint co-allocation (docs/exact-models.md): the master LP's gap
closed by branching on the jobs' decisions, each tree node bounded by column generation.

A node is a set of :class:`models.joint.cg.restrict.Rule`, bounded by column generation
under its rules (:mod:`models.joint.cg.node`) and split in two by
:mod:`models.joint.cg.branching` when its LP solution is fractional; the children
partition the node's solutions and an integral LP solution needs no split, so the search
is finite and exact. Nodes are explored best bound first (deeper first among equal
bounds); one whose bound, rounded up, reaches the incumbent is pruned. Dives and the
integer master over the grown column pool supply incumbents.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.joint.cg.branching import choose
from models.joint.cg.column import Column
from models.joint.cg.duals import round_up
from models.joint.cg.master import GLOP, Master
from models.joint.cg.node import GLOP_TREE, NodeSearch, overlap_free, up
from models.joint.cg.restrict import Limits, Rule, gather
from models.joint.space import JobSpace
from planner.deadline import Deadline

DIVE_EVERY = 50
"""Nodes between two dives (:meth:`models.joint.cg.node.NodeSearch.dive`), the first at the
root."""

HEURISTIC_EVERY = 25
"""Nodes between two runs of the ``improve`` heuristic of :func:`branch_and_price`."""


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
    finished: bool = False
    accept: Callable[[Sequence[Column]], bool] | None = None

    def offer(self, columns: Sequence[Column], value: int, count: int | None) -> None:
        """Keep ``columns`` (worth ``value``) as the incumbent when they beat it and are a
        solution: one window per job, ``count`` of them, no two tasks sharing a node's time,
        and :attr:`accept` (the exact re-check of every row) passes them; an LP solution
        within GLOP's tolerances may break a side row by many units at large values."""
        jobs = len({c.j for c in columns})
        if value < self.best and jobs == len(columns) == (count or jobs) and overlap_free(
                columns) and (self.accept is None or self.accept(columns)):
            self.columns, self.best = list(columns), value

    def settle(self, heap: Sequence[tuple[float, int, int, _Node]]) -> None:
        """Set :attr:`low` to the proven bound: the least rounded bound of the open nodes."""
        self.open = len(heap)
        self.low = self.best if not heap else min(
            self.best, max(self.low, up(min(b for b, *_ in heap))))


class _Node:
    __slots__ = ("bound", "rules")

    def __init__(self, bound: float, rules: tuple[Rule, ...]) -> None:
        self.bound, self.rules = bound, rules



def branch_and_price(
    spaces: Sequence[JobSpace],
    master: Master,
    metric: str,
    sign: int,
    incumbent: Sequence[Column],
    root_bound: float,
    *,
    free_start: bool = True,
    deadline: Deadline | None = None,
    base: Sequence[Limits] | None = None,
    report: Callable[[Tree], None] | None = None,
    cutoff: int = 2**62,
    improve: Callable[[Sequence[Column], Sequence[Column]], Sequence[Column] | None] | None = None,
    accept: Callable[[Sequence[Column]], bool] | None = None,
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
    while new columns keep coming; its solution must obey the master's rows. ``accept``:
    the exact re-check every incumbent must pass (:meth:`Tree.offer`).
    """
    search = NodeSearch(spaces, master, metric, sign, free_start, deadline, base)
    master.lp.SetSolverSpecificParametersAsString(GLOP_TREE)
    best = search.value(incumbent) if incumbent else cutoff
    search.set_big(10.0 * (abs(best) + 1.0) + 1000.0 if incumbent else 1e4, first=True)
    tree = Tree(list(incumbent), best, min(round_up(root_bound), best), accept=accept)
    heap: list[tuple[float, int, int, _Node]] = []
    counter, seen = 0, 0
    heapq.heappush(heap, (root_bound, 0, counter, _Node(root_bound, ())))
    while heap:
        if search.late():
            break
        bound, _, _, node = heapq.heappop(heap)
        if up(bound) >= tree.best:
            continue
        bound, x, rounds, settled = search.solve_node(node.rules, bound, tree.best)
        tree.rounds += rounds
        tree.nodes += 1
        tree.depth = max(tree.depth, len(node.rules))
        if not settled:
            counter += 1
            heapq.heappush(heap, (bound, -len(node.rules), counter, _Node(bound, node.rules)))
            break
        if x is None:
            continue
        if (tree.nodes - 1) % DIVE_EVERY == 0:
            found = search.dive(node.rules, tree.best)
            if found is not None:
                tree.offer(found, search.value(found), master.count)
            if up(bound) >= tree.best:
                continue
            search.apply(gather(node.rules, len(spaces), search.base))
        if improve is not None and (tree.nodes - 1) % HEURISTIC_EVERY == 0 and (
            len(master.columns) > seen
        ):
            seen = len(master.columns)
            found = improve(master.columns, tree.columns)
            if found is not None:
                tree.offer(found, search.value(found), master.count)
        columns = master.columns[: len(x)]  # a dive may have added columns since
        children = choose(columns, x, spaces)
        if children is None:
            chosen = [c for c, v in zip(columns, x, strict=True) if v > 0.5]
            tree.offer(chosen, search.value(chosen), master.count)
            continue
        for rule in children:
            counter += 1
            heapq.heappush(heap, (bound, -(len(node.rules) + 1), counter,
                                  _Node(bound, (*node.rules, rule))))
        if report is not None:
            tree.settle(heap)
            report(tree)
    tree.settle(heap)
    tree.finished = not heap
    master.lp.SetSolverSpecificParametersAsString(GLOP)
    search.apply(gather((), len(spaces)))
    for a in search.phantom:
        a.SetUb(0.0)
    return tree
