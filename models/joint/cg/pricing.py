"""The exact pricing oracle of the joint master (docs/exact-models.md): one job's cheapest window.

Given a :class:`Linear` form and non-negative prices ``ρ[k, t]`` on the unit times
``[t, t+1)`` of node k, :func:`price` returns the window of job j minimising
``form(w) + Σ_{tasks (k, T, T+d)} Σ_{T ≤ t < T+d} ρ[k, t]`` over every integer start T
(or the slot starts, AEP space) and both geometries.

For fixed T and duration level the value separates per node, so the best window is the
n-of-m subset problem of :mod:`models.window.knapsack` under the job's budget (with the
square level rule, or rough runtime ``R`` = the largest duration taken when the form
rewards a long runtime). Over T the value is piecewise constant plus ``a_T·T``, changing
only where a task enters or leaves a slot (T = s, e − d + 1) or a priced unit time
(T = t + 1, t − d + 1); the minimum over integers is at an end of a piece, so the oracle
evaluates both ends of every piece (p and p − 1 for each breakpoint p) and is exact.
Candidates are ranked by the sum of their n smallest node values (a lower bound), and
the knapsack runs only while that bound can still beat the best window found.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from models.joint.cg.column import Linear
from models.joint.space import JobSpace
from models.window.knapsack import select

CHUNK = 4096
"""Candidate starts evaluated per numpy block."""


@dataclass(frozen=True)
class Prices:
    """Node-time prices: node → (sorted unit times t, prices ρ ≥ 0 of ``[t, t+1)``)."""

    by_node: Mapping[str, tuple[np.ndarray, np.ndarray]]

    def __post_init__(self) -> None:
        for node, (t, rho) in self.by_node.items():
            if len(t) != len(rho) or np.any(np.diff(t) <= 0) or np.any(rho < 0):
                raise ValueError(f"prices of node '{node}' need increasing times and ρ >= 0")

    def prefix(self, node: str) -> tuple[np.ndarray, np.ndarray]:
        """Return ``(times, P)`` with ``P[i]`` the sum of the first i prices of ``node``."""
        t, rho = self.by_node.get(node, (np.zeros(0, np.int64), np.zeros(0)))
        return t, np.concatenate([[0.0], np.cumsum(rho)])


def _groups(sp: JobSpace, form: Linear) -> list[tuple[int, np.ndarray, bool]]:
    """Return ``(runtime R, option indices, level rule required)`` per duration level."""
    d = np.array([o.d for o in sp.options], dtype=np.int64)
    if sp.square:
        level = np.array([o.level for o in sp.options], dtype=np.int64)
        return [(D, np.flatnonzero(level == D), True) for D in sp.levels]
    if form.rt == 0:
        return [(0, np.arange(len(d)), False)]
    return [(int(R), np.flatnonzero(d <= R), form.rt < 0) for R in np.unique(d)]


class _Group:
    """The options of one level as arrays, with their node prices."""

    def __init__(
        self, sp: JobSpace, idx: np.ndarray, form: Linear, prices: Prices, R: int
    ) -> None:
        opts = [sp.options[k] for k in idx]
        self.idx = idx
        self.s = np.array([o.slot.start for o in opts], dtype=np.int64)
        self.e = np.array([o.slot.end for o in opts], dtype=np.int64)
        self.d = np.array([o.d for o in opts], dtype=np.int64)
        self.c = np.array([o.cost for o in opts], dtype=np.int64)
        # square: the level rule; rough: a task of duration R makes R the runtime
        self.exact = np.array([o.exact if sp.square else o.d == R for o in opts], dtype=bool)
        self.nodes = [o.node for o in opts]
        self.base = form.pt * self.d + form.cost * self.c
        offset = getattr(sp, "offset", None)  # a branching rule's bonus (models.joint.cg.restrict)
        if offset is not None:
            self.base = self.base + offset[idx]
        cache = {node: prices.prefix(node) for node in set(self.nodes)}
        self.pref = [cache[node] for node in self.nodes]
        names = sorted(set(self.nodes))
        self.node_of = np.array([names.index(x) for x in self.nodes], dtype=np.int64)
        self.k = len(names)

    def breakpoints(self) -> np.ndarray:
        pts = [self.s, self.e - self.d + 1]
        for (t, _), d in zip(self.pref, self.d, strict=True):
            pts += [t + 1, t - d + 1]
        p = np.unique(np.concatenate(pts)) if pts else np.zeros(0, np.int64)
        both = np.unique(np.concatenate([p, p - 1]))
        lo, hi = (self.s.min(), (self.e - self.d).max()) if len(self.s) else (0, -1)
        return both[(both >= lo) & (both <= hi)]

    def values(self, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return per-node values (C × k, inf where no option is alive) and the option per cell
        at the sorted starts ``T``; each option is evaluated only where it is alive."""
        zn = np.full((self.k, len(T)), np.inf)
        which = np.zeros((self.k, len(T)), dtype=np.int64)
        lo = np.searchsorted(T, self.s, "left")
        hi = np.searchsorted(T, self.e - self.d, "right")
        for o, (t, P) in enumerate(self.pref):
            a, b = int(lo[o]), int(hi[o])
            if a >= b:
                continue
            Tt = T[a:b]
            v = self.base[o] + (P[np.searchsorted(t, Tt + self.d[o])] - P[np.searchsorted(t, Tt)])
            row, rows = zn[self.node_of[o], a:b], which[self.node_of[o], a:b]
            better = v < row
            row[better] = v[better]
            rows[better] = o
        return np.ascontiguousarray(zn.T), np.ascontiguousarray(which.T)


