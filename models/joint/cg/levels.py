"""One duration level of a job in the joint pricing oracle (docs/exact-models.md, "Column
generation"): its candidate starts and its node values at them.

For fixed start T and duration level the priced value of a window separates per node, so
each level's options are evaluated as a (starts × nodes) matrix. Over T the value is
piecewise constant plus ``a_T·T``; it changes only where a task enters or leaves its slot
(T = s, e − d + 1), a priced unit time (T = t + 1, t − d + 1) or a cut's interval
(:mod:`models.joint.cg.prices`: T = its first start, last start + 1) or a subset-row
cut's point (k, t) (T = t − d + 1, t + 1: where the task starts or stops covering it)
while the task is alive, so the least value over the integers is at an end of a piece:
both ends are candidates, or only the left (right) end when ``a_T ≥ 0`` (``a_T < 0``).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np

from models.joint.cg.column import Linear
from models.joint.cg.prices import Prices, span
from models.joint.space import JobSpace


@dataclass(frozen=True)
class _Static:
    """A job's options as arrays (slot start s, end e, duration d, cost c, level, exact)."""

    s: np.ndarray
    e: np.ndarray
    d: np.ndarray
    c: np.ndarray
    level: np.ndarray
    exact: np.ndarray
    nodes: list[str]


def _static(sp: JobSpace) -> _Static:
    """Return the job's option arrays, kept on the space while its options list is the same."""
    opts = sp.options
    kept = getattr(sp, "_pricing_static", None)
    if kept is not None and kept[0] is opts and kept[1] == len(opts):
        return kept[2]
    st = _Static(
        s=np.array([o.slot.start for o in opts], dtype=np.int64),
        e=np.array([o.slot.end for o in opts], dtype=np.int64),
        d=np.array([o.d for o in opts], dtype=np.int64),
        c=np.array([o.cost for o in opts], dtype=np.int64),
        level=np.array([o.level for o in opts], dtype=np.int64),
        exact=np.array([o.exact for o in opts], dtype=bool),
        nodes=[o.node for o in opts],
    )
    with contextlib.suppress(AttributeError):  # a space with __slots__: no cache
        object.__setattr__(sp, "_pricing_static", (opts, len(opts), st))
    return st


def _groups(sp: JobSpace, form: Linear) -> list[tuple[int, np.ndarray, bool]]:
    """Return ``(runtime R, option indices, level rule required)`` per duration level."""
    st = _static(sp)
    if sp.square:
        return [(D, np.flatnonzero(st.level == D), True) for D in sp.levels]
    if form.rt == 0:
        return [(0, np.arange(len(st.d)), False)]
    return [(int(R), np.flatnonzero(st.d <= R), form.rt < 0) for R in np.unique(st.d)]


