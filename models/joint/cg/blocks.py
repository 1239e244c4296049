"""Blocks of candidate starts of the joint pricing oracle (docs/exact-models.md): per level,
the node values at each start and the sum of the n smallest, a lower bound on the best
window at that start that is exact where the budget and the level rule do not bite."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from instances.errors import LimitError
from models.joint.cg.column import Linear
from models.joint.cg.levels import _Group, _groups
from models.joint.cg.prices import Prices
from models.joint.cg.subsets import search
from models.joint.space import JobSpace
from models.window.knapsack import select

CHUNK = 4096
"""Candidate starts evaluated per numpy block."""


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
        rule = g.exact[opts] if self.rule else None
        try:
            pick = select(z, g.c[opts], self.n, self.budget, rule)
        except LimitError:  # a budget too large for the DP's table (one cell per unit)
            assert self.budget is not None
            pick = search(z, g.c[opts], self.n, self.budget, rule)
        if pick is None:
            return None
        return float(z[pick].sum()) + self.extra[c], tuple(
            sorted(int(g.idx[opts[i]]) for i in pick))


def _ends(form: Linear, ends: str | None) -> str:
    if ends is not None:
        return ends
    return "left" if form.T >= 0 else "right"


def candidate_starts(
    sp: JobSpace, form: Linear, prices: Prices, free_start: bool = True, ends: str = "both"
) -> np.ndarray:
    """Return the union over all levels of the candidate starts (sorted)."""
    if not free_start:
        return np.array(sp.slot_starts, dtype=np.int64)
    parts = [_Group(sp, idx, form, prices, R).breakpoints(ends)
             for R, idx, _ in _groups(sp, form)]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)


def blocks(
    sp: JobSpace,
    form: Linear,
    prices: Prices,
    free_start: bool = True,
    starts: np.ndarray | None = None,
    ends: str | None = "both",
) -> Iterator[Block]:
    """Yield the :class:`Block` s of every level over its candidate starts (both ends of each
    piece; with ``ends`` None only the end where ``a_T·T`` is least), or over ``starts``
    for every level when given."""
    n = sp.n
    aep = np.array(sp.slot_starts, dtype=np.int64)
    side = _ends(form, ends)
    for R, idx, rule in _groups(sp, form):
        if len(idx) < n:
            continue
        g = _Group(sp, idx, form, prices, R)
        T_all = starts if starts is not None else g.breakpoints(side) if free_start else aep
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
