"""The cardinality-constrained 0-1 knapsack of docs/algorithms.md (Toporkov & Yemelyanov 2018 §3.3,
recurrence (2)).

Choose exactly n items minimising Σ z subject to Σ c ≤ S (integer costs):

    f_i(b, k) = min( f_{i-1}(b, k),  f_{i-1}(b − c_i, k − 1) + z_i ),
    f_0(b, 0) = 0,  f_0(b, k > 0) = +∞,

(Toporkov & Yemelyanov 2018 maximises; values are negated here), optimum f_m(S, n), chosen
items by backtracking. Each item updates all (k, b) in one numpy operation.
The result is exact; before the recurrence three exact reductions run: the
n best items by z are returned at once if they fit; an item that cannot fit
beside the n − 1 cheapest others is dropped; an item that n others dominate
(no more costly, no worse, earlier on ties) is dropped, since an optimal
subset using it could swap it for one of them. The budget axis is capped at
the cost of the n most costly remaining items.

``must`` (square COORD, see :mod:`planner.heuristics.selectors.dp`) asks for
at least one item of a given subset: the state then gains a layer "has one".
Budget axes longer than :data:`DENSE_CAP` go to the Pareto-state form of
:mod:`planner.heuristics.selectors.pareto` (same optimum).
"""

from __future__ import annotations

import numpy as np

from planner.heuristics.selectors.pareto import pareto

DENSE_CAP = 4096
"""Longest budget axis solved by the dense recurrence."""


def best_n(z: np.ndarray, c: np.ndarray, n: int, must: np.ndarray | None) -> np.ndarray:
    """Return the n items of least z (ties: cheaper, then earlier), budget ignored.

    With ``must``, the worst of them gives way to the best required item if
    none is among them. Its Σ z bounds the step's optimum from below.
    """
    order = np.lexsort((np.arange(len(z)), c, z))
    pick = order[:n]
    if must is not None and not must[pick].any():
        pick = np.append(order[: n - 1], order[np.argmax(must[order])])
    return pick


def _undominated(z: np.ndarray, c: np.ndarray, n: int, must: np.ndarray | None) -> np.ndarray:
    idx = np.arange(len(z))
    weak = (z[:, None] <= z[None, :]) & (c[:, None] <= c[None, :])
    strict = (z[:, None] < z[None, :]) | (c[:, None] < c[None, :]) | (idx[:, None] < idx[None, :])
    dom = weak & strict
    if must is not None:
        dom &= ~(must[None, :] & ~must[:, None])
    return dom.sum(axis=0) < n


def knapsack(
    z: np.ndarray, c: np.ndarray, n: int, budget: int | None, must: np.ndarray | None = None
) -> np.ndarray | None:
    """Return the positions of an optimal n-subset (Σ z minimal, Σ c ≤ budget), or None.

    Parameters
    ----------
    z
        Item values (float), minimised.
    c
        Non-negative integer item costs.
    n
        Subset size (n ≥ 1).
    budget
        The cap S (None: unbounded).
    must
        Optional boolean mask: the subset must contain at least one of these.
    """
    m = len(z)
    if m < n or (must is not None and not must.any()):
        return None
    pick = best_n(z, c, n, must)
    if budget is None or int(c[pick].sum()) <= budget:
        return pick
    cheap = np.sort(c)
    if int(cheap[:n].sum()) > budget:
        return None
    rest = np.where(c <= cheap[n - 1], int(cheap[:n].sum()) - c, int(cheap[: n - 1].sum()))
    keep = c + rest <= budget
    if m <= 512:
        keep &= _undominated(z, c, n, must)
    items = np.flatnonzero(keep)
    if len(items) < n:
        return None
    zs, cs = z[items], c[items]
    ms = must[items] if must is not None else np.zeros(len(items), dtype=bool)
    if must is not None and not ms.any():
        return None
    cap = int(min(budget, np.sort(cs)[-n:].sum()))
    layers = 2 if must is not None else 1
    if cap > DENSE_CAP:
        got = pareto(zs, cs, ms, n, cap, layers)
        return None if got is None else items[np.array(got, dtype=np.int64)]
    f = np.full((layers, n + 1, cap + 1), np.inf)
    f[0, 0, :] = 0.0
    takes = np.zeros((len(items), layers, n, cap + 1), dtype=np.int8)
    for t, (zi, ci) in enumerate(zip(zs.tolist(), cs.tolist(), strict=True)):
        if ci > cap:
            continue
        kmax = min(n, t + 1)
        src = f[:, :kmax, : cap + 1 - ci] + zi
        dst = f[:, 1 : kmax + 1, ci:]
        code = takes[t, :, :kmax, ci:]
        if ms[t]:
            best = np.minimum(src[0], src[-1])
            better = best < dst[-1]
            code[-1][better] = np.where(src[0] <= src[-1], 2, 1)[better]
            np.minimum(dst[-1], best, out=dst[-1])
        else:
            better = src < dst
            code[better] = 1
            np.minimum(dst, src, out=dst)
    layer = layers - 1
    if not np.isfinite(f[layer, n, cap]):
        return None
    chosen: list[int] = []
    k, b = n, cap
    for t in range(len(items) - 1, -1, -1):
        if k == 0:
            break
        code = takes[t, layer, k - 1, b]
        if code:
            chosen.append(int(items[t]))
            if code == 2:
                layer = 0
            k, b = k - 1, b - int(cs[t])
    return np.array(chosen[::-1], dtype=np.int64)
