"""The n-of-m subset problem of docs/algorithms.md (Toporkov et al. 2012 §2.1, Toporkov &
Yemelyanov 2018 §3.3).

Choose exactly n items minimising Σ z subject to Σ c ≤ S (integer costs),
optionally with at least one item from an ``exact`` subset (the square-window
level rule of :mod:`models.window.space`). The recurrence is Toporkov & Yemelyanov 2018's
``f_i(b, k)``; all counts k and budgets b of one item are updated in one numpy
operation, and items dominated by n others are dropped first.
"""

from __future__ import annotations

import numpy as np

from instances.errors import LimitError

MAX_CELLS = 400_000_000
"""Largest backtracking table (items × layers × n × budget) the DP may allocate."""


def _top(z: np.ndarray, c: np.ndarray, n: int, exact: np.ndarray | None) -> np.ndarray:
    order = np.lexsort((c, z))
    pick = order[:n]
    if exact is not None and not exact[pick].any():
        best_exact = next(i for i in order if exact[i])
        pick = np.append(order[: n - 1], best_exact)
    return pick


def _undominated(z: np.ndarray, c: np.ndarray, n: int, exact: np.ndarray | None) -> np.ndarray:
    """Return the mask of items dominated by fewer than n others (ties broken by index)."""
    m = len(z)
    idx = np.arange(m)
    weak = (z[:, None] <= z[None, :]) & (c[:, None] <= c[None, :])
    strict = (z[:, None] < z[None, :]) | (c[:, None] < c[None, :]) | (idx[:, None] < idx[None, :])
    dom = weak & strict  # dom[i, j]: item i dominates item j
    if exact is not None:
        # swapping an exact item for a non-exact one may lose the level rule
        dom &= ~(exact[None, :] & ~exact[:, None])
    return dom.sum(axis=0) < n


def select(
    z: np.ndarray,
    c: np.ndarray,
    n: int,
    budget: int | None,
    exact: np.ndarray | None = None,
) -> np.ndarray | None:
    """Return the indices of an optimal n-subset, or None when none fits the budget.

    Parameters
    ----------
    z
        Item values, minimised (negate to maximise).
    c
        Non-negative integer item costs.
    n
        Subset size.
    budget
        The cap S on Σ c (None: unbounded).
    exact
        Optional mask: the subset must contain at least one of these items.
    """
    m = len(z)
    if m < n or (exact is not None and not exact.any()):
        return None
    pick = _top(z, c, n, exact)
    if budget is None or int(c[pick].sum()) <= budget:
        return pick
    cheap = np.sort(c)
    if int(cheap[:n].sum()) > budget:
        return None
    # an item fits only beside the n-1 cheapest others
    base = np.where(c <= cheap[n - 1], int(cheap[:n].sum()) - c, int(cheap[: n - 1].sum()))
    keep = (c + base <= budget) & _undominated(z, c, n, exact)
    items = np.flatnonzero(keep)
    zs, cs = z[items], c[items]
    ex = exact[items] if exact is not None else None
    unit = int(np.gcd.reduce(cs)) if cs.any() else 1
    if unit > 1:  # Σ c ≤ S  ⇔  Σ c/g ≤ ⌊S/g⌋ when g divides every cost
        cs, budget = cs // unit, budget // unit
    cap = int(min(budget, np.sort(cs)[::-1][:n].sum()))
    layers = 1 if ex is None else 2
    if len(items) * layers * n * (cap + 1) > MAX_CELLS:
        raise LimitError(
            f"the subset DP would need {len(items) * layers * n * (cap + 1):,} table cells, "
            f"above its limit of {MAX_CELLS:,} (budget {budget} in units of {unit}); "
            "use the cpsat or milp solver"
        )
    f = np.full((layers, n + 1, cap + 1), np.inf)
    f[0, 0, :] = 0.0
    takes: list[np.ndarray] = []
    flags = ex.tolist() if ex is not None else [False] * len(zs)
    for zi, ci, ei in zip(zs, cs.tolist(), flags, strict=True):
        take = np.zeros((layers, n, max(cap + 1 - ci, 0)), dtype=np.int8)
        if ci <= cap:
            src = f[:, :-1, : cap + 1 - ci] + zi
            dst = f[:, 1:, ci:]
            if ei:
                # into layer 1 from either layer; layer 0 cannot take an exact item
                from0 = src[0] < dst[1]
                best = np.where(from0, src[0], dst[1])
                from1 = src[1] < best
                take[1] = np.where(from1, 2, np.where(from0, 1, 0))  # 1: from layer 0
                dst[1] = np.minimum(best, src[1])
            else:
                better = src < dst
                take[better] = 2  # 2: from the same layer
                np.minimum(dst, src, out=dst)
        takes.append(take)
    layer = layers - 1
    if not np.isfinite(f[layer, n, cap]):
        return None
    chosen: list[int] = []
    k, b = n, cap
    for i in range(len(items) - 1, -1, -1):
        ci = int(cs[i])
        if k == 0:
            break
        if b < ci:
            continue
        code = takes[i][layer, k - 1, b - ci]
        if code:
            chosen.append(int(items[i]))
            if code == 1:
                layer = 0
            k, b = k - 1, b - ci
    return np.array(chosen[::-1], dtype=np.int64)
