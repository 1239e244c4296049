"""The n-of-m subset problem under a budget by depth-first branch and bound, for the joint
pricing oracle when the budget is too large for the table of :mod:`models.window.knapsack`
(docs/exact-models.md, "Column generation").

Items are taken in increasing value; a branch is cut when the r smallest values left
cannot beat the best subset found, or when the r cheapest costs left exceed the budget
left. Its work does not grow with the budget (the table does, one cell per unit), only
with the subsets the bounds cannot cut; past :data:`MAX_NODES` it gives up with a
:class:`instances.errors.LimitError`.
"""

from __future__ import annotations

import bisect

import numpy as np

from instances.errors import LimitError
from instances.text import plural

MAX_NODES = 2_000_000
"""Most branches one search may visit."""


def search(
    z: np.ndarray, c: np.ndarray, n: int, budget: int, exact: np.ndarray | None = None
) -> np.ndarray | None:
    """Return the indices of an n-subset of least Σ z with Σ c ≤ ``budget`` (and one item of
    ``exact`` if given), or None when there is none; costs are integers."""
    m = len(z)
    if m < n:
        return None
    order = np.lexsort((c, z))
    zs, cs = z[order].tolist(), [int(x) for x in c[order]]
    ex = exact[order].tolist() if exact is not None else None
    # cheap[k][r]: the r smallest costs among items k.. (r <= n)
    cheap: list[list[int]] = [[0] * (n + 1) for _ in range(m + 1)]
    pool: list[int] = []
    for k in range(m - 1, -1, -1):
        bisect.insort(pool, cs[k])
        run = 0
        for r in range(1, n + 1):
            run += pool[r - 1] if r <= len(pool) else 10**30
            cheap[k][r] = run
    for r in range(1, n + 1):
        cheap[m][r] = 10**30
    later = [False] * (m + 1)  # an exact item at k or later
    for k in range(m - 1, -1, -1):
        later[k] = later[k + 1] or (ex is not None and ex[k])
    cum = np.concatenate([[0.0], np.cumsum(zs)]).tolist()
    best: list[float | list[int] | None] = [float("inf"), None]
    picked: list[int] = []
    visits = [0]

    def walk(k: int, r: int, total: float, spent: int, has: bool) -> None:
        visits[0] += 1
        if visits[0] > MAX_NODES:
            raise LimitError(f"the pricing subset search passed {MAX_NODES:,} branches "
                             f"({plural(m, 'node')}, {plural(n, 'task')}, budget {budget})")
        if r == 0:
            if (ex is None or has) and total < best[0]:
                best[0], best[1] = total, list(picked)
            return
        for i in range(k, m - r + 1):
            if total + cum[i + r] - cum[i] >= best[0]:
                return  # the r smallest values from i on cannot beat the best
            if spent + cheap[i][r] > budget:
                return  # neither can the r cheapest costs from i on fit
            if ex is not None and not has and not later[i]:
                return
            if spent + cs[i] + (cheap[i + 1][r - 1] if r > 1 else 0) > budget:
                continue
            picked.append(i)
            walk(i + 1, r - 1, total + zs[i], spent + cs[i], has or bool(ex and ex[i]))
            picked.pop()

    walk(0, n, 0.0, 0, False)
    if best[1] is None:
        return None
    return np.sort(order[np.array(best[1], dtype=np.int64)])
