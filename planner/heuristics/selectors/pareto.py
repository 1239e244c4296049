"""The n-of-m subset problem of docs/algorithms.md over Pareto states, for large budgets.

The dense recurrence of :mod:`knapsack` costs O(m · n · S); with budgets in
the hundreds of thousands (money in cents, ``toporkov2011``) that is too
much. Here each count k (and "has a required item" layer) keeps only its
Pareto-optimal states (cost, value): no other state of the same count is
both no dearer and no worse. Adding item i merges the states of count k − 1
shifted by (c_i, z_i) into count k; a state of count n of least value is an
optimum, and parent pointers give the items. The result is the same optimum
value as the dense recurrence; the work depends on the front sizes, not on S.
"""

from __future__ import annotations

import numpy as np


def _merge(
    old: tuple[np.ndarray, np.ndarray, np.ndarray],
    new: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cost = np.concatenate([old[0], new[0]])
    val = np.concatenate([old[1], new[1]])
    ids = np.concatenate([old[2], new[2]])
    fresh = np.concatenate([np.zeros(len(old[0]), bool), np.ones(len(new[0]), bool)])
    order = np.lexsort((fresh, val, cost))
    cost, val, ids = cost[order], val[order], ids[order]
    prior = np.minimum.accumulate(np.concatenate([[np.inf], val[:-1]]))
    keep = val < prior
    return cost[keep], val[keep], ids[keep]


def pareto(
    z: np.ndarray, c: np.ndarray, must: np.ndarray, n: int, budget: int, layers: int
) -> list[int] | None:
    """Return the positions of an optimal n-subset (Σ z least, Σ c ≤ budget), or None.

    ``layers`` is 2 when at least one item with ``must`` set is required, else 1.
    """
    empty = (np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64))
    fronts = [[empty] * (n + 1) for _ in range(layers)]
    fronts[0][0] = (np.zeros(1, np.int64), np.zeros(1), np.full(1, -1, np.int64))
    item: list[int] = []
    parent: list[int] = []
    for t, (zi, ci, mi) in enumerate(zip(z.tolist(), c.tolist(), must.tolist(), strict=True)):
        for k in range(min(n, t + 1), 0, -1):
            for layer in range(layers):
                sources = [layer] if not mi else ([0, 1] if layer == 1 else [])
                for src in sources:
                    cost, val, ids = fronts[src][k - 1]
                    ok = cost + ci <= budget
                    if not ok.any():
                        continue
                    start = len(item)
                    item.extend([t] * int(ok.sum()))
                    parent.extend(ids[ok].tolist())
                    new = (cost[ok] + ci, val[ok] + zi, np.arange(start, len(item)))
                    fronts[layer][k] = _merge(fronts[layer][k], new)
    cost, val, ids = fronts[layers - 1][n]
    if len(ids) == 0:
        return None
    state = int(ids[np.argmin(val)])
    chosen: list[int] = []
    while state >= 0:
        chosen.append(item[state])
        state = parent[state]
    return chosen[::-1]