@dataclass
class Block:
    """One block of candidate starts of one level: node values and the n-smallest bound."""

    g: _Group
    T: np.ndarray
    zn: np.ndarray
    which: np.ndarray
    extra: np.ndarray
    top: np.ndarray
    low: np.ndarray
    ok: np.ndarray
    """True where the n smallest values fit the budget and level rule (``low`` is exact)."""
    rule: bool
    n: int
    budget: int | None

    def pick(self, c: int) -> tuple[int, ...]:
        """Return the option indices of the n smallest values of row ``c``."""
        return tuple(sorted(int(self.g.idx[self.which[c, i]]) for i in self.top[c]))

    def exact(self, c: int) -> tuple[float, tuple[int, ...]] | None:
        """Return row ``c``'s least value and options under the budget and level rule."""
        cells = np.flatnonzero(np.isfinite(self.zn[c]))
        opts = self.which[c][cells]
        z = self.zn[c][cells]
        g = self.g
        pick = select(z, g.c[opts], self.n, self.budget, g.exact[opts] if self.rule else None)
        if pick is None:
            return None
        return float(z[pick].sum()) + self.extra[c], tuple(
            sorted(int(g.idx[opts[i]]) for i in pick))


def candidate_starts(
    sp: JobSpace, form: Linear, prices: Prices, free_start: bool = True
) -> np.ndarray:
    """Return the union over all levels of the candidate starts (sorted)."""
    if not free_start:
        return np.array(sp.slot_starts, dtype=np.int64)
    parts = [_Group(sp, idx, form, prices, R).breakpoints() for R, idx, _ in _groups(sp, form)]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)


def blocks(
    sp: JobSpace,
    form: Linear,
    prices: Prices,
    free_start: bool = True,
    starts: np.ndarray | None = None,
) -> Iterator[Block]:
    """Yield the :class:`Block` s of every level over its candidate starts (module docstring),
    or over ``starts`` for every level when given."""
    n = sp.n
    aep = np.array(sp.slot_starts, dtype=np.int64)
    for R, idx, rule in _groups(sp, form):
        if len(idx) < n:
            continue
        g = _Group(sp, idx, form, prices, R)
        T_all = starts if starts is not None else g.breakpoints() if free_start else aep
        for a in range(0, len(T_all), CHUNK):
            T = T_all[a : a + CHUNK]
            zn, which = g.values(T)
            if zn.shape[1] < n:
                continue
            extra = form.rt * R + form.T * T + form.one
            top = np.argpartition(zn, n - 1, axis=1)[:, :n]
            rows = np.arange(len(T))[:, None]
            low = zn[rows, top].sum(axis=1) + extra
            # the n smallest values are the optimum unless the budget or level rule bites
            ok = np.isfinite(low)
            if sp.budget is not None:
                ok &= g.c[which[rows, top]].sum(axis=1) <= sp.budget
            if rule:
                ok &= g.exact[which[rows, top]].any(axis=1)
            yield Block(g, T, zn, which, extra, top, low, ok, rule, n, sp.budget)


def price(
    sp: JobSpace, form: Linear, prices: Prices, *, free_start: bool = True
) -> tuple[float, int, tuple[int, ...]] | None:
    """Return ``(value, T, option indices)`` of the job's window of least priced value.

    None when the job has no window at all (too few alive nodes or over budget everywhere).
    """
    best: tuple[float, int, tuple[int, ...]] | None = None
    for b in blocks(sp, form, prices, free_start):
        if b.ok.any():
            c = int(np.flatnonzero(b.ok)[np.argmin(b.low[b.ok])])
            if best is None or b.low[c] < best[0]:
                best = (float(b.low[c]), int(b.T[c]), b.pick(c))
        hard = np.flatnonzero(~b.ok & np.isfinite(b.low))
        for c in hard[np.argsort(b.low[hard], kind="stable")]:
            if best is not None and b.low[c] >= best[0]:
                break
            found = b.exact(int(c))
            if found is not None and (best is None or found[0] < best[0]):
                best = (found[0], int(b.T[c]), found[1])
    return best