class _Group:
    """The options of one level as arrays, with their node prices."""

    def __init__(
        self, sp: JobSpace, idx: np.ndarray, form: Linear, prices: Prices, R: int
    ) -> None:
        st = _static(sp)
        self.idx, self.R, self.rt, self.all_d = idx, R, form.rt, st.d
        self.s, self.e, self.d, self.c = st.s[idx], st.e[idx], st.d[idx], st.c[idx]
        # square: the level rule; rough: a task of duration R makes R the runtime
        self.exact = st.exact[idx] if sp.square else self.d == R
        self.base = form.pt * self.d + form.cost * self.c
        offset = getattr(sp, "offset", None)  # a branching rule's bonus (models.joint.cg.restrict)
        if offset is not None:
            self.base = self.base + offset[idx]
        self.prices = prices
        nodes = [st.nodes[k] for k in idx]
        names, self.node_of = np.unique(np.array(nodes, dtype=object), return_inverse=True)
        self.names = [str(x) for x in names]
        self.node_of = self.node_of.astype(np.int64).reshape(-1)
        self.k = len(names)
        rank, *_ = prices.flat
        self.rank = np.array([rank.get(x, len(rank)) for x in nodes], dtype=np.int64)
        # the cuts by node: (options on the node, [(a, b, own, η)])
        self.cuts = [(np.flatnonzero(self.node_of == i), cuts) for i, name in enumerate(names)
                     if (cuts := prices.on(name))] if prices.charges else []

    def _cut_points(self) -> np.ndarray:
        """Return each cut's first start and last start + 1 for the options of its node,
        kept where the option is alive (the value in T steps there)."""
        parts = [np.zeros(0, np.int64)]
        for opts, cuts in self.cuts:
            s, last, d = self.s[opts], self.e[opts] - self.d[opts], self.d[opts]
            for a, b, own, _ in cuts:
                lo, hi = (np.broadcast_to(x, d.shape) for x in span(a, b, own, d))
                q = np.concatenate([lo, hi + 1])
                two = np.concatenate([s, s]), np.concatenate([last, last])
                parts.append(q[(q > two[0]) & (q <= two[1])])
        if self.prices.rows:  # a subset-row point (k, t): T = t − d + 1 and t + 1
            at = {name: i for i, name in enumerate(self.names)}
            points = sorted({(at[k], t) for pts, sigma in self.prices.rows if sigma > 0.0
                             for k, t in pts if k in at})
            if points:
                node, t = (np.array(x, dtype=np.int64) for x in zip(*points, strict=True))
                o, p = np.nonzero(self.node_of[:, None] == node[None, :])
                s, last, d = self.s[o], self.e[o] - self.d[o], self.d[o]
                q = np.concatenate([t[p] - d + 1, t[p] + 1])
                two = np.concatenate([s, s]), np.concatenate([last, last])
                parts.append(q[(q > two[0]) & (q <= two[1])])
        return np.concatenate(parts)

    def _charges(self, opt: np.ndarray, T: np.ndarray) -> np.ndarray | float:
        """Return the cuts' charges of the options ``opt`` at the starts ``T``."""
        if not self.cuts:
            return 0.0
        out = np.zeros(len(opt))
        order = np.argsort(self.node_of[opt], kind="stable")
        local = self.node_of[opt][order]
        for opts, cuts in self.cuts:
            i = self.node_of[opts[0]]
            sub = order[np.searchsorted(local, i, "left"):np.searchsorted(local, i, "right")]
            Ts, d = T[sub], self.d[opt[sub]]
            for a, b, own, eta in cuts:
                lo, hi = span(a, b, own, d)
                out[sub] += eta * ((Ts >= lo) & (Ts <= hi))
        return out

    def breakpoints(self, ends: str = "both") -> np.ndarray:
        """Return the sorted candidate starts: ``ends`` "both", "left" or "right" of each piece."""
        if not len(self.s):
            return np.zeros(0, np.int64)
        rank, keys, _, width, _ = self.prices.flat
        last = self.e - self.d
        has = self.rank < len(rank)
        lo = np.searchsorted(keys, self.rank * width - width // 2)
        cnt = np.where(has, np.searchsorted(keys, self.rank * width + width // 2) - lo, 0)
        owner = np.repeat(np.arange(len(self.s)), cnt)
        t = keys[np.repeat(lo, cnt) + _ramp(cnt)] - self.rank[owner] * width
        q = np.concatenate([t + 1, t - self.d[owner] + 1])
        o = np.concatenate([owner, owner])
        q = q[(q > self.s[o]) & (q <= last[o])]  # a price matters while its task is alive
        p = np.unique(np.concatenate([self.s, last + 1, q, self._cut_points()]).astype(np.int64))
        first, final = self.s.min(), last.max()
        if ends == "left":
            cand = np.concatenate([[first], p])
        elif ends == "right":
            cand = np.concatenate([p - 1, [final]])
        else:
            cand = np.concatenate([[first], p, p - 1, [final]])
        return np.unique(cand[(cand >= first) & (cand <= final)])

    def values(self, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return per-node values (C × k, inf where no option is alive) and the option per cell
        at the sorted starts ``T``; each option is evaluated only where it is alive."""
        lo = np.searchsorted(T, self.s, "left")
        cnt = np.maximum(np.searchsorted(T, self.e - self.d, "right") - lo, 0)
        opt = np.repeat(np.arange(len(self.s)), cnt)
        pos = np.repeat(lo, cnt) + _ramp(cnt)
        Tv, d = T[pos], self.d[opt]
        v = self.base[opt] + self.prices.covered(self.rank[opt], Tv, Tv + d)
        v = v + self._charges(opt, Tv)
        cell = pos * self.k + self.node_of[opt]
        order = np.lexsort((opt, v, cell))  # per cell: least value, then first option
        cell, v, opt = cell[order], v[order], opt[order]
        first = np.ones(len(cell), dtype=bool)
        first[1:] = cell[1:] != cell[:-1]
        zn = np.full(len(T) * self.k, np.inf)
        which = np.zeros(len(T) * self.k, dtype=np.int64)
        zn[cell[first]], which[cell[first]] = v[first], opt[first]
        return zn.reshape(len(T), self.k), which.reshape(len(T), self.k)

    def runtime_excess(self, chosen: tuple[int, ...]) -> float:
        """Return ``a_rt·(R − max d)``: how much the level's runtime R overstates a window
        on the options ``chosen`` (indices of the whole space) whose longest task is shorter."""
        return self.rt * (self.R - int(self.all_d[list(chosen)].max())) if self.R else 0.0


def _ramp(cnt: np.ndarray) -> np.ndarray:
    """Return 0..c−1 for each count c, concatenated."""
    total = int(cnt.sum())
    return np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt)
