"""max_q written from docs/ alone (docs/algorithms.md, "Knapsack"); see common.py for usage."""

from __future__ import annotations

import sys

from aep import aep
from common import Instance, Job, Slot, Step, budget, main

INF = float("inf")
DENSE_AXIS = 4096
"""The longest budget axis of the dense recurrence; past it, the Pareto form's choice."""


def knapsack(inst: Instance, job: Job, slots: list[Slot], step: Step) -> list[int] | None:
    """The choice at a step: the budget-free best n if it fits, else the subset problem's."""
    n, S = job.n, budget(job)
    items = step.alive  # (cost, read index), in (cost, read index) order
    z = [-slots[i].node.q for _, i in items]
    c = [cost for cost, _ in items]
    best_n = sorted(range(len(items)), key=lambda a: (z[a], c[a], a))[:n]
    if S is None or sum(c[a] for a in best_n) <= S:
        return [items[a][1] for a in best_n]
    if sum(sorted(c)[:n]) > S:
        return None
    pareto = axis(z, c, n, S) > DENSE_AXIS
    chosen = least_costly(z, c, n, S) if pareto else dense(z, c, n, S)
    return None if chosen is None else [items[a][1] for a in chosen]


def axis(z: list[float], c: list[int], n: int, S: int) -> int:
    """The budget axis: S, capped at the total of the n dearest items left after dropping those
    that cannot fit beside the n - 1 cheapest others and (at most 512 items) those that n
    others dominate."""
    m = len(c)
    kept = []
    for a in range(m):
        others = sorted(c[:a] + c[a + 1:])[: n - 1]
        if c[a] + sum(others) > S:
            continue
        if m <= 512:
            dominators = sum(
                1 for b in range(m)
                if b != a and z[b] <= z[a] and c[b] <= c[a]
                and (z[b] < z[a] or c[b] < c[a] or b < a)
            )  # fmt: skip
            if dominators >= n:
                continue
        kept.append(c[a])
    return min(S, sum(sorted(kept)[-n:]))


def dense(z: list[float], c: list[int], n: int, S: int) -> list[int] | None:
    """The recurrence over b = 0..S: a take recorded only when strictly better; trace-back from
    (S, n), last item first."""
    cap = min(S, sum(sorted(c)[-n:]))
    # f[k][b]: least Σz over k items among those seen, costing at most b
    f = [[0.0] * (cap + 1)] + [[INF] * (cap + 1) for _ in range(n)]
    taken = []
    for a in range(len(c)):
        t = [[False] * (cap + 1) for _ in range(n + 1)]
        for k in range(min(n, a + 1), 0, -1):
            row, prev = f[k], f[k - 1]
            for b in range(c[a], cap + 1):
                v = prev[b - c[a]] + z[a]
                if v < row[b]:
                    row[b] = v
                    t[k][b] = True
        taken.append(t)
    if f[n][cap] == INF:
        return None
    chosen, k, b = [], n, cap
    for a in range(len(c) - 1, -1, -1):
        if k == 0:
            break
        if taken[a][k][b]:
            chosen.append(a)
            k, b = k - 1, b - c[a]
    return chosen


def least_costly(z: list[float], c: list[int], n: int, S: int) -> list[int] | None:
    """Among the optimal subsets, the least costly; among those, the one whose last item comes
    first (then the second-to-last, ...). Subsets of k items are kept per exact cost, the best
    value first met (strictly better replaces), items taken in order."""
    g: list[dict[int, tuple[float, tuple[int, ...]]]] = [{0: (0.0, ())}] + [{} for _ in range(n)]
    for a in range(len(c)):
        for k in range(min(n, a + 1), 0, -1):
            for spent, (value, subset) in list(g[k - 1].items()):
                total = spent + c[a]
                if total > S:
                    continue
                v = value + z[a]
                if total not in g[k] or v < g[k][total][0]:
                    g[k][total] = (v, (*subset, a))
    if not g[n]:
        return None
    best = min(g[n].items(), key=lambda kv: (kv[1][0], kv[0]))
    return list(best[1][1])


def q_value(inst: Instance, job: Job, slots: list[Slot], T: int, chosen: list[int]) -> float:
    """−Σq rounded to 9 decimals."""
    return round(-sum(slots[i].node.q for i in chosen), 9)


if __name__ == "__main__":
    sys.exit(main(lambda inst, job: aep(inst, job, knapsack, q_value, exact=True)))
