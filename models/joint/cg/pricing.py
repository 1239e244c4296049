"""The exact pricing oracle of the joint master (docs/exact-models.md): one job's cheapest window.

Given a :class:`Linear` form and non-negative prices ``ρ[k, t]`` on the unit times
``[t, t+1)`` of node k, :func:`price` returns the window of job j minimising
``form(w) + Σ_{tasks (k, T, T+d)} Σ_{T ≤ t < T+d} ρ[k, t]`` over every integer start T
(or the slot starts, AEP space) and both geometries.

For fixed T and duration level the value separates per node, so the best window is the
n-of-m subset problem of :mod:`models.window.knapsack` under the job's budget (with the
square level rule, or rough runtime ``R`` = the largest duration taken when the form
rewards a long runtime). Over T the value is piecewise constant plus ``a_T·T``, so the
least value over the integers is at one end of a piece (:mod:`models.joint.cg.blocks`).
Every candidate start of every level is ranked by the sum of its n smallest node values,
raised where the budget bites by a Lagrangian bound (the budget moved into the values at
a few multipliers λ ≥ 0); the knapsack runs, over all levels in increasing bound, only
while the bound can still beat the best window found, so the oracle is exact.

Subset-row charges (:mod:`models.joint.cg.rowpricing`) couple the nodes: a start whose n
smallest values pay a charge joins the bounded queue with its charge-free value as the
bound, and its exact value comes from :func:`models.joint.cg.rowpricing.exact`.
"""

from __future__ import annotations

import numpy as np

from models.joint.cg.blocks import Block, blocks, candidate_starts
from models.joint.cg.column import Linear
from models.joint.cg.prices import Prices
from models.joint.cg.rowpricing import RowHits
from models.joint.cg.rowpricing import exact as row_exact
from models.joint.space import JobSpace

__all__ = ["Block", "Prices", "blocks", "candidate_starts", "price", "price_many"]

MULTIPLIERS = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Budget multipliers λ, in units of a block's value spread per unit of cost, of the bound."""

Window = tuple[float, int, tuple[int, ...]]


def _budget_bound(b: Block, rows: np.ndarray) -> np.ndarray:
    """Return a lower bound on the best window of each row under the budget S:
    ``max_λ Σ n smallest (z + λ·c) − λ·S`` (weak duality), at least the row's ``low``,
    and inf where even the n cheapest tasks exceed S."""
    z = b.zn[rows]
    c = b.g.c[b.which[rows]].astype(float)
    finite = np.isfinite(z)
    n = b.n
    cheapest = np.partition(np.where(finite, c, np.inf), n - 1, axis=1)[:, :n].sum(axis=1)
    spread = float(np.ptp(z[finite])) if finite.any() else 0.0
    unit = spread / max(float(np.ptp(c[finite])) if finite.any() else 0.0, 1.0)
    out = np.where(cheapest > b.budget, np.inf, b.low[rows])
    if unit <= 0.0:
        return out
    for lam in MULTIPLIERS:
        w = z + (lam * unit) * c
        part = np.partition(w, n - 1, axis=1)[:, :n].sum(axis=1)
        out = np.maximum(out, part - lam * unit * b.budget + b.extra[rows])
    return out


def price_many(
    sp: JobSpace, form: Linear, prices: Prices, k: int, *, free_start: bool = True,
    capped: set[int] | None = None,
) -> list[Window]:
    """Return up to k windows of the job at distinct starts, sorted by priced value.

    Each value is exact and the first is :func:`price`'s (the least window). The others
    are the least among each level's candidate starts (one end per piece of the value in
    T, :mod:`models.joint.cg.blocks`), one per start: over the slot starts (AEP) they are
    the k best starts with their best windows; with free starts a listed start may have a
    better window of another level that is cheapest at a different start.

    Under subset-row charges a start whose search passed its cap
    (:data:`models.joint.cg.rowpricing.MAX_STATES`) gets the charge-free value of its
    returned window, a lower bound on its least value; such starts are added to
    ``capped`` when given.
    """
    if k < 1:
        raise ValueError(f"price_many needs k >= 1, not {k}")
    blist = list(blocks(sp, form, prices, free_start, ends=None))
    easy, hard = [], []
    hits = [RowHits(b, prices.rows) for b in blist] if prices.rows else []
    for i, b in enumerate(blist):
        ok = b.ok & ~hits[i].charged(b) if hits else b.ok
        rows = np.flatnonzero(ok)
        easy += zip(b.low[rows].tolist(), b.T[rows].tolist(), [i] * len(rows), rows.tolist(),
                    strict=True)
        hard.append(np.flatnonzero(~ok & np.isfinite(b.low)))
    easy.sort(key=lambda r: r[0])
    top: dict[int, Window] = {}
    for low, T, i, c in easy:
        if T not in top:
            chosen = blist[i].pick(c)
            top[T] = (low - blist[i].g.runtime_excess(chosen), T, chosen)
            if len(top) == k:
                break

    def threshold() -> float:
        return max(w[0] for w in top.values()) if len(top) == k else float("inf")

    theta = threshold()
    queue = []
    for i, (b, rows) in enumerate(zip(blist, hard, strict=True)):
        rows = rows[b.low[rows] < theta]
        if len(rows) and b.budget is not None:
            bound = _budget_bound(b, rows)
            keep = bound < theta
            rows, bound = rows[keep], bound[keep]
        else:
            bound = b.low[rows]
        queue += zip(bound.tolist(), [i] * len(rows), rows.tolist(), strict=True)
    queue.sort(key=lambda r: r[0])
    for bound, i, c in queue:
        if bound >= theta:
            break
        found = row_exact(blist[i], c, hits[i]) if hits else blist[i].exact(c)
        if found is None or found[0] >= theta:
            continue
        T, value = int(blist[i].T[c]), found[0] - blist[i].g.runtime_excess(found[1])
        if hits and not found[2] and capped is not None:
            capped.add(T)
        if T in top and top[T][0] <= value:
            continue
        top[T] = (value, T, found[1])
        if len(top) > k:
            del top[max(top, key=lambda t: top[t][0])]
        theta = threshold()
    return sorted(top.values(), key=lambda w: (w[0], w[1]))


def price(
    sp: JobSpace, form: Linear, prices: Prices, *, free_start: bool = True
) -> Window | None:
    """Return ``(value, T, option indices)`` of the job's window of least priced value.

    None when the job has no window at all (too few alive nodes or over budget everywhere).
    """
    found = price_many(sp, form, prices, 1, free_start=free_start)
    return found[0] if found else None
