"""Robust time-indexed cuts of the joint master (docs/exact-models.md, "Cuts"): the
single-node inequalities of van den Akker, van Hoesel & Savelsbergh (1999), written over
the windows' tasks, and their exact separation.

For node k, an interval I = [a, b) with b − a ≥ 2 and a job l::

    Σ_{windows of l with a task on k meeting I} x_w
      + Σ_{windows of j ≠ l with a task on k covering I} x_w ≤ 1

Valid for every window, generated or not: job l places at most one task on k, the tasks
covering I pairwise overlap, and a task of l meeting I overlaps each of them. (b − a = 1
is the master's node-time row.) A window has at most one task per node, so its
coefficient is 0 or 1, and it depends on the task's node, start and duration alone: the
pricing charge of a cut's multiplier is a step function of the start per (job, node,
duration) (:mod:`models.joint.cg.prices`), which keeps pricing exact and separable per
node.

Separation is exact per node: for a set C of covering tasks the left side grows as I
grows inside their intersection, so the most violated I of each job l lies among the
intervals from a start to an end of the tasks with x > 0 of that node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from models.joint.cg.column import Column
from models.joint.cg.prices import span

VIOLATION = 1e-4
"""Least violation of a separated cut."""

PER_ROUND = 60
"""Most cuts one separation round adds (the most violated)."""

ROUNDS = 5
"""Most separation rounds at the root (each followed by column generation)."""


@dataclass(frozen=True)
class Cut:
    """The robust cut of node ``node``, interval ``[a, b)`` and job index ``job``."""

    node: str
    a: int
    b: int
    job: int

    def __post_init__(self) -> None:
        if self.b - self.a < 2:
            raise ValueError(f"a cut's interval needs b − a >= 2, not [{self.a}, {self.b})")

    def holds(self, j: int, start: int, end: int) -> bool:
        """Return whether job ``j``'s task ``[start, end)`` on the cut's node is in the cut."""
        lo, hi = span(self.a, self.b, j == self.job, end - start)
        return lo <= start <= hi

    def coefficient(self, col: Column) -> int:
        """Return the column's coefficient in the cut (0 or 1)."""
        return int(any(k == self.node and self.holds(col.j, s, e) for k, s, e in col.tasks))


def separate(
    columns: Sequence[Column], x: Sequence[float], *, known: frozenset[Cut] = frozenset(),
    most: int = PER_ROUND,
) -> list[Cut]:
    """Return the most violated cut of each (node, job) whose left side exceeds 1 by more
    than :data:`VIOLATION` at the LP values ``x`` of ``columns``, the ``most`` most violated
    first, leaving out those in ``known``."""
    by_node: dict[str, list[tuple[int, int, int, float]]] = {}
    for col, v in zip(columns, x, strict=True):
        if v > 1e-9:
            for k, s, e in col.tasks:
                by_node.setdefault(k, []).append((col.j, s, e, v))
    found: list[tuple[float, Cut]] = []
    for node, tasks in by_node.items():
        found += _node(node, tasks, known)
    found.sort(key=lambda p: (-p[0], p[1].node, p[1].a, p[1].b, p[1].job))
    return [cut for _, cut in found[:most]]


def _node(
    node: str, tasks: list[tuple[int, int, int, float]], known: frozenset[Cut]
) -> list[tuple[float, Cut]]:
    """Return (left side, cut) of the most violated cut per job of one node."""
    j = np.array([t[0] for t in tasks], dtype=np.int64)
    s = np.array([t[1] for t in tasks], dtype=np.int64)
    e = np.array([t[2] for t in tasks], dtype=np.int64)
    v = np.array([t[3] for t in tasks])
    jobs, jid = np.unique(j, return_inverse=True)
    a_all, b_all = np.meshgrid(np.unique(s), np.unique(e), indexing="ij")
    keep = b_all - a_all >= 2
    a, b = a_all[keep], b_all[keep]
    if not len(a):
        return []
    onehot = np.zeros((len(tasks), len(jobs)))
    onehot[np.arange(len(tasks)), jid.reshape(-1)] = v
    meet = ((s[None, :] < b[:, None]) & (e[None, :] > a[:, None])).astype(float) @ onehot
    cover = ((s[None, :] <= a[:, None]) & (e[None, :] >= b[:, None])).astype(float) @ onehot
    lhs = meet + cover.sum(axis=1, keepdims=True) - cover  # (intervals × jobs)
    out = []
    for c in range(len(jobs)):
        order = np.argsort(-lhs[:, c], kind="stable")
        for i in order:
            if lhs[i, c] <= 1.0 + VIOLATION:
                break
            cut = Cut(node, int(a[i]), int(b[i]), int(jobs[c]))
            if cut not in known:
                out.append((float(lhs[i, c]), cut))
                break
    return out
