"""Subset-row cuts of the joint master (Jepsen, Petersen, Spoorendonk & Pisinger 2008;
docs/exact-models.md, "Cuts") over three node-time points, and their separation.

For three points S = {(k₁, t₁), (k₂, t₂), (k₃, t₃)} (node k's unit time [t, t + 1)) on
at least two nodes::

    Σ_w ⌊h_S(w) / 2⌋ x_w ≤ 1,   h_S(w) = |points of S covered by w's tasks|

Valid for every window, generated or not: each point is covered by at most one chosen
window (the master's node-time rows), so two chosen windows covering two points each
would need four coverings of three points. A window has at most one task per node, and
its task [T, T + d) on k covers (k, t) iff T ≤ t < T + d. Points all on one node are left
out: a window covering two of them covers every time between, a node-time row already.

The coefficient couples the nodes of a window, so pricing is no longer separable per node:
:mod:`models.joint.cg.rowpricing` prices it exactly.

Separation is heuristic: the candidate points are the task starts of the windows with a
fractional LP value (the maximal cliques of their nodes' interval graphs), the
:data:`POINTS` most loaded; every triple of them on two nodes or more is evaluated at once
(numpy: ``lhs = W₂(p,q) + W₂(p,r) + W₂(q,r) − 2·W₃(p,q,r)`` with W₂, W₃ the LP weight of
the windows covering two, three given points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from models.joint.cg.column import Column
from models.joint.cg.cuts import VIOLATION

PER_ROUND = 30
"""Most subset-row cuts one separation round adds (the most violated)."""

POINTS = 60
"""Most candidate points of one separation (the most loaded by fractional windows)."""

Point = tuple[str, int]
"""A node-time point ``(node k, t)``: k's unit time [t, t + 1)."""


@dataclass(frozen=True)
class SubsetRow:
    """The subset-row cut over the sorted node-time ``points`` (three, on ≥ 2 nodes)."""

    points: tuple[Point, ...]

    def __post_init__(self) -> None:
        if len(self.points) != 3 or len(set(self.points)) != 3:
            raise ValueError(f"a subset-row cut needs three distinct points, not {self.points}")
        if len({k for k, _ in self.points}) < 2:
            raise ValueError("a subset-row cut needs points on two nodes or more")
        if tuple(sorted(self.points)) != self.points:
            raise ValueError("a subset-row cut's points are sorted")

    def hits(self, tasks: Sequence[tuple[str, int, int]]) -> int:
        """Return how many of the cut's points the tasks ``(node, start, end)`` cover."""
        return sum(1 for k, s, e in tasks for node, t in self.points if node == k and s <= t < e)

    def coefficient(self, col: Column) -> int:
        """Return the column's coefficient ⌊hits / 2⌋ (0 or 1)."""
        return self.hits(col.tasks) // 2


def separate_rows(
    columns: Sequence[Column], x: Sequence[float], *,
    known: frozenset[SubsetRow] = frozenset(), most: int = PER_ROUND,
) -> list[SubsetRow]:
    """Return up to ``most`` subset-row cuts whose left side at the LP values ``x`` exceeds
    1 by more than :data:`~models.joint.cg.cuts.VIOLATION`, most violated first (ties by
    points), leaving out those in ``known`` (module docstring)."""
    pos = [(c, v) for c, v in zip(columns, x, strict=True) if v > 1e-9]
    frac = [(c, v) for c, v in pos if v < 1.0 - 1e-9]
    starts = sorted({(k, s) for c, _ in frac for k, s, _ in c.tasks})
    if len(starts) < 3:
        return []
    cover = np.array([[any(k == node and s <= t < e for k, s, e in c.tasks)
                       for node, t in starts] for c, _ in pos])
    val = np.array([v for _, v in pos])
    isfrac = (val < 1.0 - 1e-9).astype(float)
    load = (val * isfrac) @ cover
    twice = cover.sum(axis=0) >= 2
    order = sorted((i for i in range(len(starts)) if twice[i]),
                   key=lambda i: (-load[i], starts[i]))[:POINTS]
    order.sort()
    if len(order) < 3:
        return []
    pts = [starts[i] for i in order]
    A = cover[:, order].astype(float)
    node = np.array([k for k, _ in pts], dtype=object)
    _, nid = np.unique(node, return_inverse=True)
    w2 = A.T @ (A * val[:, None])
    m = len(pts)
    found: list[tuple[float, SubsetRow]] = []
    idx = np.arange(m)
    for p in range(m - 2):
        w3 = A.T @ (A * (val * A[:, p])[:, None])  # W₃(p, q, r) for every q, r
        lhs = w2[p][:, None] + w2[p][None, :] + w2 - 2.0 * w3
        keep = (idx[:, None] > p) & (idx[None, :] > idx[:, None]) & (lhs > 1.0 + VIOLATION)
        keep &= ~((nid[:, None] == nid[p]) & (nid[None, :] == nid[p]))
        for q, r in zip(*np.nonzero(keep), strict=True):
            cut = SubsetRow(tuple(sorted((pts[p], pts[q], pts[r]))))
            if cut not in known:
                found.append((float(lhs[q, r]), cut))
    found.sort(key=lambda f: (-f[0], f[1].points))
    return [cut for _, cut in found[:most]]
