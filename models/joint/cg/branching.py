"""Branching rules of the joint branch-and-price (docs/exact-models.md): the two children of
a node whose LP solution is fractional.

In this order: a job placed a fraction of the time (placed / not placed); the most
fractional use of a node by a job (the node required / banned); a job whose windows have
several starts (T ≤ t / T ≥ t + 1 at the mean start); a job whose windows differ only in
their options (square geometry's levels: an option required / banned). The two children
split the node's solutions, and an LP solution with none of these is integral.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from models.joint.cg.column import Column
from models.joint.cg.node import TOLERANCE
from models.joint.cg.restrict import Rule
from models.joint.space import JobSpace

Fractional = dict[int, list[tuple[Column, float]]]
"""Job → its columns with a positive LP value, and those values."""


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


def choose(columns: Sequence[Column], x: Sequence[float], spaces: Sequence[JobSpace]
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

