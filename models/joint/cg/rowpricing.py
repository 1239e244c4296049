"""Exact pricing under subset-row charges (docs/exact-models.md, "Cuts"): a window covering
h_S(w) points of a subset-row cut S pays ``σ_S·⌊h_S(w)/2⌋`` (:mod:`models.joint.cg.prices`).

Within one candidate start T and duration level of the oracle (:mod:`models.joint.cg.blocks`)
each node's task is fixed, so whether node i covers a point of S is known per (T, i); the
charge changes in T only where a task starts or stops covering a point, which the
breakpoints hold (:mod:`models.joint.cg.levels`). The charges are ≥ 0, so the oracle's
charge-free value of a start (the n smallest node values, or the knapsack under the budget
and level rule) is a lower bound there, exact when its window pays no charge.

Otherwise :func:`exact` finds the least charged value by depth-first branch and bound over
the *involved* nodes (those covering a point of a cut that could reach two points), each
chosen or not, in increasing value; a leaf completes the window with the n-of-m knapsack
(:mod:`models.window.knapsack`) over the other nodes under the budget left. A branch is cut
when its nodes' values and charges (charges only grow as nodes are added) plus the
smallest values left cannot beat the best window found. Past :data:`MAX_STATES` branches
it stops and returns the charge-free optimum as a lower bound (flagged), which keeps every
Lagrangian bound valid.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from instances.errors import LimitError
from models.joint.cg.blocks import Block
from models.joint.cg.prices import RowCharge
from models.joint.cg.subsets import search
from models.window.knapsack import select

MAX_STATES = 20_000
"""Most branches :func:`exact` visits at one start before it returns a lower bound."""

TALLY = {"searched": 0, "capped": 0}
"""Starts searched by :func:`exact` and those stopped at :data:`MAX_STATES` (counts for
benchmarks; a capped start's value is a lower bound, never a wrong value)."""


class _Capped(Exception):
    """Raised when a search passes :data:`MAX_STATES` branches."""


class RowHits:
    """Which subset-row points the task of each cell of a block covers.

    ``sigma`` holds σ per cut kept (those with two points or more on the block's nodes),
    and ``hit[c, e]`` whether row c's task on the node of entry e covers its point.
    """

    def __init__(self, b: Block, rows: Sequence[RowCharge]) -> None:
        g = b.g
        at = {name: i for i, name in enumerate(g.names)}
        cut, col, t, sigma = [], [], [], []
        for points, s in rows:
            mine = [(at[k], tt) for k, tt in points if k in at]
            if s <= 0.0 or len(mine) < 2:
                continue
            for i, tt in mine:
                cut.append(len(sigma))
                col.append(i)
                t.append(tt)
            sigma.append(s)
        self.sigma = np.array(sigma)
        self.cut = np.array(cut, dtype=np.int64)
        self.col = np.array(col, dtype=np.int64)
        t_ = np.array(t, dtype=np.int64)
        if not len(sigma):
            self.hit = np.zeros((len(b.T), 0), dtype=bool)
            return
        alive = np.isfinite(b.zn[:, self.col])
        d = g.d[b.which[:, self.col]]
        T = b.T[:, None]
        self.hit = alive & (t_[None, :] >= T) & (t_[None, :] < T + d)

    def charged(self, b: Block) -> np.ndarray:
        """Return for each row of the block whether its n smallest cells pay a charge."""
        if not len(self.sigma):
            return np.zeros(len(b.T), dtype=bool)
        picked = np.zeros(b.zn.shape, dtype=bool)
        np.put_along_axis(picked, b.top, True, axis=1)
        on = self.hit & picked[:, self.col]
        per = np.zeros((len(b.T), len(self.sigma)), dtype=np.int64)
        np.add.at(per.T, self.cut, on.T.astype(np.int64))
        return (per >= 2).any(axis=1)

    def matrix(self, c: int, k: int) -> np.ndarray:
        """Return row ``c``'s hits as (cuts × ``k`` nodes) counts."""
        h = np.zeros((len(self.sigma), k), dtype=np.int64)
        np.add.at(h, (self.cut, self.col), self.hit[c].astype(np.int64))
        return h


def _subset(
    z: np.ndarray, c: np.ndarray, n: int, budget: int | None, rule: np.ndarray | None
) -> np.ndarray | None:
    """Return the positions of the least n-subset under ``budget`` and ``rule`` (None: none)."""
    try:
        return select(z, c, n, budget, rule)
    except LimitError:  # a budget too large for the DP's table
        assert budget is not None
        return search(z, c, n, budget, rule)


def exact(b: Block, c: int, hits: RowHits) -> tuple[float, tuple[int, ...], bool] | None:
    """Return row ``c``'s least value with the subset-row charges, its option indices and
    whether the value is exact (False: the search passed :data:`MAX_STATES` and the value
    is the charge-free optimum of the returned window, a lower bound); None when the row
    has no window under the budget and level rule."""
    g, n, budget = b.g, b.n, b.budget
    z = b.zn[c]
    alive = np.isfinite(z)
    cost = np.zeros(len(z), dtype=np.int64)
    cost[alive] = g.c[b.which[c][alive]]
    flag = np.zeros(len(z), dtype=bool)
    flag[alive] = g.exact[b.which[c][alive]]
    if b.ok[c]:  # the n smallest fit: the charge-free optimum
        free = np.asarray(b.top[c], dtype=np.int64)
    else:
        cells = np.flatnonzero(alive)
        pick = _subset(z[cells], cost[cells], n, budget, flag[cells] if b.rule else None)
        if pick is None:
            return None
        free = cells[pick]

    def options(nodes: np.ndarray) -> tuple[int, ...]:
        return tuple(sorted(int(g.idx[b.which[c, i]]) for i in nodes))

    h = hits.matrix(c, len(z))
    can = h.sum(axis=1) >= 2
    if not can.any():
        return float(z[free].sum()) + float(b.extra[c]), options(free), True
    TALLY["searched"] += 1
    h, sigma = h[can], hits.sigma[can]
    involved = alive & (h.sum(axis=0) > 0)
    inv = np.flatnonzero(involved)
    inv = inv[np.argsort(z[inv], kind="stable")]
    rest = np.flatnonzero(alive & ~involved)
    zr, cr, er = z[rest], cost[rest], flag[rest]
    zl, zrl = z.tolist(), sorted(zr.tolist())
    sig = sigma.tolist()
    touch = {int(i): [(int(c), int(h[c, i])) for c in np.flatnonzero(h[:, i])] for i in inv}
    count = [0] * len(sig)

    def charge(nodes: list[int]) -> float:
        per = h[:, nodes].sum(axis=1) // 2
        return float((sigma * per).sum())

    best = [float(z[free].sum()) + charge(free.tolist()), free]
    states = [0]

    def walk(pos: int, chosen: list[int], base: float, cf: int, ex: bool) -> None:
        """``base``: the chosen nodes' values and charges (``count``: their hits per cut)."""
        states[0] += 1
        if states[0] > MAX_STATES:
            raise _Capped
        r = n - len(chosen)
        if r:
            left = sorted([zl[i] for i in inv[pos:]] + zrl[:r])[:r]
            if len(left) < r or base + sum(left) >= best[0]:
                return
        elif base >= best[0]:
            return
        if r == 0 or pos == len(inv):
            room = None if budget is None else budget - cf
            if room is not None and room < 0:
                return
            if r == 0:
                if b.rule and not ex:
                    return
                best[0], best[1] = base, np.array(chosen, dtype=np.int64)
                return
            got = _subset(zr, cr, r, room, er if b.rule and not ex else None)
            if got is None:
                return
            value = base + float(zr[got].sum())
            if value < best[0]:
                best[0], best[1] = value, np.array(chosen + rest[got].tolist(), dtype=np.int64)
            return
        i = int(inv[pos])
        if budget is None or cf + int(cost[i]) <= budget:
            more = 0.0
            for c, k in touch[i]:
                more += sig[c] * ((count[c] + k) // 2 - count[c] // 2)
                count[c] += k
            walk(pos + 1, [*chosen, i], base + zl[i] + more, cf + int(cost[i]),
                 ex or bool(flag[i]))
            for c, k in touch[i]:
                count[c] -= k
        walk(pos + 1, chosen, base, cf, ex)

    try:
        walk(0, [], 0.0, 0, False)
    except _Capped:
        TALLY["capped"] += 1
        return float(z[free].sum()) + float(b.extra[c]), options(free), False
    return best[0] + float(b.extra[c]), options(best[1]), True
